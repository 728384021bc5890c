// The efficiency factors of the roofline, and where they come from. Two are fitted, one per
// device: the course runs nanoGPT's shakespeare-char training step (tests/benchmarks/
// nanogpt_calibration.cpp, shape-only) on the m3-max-64gb profile, and the matrix-product
// factors are the values that make it predict the ~221 ms (mps) and ~1986 ms (cpu) per
// iteration measured on that machine ("State of PyTorch Metal support", 2025). The bandwidth
// factors are estimates; with one measurement per device, the fitted factors absorb their
// error and everything else the model leaves out (MPSGraph's own fusions, cache effects).

#include "runtime/cost_model.h"

#include <algorithm>

namespace engine::detail {
namespace {

// Fitted to the mps measurement (predicts 222 ms): the step's matrix products run at 83 % of
// the GPU's FP32 peak. The memory-bound rest of the step (attention scores, softmax, dropout,
// their gradients) is then about half of its time.
constexpr double kGpuMatmulEfficiency = 0.83;
// Estimate: memory-bound kernels (elementwise, softmax, reductions) stream at ~70 % of the
// rated bandwidth.
constexpr double kGpuBandwidthEfficiency = 0.70;
// Fitted to the cpu measurement (predicts 1975 ms): PyTorch's cpu matrix products run at 45 %
// of the performance cores' NEON peak.
constexpr double kCpuMatmulEfficiency = 0.45;
// Estimate: cpu elementwise kernels stream at ~50 % of the memory bandwidth the cores reach.
constexpr double kCpuBandwidthEfficiency = 0.50;

double roofline(double flops, double peak, double memory_seconds) {
  const double compute = peak > 0 ? flops / peak : 0.0;
  return std::max(compute, memory_seconds);
}

// Streaming `bytes` on the GPU, the paged-out share of them from swap.
double gpu_memory_seconds(double bytes, const MachineProfile& machine, double paged) {
  const double bandwidth = machine.gpu.value_or(GpuSpec{}).memory_bandwidth * kGpuBandwidthEfficiency;
  if (bandwidth <= 0) return 0;
  return bytes * (1 - paged) / bandwidth + (paged > 0 ? bytes * paged / machine.swap_bandwidth : 0.0);
}

}  // namespace

double paged_fraction(double process_gpu_bytes, const MachineProfile& machine) {
  const double overflow = process_gpu_bytes + static_cast<double>(machine.other_apps_bytes) -
                          static_cast<double>(machine.memory_bytes);
  if (!machine.unified_memory || overflow <= 0 || process_gpu_bytes <= 0) return 0;
  return std::min(1.0, overflow / process_gpu_bytes);
}

double mps_kernel_seconds(const KernelCost& cost, const MachineProfile& machine, double paged) {
  const GpuSpec gpu = machine.gpu.value_or(GpuSpec{});
  return machine.kernel_launch_seconds + roofline(cost.matmul_flops, gpu.fp32_flops * kGpuMatmulEfficiency,
                                                  gpu_memory_seconds(cost.bytes, machine, paged));
}

double cpu_kernel_seconds(const KernelCost& cost, const MachineProfile& machine) {
  const double bandwidth = machine.cpu_memory_bandwidth * kCpuBandwidthEfficiency;
  return machine.cpu_op_seconds + roofline(cost.matmul_flops, machine.cpu_fp32_flops * kCpuMatmulEfficiency,
                                           bandwidth > 0 ? cost.bytes / bandwidth : 0.0);
}

double mps_copy_seconds(double bytes, const MachineProfile& machine, double paged) {
  return machine.kernel_launch_seconds + gpu_memory_seconds(bytes, machine, paged);
}

}  // namespace engine::detail
