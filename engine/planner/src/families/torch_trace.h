#pragma once
// A training step of the learner's PyTorch model as python/trace_model.py traced it on the meta
// device: its parameters, buffers and batch, the torch-level calls of its forward pass, every
// ATen operator of each phase, and its optimizer. Read from the tracer's JSON and checked
// against the planner's limits (torch_trace.cpp).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace planner {

struct TracedTensor {
  std::int64_t id = 0;  // the same tensor has the same id everywhere in a trace
  std::vector<std::int64_t> shape;
  std::string dtype;  // "float32", "int64", as PyTorch names them without "torch."
};

struct TracedParameter {
  TracedTensor tensor;
  std::string name;  // "features.0.weight"
  bool requires_grad = true;
};

// A torch-level call of the forward pass (F.linear, Tensor.view): what the replay runs through
// the engine's own operators where the engine has them.
struct TracedCall {
  std::string function;                // "torch.nn.functional.linear"
  std::string module;                  // "features.0"
  nlohmann::json arguments, keywords;  // a tensor as {"tensor": id}
  std::vector<TracedTensor> outputs;
};

struct TracedOp {
  std::string op;     // "aten::addmm"
  std::string phase;  // "forward", "backward", "optimizer"
  std::string module;
  std::optional<std::size_t> call;  // the torch-level call it came from, in the forward pass
  std::vector<TracedTensor> inputs, outputs;
};

struct TracedOptimizerGroup {
  std::vector<std::int64_t> parameters;  // ids
  double momentum = 0, weight_decay = 0, beta1 = 0.9, beta2 = 0.999;
};

struct Trace {
  std::string file, torch, python, model;  // lenet5.py, 1.13.0, 3.11.2, LeNet5
  std::int64_t batch_size = 0;
  std::unordered_map<std::int64_t, TracedTensor> tensors;  // every tensor of the step, by id
  std::vector<TracedParameter> parameters;
  std::vector<TracedParameter> buffers;  // requires_grad false
  std::vector<TracedTensor> inputs;
  std::optional<TracedTensor> targets;
  TracedTensor loss;
  std::string optimizer;                 // "SGD", "AdamW"
  std::optional<double> clip_grad_norm;  // the gradients' norm clipped to before the step
  std::vector<TracedOptimizerGroup> groups;
  std::vector<TracedCall> calls;
  std::vector<TracedOp> ops;

  std::int64_t count(std::string_view phase) const;   // operators in that phase
  const TracedTensor& tensor(std::int64_t id) const;  // throws std::out_of_range for a stranger
};

// The trace in `text`, the tracer's JSON; a ConfigError naming `source` where it is not one, or
// holds a tensor or a forward pass larger than the planner takes (size_limits.h).
Trace read_trace(std::string_view text, const std::string& source);

}  // namespace planner
