#pragma once
// Internal: what one operation costs on a simulated machine. A roofline: a kernel takes as long
// as the larger of its arithmetic at an achieved fraction of peak and its memory traffic at an
// achieved fraction of bandwidth, plus a fixed launch cost on the GPU. The machine profile gives
// the peaks; cost_model.cpp gives the fractions and where each one comes from.

#include <string_view>

#include "engine/machine.h"

namespace engine::detail {

struct KernelCost {
  std::string_view name;    // PyTorch's operator name, "aten::mm"
  double matmul_flops = 0;  // multiply-adds x 2 of matrix products; other arithmetic is cheap
  double bytes = 0;         // memory read and written
};

// `paged_fraction`: the share of the process's GPU memory macOS has moved to swap; that share
// of a kernel's memory traffic goes at the SSD's speed instead of the memory's.
double mps_kernel_seconds(const KernelCost& cost, const MachineProfile& machine, double paged_fraction = 0);
double cpu_kernel_seconds(const KernelCost& cost, const MachineProfile& machine);
// A copy between host and GPU buffers of `bytes`.
double mps_copy_seconds(double bytes, const MachineProfile& machine, double paged_fraction = 0);
// Unified memory is the machine's: once the process's GPU memory and the other applications'
// memory exceed it, the overflow is paged out, as a share of the process's GPU memory.
double paged_fraction(double process_gpu_bytes, const MachineProfile& machine);

}  // namespace engine::detail
