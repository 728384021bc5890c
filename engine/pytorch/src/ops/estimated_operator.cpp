// sim::estimated_operator: an operator priced by its class (engine/estimated_operator.h).

#include "engine/estimated_operator.h"

#include <utility>

#include "autograd/record.h"
#include "machine/cost_model.h"
#include "mps/availability.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"

namespace engine::sim {
namespace {

// `read`: bytes of operands read beside `inputs` (a gradient's, whose node kept only shapes).
detail::KernelCost cost_of(const std::string& name, OperatorClass kind,
                           const std::vector<Tensor>& inputs, const Tensor& result,
                           ProductShape product, double read) {
  double bytes = detail::nbytes(result) + read;
  for (const Tensor& input : inputs) bytes += detail::nbytes(input);
  if (kind == OperatorClass::Product || kind == OperatorClass::Convolution) {
    return detail::matmul_cost(
        name, {.m = product.m, .n = product.n, .k = product.depth, .batch = product.batch}, bytes);
  }
  return {.name = name,
          .kind = kind == OperatorClass::Reduction ? detail::OpKind::Reduction
                                                   : detail::OpKind::Elementwise,
          .bytes = bytes,
          .elements = static_cast<double>(result.numel())};
}

double product_of(const std::vector<std::int64_t>& sizes) {
  double p = 1;
  for (const std::int64_t s : sizes) p *= static_cast<double>(s);
  return p;
}

// One tensor: a view of the first input, or a new one with the operator's cost.
Tensor run(const std::string& name, OperatorClass kind, const std::vector<Tensor>& inputs,
           std::vector<std::int64_t> sizes, ScalarType dtype, Device device, ProductShape product,
           double read = 0) {
  if (kind == OperatorClass::View && !inputs.empty() && inputs.front().defined()) {
    detail::dispatch_view(name, device);
    Tensor view = detail::share_values(inputs.front(), std::move(sizes));
    view.impl().dtype = dtype;
    return view;
  }
  Tensor result =
      detail::allocate(std::move(sizes), dtype,
                       detail::check_device_usable(device, detail::Placement::Allocated), false);
  if (kind != OperatorClass::View)
    detail::launch(cost_of(name, kind, inputs, result, product, read), device);
  return result;
}

}  // namespace

Tensor estimated_operator(const std::string& name, OperatorClass kind,
                          const std::vector<Tensor>& inputs, IntArrayRef sizes, ScalarType dtype,
                          Device device, ProductShape product) {
  Tensor result = run(name, kind, inputs, sizes.vec(), dtype, device, product);
  bool records = false;
  for (const Tensor& input : inputs) records = records || detail::should_record({&input});
  if (!records) return result;
  // A product's or a convolution's gradients need its operands, which its node saves; an
  // elementwise operator, a reduction or a view saves none (as most of PyTorch's save at most a
  // mask), so only the operands' shapes are kept.
  const bool saves = kind == OperatorClass::Product || kind == OperatorClass::Convolution;
  struct Operand {
    Tensor saved;  // a product's or a convolution's
    std::vector<std::int64_t> sizes;
    ScalarType dtype;
    bool wants_grad;
  };
  std::vector<Operand> operands;
  for (const Tensor& input : inputs) {
    if (!input.defined()) {
      operands.push_back({{}, {}, ScalarType::Float, false});
      continue;
    }
    operands.push_back({saves ? input : Tensor(), input.sizes().vec(), input.scalar_type(),
                        input.requires_grad()});
  }
  const std::string backward = name + "_backward";
  // a view's gradient is a copy or a sum into the input's shape, not a view
  const OperatorClass backward_kind =
      kind == OperatorClass::View ? OperatorClass::Elementwise : kind;
  detail::record(
      result, "EstimatedBackward", inputs,
      [operands, backward, backward_kind, product](const Tensor& grad) {
        std::vector<Tensor> grads;
        for (const Operand& o : operands) {
          if (!o.wants_grad) {
            grads.emplace_back();
            continue;
          }
          std::vector<Tensor> read{grad};
          if (o.saved.defined()) read.push_back(o.saved);
          const double kept = o.saved.defined()
                                  ? 0
                                  : static_cast<double>(elementSize(o.dtype)) * product_of(o.sizes);
          grads.push_back(
              run(backward, backward_kind, read, o.sizes, o.dtype, grad.device(), product, kept));
        }
        return grads;
      },
      saves ? detail::Saves::Tensors : detail::Saves::NoTensors);
  return result;
}

}  // namespace engine::sim
