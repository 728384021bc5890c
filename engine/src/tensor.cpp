#include "engine/tensor.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "availability.h"
#include "device_checks.h"
#include "engine/errors.h"
#include "kernels/kernels.h"
#include "tensor_impl.h"

namespace engine {
namespace {

void require_float(const Tensor& t, const char* what) {
  if (t.scalar_type() != ScalarType::Float) {
    throw Error(std::string("the course engine computes ") + what +
                " on float32 tensors only, got " + std::string(python_dtype_name(t.scalar_type())));
  }
}

// The batch dimensions (all but the last two) of two matmul operands, broadcast: each padded
// with leading 1s to the rank of the result.
struct Batches {
  std::vector<std::int64_t> out, a, b;
};

Batches broadcast_batches(const std::vector<std::int64_t>& a_shape,
                          const std::vector<std::int64_t>& b_shape) {
  const std::size_t rank = std::max(a_shape.size(), b_shape.size()) - 2;
  Batches batches{std::vector<std::int64_t>(rank), std::vector<std::int64_t>(rank, 1),
                  std::vector<std::int64_t>(rank, 1)};
  std::copy(a_shape.begin(), a_shape.end() - 2, batches.a.end() - (a_shape.size() - 2));
  std::copy(b_shape.begin(), b_shape.end() - 2, batches.b.end() - (b_shape.size() - 2));
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = batches.a[i], db = batches.b[i];
    if (da != db && da != 1 && db != 1) {
      throw Error("The size of tensor a (" + std::to_string(da) + ") must match the size of tensor b (" +
                  std::to_string(db) + ") at non-singleton dimension " + std::to_string(i));
    }
    batches.out[i] = std::max(da, db);
  }
  return batches;
}

// The flat batch number of `index` in an operand whose batch sizes are `dims` (1 = broadcast).
std::int64_t batch_number(const std::vector<std::int64_t>& index,
                          const std::vector<std::int64_t>& dims) {
  std::int64_t number = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) number = number * dims[i] + (dims[i] == 1 ? 0 : index[i]);
  return number;
}

[[noreturn]] void throw_shape_mismatch(bool vectors, std::int64_t m, std::int64_t k,
                                       std::int64_t k2, std::int64_t n) {
  if (vectors) {
    throw Error("inconsistent tensor size, expected tensor [" + std::to_string(k) + "] and src [" +
                std::to_string(k2) + "] to have the same number of elements, but got " +
                std::to_string(k) + " and " + std::to_string(k2) + " elements respectively");
  }
  throw Error("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(m) + "x" +
              std::to_string(k) + " and " + std::to_string(k2) + "x" + std::to_string(n) + ")");
}

// PyTorch's matmul semantics (aten/src/ATen/native/LinearAlgebra.cpp, matmul): 1-D operands are
// promoted to matrices and the added dimension is dropped from the result; dimensions before
// the last two are batch dimensions and broadcast.
Tensor batched_matmul(const Tensor& a, const Tensor& b, Device device) {
  std::vector<std::int64_t> a_shape = a.sizes().vec(), b_shape = b.sizes().vec();
  const bool a_vector = a_shape.size() == 1, b_vector = b_shape.size() == 1;
  if (a_vector) a_shape.insert(a_shape.begin(), 1);
  if (b_vector) b_shape.push_back(1);
  const std::int64_t m = a_shape[a_shape.size() - 2], k = a_shape.back();
  const std::int64_t k2 = b_shape[b_shape.size() - 2], n = b_shape.back();
  if (k != k2) throw_shape_mismatch(a_vector && b_vector, m, k, k2, n);

  const Batches batches = broadcast_batches(a_shape, b_shape);
  std::vector<std::int64_t> out_shape = batches.out;
  if (!a_vector) out_shape.push_back(m);
  if (!b_vector) out_shape.push_back(n);
  Tensor out = detail::allocate(out_shape, ScalarType::Float, device);

  const float* pa = a.impl().data<float>();
  const float* pb = b.impl().data<float>();
  float* pc = out.impl().data<float>();
  std::vector<std::int64_t> index(batches.out.size(), 0);
  for (std::int64_t step = 0; step < product(batches.out); ++step) {
    kernels::matmul(pa + batch_number(index, batches.a) * m * k,
                    pb + batch_number(index, batches.b) * k * n, pc + step * m * n, m, k, n);
    for (std::size_t i = index.size(); i-- > 0;) {  // the next batch index, row-major
      if (++index[i] < batches.out[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

}  // namespace

Tensor::Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

TensorImpl& Tensor::impl() const {
  if (!impl_) throw Error("The tensor is undefined (default-constructed)");
  return *impl_;
}

IntArrayRef Tensor::sizes() const { return impl().sizes; }
std::int64_t Tensor::dim() const { return static_cast<std::int64_t>(impl().sizes.size()); }
std::int64_t Tensor::numel() const { return impl().numel(); }
ScalarType Tensor::scalar_type() const { return impl().dtype; }
Device Tensor::device() const { return impl().device; }

std::int64_t Tensor::size(std::int64_t dim) const {
  return impl().sizes[static_cast<std::size_t>(detail::wrap_dim(dim, this->dim()))];
}

Tensor Tensor::to(Device target) const {
  const Device landing = detail::check_device_usable(target);
  if (landing == device()) return *this;
  Tensor out = detail::allocate(impl().sizes, impl().dtype, landing);
  const std::size_t bytes = static_cast<std::size_t>(numel()) * element_size(impl().dtype);
  if (impl().dtype == ScalarType::Float) {
    std::memcpy(out.impl().data<float>(), impl().data<float>(), bytes);
  } else {
    std::memcpy(out.impl().data<std::int64_t>(), impl().data<std::int64_t>(), bytes);
  }
  return out;
}

Tensor Tensor::to(ScalarType dtype) const {
  if (dtype == scalar_type()) return *this;
  Tensor out = detail::allocate(impl().sizes, dtype, device());
  const std::int64_t n = numel();
  if (dtype == ScalarType::Float) {
    const auto* src = impl().data<std::int64_t>();
    float* dst = out.impl().data<float>();
    for (std::int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
  } else {
    const float* src = impl().data<float>();
    auto* dst = out.impl().data<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i) dst[i] = static_cast<std::int64_t>(src[i]);
  }
  return out;
}

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
  auto view = std::make_shared<TensorImpl>(impl());  // shares the storage
  view->sizes = std::move(sizes);
  return Tensor(std::move(view));
}

Tensor Tensor::mean(IntArrayRef dims, bool keepdim) const {
  if (scalar_type() != ScalarType::Float) {
    throw Error("mean(): could not infer output dtype. Input dtype must be either a floating "
                "point or complex dtype. Got: " + std::string(scalar_type_name(scalar_type())));
  }
  const std::int64_t ndim = dim();
  std::vector<bool> reduced(static_cast<std::size_t>(std::max<std::int64_t>(ndim, 1)), false);
  for (std::int64_t d : dims) {
    const auto w = static_cast<std::size_t>(detail::wrap_dim(d, ndim));
    if (reduced[w]) throw Error("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    reduced[w] = true;
  }
  if (dims.empty()) std::fill(reduced.begin(), reduced.end(), true);  // mean(dim=[]) is a full mean

  Tensor current = *this;
  std::vector<std::int64_t> sizes = impl().sizes;
  for (std::int64_t d = ndim - 1; d >= 0; --d) {  // one axis at a time, innermost first
    if (!reduced[static_cast<std::size_t>(d)]) continue;
    const auto ud = static_cast<std::size_t>(d);
    const std::int64_t outer = product(IntArrayRef(sizes.data(), ud));
    const std::int64_t inner = product(IntArrayRef(sizes.data() + ud + 1, sizes.size() - ud - 1));
    std::vector<std::int64_t> next = sizes;
    next[ud] = 1;
    Tensor out = detail::allocate(next, ScalarType::Float, device());
    kernels::mean_over_axis(current.impl().data<float>(), out.impl().data<float>(), outer,
                            sizes[ud], inner);
    current = out;
    sizes = std::move(next);
  }
  if (keepdim) return current;
  std::vector<std::int64_t> kept;
  for (std::int64_t d = 0; d < ndim; ++d) {
    if (!reduced[static_cast<std::size_t>(d)]) kept.push_back(sizes[static_cast<std::size_t>(d)]);
  }
  return current.reshape(kept);
}

Tensor Tensor::mean() const { return mean({}, false); }

Tensor Tensor::matmul(const Tensor& other) const { return engine::matmul(*this, other); }

Tensor matmul(const Tensor& a, const Tensor& b) {
  const Device device = detail::common_device({&a, &b});
  require_float(a, "matmul");
  require_float(b, "matmul");
  if (a.dim() == 0 || b.dim() == 0) {
    throw Error("both arguments to matmul need to be at least 1D, but they are " +
                std::to_string(a.dim()) + "D and " + std::to_string(b.dim()) + "D");
  }
  return batched_matmul(a, b, device);
}

template <typename T>
T* Tensor::data_ptr() const {
  if (scalar_type() != scalar_type_of<T>()) {
    throw Error("expected scalar type " + std::string(scalar_type_name(scalar_type_of<T>())) +
                " but found " + std::string(scalar_type_name(scalar_type())));
  }
  if (!is_cpu()) {
    throw Error("data_ptr() of a " + device().str() +
                " tensor is a device address that host code must not read; use .cpu() first");
  }
  return impl().data<T>();
}

template <typename T>
std::vector<T> Tensor::to_vector() const {
  const Tensor on_cpu = cpu();  // keeps a copy from mps alive while it is read
  const T* begin = on_cpu.data_ptr<T>();
  return std::vector<T>(begin, begin + numel());
}

void Tensor::set_data(const Tensor& other) const {
  TensorImpl& self = impl();
  const TensorImpl& source = other.impl();
  self.storage = source.storage;
  self.offset = source.offset;
  self.sizes = source.sizes;
  self.dtype = source.dtype;
  self.device = source.device;
}

template float* Tensor::data_ptr<float>() const;
template std::int64_t* Tensor::data_ptr<std::int64_t>() const;
template std::vector<float> Tensor::to_vector<float>() const;
template std::vector<std::int64_t> Tensor::to_vector<std::int64_t>() const;

}  // namespace engine
