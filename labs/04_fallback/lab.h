#pragma once
// Lab 4 · Fallback. Lesson 4's bag classifier falls back to the cpu twice every training step:
// nn::EmbeddingBag's operators have no MPS kernel in PyTorch 2.9. Find every operator that falls
// back, then rewrite the lookup with operators that have MPS kernels and the same results.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

// Lesson 4's classifier: each report's tokens looked up in a table and averaged (EmbeddingBag
// in mean mode), then a linear head with three outputs.
struct BagClassifier {
  BagClassifier(std::int64_t vocabulary, std::int64_t width) : bag(vocabulary, width), head(width, 3) {}
  torch::nn::EmbeddingBag bag;
  torch::nn::Linear head;

  std::vector<torch::Tensor> parameters() const { return {bag->weight, head->weight, head->bias}; }
  void to(torch::Device device) {
    bag->to(device);
    head->to(device);
  }
};

// Runs `one_step` in a fresh simulated process on this machine, started with
// PYTORCH_ENABLE_MPS_FALLBACK=1, and returns the name of every operator that fell back to the
// cpu, sorted ("aten::..."). `one_step` builds what it needs itself: a new process starts empty.
std::vector<std::string> operators_that_fall_back(const std::function<void()>& one_step);

// What model.bag(token_ids) computes, each report's mean of its tokens' rows of
// model.bag->weight, with operators that have MPS kernels. token_ids: (reports, tokens), int64,
// on the model's device; the result: (reports, width), differentiable with respect to the table.
torch::Tensor report_vectors(const BagClassifier& model, const torch::Tensor& token_ids);

}  // namespace lab
