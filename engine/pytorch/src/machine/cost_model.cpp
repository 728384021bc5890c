// Note [The cost model]
// What an operation costs, built the way the hardware and PyTorch 2.9 spend the time. Every
// constant says where it comes from:
//   [fit]       fitted to the validation set's fit cases (tests/data/cost_model_cases.toml,
//               role = "fit": the M1 Pro's and the M3 Max's published op timings, and nanoGPT's
//               runs on the M3 Max, seed 003); the check cases were not used
//   [measured]  read off a published measurement, cited
//   [estimate]  a plausible figure with no measurement behind it
// The machine-specific numbers (peaks, bandwidths, latencies) live in machine_profiles.cpp,
// the host's encoding and the sync points in stream.cpp.
//
// GPU (mps). A kernel takes the larger of its arithmetic and its memory traffic, each at an
// achieved share of the chip's peak, plus a fixed launch cost. The shares are not constants:
// they ramp up with the size of the work, per GPU core (a kernel too small to keep every core
// busy gets a share of the chip), and for matrix products with each of the product's
// dimensions (a product with 32 columns fills a fraction of each tile). So the same product
// runs at a different share of peak on an 8-core M1 and a 40-core M3 Max. Three kinds of kernel
// run far below this roofline on MPS and are priced as measured: softmax, a batch of matrices
// times one shared matrix, and products with very large results.
//
// CPU. PyTorch's macOS wheels call Accelerate for matrix products, which runs them on the AMX
// matrix units beside each performance-core cluster: far above what the cores' NEON units
// reach. Streaming kernels go at the bandwidth PyTorch's own cpu kernels reach on that chip;
// per-element functions (exp, erf) cost the cores' cycles, and random numbers one core's.
// Convolutions take NNPACK and a loop over the images (Note [The cpu's convolution]).
//
// Note [The cpu's convolution]
// PyTorch's macOS arm64 wheels are built with NNPACK and without oneDNN, so ATen's convolution
// picks its backend by Convolution.cpp's use_nnpack: a float32 conv2d whose batch is 16 or
// more (and whose padding is smaller than its kernel) runs forward through NNPACK; its backward
// through slow_conv_dilated2d (_convolution_backward_nogroup_backend: "nnpack backward does not
// support strided convolutions; use slow impl instead"), whose loop takes the batch one image
// at a time: a matrix product and col2im for the input's gradient, im2col and a matrix product
// for the weight's (NaiveDilatedConvolution.cpp). im2col and col2im are plain loops on one
// core. pytorch/pytorch#107534 reports the slowdown since 1.12; ultralytics/ultralytics#26221
// turns NNPACK off on Macs for it. tests/tools/measure_cpu_convolution.py measured both paths
// with PyTorch 2.11 on a Linux Xeon with oneDNN turned off (tests/data/pytorch-2.11/
// cpu_convolution.json), in core cycles at its nominal 2.1 GHz. NNPACK's constants are those
// measurements, [estimate] that a Mac's cores take as many cycles (NNPACK's kernels there are
// NEON, not AVX2); im2col's and col2im's are fitted, the Xeon's cycles only their upper bound.
//
// Note [Framework overhead]
// Beside its kernels, eager PyTorch spends host time of its own: an op whose input requires grad
// records an autograd node; backward's engine runs each node (queueing, accumulating, releasing),
// a leaf's AccumulateGrad among them; the optimizers loop over their parameters in Python (the
// single-tensor path PyTorch takes for mps and cpu tensors). Each call of backward(), step() and
// zero_grad() also costs a fixed amount whatever the model's size: Python wrappers, decorators,
// hooks, the engine's set-up. Each is priced as a multiple of the machine's tiny-op overhead
// (cpu_op_seconds), the ratios measured on PyTorch 2.11 by tests/tools/measure_framework_overhead.py
// (tests/data/pytorch-2.11/framework_overhead.json, one thread of a Linux machine's cpu, with
// each loop's own ops counted by the profiler and taken out). On a Mac the ratios are assumed to
// hold: [estimate] the framework's code runs on the same cores as the tiny op. Module calls'
// Python (nn.Module.__call__, about 2.8 tiny ops) are not charged: the planner's models call
// functions, as LibTorch's API does.

#include "machine/cost_model.h"

#include <algorithm>
#include <cmath>

#include "machine/precision_rates.h"

namespace engine::detail {
namespace {

// x / (x + half): a ramp from 0 to 1 that is half-way at `half`. Occupancy grows this way, not
// in a step: each extra unit of work fills less of what is still idle.
double ramp(double x, double half) { return x <= 0 ? 0.0 : x / (x + half); }

// --- GPU ---------------------------------------------------------------------------------
// [fit] The share of FP32 peak that large matrix products reach once every ramp below is full
// (the M3 Max's 102400 x 512 x 1024 linear layer and nanoGPT's step).
constexpr double kMatmulPeakShare = 0.80;
// [fit] The result's rows or columns (m, n), and the depth (k), at which a product gets half of
// that share: a 32 x 32 tile of the result is the unit of work, and a short k leaves each tile's
// loads unamortised (the M3 Max's batch of 1024 x 64 x 256 products).
constexpr double kMatmulHalfWidth = 24;
constexpr double kMatmulHalfDepth = 24;
// [estimate] The work at which a product fills half the GPU, in 32 x 32 result tiles per GPU
// core. A result too small to fill the GPU has its depth split into chunks of this many
// (split-K), as GEMM libraries do.
constexpr double kMatmulHalfTilesPerCore = 4;
constexpr double kSplitDepth = 2048;
// [fit] MPS multiplies a batch of matrices by one shared matrix, (B, m, k) @ (k, n) (folded by
// torch.matmul into one (B m, k) @ (k, n) product), at this share of a plain product's speed.
constexpr double kBroadcastMatmulShare = 0.35;
// [fit] A product whose single result is larger than this computes and writes it in passes
// that do not overlap: its arithmetic and its memory traffic add up instead of overlapping.
constexpr double kLargeResultBytes = 256.0 * 1024 * 1024;

// [fit] The share of rated bandwidth streaming kernels reach once the GPU is full, by family.
double bandwidth_share(int family) { return family >= 9 ? 0.90 : 0.87; }
// [estimate] Bytes per GPU core in flight at which a streaming kernel reaches half that share.
constexpr double kHalfBytesPerCore = 64.0 * 1024;
// [fit] MPSGraph's softmax streams at this share of what an elementwise kernel reaches, and
// needs rows of this many elements to get half of it.
constexpr double kSoftmaxShare = 0.44;
constexpr double kSoftmaxHalfRow = 4;
// [fit] A reduction along the innermost dimension needs rows of this many elements for half of
// the streaming speed (summing everything, or outer dimensions, streams at full speed).
constexpr double kReductionHalfRow = 80;

double gpu_bandwidth(const MachineProfile& m) { return m.gpu.value_or(GpuSpec{}).memory_bandwidth; }

}  // namespace

double gpu_memory_seconds(double bytes, double share, const MachineProfile& machine, double paged) {
  const double bandwidth = gpu_bandwidth(machine) * share;
  if (bandwidth <= 0) return 0;
  return bytes * (1 - paged) / bandwidth +
         (paged > 0 ? bytes * paged / machine.swap_bandwidth : 0.0);
}

double streaming_share(double bytes, const MachineProfile& machine) {
  return full_streaming_share(machine) *
         ramp(bytes, kHalfBytesPerCore * machine.gpu.value_or(GpuSpec{}).cores);
}

double full_streaming_share(const MachineProfile& machine) {
  return bandwidth_share(machine.gpu.value_or(GpuSpec{}).family);
}

namespace {

double matmul_seconds(const KernelCost& cost, const MachineProfile& machine, double paged) {
  const GpuSpec gpu = machine.gpu.value_or(GpuSpec{});
  const MatmulShape& s = cost.matmul;
  const double tiles =
      std::ceil(s.m / 32) * std::ceil(s.n / 32) * s.batch * std::ceil(s.k / kSplitDepth);
  double share = kMatmulPeakShare * ramp(s.m, kMatmulHalfWidth) * ramp(s.n, kMatmulHalfWidth) *
                 ramp(s.k, kMatmulHalfDepth) * ramp(tiles, kMatmulHalfTilesPerCore * gpu.cores);
  if (s.broadcast) share *= kBroadcastMatmulShare;
  // float16 at float32's rate, bfloat16 slower where it is emulated: Note [Precision on Apple
  // GPUs]
  share *= gpu_arithmetic_rate(gpu.family, cost.dtype);
  const double compute = gpu.fp32_flops > 0 ? cost.flops / (gpu.fp32_flops * share) : 0.0;
  const double memory =
      gpu_memory_seconds(cost.bytes, streaming_share(cost.bytes, machine), machine, paged);
  const bool large_result = 4 * s.m * s.n > kLargeResultBytes;
  return large_result ? compute + memory : std::max(compute, memory);
}

// --- torch.compile's steady state ---------------------------------------------------------
// [estimate] The share of eager memory traffic Inductor's fused kernels still move. Counted on a
// transformer block's memory-bound ops: the scale, mask, softmax and dropout of the attention
// scores become one kernel; each dropout with its residual add another; GELU joins its input's
// read. About half of the eager passes over memory remain.
constexpr double kFusedTrafficShare = 0.5;
// [fit] Inductor's generated Metal kernels (reductions especially) stream at this share of
// what PyTorch's own MPS kernels reach. Fitted to seed 003: nanoGPT's compiled training step,
// 306 ms against 221 ms eager on the M3 Max; one measurement fixes this one constant.
constexpr double kGeneratedKernelShare = 0.24;

// --- CPU ---------------------------------------------------------------------------------
// [estimate] The share of the AMX units' peak PyTorch's matrix products reach through
// Accelerate, and the product size (in flops) at which they reach half of it: each call pays
// Accelerate's set-up, and a small product leaves the units idle. Accelerate's sgemm reaches
// 1.4 TFLOPS on one M1 Max thread, 95 % of one unit (nod.ai, "Apple M1 Max matmul
// performance"); spread over both clusters' units PyTorch is assumed to get 0.6 of their peak,
// which seed 003's cpu step (a fit case) bears out.
constexpr double kAccelerateShare = 0.6;
constexpr double kAccelerateHalfFlops = 2e6;
// Core cycles per element, spread over the performance cores: [fit] softmax's exp and its two
// passes over the row (the M1 Pro's and M3 Max's cpu softmax); [estimate] GELU's erf and layer
// norm's two passes.
constexpr double kSoftmaxCycles = 13;
constexpr double kTranscendentalCycles = 8;
constexpr double kNormalizationCycles = 4;
// [fit] Core cycles per random number, on one core: PyTorch's cpu bernoulli_(p) (dropout's
// mask) runs serially under the generator's lock unless MKL is present, which it is not on Apple
// silicon (aten/src/ATen/native/cpu/DistributionTemplates.h, bernoulli_kernel: a
// cpu_serial_kernel drawing a double from mt19937 per element). 20 cycles, about what a 64-bit
// mt19937 draw, its conversion and the comparison cost, is the value that fits seed 003's cpu
// step, where dropout's masks take a third of the time.
constexpr double kRandomCycles = 20;
// [measured] Note [The cpu's convolution]: NNPACK's forward, core cycles per multiply-add of
// the direct convolution on one thread (the median over VGG's layer shapes, 0.032 to 0.107), and
// the share of its work that stays serial, from its speed-up on 16 threads (4.9x: Amdahl's law).
constexpr double kNnpackCyclesPerMac = 0.039;
constexpr double kNnpackSerialShare = 0.15;
// [fit] im2col and col2im, core cycles per element of the columns, on one core: their sum fitted
// to the M1 Pro's VGG16-BN cpu steps (rasbt's, tests/data/cost_model_cases.toml), split as the
// Xeon splits it. The Xeon took 3.1 and 2.5 cycles at its nominal clock: Apple's wider cores
// run these scalar loops (a bounds check, a load and a store per element) in about a third of
// that.
constexpr double kIm2colCycles = 1.15;
constexpr double kCol2imCycles = 0.93;
// [estimate] Machines without AMX units: matrix products at this share of the cores' FP32 peak.
constexpr double kCpuVectorMatmulShare = 0.45;

// Core cycles per element of the cpu's per-element work.
double cpu_cycles_per_element(OpKind kind) {
  switch (kind) {
    case OpKind::Softmax:
      return kSoftmaxCycles;
    case OpKind::Transcendental:
      return kTranscendentalCycles;
    case OpKind::Normalization:
      return kNormalizationCycles;
    case OpKind::Random:
      return kRandomCycles;
    case OpKind::Im2col:
      return kIm2colCycles;
    case OpKind::Col2im:
      return kCol2imCycles;
    default:
      return 0;
  }
}

// Random numbers (under the generator's lock), im2col and col2im run on one core; the rest of
// the per-element work spreads over the performance cores.
bool runs_on_one_core(OpKind kind) {
  return kind == OpKind::Random || kind == OpKind::Im2col || kind == OpKind::Col2im;
}

// [measured] tests/data/pytorch-2.11/framework_overhead.json, "in_tiny_ops" (the median of five
// rounds). Adam's and AdamW's loops also run two ops on the step counter, a cpu tensor whatever
// the parameter's device (step_t += 1 and _get_value's item(): 9 ops per parameter counted
// there, against the 7 kernels the engine launches): a tiny op each, added here.
double tiny_ops_of(FrameworkWork work) {
  constexpr double kStepCounterOps = 2;
  switch (work) {
    case FrameworkWork::RecordNode:
      return 0.76;
    case FrameworkWork::BackwardNode:
      return 2.01;
    case FrameworkWork::BackwardCall:
      return 8.02;
    case FrameworkWork::SgdParameter:
      return 0.28;
    case FrameworkWork::AdamParameter:
      return 7.49 + kStepCounterOps;
    case FrameworkWork::AdamWParameter:
      return 9.73 + kStepCounterOps;
    case FrameworkWork::SgdStep:
      return 8.68;
    case FrameworkWork::AdamStep:
      return 20.79;
    case FrameworkWork::AdamWStep:
      return 17.21;
    case FrameworkWork::ZeroGradParameter:
      return 0.12;
    case FrameworkWork::ZeroGradCall:
      return 5.89;
  }
  return 0;
}

}  // namespace

double framework_seconds(FrameworkWork work, const MachineProfile& machine) {
  return tiny_ops_of(work) * machine.cpu_op_seconds;
}

double paged_fraction(double process_gpu_bytes, const MachineProfile& machine,
                      double worker_bytes) {
  const double overflow = process_gpu_bytes + worker_bytes +
                          static_cast<double>(machine.other_apps_bytes) -
                          static_cast<double>(machine.memory_bytes);
  if (!machine.unified_memory || overflow <= 0 || process_gpu_bytes <= 0) return 0;
  return std::min(1.0, overflow / process_gpu_bytes);
}

KernelCost matmul_cost(std::string_view name, MatmulShape shape, double bytes, ScalarType dtype) {
  return {.name = name,
          .kind = OpKind::MatMul,
          .bytes = bytes,
          .elements = shape.m * shape.n * shape.batch,
          .flops = 2 * shape.m * shape.n * shape.k * shape.batch,
          .matmul = shape,
          .dtype = dtype};
}

// PyTorch 2.9 runs elementwise arithmetic, fills and copies as Metal kernels of its own (binary
// ops moved there in 2025: pytorch/pytorch#147644, #152510); matrix products, reductions,
// softmax, gathers, random numbers and most per-element functions still go through MPSGraph.
// Call sites that know better say so.
Encoding mps_encoding(const KernelCost& cost) {
  if (cost.encoding != Encoding::ByKind) return cost.encoding;
  return cost.kind == OpKind::Elementwise || cost.kind == OpKind::Copy ||
                 cost.kind == OpKind::ShaderKernel
             ? Encoding::Metal
             : Encoding::Graph;
}

double mps_encode_seconds(const KernelCost& cost, const MachineProfile& machine) {
  return mps_encoding(cost) == Encoding::Metal ? machine.metal_dispatch_seconds
                                               : machine.host_dispatch_seconds;
}

double mps_kernel_seconds(const KernelCost& cost, const MachineProfile& machine, double paged) {
  double body = 0;
  if (cost.kind == OpKind::MatMul) {
    body = matmul_seconds(cost, machine, paged);
  } else if (cost.kind == OpKind::ShaderKernel) {
    body = shader_kernel_seconds(*cost.shader, machine, paged);
  } else {
    double share = streaming_share(cost.bytes, machine);
    const auto row = static_cast<double>(cost.row);
    if (cost.kind == OpKind::Softmax) share *= kSoftmaxShare * ramp(row, kSoftmaxHalfRow);
    if (cost.kind == OpKind::Reduction && cost.row > 0) share *= ramp(row, kReductionHalfRow);
    body = gpu_memory_seconds(cost.bytes, share, machine, paged);
  }
  return machine.kernel_launch_seconds + body;
}

double cpu_kernel_seconds(const KernelCost& cost, const MachineProfile& machine) {
  const double core = machine.cpu_core_hz > 0 ? machine.cpu_core_hz : machine.cpu_fp32_flops / 32;
  double compute = 0;
  if (cost.kind == OpKind::MatMul) {
    const double per_product = cost.flops / cost.matmul.batch;
    // Accelerate's AMX units for float32 and float64; every other dtype on the cores' own
    // kernels (Note [Precision on Apple GPUs])
    const double amx = amx_rate(cost.dtype);
    const double peak =
        machine.cpu_matrix_flops > 0 && amx > 0
            ? machine.cpu_matrix_flops * amx * kAccelerateShare *
                  ramp(per_product, kAccelerateHalfFlops)
            : machine.cpu_fp32_flops * cpu_vector_rate(cost.dtype) * kCpuVectorMatmulShare;
    compute = peak > 0 ? cost.flops / peak : 0.0;
  } else if (cost.kind == OpKind::Nnpack) {
    const double cores = core > 0 ? machine.cpu_fp32_flops / 32 / core : 0;
    const double speedup =
        cores > 0 ? 1 / (kNnpackSerialShare + (1 - kNnpackSerialShare) / cores) : 0;
    if (speedup > 0) compute = cost.flops / 2 * kNnpackCyclesPerMac / (core * speedup);
  } else {
    // [cores]: cores x clock = the FP32 peak / 32
    const double cycles_per_second =
        runs_on_one_core(cost.kind) ? core : machine.cpu_fp32_flops / 32;
    if (cycles_per_second > 0)
      compute = cost.elements * cpu_cycles_per_element(cost.kind) / cycles_per_second;
  }
  const double memory =
      machine.cpu_memory_bandwidth > 0 ? cost.bytes / machine.cpu_memory_bandwidth : 0.0;
  return machine.cpu_op_seconds + std::max(compute, memory);
}

double compiled_encode_seconds(const KernelCost& cost, const MachineProfile& machine) {
  // Products are extern calls to the MPS ops; Inductor launches its own kernels directly.
  return cost.kind == OpKind::MatMul ? mps_encode_seconds(cost, machine)
                                     : machine.metal_dispatch_seconds;
}

double compiled_kernel_seconds(const KernelCost& cost, const MachineProfile& machine,
                               double paged) {
  // Products stay extern calls to MPS; a compile_shader kernel runs as it was written.
  if (cost.kind == OpKind::MatMul || cost.kind == OpKind::ShaderKernel)
    return mps_kernel_seconds(cost, machine, paged);
  const double traffic = cost.bytes * kFusedTrafficShare;
  const double share = streaming_share(traffic, machine) * kGeneratedKernelShare;
  return machine.kernel_launch_seconds + gpu_memory_seconds(traffic, share, machine, paged);
}

double mps_copy_seconds(double bytes, const MachineProfile& machine, double paged) {
  return machine.kernel_launch_seconds +
         gpu_memory_seconds(bytes, streaming_share(bytes, machine), machine, paged);
}

}  // namespace engine::detail
