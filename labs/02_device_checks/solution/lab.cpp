// Lab 2 · Device checks: the reference solution.

#include "02_device_checks/lab.h"

namespace lab {

MpsState mps_state() {
  if (!py::torch::backends::mps::is_built()) return MpsState::NotBuilt;
  if (!py::torch::backends::mps::is_available()) return MpsState::BuiltButUnavailable;
  return MpsState::Available;
}

torch::Device choose_device() {
  return py::torch::backends::mps::is_available() ? torch::Device("mps") : torch::Device("cpu");
}

std::string diagnosis() {
  switch (mps_state()) {
    case MpsState::NotBuilt:
      return "not built: this PyTorch has no MPS; install the macOS arm64 wheel from an arm64 Python";
    case MpsState::BuiltButUnavailable:
      return "built but unavailable: update macOS or move to Apple silicon; train on the cpu meanwhile";
    case MpsState::Available:
      break;
  }
  return "available: put the model and the batch on mps, together";
}

bool on_gpu(const torch::Tensor& t) { return t.device().type() == torch::kMPS; }

}  // namespace lab
