#pragma once
// Internal: what a Tensor handle points to. Values live in a Storage shared by views
// (reshape); a tensor is always contiguous, starting `offset` elements into its storage.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "engine/autograd.h"
#include "engine/device.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"
#include "tensor/dtype_dispatch.h"

namespace engine {
namespace detail {
class DeviceBuffer;
}

class Storage {
 public:
  explicit Storage(std::size_t nbytes);
  std::byte* data() const noexcept { return bytes_.get(); }
  std::size_t nbytes() const noexcept { return nbytes_; }

 private:
  struct Free {
    void operator()(std::byte* p) const noexcept;
  };
  std::unique_ptr<std::byte, Free> bytes_;
  std::size_t nbytes_;
};

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  // On mps, the allocator's buffer, shared by views; also for shape-only tensors, whose
  // memory the simulated machine holds even though this program does not.
  std::shared_ptr<detail::DeviceBuffer> buffer;
  std::int64_t offset = 0;
  std::vector<std::int64_t> sizes;
  ScalarType dtype = ScalarType::Float;
  Device device = Device(DeviceType::CPU);

  // Autograd: a leaf that requires grad accumulates into `grad`; a computed tensor points to
  // the node that made it.
  bool requires_grad = false;
  Tensor grad;
  std::shared_ptr<autograd::Node> grad_fn;

  std::int64_t numel() const;
  bool has_values() const noexcept { return storage != nullptr; }  // false: shape-only
  template <typename T>
  T* data() const {
    return reinterpret_cast<T*>(storage->data()) + offset;
  }
};

std::int64_t product(IntArrayRef sizes);

namespace detail {

// A new tensor with uninitialised values; `device` must already be usable (see availability.h),
// and on mps `dtype` one the MPS backend has (not float64: PyTorch's TypeError).
// Shape-only (no values) when `with_values` is false or a sim::ShapeOnlyGuard is alive.
Tensor allocate(std::vector<std::int64_t> sizes, ScalarType dtype, Device device,
                bool with_values = true);
// Whether every one of these tensors has values, so an operation on them computes some.
bool have_values(std::initializer_list<const Tensor*> tensors);
// The bytes of a tensor's values, for the cost model.
double nbytes(const Tensor& t);
// Refuses to read a shape-only tensor's values, naming what tried.
void require_values(const Tensor& t, const char* what);
// A new tensor over the same values as `t` (a view), starting `offset` elements further in,
// outside any autograd graph.
Tensor share_values(const Tensor& t, std::vector<std::int64_t> sizes, std::int64_t offset = 0);
// Wraps a negative dim and checks it, with PyTorch's IndexError text.
std::int64_t wrap_dim(std::int64_t dim, std::int64_t ndim);
// A contiguous tensor of `sizes` seen around dimension `d`: `outer` blocks of `n` rows of
// `inner` values, the view reductions and softmax work on.
struct Axis {
  std::int64_t outer, n, inner;
};
Axis axis_around(IntArrayRef sizes, std::size_t d);
// "[2, 4]", as PyTorch prints sizes inside messages.
std::string sizes_string(IntArrayRef sizes);
// How caffe2's TypeMeta names a dtype in messages, as PyTorch's Linux wheels (built with g++)
// print it: "float", "long int", "c10::Half".
std::string_view type_meta_name(ScalarType dtype);
// How an argument check names a tensor's type once it reaches Python: torch::processErrorMsg
// (torch/csrc/Exceptions.cpp) turns c10's "CPUFloatType" into the legacy "torch.FloatTensor",
// but its table has no MPS and no Bool entries, so those keep c10's name ("MPSFloatType").
std::string type_name_in_errors(const Tensor& t);

}  // namespace detail
}  // namespace engine
