// torch.equal, torch.isfinite and Tensor.all: questions about values rather than arithmetic.
// equal and all return a host bool, so on mps they wait for the device, as PyTorch's do.

#include <cmath>

#include "device_checks.h"
#include "engine/ops.h"
#include "runtime/stream.h"
#include "tensor_impl.h"

namespace engine {
namespace {

// The values as doubles, read directly: the caller has charged the read.
std::vector<double> host_values(const Tensor& t) {
  detail::require_values(t, "reading values");
  std::vector<double> out(static_cast<std::size_t>(t.numel()));
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = t.impl().data<T>();
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(values[i]);
  });
  return out;
}

void read_back(const Tensor& t, const char* op) {
  detail::launch({.name = op, .kind = detail::OpKind::Reduction, .bytes = detail::nbytes(t)}, t.device());
  if (t.is_mps()) detail::copy_between(t.device(), Device(DeviceType::CPU), 1);
}

}  // namespace

bool equal(const Tensor& a, const Tensor& b) {
  detail::mps_equal_check_devices(a, b);  // tensors on two devices: one is on mps, so mps_equal runs
  if (a.sizes() != b.sizes()) return false;
  read_back(a, "aten::equal");
  return host_values(a) == host_values(b);
}

Tensor isfinite(const Tensor& t) {
  Tensor out = detail::allocate(t.sizes().vec(), ScalarType::Bool, t.device(), detail::have_values({&t}));
  detail::launch({.name = "aten::isfinite", .bytes = detail::nbytes(t) + detail::nbytes(out)}, t.device());
  if (!out.impl().has_values()) return out;
  bool* result = out.impl().data<bool>();
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = t.impl().data<T>();
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, float>) {
        result[i] = std::isfinite(values[i]);
      } else {
        result[i] = true;  // integers and bools are always finite
      }
    }
  });
  return out;
}

bool all(const Tensor& t) {
  read_back(t, "aten::all");
  for (double v : host_values(t)) {
    if (v == 0) return false;
  }
  return true;
}

}  // namespace engine
