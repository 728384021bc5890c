// Questions about values rather than arithmetic: the elementwise comparisons (eq, lt, ...,
// computed in the operands' promoted dtype, aten/src/ATen/native/BinaryOps.cpp), torch.equal,
// torch.allclose, torch.isfinite and Tensor.all. equal, allclose and all return a host bool, so
// on mps they wait for the device, as PyTorch's do.

#include <cmath>

#include "engine/errors.h"
#include "engine/ops.h"
#include "engine/type_promotion.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "ops/broadcast.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// The values as doubles, read directly: the caller has charged the read.
std::vector<double> host_values(const Tensor& t) {
  detail::require_values(t, "reading values");
  std::vector<double> out(static_cast<std::size_t>(t.numel()));
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = t.impl().data<T>();
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = detail::cast_value<double>(values[i]);
  });
  return out;
}

Tensor compare(kernels::CompareOp op, const Tensor& a, const Tensor& b, const char* aten) {
  const Device device = detail::check_all_same_device({}, {a, b}, detail::CpuScalars::Allowed);
  const ScalarType common = result_type(a, b);
  const std::vector<std::int64_t> shape = detail::broadcast_shape(a.sizes(), b.sizes());
  Tensor out = detail::allocate(shape, ScalarType::Bool, device, detail::have_values({&a, &b}));
  if (out.impl().has_values()) {
    detail::dispatch_compute(common, [&](auto tag) {
      using C = decltype(tag);
      const detail::ValuesAs<C> x(a), y(b);
      kernels::compare(op, x.data(), detail::broadcast_strides(a.sizes(), shape), y.data(),
                       detail::broadcast_strides(b.sizes(), shape), out.impl().data<bool>(), shape);
    });
  }
  detail::launch({.name = aten,
                  .bytes = detail::nbytes(a) + detail::nbytes(b) + detail::nbytes(out),
                  .elements = static_cast<double>(out.numel()),
                  .dtype = common},
                 device);
  return out;
}

// A Python number compared with a tensor: wrapped as a 0-dim tensor of the promoted dtype, so
// that the comparison happens there (an int tensor against 2.5 compares in float32).
Tensor wrapped(const Tensor& t, const Scalar& s) {
  Tensor number =
      detail::allocate({}, result_type(t, s), Device(DeviceType::CPU), detail::have_values({&t}));
  if (number.impl().has_values()) {
    detail::visit_dtype(number.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      number.impl().data<T>()[0] = detail::scalar_value<T>(s);
    });
  }
  return number;
}

void read_back(const Tensor& t, const char* op) {
  detail::launch({.name = op, .kind = detail::OpKind::Reduction, .bytes = detail::nbytes(t)},
                 t.device());
  if (t.is_mps()) detail::copy_between(t.device(), Device(DeviceType::CPU), 1);
}

}  // namespace

using kernels::CompareOp;
Tensor eq(const Tensor& a, const Tensor& b) { return compare(CompareOp::Eq, a, b, "aten::eq"); }
Tensor ne(const Tensor& a, const Tensor& b) { return compare(CompareOp::Ne, a, b, "aten::ne"); }
Tensor lt(const Tensor& a, const Tensor& b) { return compare(CompareOp::Lt, a, b, "aten::lt"); }
Tensor le(const Tensor& a, const Tensor& b) { return compare(CompareOp::Le, a, b, "aten::le"); }
Tensor gt(const Tensor& a, const Tensor& b) { return compare(CompareOp::Gt, a, b, "aten::gt"); }
Tensor ge(const Tensor& a, const Tensor& b) { return compare(CompareOp::Ge, a, b, "aten::ge"); }
Tensor eq(const Tensor& a, const Scalar& b) { return eq(a, wrapped(a, b)); }
Tensor ne(const Tensor& a, const Scalar& b) { return ne(a, wrapped(a, b)); }
Tensor lt(const Tensor& a, const Scalar& b) { return lt(a, wrapped(a, b)); }
Tensor le(const Tensor& a, const Scalar& b) { return le(a, wrapped(a, b)); }
Tensor gt(const Tensor& a, const Scalar& b) { return gt(a, wrapped(a, b)); }
Tensor ge(const Tensor& a, const Scalar& b) { return ge(a, wrapped(a, b)); }

bool equal(const Tensor& a, const Tensor& b) {
  detail::mps_equal_check_devices(a,
                                  b);  // tensors on two devices: one is on mps, so mps_equal runs
  if (a.sizes() != b.sizes()) return false;
  read_back(a, "aten::equal");
  return host_values(a) == host_values(b);
}

// isclose (aten/src/ATen/native/TensorCompare.cpp), then all(): equal values are close (equal
// infinities too); otherwise |a - b| <= atol + |rtol x b|, computed in float32 as PyTorch's
// tensor arithmetic computes it, and finite.
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  detail::check_all_same_device({}, {a, b}, detail::CpuScalars::Allowed);
  if (a.scalar_type() != b.scalar_type()) {
    throw Error(std::string(scalar_type_name(a.scalar_type())) + " did not match " +
                std::string(scalar_type_name(b.scalar_type())));
  }
  const std::vector<std::int64_t> shape = detail::broadcast_shape(a.sizes(), b.sizes());
  read_back(a, "aten::isclose");
  const std::vector<double> va = host_values(a), vb = host_values(b);
  const std::vector<std::int64_t> sa = detail::broadcast_strides(a.sizes(), shape);
  const std::vector<std::int64_t> sb = detail::broadcast_strides(b.sizes(), shape);
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::int64_t n = 0, count = product(shape); n < count; ++n) {
    std::int64_t ia = 0, ib = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      ia += index[d] * sa[d];
      ib += index[d] * sb[d];
    }
    const auto x = static_cast<float>(va[static_cast<std::size_t>(ia)]);
    const auto y = static_cast<float>(vb[static_cast<std::size_t>(ib)]);
    const float error = std::abs(x - y);
    const float allowed = static_cast<float>(atol) + std::abs(static_cast<float>(rtol) * y);
    const bool close = x == y || (equal_nan && std::isnan(x) && std::isnan(y)) ||
                       (std::isfinite(error) && error <= allowed);
    if (!close) return false;
    for (std::size_t d = shape.size(); d-- > 0;) {  // the next index, row-major
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return true;
}

Tensor isfinite(const Tensor& t) {
  Tensor out =
      detail::allocate(t.sizes().vec(), ScalarType::Bool, t.device(), detail::have_values({&t}));
  detail::launch({.name = "aten::isfinite", .bytes = detail::nbytes(t) + detail::nbytes(out)},
                 t.device());
  if (!out.impl().has_values()) return out;
  bool* result = out.impl().data<bool>();
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = t.impl().data<T>();
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_integral_v<T>) {
        result[i] = true;  // integers and bools are always finite
      } else {
        result[i] = std::isfinite(detail::cast_value<double>(values[i]));
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
