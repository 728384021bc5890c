#pragma once
// Internal: what one operation costs on a simulated machine. Each operation reports what kind
// of work it is and how much (cost_model.cpp turns that into seconds; Note [The cost model]
// there says how, and where every constant comes from):
//   - on the host, the encoding of an mps op, which depends on how PyTorch 2.9 implements it
//     (an MPSGraph, 16 to 20 microseconds, or a hand-written Metal kernel, about one);
//   - on the GPU, a roofline whose efficiencies depend on the size and shape of the work and on
//     the chip's GPU family, with the kernels known to be weak on MPS priced as measured;
//   - on the cpu, Accelerate's matrix throughput (Apple's AMX units) and measured memory
//     bandwidth, and the cores' arithmetic for the elementwise functions;
//   - on the host again, the framework's own work beside the kernels: autograd's nodes, the
//     optimizers' Python loops and the calls of backward(), step() and zero_grad() (Note
//     [Framework overhead]).

#include <cstdint>
#include <string_view>

#include "engine/machine.h"
#include "engine/scalar_type.h"

namespace engine::metal {
struct DispatchWork;
}

namespace engine::detail {

enum class OpKind : std::uint8_t {
  MatMul,          // mm, addmm, bmm: `flops` and `matmul`
  Elementwise,     // arithmetic, fills, masks: memory traffic
  Transcendental,  // per-element functions (gelu, sqrt, tanh): memory, and arithmetic on the cpu
  Reduction,       // sum, mean, norms
  Softmax,         // softmax, log_softmax and their gradients
  Normalization,   // layer_norm and its gradient
  Gather,          // embedding lookups and their gradients
  Random,          // bernoulli, uniform: a random number per element
  Copy,            // clone, cat, transposes, conversions
  // The cpu's convolution paths without oneDNN (Note [The cpu's convolution]):
  Nnpack,        // NNPACK's forward convolution: `flops` of the direct convolution
  Im2col,        // unfolding an image into columns: `elements` of the columns, one core
  Col2im,        // folding columns back onto an image: `elements` of the columns, one core
  ShaderKernel,  // a torch.mps.compile_shader kernel: `shader`, the work its dispatch did
};

// How PyTorch 2.9's MPS backend encodes an op: through an MPSGraph, or a Metal kernel of its own.
enum class Encoding : std::uint8_t { ByKind, Graph, Metal };

// The shape of a matrix product: `batch` products of (m, k) x (k, n).
struct MatmulShape {
  double m = 0, n = 0, k = 0, batch = 1;
  bool broadcast = false;  // a batched operand times a shared matrix: (B, m, k) @ (k, n)
};

struct KernelCost {
  std::string_view name;  // PyTorch's operator name, "aten::mm"
  OpKind kind = OpKind::Elementwise;
  double bytes = 0;      // memory read and written
  double elements = 0;   // elements produced; the per-element work of the cpu path
  double flops = 0;      // matrix products: 2 x multiply-adds
  MatmulShape matmul{};  // matrix products only
  // softmax and normalization: the length of the rows they reduce; a reduction: the length of
  // its contiguous innermost run when it reduces the innermost dimension, else 0
  std::int64_t row = 0;
  Encoding encoding = Encoding::ByKind;
  // The dtype the kernel computes or writes.
  ScalarType dtype = ScalarType::Float;
  const metal::DispatchWork* shader = nullptr;  // ShaderKernel only
};

// A matrix product of `shape` in `dtype`, moving `bytes`: 2 m n k flops per matrix of the batch.
KernelCost matmul_cost(std::string_view name, MatmulShape shape, double bytes,
                       ScalarType dtype = ScalarType::Float);

// How PyTorch 2.9 encodes this op on mps (ByKind resolved).
Encoding mps_encoding(const KernelCost& cost);
// Host time to encode one mps op into the command buffer.
double mps_encode_seconds(const KernelCost& cost, const MachineProfile& machine);
// Device time of one mps kernel. `paged_fraction`: the share of the process's GPU memory
// macOS has moved to swap; that share of the traffic goes at the SSD's speed.
double mps_kernel_seconds(const KernelCost& cost, const MachineProfile& machine,
                          double paged_fraction = 0);
// One cpu op, on the host.
double cpu_kernel_seconds(const KernelCost& cost, const MachineProfile& machine);
// A copy of `bytes` between host and GPU buffers (a blit).
double mps_copy_seconds(double bytes, const MachineProfile& machine, double paged_fraction = 0);
// Seconds to stream `bytes` at `share` of the GPU's bandwidth, the paged-out part from swap.
double gpu_memory_seconds(double bytes, double share, const MachineProfile& machine,
                          double paged_fraction);
// The share of rated bandwidth a streaming kernel of `bytes` reaches on this GPU: the full share
// once it is large enough to keep every core busy, less for a transfer too small to hide its
// latency.
double streaming_share(double bytes, const MachineProfile& machine);
// The share of rated bandwidth streaming kernels reach once the GPU is full.
double full_streaming_share(const MachineProfile& machine);
// Unified memory is the machine's: once the process's GPU memory, its DataLoader workers'
// resident sets and the other applications' memory exceed it, the overflow is paged out, as a
// share of the process's GPU memory.
double paged_fraction(double process_gpu_bytes, const MachineProfile& machine,
                      double worker_bytes = 0);

// torch.compile's steady state (runtime/compiled_region.h): the same op as a kernel TorchInductor
// generates, its memory traffic fused with its neighbours'. Matrix products stay extern calls
// to the MPS kernels and cost what they cost eagerly.
double compiled_kernel_seconds(const KernelCost& cost, const MachineProfile& machine,
                               double paged_fraction = 0);
double compiled_encode_seconds(const KernelCost& cost, const MachineProfile& machine);

// A compile_shader kernel's time on the GPU, from the work its dispatch did (Note [Pricing a
// Metal kernel] in shader_cost.cpp), without the launch cost mps_kernel_seconds adds.
double shader_kernel_seconds(const metal::DispatchWork& work, const MachineProfile& machine,
                             double paged_fraction = 0);
// Host time for Metal to compile a compile_shader library from source.
double shader_compile_seconds(const MachineProfile& machine);

// What eager PyTorch does on the host beside launching kernels, each priced by
// framework_seconds() (Note [Framework overhead] in cost_model.cpp).
enum class FrameworkWork : std::uint8_t {
  RecordNode,         // an op whose input requires grad records its autograd node
  BackwardNode,       // autograd's engine runs one node of backward (its kernels aside)
  BackwardCall,       // one backward(): its Python and the engine's set-up, whatever the graph
  SgdParameter,       // torch.optim.SGD's Python loop, per parameter (its kernels aside)
  AdamParameter,      // torch.optim.Adam's
  AdamWParameter,     // torch.optim.AdamW's
  SgdStep,            // one SGD.step() call beside its loop: decorators, hooks, grouping
  AdamStep,           // one Adam.step() call's
  AdamWStep,          // one AdamW.step() call's
  ZeroGradParameter,  // zero_grad() setting one gradient to None
  ZeroGradCall,       // one zero_grad() call beside its loop
};
double framework_seconds(FrameworkWork work, const MachineProfile& machine);

}  // namespace engine::detail
