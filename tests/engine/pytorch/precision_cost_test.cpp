// What a kernel's dtype does to its simulated time (Note [Precision on Apple GPUs]): half
// precision halves the bytes everywhere, but an Apple GPU computes float16 at float32's rate, and
// bfloat16 slower on the M1 and M2, which emulate it; the cpu's products leave Accelerate for any
// dtype but float32 and float64.

#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "engine/engine.h"
#include "test_support.h"

namespace {

using engine::Tensor;

// The simulated seconds `op` takes, its queue drained before and after, after one untimed run
// (the warm-up builds its kernels).
double seconds_of(const std::function<void()>& op) {
  const auto once = [&] {
    engine::mps::synchronize();
    const double start = engine::py::time::perf_counter();
    op();
    engine::mps::synchronize();
    return engine::py::time::perf_counter() - start;
  };
  once();
  return once();
}

// One (n x n) @ (n x n) product in `dtype` on `device`.
double product_seconds(const std::string& machine, const std::string& device,
                       engine::ScalarType dtype, std::int64_t n) {
  engine::sim::use_machine(machine);
  const engine::sim::ShapeOnlyGuard shape_only;
  const Tensor a =
      engine::zeros({n, n}, engine::TensorOptions(engine::Device(device)).dtype(dtype));
  return seconds_of([&] { static_cast<void>(a.matmul(a)); });
}

// An elementwise kernel over `n` elements of `dtype` on mps.
double add_seconds(const std::string& machine, engine::ScalarType dtype, std::int64_t n) {
  engine::sim::use_machine(machine);
  const engine::sim::ShapeOnlyGuard shape_only;
  const Tensor a = engine::zeros({n}, engine::TensorOptions(engine::Device("mps")).dtype(dtype));
  return seconds_of([&] { static_cast<void>(a + a); });
}

}  // namespace

TEST_CASE("an Apple GPU computes a large product in float16 as fast as in float32, no faster") {
  for (const std::string machine : {"m1-8gb", "m3-max-64gb"}) {
    CAPTURE(machine);
    const double single = product_seconds(machine, "mps", engine::kFloat32, 8192);
    const double half = product_seconds(machine, "mps", engine::kFloat16, 8192);
    CHECK(half <= single * (1 + 1e-9));  // equal but for the clocks' last bits
    CHECK(half > 0.9 * single);          // arithmetic-bound: half the bytes barely matter
  }
}

TEST_CASE("bfloat16 products are slower on the M1, which emulates it, than on the M3") {
  const double m1 = product_seconds("m1-8gb", "mps", engine::kBFloat16, 8192) /
                    product_seconds("m1-8gb", "mps", engine::kFloat32, 8192);
  const double m3 = product_seconds("m3-max-64gb", "mps", engine::kBFloat16, 8192) /
                    product_seconds("m3-max-64gb", "mps", engine::kFloat32, 8192);
  CHECK(m1 > 1.6);  // 1 / 0.55 of float32's time
  CHECK(m3 < 1.05);
}

TEST_CASE("a memory-bound kernel in half precision moves half the bytes, so takes about half") {
  const double single = add_seconds("m3-max-64gb", engine::kFloat32, 1 << 26);
  const double half = add_seconds("m3-max-64gb", engine::kFloat16, 1 << 26);
  CHECK(half < 0.6 * single);
  CHECK(half > 0.4 * single);
}

TEST_CASE("on an Apple cpu a float16 product leaves Accelerate and runs slower than float32") {
  const double single = product_seconds("m3-max-64gb", "cpu", engine::kFloat32, 2048);
  const double half = product_seconds("m3-max-64gb", "cpu", engine::kFloat16, 2048);
  CHECK(half > 2 * single);
}
