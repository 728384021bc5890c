#pragma once
// The arguments of a traced torch-level call (torch_trace.h), read by position or by keyword as
// its function's Python signature names them (torch/nn/functional.py, torch/_tensor.py); a
// tensor as the engine's tensor for it (torch_calls.h's TensorTable).

#include <engine/engine.h>

#include <cstdint>
#include <string>
#include <vector>

#include "families/torch_calls.h"

namespace planner {

// An argument the engine's operator does not take (a dilation, groups, label smoothing): the
// call is then replayed operator by operator.
struct Unsupported {};

class Arguments {
 public:
  Arguments(const TracedCall& call, TensorTable& tensors) : call_(call), tensors_(tensors) {}

  bool given(std::size_t position, const char* keyword) const;  // and not None
  bool is_tensor(std::size_t position, const char* keyword) const;
  // Each read throws Unsupported for an argument of another kind; a missing one is the default.
  engine::Tensor tensor(std::size_t position, const char* keyword) const;  // none: undefined
  std::vector<engine::Tensor> tensors(std::size_t position, const char* keyword) const;
  double number(std::size_t position, const char* keyword, double fallback) const;
  bool boolean(std::size_t position, const char* keyword, bool fallback) const;
  std::string text(std::size_t position, const char* keyword, std::string fallback) const;
  // One size (repeated: a kernel of 3 is 3 x 3) or a list of them.
  std::vector<std::int64_t> sizes(std::size_t position, const char* keyword,
                                  std::vector<std::int64_t> fallback) const;
  // The call's first result's shape, as traced.
  const std::vector<std::int64_t>& output_shape() const { return call_.outputs.front().shape; }

 private:
  const nlohmann::json* find(std::size_t position, const char* keyword) const;
  engine::Tensor tensor_of(const nlohmann::json& argument) const;

  const TracedCall& call_;
  TensorTable& tensors_;
};

// Throws Unsupported unless `supported`.
void require(bool supported);

// An image operator's pair of sizes, from one or two.
engine::ExpandingArray<2> pair(const std::vector<std::int64_t>& sizes);

// A dim counted from the end where negative, within `dims`.
std::int64_t dimension(std::int64_t dim, std::int64_t dims);

}  // namespace planner
