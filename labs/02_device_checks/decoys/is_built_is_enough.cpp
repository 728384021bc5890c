// Decoy: picks mps whenever the build has MPS, as if is_built() answered "can I use it?".
// Fails: "choose_device picks mps exactly where it is available"
// Says: "is_built() is about the wheel"

#include "02_device_checks/lab.h"

namespace lab {

MpsState mps_state() {
  if (!torch::backends::mps::is_built()) return MpsState::NotBuilt;
  if (!torch::backends::mps::is_available()) return MpsState::BuiltButUnavailable;
  return MpsState::Available;
}

torch::Device choose_device() {
  return torch::backends::mps::is_built() ? torch::Device("mps") : torch::Device("cpu");
}

std::string diagnosis() {
  switch (mps_state()) {
    case MpsState::NotBuilt:
      return "not built: install the macOS arm64 wheel from an arm64 Python";
    case MpsState::BuiltButUnavailable:
      return "built but unavailable: update macOS; use the cpu meanwhile";
    case MpsState::Available:
      break;
  }
  return "available: move the model and the batch to mps";
}

bool on_gpu(const torch::Tensor& t) { return t.device().type() == torch::kMPS; }

}  // namespace lab
