// torch.nn.functional.embedding_bag (aten/src/ATen/native/EmbeddingBag.cpp) for 2-D inputs:
// the rows a bag's indices pick, summed or averaged. None of its forward operators nor its
// backward one has an MPS kernel in PyTorch 2.9, so they go through the cpu fallback on mps.

#include <algorithm>
#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "mps/fallback.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

enum class Reduction { Sum, Mean };

// The bags' reduced rows, on the device of `indices` and `weight` (the cpu, in a fallback).
Tensor bag_rows(const char* op, const Tensor& indices, const Tensor& weight, Reduction mode) {
  const std::int64_t bags = indices.size(0), per_bag = indices.size(1), rows = weight.size(0),
                     dim = weight.size(1);
  Tensor out = detail::allocate({bags, dim}, ScalarType::Float, weight.device(),
                                detail::have_values({&indices, &weight}));
  detail::launch({.name = op,
                  .kind = detail::OpKind::Gather,
                  .bytes = detail::nbytes(indices) +
                           4.0 * static_cast<double>(bags * per_bag * dim) + detail::nbytes(out)},
                 weight.device());
  if (!out.impl().has_values()) return out;
  const std::int64_t* idx = indices.impl().data<std::int64_t>();
  const float* table = weight.impl().data<float>();
  float* dst = out.impl().data<float>();
  const float scale =
      mode == Reduction::Mean && per_bag > 0 ? 1.0f / static_cast<float>(per_bag) : 1.0f;
  for (std::int64_t b = 0; b < bags; ++b) {
    for (std::int64_t j = 0; j < dim; ++j) dst[b * dim + j] = 0;
    for (std::int64_t i = 0; i < per_bag; ++i) {
      const std::int64_t row = idx[b * per_bag + i];
      if (row < 0 || row >= rows) throw IndexError("index out of range in self");
      for (std::int64_t j = 0; j < dim; ++j) dst[b * dim + j] += table[row * dim + j];
    }
    for (std::int64_t j = 0; j < dim; ++j) dst[b * dim + j] *= scale;
  }
  return out;
}

// The gradient of the weight: each bag's output gradient, scaled as the forward scaled, added
// into every row the bag picked.
Tensor bag_rows_backward(const Tensor& grad, const Tensor& indices, std::int64_t rows,
                         Reduction mode) {
  const std::int64_t bags = indices.size(0), per_bag = indices.size(1), dim = grad.size(1);
  Tensor out = detail::allocate({rows, dim}, ScalarType::Float, grad.device(),
                                detail::have_values({&grad, &indices}));
  detail::launch({.name = "aten::_embedding_bag_dense_backward",
                  .kind = detail::OpKind::Gather,
                  .bytes = detail::nbytes(indices) +
                           4.0 * static_cast<double>(bags * per_bag * dim) + detail::nbytes(out)},
                 grad.device());
  if (!out.impl().has_values()) return out;
  const std::int64_t* idx = indices.impl().data<std::int64_t>();
  const float* g = grad.impl().data<float>();
  float* dst = out.impl().data<float>();
  std::fill_n(dst, rows * dim, 0.0f);
  const float scale =
      mode == Reduction::Mean && per_bag > 0 ? 1.0f / static_cast<float>(per_bag) : 1.0f;
  for (std::int64_t b = 0; b < bags; ++b) {
    for (std::int64_t i = 0; i < per_bag; ++i) {
      const std::int64_t row = idx[b * per_bag + i];
      for (std::int64_t j = 0; j < dim; ++j) dst[row * dim + j] += g[b * dim + j] * scale;
    }
  }
  return out;
}

}  // namespace

// No device check runs before the operator is reached: with any input on mps it has no kernel,
// and the cpu fallback (when enabled) brings its result to the first argument's device, the
// weight's (aten::_embedding_bag(weight, indices, offsets, ...), CPUFallback.cpp). A weight
// that needs no gradient takes the forward-only operator, as at::embedding_bag chooses it.
Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                     const EmbeddingBagFuncOptions& options) {
  const Reduction mode =
      std::holds_alternative<enumtype::kSum>(options.mode()) ? Reduction::Sum : Reduction::Mean;
  if (input.scalar_type() != ScalarType::Long) {
    throw Error(
        "Expected tensor for argument #1 'indices' to have one of the following scalar "
        "types: Long, Int; but got " +
        detail::type_name_in_errors(input) +
        " instead (while checking arguments for embedding_bag)");
  }
  if (input.dim() != 2)
    throw ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension " +
                     std::to_string(input.dim()));
  if (weight.scalar_type() != ScalarType::Float) {  // the fallback lesson's op: no other dtype
    throw Error("the course engine computes embedding_bag on float32 weights only, got " +
                std::string(python_dtype_name(weight.scalar_type())));
  }
  const char* op =
      weight.requires_grad() ? "aten::_embedding_bag" : "aten::_embedding_bag_forward_only";
  Tensor out = detail::run_without_mps_kernel(
      op, {weight, input},
      [op, mode](const std::vector<Tensor>& args) { return bag_rows(op, args[1], args[0], mode); });
  if (!detail::should_record({&weight})) return out;
  const std::int64_t rows = weight.size(0);
  detail::record(
      out, "EmbeddingBagBackward0", {input, weight}, [input, rows, mode](const Tensor& g) {
        Tensor grad =
            detail::run_without_mps_kernel("aten::_embedding_bag_dense_backward", {g, input},
                                           [rows, mode](const std::vector<Tensor>& args) {
                                             return bag_rows_backward(args[0], args[1], rows, mode);
                                           });
        return std::vector<Tensor>{Tensor(), grad};
      });
  return out;
}

}  // namespace engine::nn::functional
