// The independent check of DESIGN.md section 9: kernels (shim/kernels.metal) run by the emulator
// and, compiled as C++ through a shim header (shim/metal_stdlib), run thread by thread on the
// host; both must give the same bits.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "metal_test_support.h"

// The kernels as C++, in a namespace of their own; the shim first, outside it, so that its
// standard headers are not (its #pragma once makes the kernels' own include a no-op).
#include "shim/metal_stdlib"
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-attributes"
#else
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
namespace as_cpp {
#include "shim/kernels.metal"
}  // namespace as_cpp
#if defined(__clang__)
#pragma clang diagnostic pop
#else
#pragma GCC diagnostic pop
#endif
#undef kernel
#undef device
#undef constant
#undef thread

using metal_test::Buffer;

namespace {

std::string kernels_source() {
  std::ifstream in(TUTOR_SOURCE_DIR "/tests/engine/metal/shim/kernels.metal");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<float> ramp(std::size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale + offset;
  return v;
}

}  // namespace

TEST_CASE("saxpy with a guard: the emulator and the C++ compiler agree to the bit") {
  const std::size_t n = 100;
  std::vector<float> x = ramp(n, 0.37f, -3.1f), y = ramp(n, -0.11f, 2.5f);
  float a = 1.7f;
  std::uint32_t count = 97;
  Buffer bx = Buffer::of(x), by = Buffer::of(y), ba = Buffer::of<float>({a}),
         bn = Buffer::of<std::uint32_t>({count});
  metal_test::run_1d(kernels_source(), "saxpy", {&bx, &by, &ba, &bn}, 128, 32);
  for (std::uint32_t i = 0; i < 128; ++i) as_cpp::saxpy(x.data(), y.data(), a, count, i);
  CHECK(by.values<float>() == y);
}

TEST_CASE("loops, integer wrapping, a helper and float arithmetic agree with C++ to the bit") {
  const std::size_t n = 70;
  std::vector<float> f = ramp(n, 0.031f, -1.0f);
  std::vector<int> steps(n);
  std::vector<float> poly(n);
  std::vector<std::uint32_t> hash(n);
  Buffer bf = Buffer::of(f), bs = Buffer::of(steps), bp = Buffer::of(poly), bh = Buffer::of(hash);
  metal_test::run_1d(kernels_source(), "mixed", {&bf, &bs, &bp, &bh}, n, 64);
  for (std::uint32_t i = 0; i < n; ++i)
    as_cpp::mixed(f.data(), steps.data(), poly.data(), hash.data(), i);
  CHECK(bs.values<int>() == steps);
  CHECK(bp.values<float>() == poly);
  CHECK(bh.values<std::uint32_t>() == hash);
}

TEST_CASE("a two-dimensional matrix product agrees with C++ to the bit") {
  const std::uint32_t m = 9, k = 13, cols = 7;
  std::vector<float> a = ramp(m * k, 0.013f, -0.4f), b = ramp(k * cols, -0.021f, 0.9f), c(m * cols);
  Buffer ba = Buffer::of(a), bb = Buffer::of(b), bc = Buffer::of(c);
  Buffer bk = Buffer::of<std::uint32_t>({k}), bn = Buffer::of<std::uint32_t>({cols});
  metal_test::run(kernels_source(), "matmul", {&ba, &bb, &bc, &bk, &bn}, {cols, m, 1}, {4, 4, 1});
  std::uint32_t k_size = k, n_size = cols;
  for (std::uint32_t y = 0; y < m; ++y) {
    for (std::uint32_t x = 0; x < cols; ++x)
      as_cpp::matmul(a.data(), b.data(), c.data(), k_size, n_size, {x, y});
  }
  CHECK(bc.values<float>() == c);
}
