// The cpu's convolution backends on a Mac (Note [The cpu's convolution]): PyTorch's macOS arm64
// wheels have NNPACK and no oneDNN, so a batch of 16 or more goes forward through NNPACK and
// backward through slow_conv_dilated2d's loop over the images; other machines price the
// convolution as a matrix product.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "engine/timeline.h"

using engine::Tensor;
namespace F = engine::nn::functional;

namespace {

struct Step {
  std::vector<engine::sim::Span> spans;
  double seconds(const std::string& name) const {
    double total = 0;
    for (const auto& span : spans) {
      if (span.name == name) total += span.duration;
    }
    return total;
  }
  bool ran(const std::string& name) const { return seconds(name) > 0; }
  int launches(const std::string& name) const {
    int count = 0;
    for (const auto& span : spans) count += span.name == name ? 1 : 0;
    return count;
  }
};

// A 3 x 3 convolution of `batch` images of 4 channels, `size` x `size`, with padding `padding`,
// forward and backward on `machine`'s cpu.
Step convolve(const char* machine, std::int64_t batch, std::int64_t padding = 1,
              std::int64_t size = 8, bool input_grad = true) {
  engine::sim::use_machine(machine);
  const Tensor input = engine::randn({batch, 4, size, size}).requires_grad_(input_grad);
  const Tensor weight = engine::randn({6, 4, 3, 3}).requires_grad_(true);
  engine::sim::TimelineRecording recording;
  const Tensor out = F::conv2d(input, weight, F::Conv2dFuncOptions().padding(padding));
  out.sum().backward();
  return {recording.spans()};
}

}  // namespace

TEST_CASE("on a Mac's cpu a batch of 16 goes through NNPACK forward and the dilated loop back") {
  const Step step = convolve("m1-pro-16gb", 16);
  CHECK(step.ran("aten::_nnpack_spatial_convolution"));
  CHECK(step.ran("aten::slow_conv_dilated2d_backward"));
  CHECK_FALSE(step.ran("aten::convolution"));
  CHECK_FALSE(step.ran("aten::convolution_backward"));
}

TEST_CASE("a batch under 16, or padding as wide as the kernel, takes slow_conv2d instead") {
  for (const Step& step : {convolve("m1-pro-16gb", 15), convolve("m1-pro-16gb", 16, 3)}) {
    CHECK(step.ran("aten::convolution"));
    CHECK(step.ran("aten::convolution_backward"));
    CHECK_FALSE(step.ran("aten::_nnpack_spatial_convolution"));
    CHECK_FALSE(step.ran("aten::slow_conv_dilated2d_backward"));
  }
}

TEST_CASE("machines whose PyTorch has oneDNN never take NNPACK") {
  for (const char* machine : {"linux-x86_64", "intel-mac-macos12.0", "rosetta-x86_64"}) {
    CAPTURE(machine);
    const Step step = convolve(machine, 32);
    CHECK(step.ran("aten::convolution"));
    CHECK_FALSE(step.ran("aten::_nnpack_spatial_convolution"));
  }
}

TEST_CASE("im2col and col2im run on one core: twice the cores speed up NNPACK, not them") {
  // 64 x 64 images: the backward's columns (16 x 36 x 4096 elements) outweigh its products
  const Step pro = convolve("m1-pro-16gb", 16, 1, 64);
  const double op = engine::sim::machine().cpu_op_seconds;
  const double hz = engine::sim::machine().cpu_core_hz;
  const Step ultra = convolve("m1-ultra-64gb", 16, 1, 64);  // the same clock, twice the cores
  REQUIRE(engine::sim::machine().cpu_core_hz == hz);
  // NNPACK's forward on 8 and 16 cores, 15 % of its work serial (Amdahl's law)
  const auto speedup = [](double cores) { return 1 / (0.15 + 0.85 / cores); };
  CHECK(ultra.seconds("aten::_nnpack_spatial_convolution") - op ==
        doctest::Approx((pro.seconds("aten::_nnpack_spatial_convolution") - op) * speedup(8) /
                        speedup(16)));
  // the backward: its im2col and col2im cost the same on both, 1.15 and 0.93 cycles an element
  const double columns = 16.0 * (4 * 3 * 3) * (64 * 64);
  const double one_core_loops = 2 * op + columns * (1.15 + 0.93) / hz;
  const double backward = pro.seconds("aten::slow_conv_dilated2d_backward");
  CHECK(backward > one_core_loops);
  CHECK(backward < 1.25 * one_core_loops);  // the products: two Accelerate calls an image
  CHECK(ultra.seconds("aten::slow_conv_dilated2d_backward") ==
        doctest::Approx(backward).epsilon(0.1));
}

TEST_CASE("a first layer, whose input needs no gradient, skips the input's product and col2im") {
  // convolution_backward's output_mask: the dilated loop's four pieces become two, and
  // slow_conv2d's two products one
  CHECK(convolve("m1-pro-16gb", 16).launches("aten::slow_conv_dilated2d_backward") == 4);
  CHECK(convolve("m1-pro-16gb", 16, 1, 8, false).launches("aten::slow_conv_dilated2d_backward") ==
        2);
  CHECK(convolve("m1-pro-16gb", 8).launches("aten::convolution_backward") == 2);
  CHECK(convolve("m1-pro-16gb", 8, 1, 8, false).launches("aten::convolution_backward") == 1);
}
