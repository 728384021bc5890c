// sum and mean over dimensions (aten/src/ATen/native/ReduceOps.cpp), and their gradients:
// the output's gradient spread back over every element that was reduced. Integral and bool
// tensors sum to int64; their mean is refused, as in PyTorch.

#include <algorithm>
#include <limits>
#include <string>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/ops.h"
#include "kernels/kernels.h"
#include "kernels/mps_kernels.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// Which dimensions a reduction over `dims` removes; an empty list means all of them.
std::vector<bool> reduced_dims(IntArrayRef dims, std::int64_t ndim) {
  std::vector<bool> reduced(static_cast<std::size_t>(std::max<std::int64_t>(ndim, 1)),
                            dims.empty());
  for (std::int64_t d : dims) {
    const auto w = static_cast<std::size_t>(detail::wrap_dim(d, ndim));
    if (reduced[w]) {
      throw Error("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    }
    reduced[w] = true;
  }
  return reduced;
}

// The view a reduction over dimension `d` works on; afterwards the dimension has size 1.
detail::Axis collapse(std::vector<std::int64_t>& sizes, std::size_t d) {
  const detail::Axis axis = detail::axis_around(sizes, d);
  sizes[d] = 1;
  return axis;
}

// The result's shape: the reduced dimensions dropped, or kept with size 1.
std::vector<std::int64_t> result_sizes(const std::vector<std::int64_t>& collapsed,
                                       const std::vector<bool>& reduced, bool keepdim) {
  std::vector<std::int64_t> kept;
  for (std::size_t d = 0; d < collapsed.size(); ++d) {
    if (keepdim || !reduced[d]) kept.push_back(collapsed[d]);
  }
  return kept;
}

// Runs `sum_axis(in, out, axis)` over each reduced dimension of a contiguous tensor of `sizes`,
// innermost first, keeping the partial sums in `scratch`; returns where the result is (`in`
// itself when nothing is reduced). Afterwards `sizes` has each reduced dimension at 1. Without
// values (a shape-only tensor) only `sizes` changes.
template <typename T, typename SumAxis>
const T* reduce_axes(const T* in, bool values, std::vector<T>& scratch,
                     std::vector<std::int64_t>& sizes, const std::vector<bool>& reduced,
                     SumAxis sum_axis) {
  for (std::size_t d = sizes.size(); d-- > 0;) {
    if (!reduced[d]) continue;
    const detail::Axis axis = collapse(sizes, d);
    if (!values) continue;
    std::vector<T> next(static_cast<std::size_t>(axis.outer * axis.inner));
    sum_axis(in, next.data(), axis);
    scratch = std::move(next);
    in = scratch.data();
  }
  return in;
}

// Sums (mean: averages) the reduced dimensions one at a time, innermost first, in the compute
// type C (Note [Half precision computes in float32]); the device's kernel for float, the cpu's
// for double (mps has none). Returns the reduced values, `sizes` set to the kept shape.
template <typename C>
std::vector<C> reduce_values(const Tensor& x, const std::vector<bool>& reduced, bool average,
                             std::vector<std::int64_t>& sizes) {
  const detail::ValuesAs<C> input(x);
  std::vector<C> scratch;
  const C* result = reduce_axes(
      input.data(), true, scratch, sizes, reduced, [&](const C* in, C* out, const detail::Axis& a) {
        // The mean of no elements is 0 / 0: NaN, as in PyTorch.
        const double scale = !average  ? 1.0
                             : a.n > 0 ? 1.0 / static_cast<double>(a.n)
                                       : std::numeric_limits<double>::quiet_NaN();
        if constexpr (std::is_same_v<C, float>) {
          kernels::summation_on(x.device()).sum_over_axis(in, out, a.outer, a.n, a.inner, scale);
        } else {
          kernels::sum_over_axis(in, out, a.outer, a.n, a.inner, scale);
        }
      });
  return std::vector<C>(result, result + product(sizes));  // a 0-dim input: a copy of it
}

// Sums (mean: averages) the reduced dimensions; charged as the one kernel PyTorch runs. Only
// the result is allocated: the partial sums of a reduction over several dimensions stay in the
// kernel's scratch memory, as in PyTorch's single reduction.
Tensor reduce(const Tensor& x, const std::vector<bool>& reduced, bool keepdim, bool average) {
  const std::int64_t ndim = x.dim();
  const bool values = detail::have_values({&x});
  std::vector<std::int64_t> sizes = x.sizes().vec();
  Tensor out;
  detail::dispatch_floating(x.scalar_type(), average ? "mean" : "sum", detail::Float64::Computed,
                            [&](auto tag) {
                              using C = decltype(tag);
                              std::vector<C> result;
                              if (values) {
                                result = reduce_values<C>(x, reduced, average, sizes);
                              } else {
                                reduce_axes<C>(nullptr, false, result, sizes, reduced,
                                               [](const C*, C*, const detail::Axis&) {});
                              }
                              out = detail::allocate(result_sizes(sizes, reduced, keepdim),
                                                     x.scalar_type(), x.device(), values);
                              if (!values) return;
                              detail::ResultAs<C> stored(out);
                              std::copy(result.begin(), result.end(), stored.data());
                              stored.store();
                            });
  std::int64_t innermost_run =
      0;  // the contiguous elements each output sums, when they are innermost
  for (std::int64_t d = ndim - 1; d >= 0 && reduced[static_cast<std::size_t>(d)]; --d) {
    innermost_run = std::max<std::int64_t>(innermost_run, 1) * x.size(d);
  }
  detail::launch({.name = average ? "aten::mean.dim" : "aten::sum.dim_IntList",
                  .kind = detail::OpKind::Reduction,
                  .bytes = detail::nbytes(x) + detail::nbytes(out),
                  .elements = static_cast<double>(x.numel()),
                  .row = innermost_run,
                  .dtype = x.scalar_type()},
                 x.device());
  return out;
}

// The sum of integers or bools: exact in int64 (wrapping past its range), the type PyTorch gives
// every integral sum.
Tensor sum_integers(const Tensor& x, const std::vector<bool>& reduced, bool keepdim) {
  const bool values = detail::have_values({&x});
  std::vector<std::int64_t> sizes = x.sizes().vec();
  std::vector<std::int64_t> scratch;
  const detail::ValuesAs<std::int64_t> input(values ? x : Tensor());
  const std::int64_t* result =
      reduce_axes(input.data(), values, scratch, sizes, reduced,
                  [](const std::int64_t* in, std::int64_t* out, const detail::Axis& a) {
                    for (std::int64_t o = 0; o < a.outer; ++o) {
                      for (std::int64_t r = 0; r < a.n; ++r) {
                        for (std::int64_t i = 0; i < a.inner; ++i) {
                          std::int64_t& total = out[o * a.inner + i];
                          total = static_cast<std::int64_t>(
                              static_cast<std::uint64_t>(total) +
                              static_cast<std::uint64_t>(in[(o * a.n + r) * a.inner + i]));
                        }
                      }
                    }
                  });
  Tensor out =
      detail::allocate(result_sizes(sizes, reduced, keepdim), ScalarType::Long, x.device(), values);
  if (values) std::copy_n(result, out.numel(), out.impl().data<std::int64_t>());
  detail::launch({.name = "aten::sum.dim_IntList",
                  .kind = detail::OpKind::Reduction,
                  .bytes = detail::nbytes(x) + detail::nbytes(out),
                  .elements = static_cast<double>(x.numel()),
                  .dtype = ScalarType::Long},
                 x.device());
  return out;
}

Tensor reduction(const Tensor& x, IntArrayRef dims, bool keepdim, bool average) {
  if (!average && !x.is_floating_point())
    return sum_integers(x, reduced_dims(dims, x.dim()), keepdim);
  if (!x.is_floating_point()) {
    throw Error(std::string(average ? "mean" : "sum") +
                "(): could not infer output dtype. Input dtype must be either a floating point or "
                "complex dtype. Got: " +
                std::string(scalar_type_name(x.scalar_type())));
  }
  const std::vector<bool> reduced = reduced_dims(dims, x.dim());
  Tensor out = reduce(x, reduced, keepdim, average);
  if (!detail::should_record({&x})) return out;
  const std::string name =
      std::string(average ? "Mean" : "Sum") + (dims.empty() ? "Backward0" : "Backward1");
  // Saves the input's shape and device, not its values.
  const std::vector<std::int64_t> shape = x.sizes().vec();
  const Device device = x.device();
  detail::record(
      out, name, {x},
      [shape, device, reduced, average](const Tensor& g) {
        std::vector<std::int64_t> kept_shape = shape;
        std::int64_t count = 1;
        for (std::size_t d = 0; d < kept_shape.size(); ++d) {
          if (reduced[d]) {
            count *= kept_shape[d];
            kept_shape[d] = 1;
          }
        }
        const Tensor spread =
            zeros(shape, TensorOptions(g.scalar_type()).device(device)) + g.reshape(kept_shape);
        return std::vector<Tensor>{
            average ? spread / static_cast<double>(std::max<std::int64_t>(count, 1)) : spread};
      },
      detail::Saves::NoTensors);
  return out;
}

}  // namespace

Tensor Tensor::sum(IntArrayRef dims, bool keepdim) const {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::Sum, {*this})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return cast->inputs[0].sum(dims, keepdim);
  }
  return reduction(*this, dims, keepdim, false);
}
Tensor Tensor::sum() const { return sum({}, false); }
Tensor Tensor::mean(IntArrayRef dims, bool keepdim) const {
  return reduction(*this, dims, keepdim, true);
}
Tensor Tensor::mean() const { return reduction(*this, {}, false, true); }

}  // namespace engine
