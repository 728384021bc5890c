#include "engine/nn/init.h"

#include <cmath>

#include "engine/errors.h"
#include "machine/process.h"
#include "mps/stream.h"
#include "random/samplers.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::init {

void uniform_(const Tensor& tensor, double from, double to) {
  if (!tensor.is_cpu()) {
    throw Error("the course engine initialises parameters on the cpu; move the module after");
  }
  detail::Process& p = detail::process();
  detail::launch({.name = "aten::uniform_",
                  .kind = detail::OpKind::Random,
                  .bytes = detail::nbytes(tensor),
                  .elements = static_cast<double>(tensor.numel())},
                 tensor.device());
  if (!detail::have_values({&tensor})) return;  // a shape-only parameter: its cost only
  detail::fill_uniform(tensor.data_ptr<float>(), tensor.numel(), p.cpu_generator, from, to,
                       p.cpu_kernels());
}

// torch/nn/init.py: fan_in from _calculate_fan_in_and_fan_out, gain from calculate_gain for
// leaky_relu (math.sqrt(2.0 / (1 + param ** 2))), then bound = sqrt(3) * gain / sqrt(fan_in).
// The arithmetic is Python's, in double, step for step.
void kaiming_uniform_(const Tensor& tensor, double a) {
  if (tensor.dim() < 2) {
    throw ValueError(
        "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  }
  double fan_in = static_cast<double>(tensor.size(1));
  for (std::int64_t d = 2; d < tensor.dim(); ++d) fan_in *= static_cast<double>(tensor.size(d));
  const double gain = std::sqrt(2.0 / (1 + a * a));  // a ** 2, correctly rounded as a * a is
  const double std_dev = gain / std::sqrt(fan_in);
  const double bound = std::sqrt(3.0) * std_dev;
  uniform_(tensor, -bound, bound);
}

}  // namespace engine::nn::init
