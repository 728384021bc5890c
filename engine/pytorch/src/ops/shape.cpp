// Operations that rearrange values without computing new ones: reshape (a view sharing
// storage), slice, transpose, clone and detach, with their gradients.

#include <algorithm>
#include <cstring>
#include <string>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"
#include "tensor/type_promotion_state.h"

namespace engine {
namespace {

Tensor copy_values(const Tensor& x) {
  Tensor out =
      detail::allocate(x.sizes().vec(), x.scalar_type(), x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    detail::visit_dtype(x.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      std::copy_n(x.impl().data<T>(), x.numel(), out.impl().data<T>());
    });
  }
  detail::launch(
      {.name = "aten::clone", .kind = detail::OpKind::Copy, .bytes = 2 * detail::nbytes(x)},
      x.device());
  return out;
}

// Copies the block [start, start + length) of dimension `dim` between a tensor of `full` sizes
// and a tensor of the block's sizes; to_block chooses the direction.
template <typename T>
void copy_block(const T* from, T* to, IntArrayRef full, std::int64_t dim, std::int64_t start,
                std::int64_t length, bool to_block) {
  const auto d = static_cast<std::size_t>(dim);
  const std::int64_t outer = product(IntArrayRef(full.data(), d));
  const std::int64_t inner = product(IntArrayRef(full.data() + d + 1, full.size() - d - 1));
  const std::int64_t size = full[d];
  for (std::int64_t o = 0; o < outer; ++o) {
    const std::int64_t full_at = (o * size + start) * inner, block_at = o * length * inner;
    const std::int64_t count = length * inner;
    if (to_block) {
      std::copy_n(from + full_at, count, to + block_at);
    } else {
      std::copy_n(from + block_at, count, to + full_at);
    }
  }
}

// copy_block for tensors of any dtype, both of `dtype`.
void copy_block(const Tensor& from, const Tensor& to, IntArrayRef full, std::int64_t dim,
                std::int64_t start, std::int64_t length, bool to_block) {
  detail::visit_dtype(to.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    copy_block(from.impl().data<T>(), to.impl().data<T>(), full, dim, start, length, to_block);
  });
}

// out = in with dimensions a and b swapped: any two dimensions, walking the output and reading
// the input with the two strides swapped.
template <typename T>
void copy_transposed(const T* src, T* dst, IntArrayRef in_sizes, IntArrayRef sizes, std::int64_t a,
                     std::int64_t b) {
  const auto r = in_sizes.size();
  std::vector<std::int64_t> in_strides(r, 1), index(r, 0);
  for (std::size_t i = r - 1; i-- > 0;) in_strides[i] = in_strides[i + 1] * in_sizes[i + 1];
  std::swap(in_strides[static_cast<std::size_t>(a)], in_strides[static_cast<std::size_t>(b)]);
  for (std::int64_t i = 0, n = product(sizes); i < n; ++i) {
    std::int64_t at = 0;
    for (std::size_t k = 0; k < r; ++k) at += index[k] * in_strides[k];
    dst[i] = src[at];
    for (std::size_t k = r; k-- > 0;) {
      if (++index[k] < sizes[k]) break;
      index[k] = 0;
    }
  }
}

void copy_transposed(const Tensor& in, const Tensor& out, std::int64_t a, std::int64_t b) {
  const std::int64_t rank = in.dim();
  if (in.scalar_type() == ScalarType::Float && std::min(a, b) == rank - 2 &&
      std::max(a, b) == rank - 1) {
    const std::int64_t rows = in.size(-2), cols = in.size(-1);
    kernels::transpose_last_two(in.impl().data<float>(), out.impl().data<float>(),
                                in.numel() / std::max<std::int64_t>(rows * cols, 1), rows, cols);
    return;
  }
  detail::visit_dtype(in.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    copy_transposed(in.impl().data<T>(), out.impl().data<T>(), in.sizes(), out.sizes(), a, b);
  });
}

}  // namespace

Tensor Tensor::reshape(IntArrayRef shape) const {
  std::vector<std::int64_t> sizes = shape.vec();
  std::int64_t known = 1;
  std::size_t inferred = sizes.size();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (inferred != sizes.size()) throw Error("only one dimension can be inferred");
      inferred = i;
    } else if (sizes[i] < 0) {
      throw Error("invalid shape dimension " + std::to_string(sizes[i]));
    } else {
      known *= sizes[i];
    }
  }
  const std::int64_t n = numel();
  if (inferred != sizes.size() && known == 0) {
    throw Error("cannot reshape tensor of 0 elements into shape " + detail::sizes_string(shape) +
                " because the unspecified dimension size -1 can be any value and is ambiguous");
  }
  const bool fits = inferred != sizes.size() ? n % known == 0 : known == n;
  if (!fits) {
    throw Error("shape '" + detail::sizes_string(shape) + "' is invalid for input of size " +
                std::to_string(n));
  }
  if (inferred != sizes.size()) sizes[inferred] = n / known;
  Tensor out = detail::share_values(*this, std::move(sizes));
  detail::dispatch_view("aten::view", device());
  if (detail::should_record({this})) {
    const std::vector<std::int64_t> original = this->sizes().vec();
    detail::record(
        out, "ViewBackward0", {*this},
        [original](const Tensor& g) { return std::vector<Tensor>{g.reshape(original)}; },
        detail::Saves::NoTensors);
  }
  return out;
}

Tensor Tensor::slice(std::int64_t dim, std::int64_t start, std::int64_t end) const {
  const std::int64_t d = detail::wrap_dim(dim, this->dim());
  const std::int64_t size = this->size(d);
  auto clamp = [size](std::int64_t i) {
    return std::clamp(i < 0 ? i + size : i, std::int64_t{0}, size);
  };
  const std::int64_t from = clamp(start), length = std::max<std::int64_t>(clamp(end) - from, 0);
  std::vector<std::int64_t> sizes = this->sizes().vec();
  sizes[static_cast<std::size_t>(d)] = length;
  Tensor out;
  if (d == 0) {  // the leading rows of a contiguous tensor are themselves contiguous: a view
    const std::int64_t row = product(IntArrayRef(sizes.data() + 1, sizes.size() - 1));
    out = detail::share_values(*this, sizes, from * row);
  } else {
    out = detail::allocate(sizes, scalar_type(), device(), detail::have_values({this}));
    if (out.impl().has_values()) copy_block(*this, out, this->sizes(), d, from, length, true);
  }
  detail::dispatch_view("aten::slice", device());  // a view in PyTorch, whatever the dimension
  if (detail::should_record({this})) {
    const std::vector<std::int64_t> full = this->sizes().vec();
    const Device where = device();
    detail::record(
        out, "SliceBackward0", {*this},
        [full, where, d, from, length](const Tensor& g) {
          Tensor grad = zeros(full, TensorOptions(g.scalar_type()).device(where));
          if (detail::have_values({&g, &grad})) copy_block(g, grad, full, d, from, length, false);
          detail::launch({.name = "aten::slice_backward",
                          .kind = detail::OpKind::Copy,
                          .bytes = detail::nbytes(g) + detail::nbytes(grad)},
                         where);
          return std::vector<Tensor>{grad};
        },
        detail::Saves::NoTensors);
  }
  return out;
}

Tensor Tensor::transpose(std::int64_t d0, std::int64_t d1) const {
  const std::int64_t a = detail::wrap_dim(d0, dim()), b = detail::wrap_dim(d1, dim());
  if (a == b) return *this;
  std::vector<std::int64_t> sizes = this->sizes().vec();
  std::swap(sizes[static_cast<std::size_t>(a)], sizes[static_cast<std::size_t>(b)]);
  Tensor out = detail::allocate(sizes, scalar_type(), device(), detail::have_values({this}));
  if (out.impl().has_values()) copy_transposed(*this, out, a, b);
  // A view in PyTorch; the engine copies here, and charges the copy PyTorch makes later (in
  // .contiguous() or inside the consumer).
  detail::launch({.name = "aten::transpose + copy",
                  .kind = detail::OpKind::Copy,
                  .bytes = 2 * detail::nbytes(*this),
                  .dtype = scalar_type()},
                 device());
  if (detail::should_record({this})) {
    detail::record(
        out, "TransposeBackward0", {*this},
        [a, b](const Tensor& g) { return std::vector<Tensor>{g.transpose(a, b)}; },
        detail::Saves::NoTensors);
  }
  return out;
}

Tensor Tensor::clone() const {
  Tensor out = copy_values(*this);
  if (detail::should_record({this})) {
    detail::record(
        out, "CloneBackward0", {*this}, [](const Tensor& g) { return std::vector<Tensor>{g}; },
        detail::Saves::NoTensors);
  }
  return out;
}

Tensor Tensor::detach() const {
  detail::dispatch_view("aten::detach", device());
  return detail::share_values(*this, impl().sizes);
}

}  // namespace engine

namespace engine {

Tensor cat(const std::vector<Tensor>& tensors, std::int64_t dim) {
  if (tensors.empty()) throw Error("torch.cat(): expected a non-empty list of Tensors");
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::Cat, tensors)) {
    const detail::AutocastExclusion exclusion(cast->device);
    return cat(cast->inputs, dim);
  }
  const Tensor& first = tensors.front();
  const std::int64_t d = detail::wrap_dim(dim, first.dim());
  std::vector<std::int64_t> sizes = first.sizes().vec();
  sizes[static_cast<std::size_t>(d)] = 0;
  std::vector<const Tensor*> all;
  detail::ResultTypeState promotion;  // cat promotes its inputs to one dtype
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    promotion.add(t);
    if (t.device() != first.device()) {
      throw Error(
          "Expected all tensors to be on the same device, but found at least two devices, " +
          first.device().str() + " and " + t.device().str() + "!");
    }
    for (std::int64_t k = 0; k < first.dim(); ++k) {
      if (k != d && (t.dim() != first.dim() || t.size(k) != first.size(k))) {
        throw Error("Sizes of tensors must match except in dimension " + std::to_string(d) +
                    ". Expected size " + std::to_string(first.size(k)) + " but got size " +
                    std::to_string(t.dim() == first.dim() ? t.size(k) : -1) +
                    " for tensor number " + std::to_string(i) + " in the list.");
      }
    }
    sizes[static_cast<std::size_t>(d)] += t.size(d);
    all.push_back(&t);
  }
  const bool values =
      std::all_of(all.begin(), all.end(), [](const Tensor* t) { return detail::have_values({t}); });
  const ScalarType dtype = promotion.result();
  Tensor out = detail::allocate(sizes, dtype, first.device(), values);
  std::vector<std::int64_t> offsets, lengths;
  std::int64_t offset = 0;
  for (const Tensor& t : tensors) {
    offsets.push_back(offset);
    lengths.push_back(t.size(d));
    if (values) {
      detail::visit_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        copy_block(detail::ValuesAs<T>(t).data(), out.impl().data<T>(), sizes, d, offset, t.size(d),
                   false);
      });
    }
    offset += t.size(d);
  }
  detail::launch({.name = "aten::cat",
                  .kind = detail::OpKind::Copy,
                  .bytes = 2 * detail::nbytes(out),
                  .dtype = dtype},
                 first.device());
  bool record = false;
  for (const Tensor& t : tensors) record = record || detail::should_record({&t});
  if (!record) return out;
  detail::record(
      out, "CatBackward0", tensors,
      [d, offsets, lengths](const Tensor& g) {  // sizes only, as CatBackward0 saves
        std::vector<Tensor> grads;
        for (std::size_t i = 0; i < offsets.size(); ++i)
          grads.push_back(g.slice(d, offsets[i], offsets[i] + lengths[i]));
        return grads;
      },
      detail::Saves::NoTensors);
  return out;
}

}  // namespace engine
