// Loss scaling as torch.amp.GradScaler does it on mps (torch/amp/grad_scaler.py, the Metal kernels
// of Amp.mm): 65536 to start, a skipped step and half the scale after an infinite gradient,
// twice the scale after growth_interval good steps, and PyTorch's texts for misuse.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "engine/amp.h"
#include "engine/autocast.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;
using engine::py::torch::amp::GradScaler;
using test_support::error_of;

namespace {

struct Model {
  engine::nn::Linear layer{4, 1};
  Model() { layer->to(Device("mps")); }
  Tensor loss(const Tensor& x) {
    const engine::py::torch::autocast region("mps");
    return layer(x).sum();
  }
};

}  // namespace

TEST_CASE("a GradScaler backs off from 65536 until float16 gradients fit, then unscales them") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(0);
  Model model;
  engine::optim::SGD sgd(model.layer->parameters(), engine::optim::SGDOptions(0.1));
  GradScaler scaler("mps");
  const Tensor x = engine::randn({3, 4}, Device("mps"));
  // The bias's float16 gradient is 3 x the scale: past 65504, infinity, until the scale is 16384.
  std::vector<double> scales;
  for (int iteration = 0; iteration < 3; ++iteration) {
    sgd.zero_grad();
    scales.push_back(scaler.get_scale());
    scaler.scale(model.loss(x)).backward();
    scaler.unscale_(sgd);
    if (iteration == 2) {
      CHECK(model.layer->bias.grad().cpu().item<float>() == 3.0f);  // unscaled exactly
      CHECK(error_of([&] { scaler.unscale_(sgd); }) ==
            "unscale_() has already been called on this optimizer since the last update().");
    }
    const float bias = model.layer->bias.cpu().item<float>();
    scaler.step(sgd);
    CHECK(model.layer->bias.cpu().item<float>() == (iteration < 2 ? bias : bias - 0.1f * 3.0f));
    scaler.update();
  }
  CHECK(scales == std::vector<double>{65536, 32768, 16384});
  CHECK(scaler.get_scale() == 16384.0);  // one good step of 2000
}

TEST_CASE("an infinite gradient skips the step and halves the scale") {
  engine::sim::use_machine("m3-max-64gb");
  Model model;
  engine::optim::SGD sgd(model.layer->parameters(), engine::optim::SGDOptions(0.1));
  GradScaler scaler("mps");
  scaler.scale(model.loss(engine::randn({3, 4}, Device("mps")))).backward();
  model.layer->bias.set_grad(
      engine::full({1}, std::numeric_limits<double>::infinity()).to(Device("mps")));
  const std::vector<float> before = model.layer->weight.to_vector<float>();
  scaler.step(sgd);
  CHECK(model.layer->weight.to_vector<float>() == before);
  CHECK(error_of([&] { scaler.step(sgd); }) ==
        "step() has already been called since the last update().");
  scaler.update();
  CHECK(scaler.get_scale() == 32768.0);
}

TEST_CASE("in a what-if run, whose gradients have no values, the scaler steps the optimizer") {
  engine::sim::use_machine("m3-max-64gb");
  const engine::sim::ShapeOnlyGuard shape_only;
  Model model;
  engine::optim::Adam adam(model.layer->parameters(), engine::optim::AdamOptions(0.1));
  GradScaler scaler("mps");
  scaler.scale(model.loss(engine::randn({3, 4}, Device("mps")))).backward();
  scaler.unscale_(adam);
  const std::int64_t before = engine::py::torch::mps::current_allocated_memory();
  scaler.step(adam);
  CHECK(engine::py::torch::mps::current_allocated_memory() > before);  // Adam's state, made
  scaler.update();
}

TEST_CASE("the scale doubles after growth_interval good steps, and never overflows float32") {
  engine::sim::use_machine("m3-max-64gb");
  Tensor scale = engine::full({}, 2.0f), tracker = engine::full({}, 0, engine::kInt32);
  const Tensor clean = engine::zeros({}), found = engine::ones({});
  engine::_amp_update_scale_(scale, tracker, clean, 2.0, 0.5, 2);
  CHECK(scale.item<float>() == 2.0f);
  CHECK(tracker.item<std::int64_t>() == 1);
  engine::_amp_update_scale_(scale, tracker, clean, 2.0, 0.5, 2);
  CHECK(scale.item<float>() == 4.0f);
  CHECK(tracker.item<std::int64_t>() == 0);
  engine::_amp_update_scale_(scale, tracker, found, 2.0, 0.5, 2);
  CHECK(scale.item<float>() == 2.0f);
  scale.fill_(std::numeric_limits<float>::max());
  engine::_amp_update_scale_(scale, tracker, clean, 2.0, 0.5, 1);
  CHECK(scale.item<float>() == std::numeric_limits<float>::max());
}

TEST_CASE("a GradScaler for cuda disables itself where there is no CUDA, as PyTorch's does") {
  engine::sim::use_machine("m3-max-64gb");
  test_support::CaptureStderr warnings;
  GradScaler scaler;
  CHECK_FALSE(scaler.is_enabled());
  CHECK(scaler.get_scale() == 1.0);
  CHECK(warnings.text() ==
        "UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
        "Disabling.\n");
  CHECK(error_of([] { GradScaler("mps", 65536.0, 1.0); }) == "The growth factor must be > 1.0.");
  GradScaler mps("mps");
  engine::optim::SGD sgd({engine::ones({1}).requires_grad_()}, engine::optim::SGDOptions(0.1));
  CHECK(error_of([&] { mps.step(sgd); }) ==
        "Attempted step but _scale is None.  This may indicate your script did not use "
        "scaler.scale(loss or outputs) earlier in the iteration.");
}
