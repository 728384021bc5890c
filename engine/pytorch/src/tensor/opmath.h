#pragma once
// Internal: how a floating-point kernel reads and writes tensors of any floating dtype.
//
// Note [Half precision computes in float32]
// PyTorch's kernels do no arithmetic in float16 or bfloat16. They widen each value to float32
// (at::opmath_type<at::Half> is float, aten/src/ATen/OpMathType.h), compute there, accumulating
// sums, dot products and the statistics of softmax and layer norm in float32 too
// (at::acc_type<at::Half, false> is float, aten/src/ATen/AccumulateType.h), and round each
// result once, to nearest even, into the output's dtype. The engine does the same: an operation
// reads its inputs through ValuesAs (a float32 tensor's own values, or a widened copy), runs
// the float32 kernel in the device's fixed order, and rounds through ResultAs (Note
// [Portable half rounding], engine/half.h). float64 computes in double.
//
// On mps this is the emulator's model, not a measurement: MPSGraph's kernels are closed source,
// and the emulator assumes they widen and accumulate as ATen's cpu kernels do, in the GPU order
// of Note [Summation order on mps].

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "engine/errors.h"
#include "engine/scalar.h"
#include "engine/tensor.h"
#include "tensor/dtype_dispatch.h"
#include "tensor/tensor_impl.h"

namespace engine::detail {

// A tensor's values as the compute type C (float, double, std::int64_t or bool), converted and
// copied unless the tensor already holds C.
template <typename C>
class ValuesAs {
 public:
  explicit ValuesAs(const Tensor& t) {
    if (!t.defined() || !t.impl().has_values()) return;
    if (t.scalar_type() == scalar_type_of<C>()) {
      data_ = t.impl().data<C>();
      return;
    }
    const auto n = static_cast<std::size_t>(t.numel());
    copy_ = std::make_unique<C[]>(n);
    visit_dtype(t.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      const T* values = t.impl().data<T>();
      for (std::size_t i = 0; i < n; ++i) copy_[i] = cast_value<C>(values[i]);
    });
    data_ = copy_.get();
  }
  // Null for an undefined tensor (an optional weight, say) or a shape-only one.
  const C* data() const noexcept { return data_; }

 private:
  const C* data_ = nullptr;
  std::unique_ptr<C[]> copy_;  // not a std::vector: vector<bool> has no data()
};

// Where a kernel writes a result of compute type C for the tensor `out`: `out` itself when it
// holds C, else a scratch buffer that store() rounds into it.
template <typename C>
class ResultAs {
 public:
  explicit ResultAs(const Tensor& out) : out_(out) {
    if (out.scalar_type() == scalar_type_of<C>()) {
      data_ = out.impl().data<C>();
    } else {
      scratch_ = std::make_unique<C[]>(static_cast<std::size_t>(out.numel()));  // zeroed
      data_ = scratch_.get();
    }
  }
  C* data() noexcept { return data_; }
  void store() {
    if (!scratch_) return;
    visit_dtype(out_.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      T* values = out_.impl().data<T>();
      for (std::int64_t i = 0; i < out_.numel(); ++i) values[i] = cast_value<T>(scratch_[i]);
    });
  }

 private:
  Tensor out_;
  C* data_ = nullptr;
  std::unique_ptr<C[]> scratch_;
};

// Calls f(C{}) with C the type an elementwise operation whose result is `dtype` computes in:
// float for float16, bfloat16 and float32, double for float64, std::int64_t for every integer
// type (results wrap to the narrower type when stored), bool for bool.
template <typename F>
decltype(auto) dispatch_compute(ScalarType dtype, F&& f) {
  if (dtype == ScalarType::Double) return f(double{});
  if (is_floating_point(dtype)) return f(float{});
  if (dtype == ScalarType::Bool) return f(bool{});
  return f(std::int64_t{});
}

// A Python number as an element of type T: an integer exactly, a float rounded once (a float
// into an integer type as Note [Converting to integers] says).
template <typename T>
T scalar_value(const Scalar& s) {
  if (s.isFloatingPoint()) return cast_value<T>(s.toDouble());
  if (s.isBoolean()) return cast_value<T>(s.toBool());
  return cast_value<T>(s.toLong());
}

// Whether the engine computes an operation in float64 too (elementwise arithmetic, sums and
// products do; most nn functions are float32, float16 and bfloat16 only).
enum class Float64 { Computed, NotImplemented };

// Calls f(C{}) with C the compute type of a floating dtype: float for float16, bfloat16 and
// float32, double for float64. Other dtypes get PyTorch's text for a kernel without them,
// '"<kernel>" not implemented for 'Long'', raised as AT_DISPATCH raises it since PyTorch 2.x: a
// NotImplementedError (TORCH_CHECK_NOT_IMPLEMENTED).
template <typename F>
decltype(auto) dispatch_floating(ScalarType dtype, std::string_view kernel, Float64 float64,
                                 F&& f) {
  if (!is_floating_point(dtype)) {
    throw NotImplementedError("\"" + std::string(kernel) + "\" not implemented for '" +
                              std::string(scalar_type_name(dtype)) + "'");
  }
  if (dtype != ScalarType::Double) return f(float{});
  if (float64 == Float64::NotImplemented) {
    throw Error("the course engine computes " + std::string(kernel) +
                " in float32, float16 and bfloat16, not in float64");
  }
  return f(double{});
}

}  // namespace engine::detail
