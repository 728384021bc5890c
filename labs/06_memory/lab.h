#pragma once
// Lab 6 · Memory. Two of lesson 6's practices as code: the batch sweep that finds the largest
// batch a machine trains without swapping or running out of memory, and the epoch-by-epoch
// memory check that catches a loop keeping tensors alive, with its fix.

#include <cstdint>
#include <functional>
#include <vector>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

// The largest batch, a power of two, that trains on this machine without swapping or running
// out of MPS memory. `train_step(reports)` runs one training step on mps with a batch of that
// many reports, starting from an empty cache; it throws torch::Error when the allocator refuses.
// Swapping shows as the time per report jumping (lesson 6's sweep).
std::int64_t largest_batch(const std::function<void(std::int64_t reports)>& train_step);

// How much the memory grew from the first epoch to the last: {100, 110, 130} -> 0.30 (30 %).
double memory_growth(const std::vector<std::int64_t>& driver_bytes_per_epoch);

struct EpochLog {
  std::vector<std::int64_t> driver_bytes;   // driver_allocated_memory() after each epoch's empty_cache()
  std::vector<torch::Tensor> kept_vectors;  // every step's report vectors, for later analysis
};

// Lesson 6's loop: `epochs` epochs of `steps` training steps of the classifier on mps, keeping
// each step's report vectors (32, 768) for later analysis. Its memory grows every epoch; fix it.
EpochLog train_and_keep_vectors(int epochs, int steps);

}  // namespace lab
