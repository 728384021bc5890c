// Decoy: knows two states, "mps works" and "mps does not", so a Mac whose build has MPS but
// whose macOS is too old is told to reinstall PyTorch.
// Fails: "mps_state and the diagnosis name each machine's state"
// Says: "is_built() is True and is_available() is False"

#include "02_device_checks/lab.h"

namespace lab {

MpsState mps_state() {
  return torch::backends::mps::is_available() ? MpsState::Available : MpsState::NotBuilt;
}

torch::Device choose_device() {
  return torch::backends::mps::is_available() ? torch::Device("mps") : torch::Device("cpu");
}

std::string diagnosis() {
  if (mps_state() == MpsState::Available) return "available: move the model and the batch to mps";
  return "not built: install the macOS arm64 wheel from an arm64 Python";
}

bool on_gpu(const torch::Tensor& t) { return t.device().type() == torch::kMPS; }

}  // namespace lab
