#pragma once
// Internal: what a Tensor handle points to. Values live in a Storage shared by views
// (reshape); a tensor is always contiguous, starting `offset` elements into its storage.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/device.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace engine {

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
  std::int64_t offset = 0;
  std::vector<std::int64_t> sizes;
  ScalarType dtype = ScalarType::Float;
  Device device = Device(DeviceType::CPU);

  std::int64_t numel() const;
  template <typename T>
  T* data() const {
    return reinterpret_cast<T*>(storage->data()) + offset;
  }
};

std::int64_t product(IntArrayRef sizes);

namespace detail {

// A new tensor with uninitialised values; `device` must already be usable (see availability.h).
Tensor allocate(std::vector<std::int64_t> sizes, ScalarType dtype, Device device);
// Wraps a negative dim and checks it, with PyTorch's IndexError text.
std::int64_t wrap_dim(std::int64_t dim, std::int64_t ndim);
// "[2, 4]", as PyTorch prints sizes inside messages.
std::string sizes_string(IntArrayRef sizes);

}  // namespace detail
}  // namespace engine
