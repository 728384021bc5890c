#include "device_checks.h"

#include <string>

#include "engine/errors.h"

namespace engine::detail {

Device common_device(std::initializer_list<const Tensor*> operands) {
  const Tensor* first = nullptr;
  for (const Tensor* t : operands) {
    if (!t->is_cpu()) {
      first = t;
      break;
    }
  }
  if (first == nullptr) return Device(DeviceType::CPU);
  for (const Tensor* t : operands) {
    if (t->device() != first->device()) {
      throw Error("Expected all tensors to be on the same device, but found at least two "
                  "devices, " + first->device().str() + " and " + t->device().str() + "!");
    }
  }
  return first->device();
}

Device binary_device(const Tensor& a, const Tensor& b) {
  if (a.device() != b.device()) {
    if (a.is_cpu() && a.dim() == 0) return b.device();
    if (b.is_cpu() && b.dim() == 0) return a.device();
  }
  return common_device({&a, &b});
}

void check_mps_linear_arguments(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  auto require_mps = [](const Tensor& t, const char* argument) {
    if (!t.is_mps()) {
      throw Error(std::string("Tensor for argument ") + argument + " is on " + t.device().str() +
                  " but expected on mps");
    }
  };
  require_mps(input, "input");
  require_mps(weight, "weight");
  if (bias.defined()) require_mps(bias, "bias");
}

}  // namespace engine::detail
