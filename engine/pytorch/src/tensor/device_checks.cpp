#include "tensor/device_checks.h"

#include <optional>
#include <string>

#include "engine/errors.h"

namespace engine::detail {
namespace {

// How at::TensorArg prints: position 0 is 'self' or the output, named without a number.
std::string describe(const TensorArg& arg) {
  const std::string quoted = "'" + std::string(arg.name) + "'";
  return arg.pos == 0 ? quoted : "argument #" + std::to_string(arg.pos) + " " + quoted;
}

// checkSameGPU: the cpu clause. Its other clause compares device indices, which cannot differ
// with one MPS device; and since at least one tensor is on the cpu here, PyTorch's "them" (for
// neither) never prints.
void check_same_gpu(std::string_view checked_from, const TensorArg& t1, const TensorArg& t2) {
  if (!t1.device.is_cpu() && !t2.device.is_cpu()) return;
  std::string text;
  if (t1.device.is_cpu()) text += "Tensor for " + describe(t1) + " is on CPU, ";
  if (t2.device.is_cpu()) text += "Tensor for " + describe(t2) + " is on CPU, ";
  throw Error(text + "but expected it to be on GPU (while checking arguments for " +
              std::string(checked_from) + ")");
}

}  // namespace

bool any_on_mps(std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors) {
    if (t->defined() && t->is_mps()) return true;
  }
  return false;
}

Device check_all_same_device(std::initializer_list<IterOperand> outputs,
                             std::initializer_list<IterOperand> inputs, CpuScalars cpu_scalars) {
  std::optional<Device> common;
  for (auto operands : {outputs, inputs}) {
    for (const IterOperand& op : operands) {
      if (!common && !op.device.is_cpu()) common = op.device;
    }
  }
  if (!common) return Device(DeviceType::CPU);
  // PyTorch lets one cpu scalar in; the ops that allow any have two inputs, so no second
  // can stand beside a tensor on another device.
  auto check = [&common](const IterOperand& op, bool may_be_scalar) {
    if (may_be_scalar && op.device.is_cpu() && op.zero_dim) return;
    if (op.device != *common) {
      throw Error(
          "Expected all tensors to be on the same device, but found at least two devices, " +
          common->str() + " and " + op.device.str() + "!");
    }
  };
  for (const IterOperand& op : outputs) check(op, false);
  for (const IterOperand& op : inputs) check(op, cpu_scalars == CpuScalars::Allowed);
  return *common;
}

void check_all_same_gpu(std::string_view checked_from, std::initializer_list<TensorArg> args) {
  const TensorArg& first = *args.begin();
  for (const TensorArg& arg : args) {
    if (&arg != &first) check_same_gpu(checked_from, first, arg);
  }
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

void check_placeholder_storage(std::initializer_list<const Tensor*> inputs) {
  for (const Tensor* t : inputs) {
    if (t->defined() && !t->is_mps())
      throw Error("Placeholder storage has not been allocated on MPS device!");
  }
}

void check_mtl_buffers(std::initializer_list<const Tensor*> arguments) {
  for (const Tensor* t : arguments) {
    if (t->defined() && t->is_cpu() && t->dim() != 0) throw Error("Passed CPU tensor to MPS op");
  }
}

void torch_check_is_mps(const Tensor& tensor, std::string_view name) {
  if (tensor.is_mps()) return;
  throw Error(
      "Expected " + std::string(name) +
      ".is_mps() to be true, but got false.  (Could this error message be improved?  If so, "
      "please report an enhancement request to PyTorch.)");
}

void dot_check_devices(const Tensor& self, const Tensor& other) {
  if (self.device() == other.device()) return;
  throw Error("Expected all tensors to be on the same device. Found: " + self.device().str() +
              ", " + other.device().str());
}

void mps_equal_check_devices(const Tensor& self, const Tensor& src) {
  if (self.device() == src.device()) return;
  throw Error("Cannot compare two tensors on different devices. Got: " + self.device().str() +
              " and " + src.device().str());
}

void validate_sdpa_input_devices(const Tensor& query, const Tensor& key, const Tensor& value) {
  if (query.device() == key.device() && query.device() == value.device()) return;
  throw Error(
      "Expected query, key, and value to have the same device type, but got query.device: " +
      query.device().str() + " key.device: " + key.device().str() +
      " and value.device: " + value.device().str() + " instead.");
}

}  // namespace engine::detail
