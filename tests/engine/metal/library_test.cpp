// A library compiled from source: its kernels, how each binds its buffers, and the seed's
// kernel filling a buffer.

#include <doctest/doctest.h>

#include "metal_test_support.h"

using engine::metal::Library;
using metal_test::Buffer;

namespace {

// Seed 002's example, as torch.mps.compile_shader's documentation gives it.
constexpr std::string_view kFull = R"(
kernel void full(
    device float* out,
    constant float& val,
    uint idx [[thread_position_in_grid]]
) {
    out[idx] = val;
}
)";

}  // namespace

TEST_CASE("the seed's kernel fills every element with the value bound at buffer 1") {
  Buffer out = Buffer::zeros<float>(16);
  Buffer val = Buffer::of<float>({3.14f});
  metal_test::run_1d(kFull, "full", {&out, &val}, 16, 16);
  CHECK(out.values<float>() == std::vector<float>(16, 3.14f));
}

TEST_CASE("a library lists its kernels in source order, and not its helper functions") {
  const auto library = Library::compile(R"(
    #include <metal_stdlib>
    using namespace metal;
    float twice(float x) { return 2 * x; }
    kernel void b(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = twice(x[i]); }
    [[kernel]] void a(device float* x, uint i [[thread_position_in_grid]]) { x[i] = 0; }
  )");
  CHECK(library.function_names() == std::vector<std::string>{"b", "a"});
  CHECK(library.find_kernel("twice") == nullptr);
  CHECK(library.find_kernel("a") != nullptr);
}

TEST_CASE("buffers take their index from their position among buffers, or from [[buffer(n)]]") {
  const auto library = Library::compile(R"(
    kernel void k(device float* out, uint i [[thread_position_in_grid]],
                  constant float& scale, const device half* in [[buffer(5)]]) { out[i] = scale * in[i]; }
  )");
  const auto& buffers = library.find_kernel("k")->buffers();
  REQUIRE(buffers.size() == 3);
  CHECK(buffers[0].index == 0);
  CHECK(buffers[0].declaration == "device float *out");
  CHECK(buffers[0].writable);
  CHECK(buffers[1].index == 1);
  CHECK(buffers[1].declaration == "constant float &scale");
  CHECK(buffers[1].single);
  CHECK_FALSE(buffers[1].writable);
  CHECK(buffers[2].index == 5);
  CHECK(buffers[2].element.name() == "half");
  CHECK_FALSE(buffers[2].writable);
}
