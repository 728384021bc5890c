// torch.nn.functional.embedding (aten/src/ATen/native/Embedding.cpp): a row lookup in a table of
// any dtype, whose gradient adds each output row's gradient into the row it came from, one row
// at a time, rounding each sum into the table's dtype as embedding_dense_backward_cpu's axpy does.

#include <algorithm>
#include <optional>
#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

// F.embedding's check of padding_idx: the row it names, counted from the front (-1 for none, as
// embedding_dense_backward takes it).
std::int64_t padding_row(const std::optional<std::int64_t>& padding_idx, std::int64_t rows) {
  if (!padding_idx) return -1;
  if (*padding_idx >= rows || *padding_idx < -rows)
    throw AssertionError("Padding_idx must be within num_embeddings");
  return *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
}

// grad[indices[i]] += g[i] for each looked-up row but the padding row, in float32, each sum
// rounded into grad's dtype.
void accumulate_rows(const Tensor& grad, const Tensor& g, const std::vector<std::int64_t>& indices,
                     std::int64_t dim, std::int64_t padding) {
  detail::visit_dtype(grad.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_integral_v<T>) {
      T* dst = grad.impl().data<T>();
      const detail::ValuesAs<float> src(g);
      for (std::size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] == padding) continue;
        for (std::int64_t j = 0; j < dim; ++j) {
          T& total = dst[indices[i] * dim + j];
          total = detail::cast_value<T>(detail::cast_value<float>(total) +
                                        src.data()[static_cast<std::int64_t>(i) * dim + j]);
        }
      }
    }
  });
}

}  // namespace

Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options) {
  const std::int64_t padding = padding_row(options.padding_idx(), weight.size(0));
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
  const std::int64_t rows = weight.size(0), dim = weight.size(1);
  std::vector<std::int64_t> shape = input.sizes().vec();
  shape.push_back(dim);
  Tensor out =
      detail::allocate(shape, weight.scalar_type(), device, detail::have_values({&input, &weight}));
  detail::launch({.name = "aten::embedding",
                  .kind = detail::OpKind::Gather,
                  .bytes = detail::nbytes(input) + 2 * detail::nbytes(out),
                  .dtype = weight.scalar_type()},
                 device);
  std::vector<std::int64_t> indices;
  if (out.impl().has_values()) {
    const std::int64_t* idx = input.impl().data<std::int64_t>();
    indices.assign(idx, idx + input.numel());
    const auto row_bytes = static_cast<std::size_t>(dim * weight.element_size());
    const std::byte* table =
        weight.impl().storage->data() + weight.impl().offset * weight.element_size();
    std::byte* dst = out.impl().storage->data();
    for (std::size_t i = 0; i < indices.size(); ++i) {
      if (indices[i] < 0 || indices[i] >= rows) throw IndexError("index out of range in self");
      std::copy_n(table + static_cast<std::size_t>(indices[i]) * row_bytes, row_bytes,
                  dst + i * row_bytes);
    }
  }
  if (!detail::should_record({&weight})) return out;
  detail::record(out, "EmbeddingBackward0", {input, weight},
                 [indices, rows, dim, padding, device](const Tensor& g) {
                   Tensor grad = zeros({rows, dim}, TensorOptions(g.scalar_type()).device(device));
                   detail::launch({.name = "aten::embedding_dense_backward",
                                   .kind = detail::OpKind::Gather,
                                   .bytes = detail::nbytes(g) + detail::nbytes(grad),
                                   .dtype = g.scalar_type()},
                                  device);
                   if (detail::have_values({&g, &grad})) {
                     accumulate_rows(grad, g, indices, dim, padding);
                   }
                   return std::vector<Tensor>{Tensor(), grad};
                 });
  return out;
}

}  // namespace engine::nn::functional
