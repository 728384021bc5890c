#pragma once
// The state of one simulated process: the machine it runs on and what PyTorch creates once per
// process. sim::restart() replaces it wholesale, as starting a new Python process would.

#include <optional>

#include "engine/machine.h"
#include "random/cpu_generator.h"
#include "random/samplers.h"

namespace engine::detail {

struct Process {
  explicit Process(const MachineProfile& profile) : machine(profile) {}

  MachineProfile machine;  // a copy: the caller's profile need not outlive the process
  std::optional<bool> mps_available;  // torch.backends.mps.is_available() is lru_cached
  CpuGenerator cpu_generator;

  CpuKernels cpu_kernels() const {
    if (machine.python_architecture == Architecture::Arm64) return CpuKernels::Arm64;
    return machine.cpu_has_avx2 ? CpuKernels::X86Avx2 : CpuKernels::X86Baseline;
  }
};

Process& process();

}  // namespace engine::detail
