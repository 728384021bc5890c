#pragma once
// Lab 3 · Placement. A training step written on a Linux box, where everything ran on the cpu,
// moved to a Mac. Repair it so that it trains on the device it is given and, with the same seed,
// computes the same loss as lesson 3's recipe.

#include <cstdint>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

struct StepResult {
  double loss = 0;       // the step's loss, read on the host
  torch::Tensor weight;  // the model's weight after the optimizer step
  torch::Tensor logits;  // what the forward pass returned
};

// One SGD step (learning rate 0.1) of lesson 3's classifier on `device`, seeded with `seed`:
// manual_seed(seed), then the model (Linear(768, 3)), then a batch of 4 reports of 32 tokens
// of 768 features drawn with randn on the cpu (the model first, as in lesson 3, so the same seed
// draws the same numbers), the reports averaged over their tokens, the labels {0, 2, 1, 0},
// cross-entropy, backward, step.
StepResult train_one_step(torch::Device device, std::uint64_t seed);

}  // namespace lab
