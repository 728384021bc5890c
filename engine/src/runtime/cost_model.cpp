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

double roofline(double flops, double peak, double bytes, double bandwidth) {
  const double compute = peak > 0 ? flops / peak : 0.0;
  const double memory = bandwidth > 0 ? bytes / bandwidth : 0.0;
  return std::max(compute, memory);
}

}  // namespace

double mps_kernel_seconds(const KernelCost& cost, const MachineProfile& machine) {
  const GpuSpec gpu = machine.gpu.value_or(GpuSpec{});
  return machine.kernel_launch_seconds +
         roofline(cost.matmul_flops, gpu.fp32_flops * kGpuMatmulEfficiency, cost.bytes,
                  gpu.memory_bandwidth * kGpuBandwidthEfficiency);
}

double cpu_kernel_seconds(const KernelCost& cost, const MachineProfile& machine) {
  return machine.cpu_op_seconds +
         roofline(cost.matmul_flops, machine.cpu_fp32_flops * kCpuMatmulEfficiency, cost.bytes,
                  machine.cpu_memory_bandwidth * kCpuBandwidthEfficiency);
}

double mps_copy_seconds(double bytes, const MachineProfile& machine) {
  const GpuSpec gpu = machine.gpu.value_or(GpuSpec{});
  return machine.kernel_launch_seconds +
         roofline(0, 0, bytes, gpu.memory_bandwidth * kGpuBandwidthEfficiency);
}

}  // namespace engine::detail
