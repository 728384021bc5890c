// torch.nn.functional.embedding (aten/src/ATen/native/Embedding.cpp): a row lookup, whose
// gradient adds each output row's gradient into the row it came from.

#include <algorithm>
#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {

Tensor embedding(const Tensor& input, const Tensor& weight) {
  if (input.scalar_type() != ScalarType::Long) {
    throw Error(
        "Expected tensor for argument #1 'indices' to have one of the following scalar "
        "types: Long, Int; but got " +
        detail::type_name_in_errors(input) + " instead (while checking arguments for embedding)");
  }
  // embedding is weight.index_select(0, indices); the MPS index_select of this period gathers
  // with MPSGraph, whose placeholders take the weight, then the indices (Indexing.mm; a Metal
  // kernel replaced it in pytorch/pytorch#187109, 2026).
  if (detail::any_on_mps({&input, &weight})) detail::check_placeholder_storage({&weight, &input});
  const Device device = weight.device();
  detail::require_float(weight, "embedding");
  const std::int64_t rows = weight.size(0), dim = weight.size(1);
  std::vector<std::int64_t> shape = input.sizes().vec();
  shape.push_back(dim);
  Tensor out =
      detail::allocate(shape, ScalarType::Float, device, detail::have_values({&input, &weight}));
  detail::launch({.name = "aten::embedding",
                  .kind = detail::OpKind::Gather,
                  .bytes = detail::nbytes(input) + 2 * detail::nbytes(out)},
                 device);
  std::vector<std::int64_t> indices;
  if (out.impl().has_values()) {
    const std::int64_t* idx = input.impl().data<std::int64_t>();
    indices.assign(idx, idx + input.numel());
    const float* table = weight.impl().data<float>();
    for (std::size_t i = 0; i < indices.size(); ++i) {
      if (indices[i] < 0 || indices[i] >= rows) throw IndexError("index out of range in self");
      std::copy_n(table + indices[i] * dim, dim,
                  out.impl().data<float>() + static_cast<std::int64_t>(i) * dim);
    }
  }
  if (!detail::should_record({&weight})) return out;
  detail::record(out, "EmbeddingBackward0", {input, weight},
                 [indices, rows, dim, device](const Tensor& g) {
                   Tensor grad = zeros({rows, dim}, device);
                   detail::launch({.name = "aten::embedding_dense_backward",
                                   .kind = detail::OpKind::Gather,
                                   .bytes = detail::nbytes(g) + detail::nbytes(grad)},
                                  device);
                   if (detail::have_values({&g, &grad})) {
                     float* dst = grad.impl().data<float>();
                     const float* src = g.impl().data<float>();
                     for (std::size_t i = 0; i < indices.size(); ++i) {
                       for (std::int64_t j = 0; j < dim; ++j)
                         dst[indices[i] * dim + j] += src[static_cast<std::int64_t>(i) * dim + j];
                     }
                   }
                   return std::vector<Tensor>{Tensor(), grad};
                 });
  return out;
}

}  // namespace engine::nn::functional
