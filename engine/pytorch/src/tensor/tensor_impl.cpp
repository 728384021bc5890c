#include "tensor/tensor_impl.h"

#include <cstdlib>
#include <new>
#include <string>

#include "engine/errors.h"
#include "engine/sim.h"
#include "machine/process.h"
#include "mps/allocator.h"

namespace engine {

Storage::Storage(std::size_t nbytes) : nbytes_(nbytes) {
  constexpr std::size_t kAlignment = 64;  // a cache line, and what Eigen's AVX loads like
  const std::size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (p == nullptr) throw std::bad_alloc();
  bytes_.reset(static_cast<std::byte*>(p));
}

void Storage::Free::operator()(std::byte* p) const noexcept { std::free(p); }

std::int64_t product(IntArrayRef sizes) {
  std::int64_t n = 1;
  for (std::int64_t s : sizes) n *= s;
  return n;
}

std::int64_t TensorImpl::numel() const { return product(sizes); }

namespace detail {

Tensor allocate(std::vector<std::int64_t> sizes, ScalarType dtype, Device device,
                bool with_values) {
  for (std::int64_t s : sizes) {
    if (s < 0) {
      throw Error("Trying to create tensor with negative dimension " + std::to_string(s) + ": " +
                  sizes_string(sizes));
    }
  }
  // aten/src/ATen/mps/EmptyTensor.cpp, MPS_ERROR_DOUBLE_NOT_SUPPORTED. (Its bfloat16 check,
  // "MPS BFloat16 is only supported on MacOS 14 or newer", cannot fire in 2.9: MPS itself needs
  // macOS 14 there, Note [macOS minimum of 2.9].)
  if (device.is_mps() && dtype == ScalarType::Double) {
    throw TypeError(
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support "
        "float64. Please use float32 instead.");
  }
  auto impl = std::make_shared<TensorImpl>();
  const std::int64_t n = product(sizes);
  const auto bytes = static_cast<std::size_t>(n) * elementSize(dtype);
  if (device.is_mps() &&
      bytes > 0) {  // first, so that running out of MPS memory costs nothing here
    const auto allocator = mps_allocator();
    impl->buffer = std::make_shared<DeviceBuffer>(allocator, allocator->malloc(bytes));
  }
  if (with_values && !sim::shape_only_mode()) impl->storage = std::make_shared<Storage>(bytes);
  impl->sizes = std::move(sizes);
  impl->dtype = dtype;
  impl->device = device;
  return Tensor(std::move(impl));
}

bool have_values(std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors) {
    if (t->defined() && !t->impl().has_values()) return false;
  }
  return true;
}

double nbytes(const Tensor& t) {
  return static_cast<double>(t.numel()) * static_cast<double>(elementSize(t.scalar_type()));
}

void require_values(const Tensor& t, const char* what) {
  if (!t.impl().has_values()) {
    throw Error(std::string(what) +
                " needs values, and this tensor is shape-only (made under "
                "sim::ShapeOnlyGuard): it has a shape, a device and a cost, but no values");
  }
}

Tensor share_values(const Tensor& t, std::vector<std::int64_t> sizes, std::int64_t offset) {
  const TensorImpl& source = t.impl();
  auto view = std::make_shared<TensorImpl>();
  view->storage = source.storage;
  view->buffer = source.buffer;
  view->offset = source.offset + offset;
  view->sizes = std::move(sizes);
  view->dtype = source.dtype;
  view->device = source.device;
  return Tensor(std::move(view));
}

std::int64_t wrap_dim(std::int64_t dim, std::int64_t ndim) {
  const std::int64_t range = ndim == 0 ? 1 : ndim;  // a 0-dim tensor accepts dims 0 and -1
  if (dim < -range || dim >= range) {
    throw IndexError("Dimension out of range (expected to be in range of [" +
                     std::to_string(-range) + ", " + std::to_string(range - 1) + "], but got " +
                     std::to_string(dim) + ")");
  }
  return dim < 0 ? dim + range : dim;
}

Axis axis_around(IntArrayRef sizes, std::size_t d) {
  return {product(IntArrayRef(sizes.data(), d)), sizes[d],
          product(IntArrayRef(sizes.data() + d + 1, sizes.size() - d - 1))};
}

std::string_view type_meta_name(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Byte:
      return "unsigned char";
    case ScalarType::Char:
      return "signed char";
    case ScalarType::Short:
      return "short int";
    case ScalarType::Int:
      return "int";
    case ScalarType::Long:
      return "long int";
    case ScalarType::Half:
      return "c10::Half";
    case ScalarType::Float:
      return "float";
    case ScalarType::Double:
      return "double";
    case ScalarType::Bool:
      return "bool";
    case ScalarType::BFloat16:
      return "c10::BFloat16";
  }
  return "";
}

std::string type_name_in_errors(const Tensor& t) {
  const std::string type(scalar_type_name(t.scalar_type()));
  if (t.device().is_cpu() && t.scalar_type() != ScalarType::Bool) return "torch." + type + "Tensor";
  return std::string(t.device().is_mps() ? "MPS" : "CPU") + type + "Type";
}

std::string sizes_string(IntArrayRef sizes) {
  std::string text = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(sizes[i]);
  }
  return text + "]";
}

}  // namespace detail
}  // namespace engine
