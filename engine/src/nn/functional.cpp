#include "engine/nn/functional.h"

#include <string>
#include <vector>

#include "device_checks.h"
#include "engine/errors.h"
#include "kernels/kernels.h"
#include "tensor_impl.h"

namespace engine::nn::functional {

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  // The MPS kernel is chosen when any argument is on mps (its dispatch key outranks cpu's), and
  // it then requires all of them there.
  const bool mps = input.is_mps() || weight.is_mps() || (bias.defined() && bias.is_mps());
  if (mps) {
    detail::check_mps_linear_arguments(input, weight, bias);
  } else if (bias.defined()) {
    detail::common_device({&input, &weight, &bias});
  } else {
    detail::common_device({&input, &weight});
  }
  if (input.scalar_type() != ScalarType::Float || weight.scalar_type() != ScalarType::Float) {
    throw Error("the course engine computes linear on float32 tensors only");
  }
  const std::int64_t in = weight.size(1), out = weight.size(0);
  if (input.dim() == 0 || input.size(-1) != in) {
    const std::int64_t cols = input.dim() == 0 ? 1 : input.size(-1);
    const std::int64_t rows = input.dim() == 0 ? 1 : input.numel() / std::max<std::int64_t>(cols, 1);
    throw Error("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(rows) + "x" +
                std::to_string(cols) + " and " + std::to_string(in) + "x" + std::to_string(out) + ")");
  }
  std::vector<std::int64_t> out_shape = input.sizes().vec();
  out_shape.back() = out;
  Tensor result = detail::allocate(out_shape, ScalarType::Float, input.device());
  kernels::linear(input.impl().data<float>(), weight.impl().data<float>(),
                  bias.defined() ? bias.impl().data<float>() : nullptr,
                  result.impl().data<float>(), input.numel() / in, in, out);
  return result;
}

}  // namespace engine::nn::functional
