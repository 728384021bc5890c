#pragma once
// Lab 8 · The whole step. A training loop that is input-bound and does not fit, repaired with
// lesson 9's three tools: DataLoader workers chosen against the Mac's memory, gradient
// accumulation that keeps the large batch's gradient, and a loop that reads its loss only when
// it logs.

#include <cstdint>
#include <functional>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines, datasets, memory
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::torch::utils::data

namespace lab {

// What the runbook's split measured, and what the machine has to spare.
struct LoaderBudget {
  double data_seconds_per_batch = 0;  // iterating the loader alone, in the training process
  double step_seconds = 0;            // the whole step on a batch already on the GPU
  std::uint64_t bytes_per_worker = 0;  // one spawned worker's resident memory
  std::uint64_t free_bytes = 0;  // the machine's memory less the training's and other apps'
};

// The number of DataLoader workers for this loop: enough that the workers together load a
// batch in no more than a step's time, plus one for slack; but never more than fit in
// `free_bytes` (more would make macOS swap, the GPU's memory with it). 0 when the data alone is
// already faster than the step.
std::int64_t choose_workers(const LoaderBudget& budget);

// One optimizer step's gradients from `micro_batches` micro-batches: for each i in
// [0, micro_batches), `loss_of(i)` returns that micro-batch's mean loss; backpropagate it so
// that the gradients left in .grad are those of the mean loss over the whole batch.
void accumulate(const std::function<torch::Tensor(int i)>& loss_of, int micro_batches);

// The training loop: for each batch of `loader` until `steps` steps have run, move the batch to
// mps without blocking and call step(images, labels), which queues a training step and returns
// its loss on the device. After every `log_every` steps, call log(step number, the loss of that
// step). The host reads a loss only then.
void train(py::torch::utils::data::DataLoader& loader, int steps, int log_every,
           const std::function<torch::Tensor(const torch::Tensor& images,
                                             const torch::Tensor& labels)>& step,
           const std::function<void(int step, double loss)>& log);

}  // namespace lab
