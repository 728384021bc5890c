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

double mps_kernel_seconds(const KernelCost& cost, const MachineProfile& machine);
double cpu_kernel_seconds(const KernelCost& cost, const MachineProfile& machine);
// A copy between host and GPU buffers of `bytes`.
double mps_copy_seconds(double bytes, const MachineProfile& machine);

}  // namespace engine::detail
