#pragma once
// The replay of a traced step's torch-level calls through the engine's own operators
// (torch_calls.cpp): F.linear as the engine's linear, Tensor.view as its reshape, and so on, so
// that a traced model is priced, placed and counted in memory exactly as the families' are.

#include <engine/engine.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "families/torch_trace.h"

namespace planner {

// The engine's tensor for each of the trace's, by id. A tensor first met as an argument (a
// module's plain tensor attribute, made before the step) is made then, on the device, as a
// buffer would be.
class TensorTable {
 public:
  TensorTable(const Trace& trace, engine::Device device) : trace_(trace), device_(device) {}
  engine::Device device() const { return device_; }
  engine::Tensor get(std::int64_t id);
  engine::Tensor get(const TracedTensor& traced) { return get(traced.id); }
  void bind(const TracedTensor& traced, engine::Tensor tensor);
  // Lets go of a tensor the rest of the step does not use, as Python drops its last reference.
  void drop(std::int64_t id) { tensors_.erase(id); }

 private:
  const Trace& trace_;
  engine::Device device_;
  std::unordered_map<std::int64_t, engine::Tensor> tensors_;
};

// The engine's dtype for a traced one: float32, the integers as int64, bool; others (float16,
// float64) as float32, which the engine computes in.
engine::ScalarType engine_dtype(const std::string& dtype);

// The call's outputs computed by the engine's operator for it, where the engine has one for
// this function and these arguments, and its outputs have the traced shapes; else nothing
// (the call's ATen operators are then replayed one by one).
std::optional<std::vector<engine::Tensor>> run_on_engine(const TracedCall& call,
                                                         TensorTable& tensors);

}  // namespace planner
