// Tensors on two devices: one row per operation the engine implements that takes more than one
// tensor, with the operands' devices and what PyTorch 2.9 does on MPS, error text or result,
// and (in the comment above each row) the PyTorch source and function whose check runs first.
// Operations on one tensor (relu, gelu, softmax, log_softmax, dropout, sum, mean, reshape,
// slice, transpose, clone, detach, isfinite, all, to) cannot meet two devices. Sources are
// pytorch/pytorch's aten/src/ATen (ATen/ below) and torch/ unless a path says otherwise.

#include <doctest/doctest.h>

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/utils.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/sim.h"

using engine::Device;
using engine::Tensor;
namespace F = engine::nn::functional;

namespace device_mismatch {  // named: test files share a translation unit in unity builds

const Device kMps("mps");
const Device kCpu("cpu");

const std::string kTensorIterator =
    "Expected all tensors to be on the same device, but found at least two devices, mps:0 and cpu!";
const std::string kPlaceholder = "Placeholder storage has not been allocated on MPS device!";
const std::string kMtlBuffer = "Passed CPU tensor to MPS op";
std::string mm_text(const std::string& argument) {
  return "Tensor for " + argument +
         " is on CPU, but expected it to be on GPU (while checking arguments for mm)";
}
std::string torch_check_text(const std::string& name) {
  return "Expected " + name +
         ".is_mps() to be true, but got false.  (Could this error message be improved?  "
         "If so, please report an enhancement request to PyTorch.)";
}

struct Row {
  std::string op;       // the call, as PyTorch spells it
  std::string devices;  // the tensors' devices, in argument order
  bool fallback;        // whether the process started with PYTORCH_ENABLE_MPS_FALLBACK=1
  std::function<std::string()> run;  // the result's device when nothing is raised
  std::string expected;
};

std::string on(const Tensor& t) { return "result on " + t.device().str(); }
Tensor matrix(Device device, bool requires_grad = false) {
  Tensor t = engine::ones({2, 2}, device);
  return requires_grad ? t.requires_grad_() : t;
}
Tensor ids(Device device) { return engine::tensor({0, 1, 1, 0}, device).reshape({2, 2}); }

// One optimizer step on the cpu, then the parameter moves to mps as Module::to moves it (the
// optimizer's state stays behind), gets a gradient there, and the optimizer steps again.
template <typename Optimizer, typename Options>
std::string step_after_moving(Options options) {
  Tensor w = engine::ones({3}).requires_grad_();
  Optimizer optimizer({w}, options);
  w.set_grad(engine::ones({3}));
  optimizer.step();
  engine::NoGradGuard moving;  // as Module::to moves a parameter
  w.set_data(w.to(kMps));
  w.set_grad(engine::ones({3}, kMps));
  optimizer.step();
  return on(w);
}

std::vector<Row> rows() {
  return {
      // ATen/TensorIterator.cpp, compute_types (check_all_same_device): the first non-cpu device
      // comes first, whatever the operand order.
      {"a + b", "mps, cpu", false, [] { return on(matrix(kMps) + matrix(kCpu)); }, kTensorIterator},
      {"a * b", "cpu, mps", false, [] { return on(matrix(kCpu) * matrix(kMps)); }, kTensorIterator},
      // Same check; binary ops' config allow_cpu_scalars lets one 0-dim cpu tensor in.
      {"a - b", "mps, 0-dim cpu", false, [] { return on(matrix(kMps) - engine::tensor(2.0)); },
       "result on mps:0"},
      {"a.add_(b)", "cpu, mps", false, [] { return on(matrix(kCpu).add_(matrix(kMps))); },
       kTensorIterator},
      {"a.add_(b)", "mps, 0-dim cpu", false,
       [] { return on(matrix(kMps).add_(engine::tensor(1.0))); }, "result on mps:0"},
      // ATen/native/mps/operations/Equal.cpp, mps_equal.
      {"torch.equal(a, b)", "mps, cpu", false,
       [] { return std::to_string(engine::equal(matrix(kMps), matrix(kCpu))); },
       "Cannot compare two tensors on different devices. Got: mps:0 and cpu"},
      {"torch.equal(a, b)", "cpu, mps", false,
       [] { return std::to_string(engine::equal(matrix(kCpu), matrix(kMps))); },
       "Cannot compare two tensors on different devices. Got: cpu and mps:0"},
      // ATen/native/LinearAlgebra.cpp, _matmul_impl: 2-D @ 2-D is mm; ATen/native/mps/operations/
      // LinearAlgebra.mm, mm_out_mps_impl: checkAllSameGPU("mm", out, mat1, mat2), the output on
      // mps (ATen/TensorUtils.cpp, checkSameGPU).
      {"a @ b (mm)", "mps, cpu", false, [] { return on(matrix(kMps).matmul(matrix(kCpu))); },
       mm_text("argument #2 'mat2'")},
      {"a @ b (mm)", "cpu, mps", false, [] { return on(matrix(kCpu).matmul(matrix(kMps))); },
       mm_text("argument #1 'mat1'")},
      // _matmul_impl: 1-D @ 2-D is a.unsqueeze(0).mm(b).
      {"a @ b (1-D @ 2-D, mm)", "cpu, mps", false,
       [] { return on(engine::ones({2}).matmul(matrix(kMps))); }, mm_text("argument #1 'mat1'")},
      // _matmul_impl: 1-D @ 1-D is dot; operations/Blas.mm, dot_check.
      {"a @ b (dot)", "mps, cpu", false,
       [] { return on(engine::ones({2}, kMps).matmul(engine::ones({2}))); },
       "Expected all tensors to be on the same device. Found: mps:0, cpu"},
      // _matmul_impl: 2-D @ 1-D is mv; ATen/native/Blas.cpp, mv: addmv_(empty on vec's device, mat,
      // vec); operations/Blas.mm, addmv_out_mps_impl: TORCH_CHECK(mat.is_mps()), then vec.
      {"a @ b (mv)", "mps, cpu", false, [] { return on(matrix(kMps).matmul(engine::ones({2}))); },
       torch_check_text("vec")},
      {"a @ b (mv)", "cpu, mps", false,
       [] { return on(matrix(kCpu).matmul(engine::ones({2}, kMps))); }, torch_check_text("mat")},
      // _matmul_impl, should_fold: a contiguous 3-D @ 2-D folds its batch into mm.
      {"a @ b (3-D @ 2-D, folded into mm)", "mps, cpu", false,
       [] {
         return on(engine::ones({2, 2, 2}, kMps).matmul(matrix(kCpu)));
       },
       mm_text("argument #2 'mat2'")},
      // ... and 3-D @ 1-D into mv.
      {"a @ b (3-D @ 1-D, folded into mv)", "mps, cpu", false,
       [] {
         return on(engine::ones({2, 2, 2}, kMps).matmul(engine::ones({2})));
       },
       torch_check_text("vec")},
      // should_fold refuses 2-D @ 3-D (it would copy), so it is bmm; operations/LinearAlgebra.mm,
      // bmm_out_mps_impl checks nothing before its MPSGraph placeholders (ATen/native/mps/
      // OperationUtils.mm, Placeholder::Placeholder).
      {"a @ b (2-D @ 3-D, bmm)", "cpu, mps", false,
       [] {
         return on(matrix(kCpu).matmul(engine::ones({2, 2, 2}, kMps)));
       },
       kPlaceholder},
      // ... unless the 2-D operand requires grad: then mm(b folded, a.t()), so a is mat2.
      {"a @ b (2-D requiring grad @ 3-D, folded into mm)", "cpu, mps", false,
       [] {
         return on(matrix(kCpu, true).matmul(engine::ones({2, 2, 2}, kMps)));
       },
       mm_text("argument #2 'mat2'")},
      {"a @ b (4-D @ 4-D, bmm)", "mps, cpu", false,
       [] {
         return on(engine::ones({1, 2, 2, 2}, kMps).matmul(engine::ones({1, 2, 2, 2})));
       },
       kPlaceholder},
      // operations/Linear.mm, _mps_linear: the input, the weight, then the bias must be on mps.
      {"F.linear(x, w, b)", "cpu, mps, mps", false,
       [] { return on(F::linear(matrix(kCpu), matrix(kMps), engine::ones({2}, kMps))); },
       "Tensor for argument input is on cpu but expected on mps"},
      {"F.linear(x, w, b)", "mps, cpu, cpu", false,
       [] { return on(F::linear(matrix(kMps), matrix(kCpu), engine::ones({2}))); },
       "Tensor for argument weight is on cpu but expected on mps"},
      {"F.linear(x, w, b)", "mps, mps, cpu", false,
       [] { return on(F::linear(matrix(kMps), matrix(kMps), engine::ones({2}))); },
       "Tensor for argument bias is on cpu but expected on mps"},
      // ATen/native/LossNLL.cpp, nll_loss_nd; operations/LossOps.mm, nllnd_loss_forward_impl: the
      // input's placeholder, then the target's.
      {"F.nll_loss(logp, target)", "mps, cpu", false,
       [] {
         return on(F::nll_loss(matrix(kMps), engine::tensor({0, 1})));
       },
       kPlaceholder},
      // LossNLL.cpp, cross_entropy_loss: log_softmax runs on the cpu, then nll_loss on mps.
      {"F.cross_entropy(logits, target)", "cpu, mps", false,
       [] {
         return on(F::cross_entropy(matrix(kCpu), engine::tensor({0, 1}, kMps)));
       },
       kPlaceholder},
      // operations/Normalization.mm, layer_norm_mps: a Metal kernel whose tensors mtl_setArgs
      // binds (ATen/native/mps/OperationUtils.h, mtl_setBuffer).
      {"F.layer_norm(x, (2,), w, b)", "mps, cpu, cpu", false,
       [] {
         return on(F::layer_norm(
             matrix(kMps),
             F::LayerNormFuncOptions({2}).weight(engine::ones({2})).bias(engine::zeros({2}))));
       },
       kMtlBuffer},
      {"F.layer_norm(x, (2,), w, b)", "cpu, mps, mps", false,
       [] {
         return on(F::layer_norm(matrix(kCpu), F::LayerNormFuncOptions({2})
                                                   .weight(engine::ones({2}, kMps))
                                                   .bias(engine::zeros({2}, kMps))));
       },
       kMtlBuffer},
      // ATen/native/Embedding.cpp, embedding: weight.index_select(0, indices); operations/
      // Indexing.mm, index_select_out_mps: MPSGraph placeholders, the weight's then the indices'.
      {"F.embedding(ids, w)", "cpu, mps", false,
       [] { return on(F::embedding(ids(kCpu), matrix(kMps))); }, kPlaceholder},
      // torch/nn/functional.py, embedding_bag: no device check; aten::_embedding_bag_forward_only
      // (the weight needs no gradient) has no MPS kernel in 2.9 (ATen/mps/MPSFallback.mm,
      // mps_error_fallback) ...
      {"F.embedding_bag(ids, w)", "cpu, mps", false,
       [] { return on(F::embedding_bag(ids(kCpu), matrix(kMps))); },
       "The operator 'aten::_embedding_bag_forward_only' is not currently implemented for the MPS device. If you want this "
       "op to be considered for addition please comment on https://github.com/pytorch/pytorch/issues/141287 and "
       "mention use-case, that resulted in missing op as well as commit hash "
       "0fabc3ba44823f257e70ce397d989c8de5e362c1. As a temporary fix, you can set the environment variable "
       "`PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: this will be slower "
       "than running natively on MPS."},
      // ... and the cpu fallback returns its result on its first argument's device, the weight's
      // (ATen/native/CPUFallback.cpp, compute_target_device).
      {"F.embedding_bag(ids, w)", "cpu, mps", true,
       [] { return on(F::embedding_bag(ids(kCpu), matrix(kMps))); }, "result on mps:0"},
      // ATen/native/transformers/attention.cpp, validate_sdpa_input, before a backend is chosen.
      {"F.scaled_dot_product_attention(q, k, v)", "mps, cpu, mps", false,
       [] {
         return on(engine::scaled_dot_product_attention(matrix(kMps), matrix(kCpu), matrix(kMps)));
       },
       "Expected query, key, and value to have the same device type, but got query.device: mps:0 key.device: "
       "cpu and value.device: mps:0 instead."},
      // torch/optim/sgd.py, _single_tensor_sgd (MPS has no foreach kernels, torch/utils/
      // _foreach_utils.py): buf.mul_(momentum).add_(grad) with the buffer left on the cpu.
      {"SGD(momentum=0.9).step() after model.to('mps')", "param mps, buffer cpu", false,
       [] {
         return step_after_moving<engine::optim::SGD>(engine::optim::SGDOptions(0.1).momentum(0.9));
       },
       kTensorIterator},
      // torch/optim/adam.py, _single_tensor_adam: exp_avg.lerp_(grad) with exp_avg left on the cpu.
      {"Adam.step() after model.to('mps')", "param mps, state cpu", false,
       [] { return step_after_moving<engine::optim::Adam>(engine::optim::AdamOptions()); },
       kTensorIterator},
      {"AdamW.step() after model.to('mps')", "param mps, state cpu", false,
       [] { return step_after_moving<engine::optim::AdamW>(engine::optim::AdamWOptions()); },
       kTensorIterator},
      // torch/nn/utils/clip_grad.py, _get_total_norm: per-device norms moved to the first
      // gradient's device; _clip_grads_with_norm_ scales each group on its own device.
      {"clip_grad_norm_(params, 1.0)", "grads mps, cpu", false,
       [] {
         Tensor a = engine::ones({2}, kMps).requires_grad_(),
                b = engine::ones({2}).requires_grad_();
         a.set_grad(engine::ones({2}, kMps));
         b.set_grad(engine::ones({2}));
         return on(engine::py::torch::nn::utils::clip_grad_norm_({a, b}, 1.0));
       },
       "result on mps:0"},
  };
}

std::string outcome(const Row& row) {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::restart_with_environment(
      {{"PYTORCH_ENABLE_MPS_FALLBACK", row.fallback ? "1" : "0"}});
  std::ostringstream warnings;  // the fallback's one UserWarning per process
  std::streambuf* const stderr_buffer = std::cerr.rdbuf(warnings.rdbuf());
  std::string result;
  try {
    result = row.run();
  } catch (const engine::Error& e) {
    result = e.what();
  } catch (...) {
    std::cerr.rdbuf(stderr_buffer);
    throw;
  }
  std::cerr.rdbuf(stderr_buffer);
  return result;
}

}  // namespace device_mismatch

TEST_CASE("every operation on tensors from two devices does what PyTorch 2.9 does on MPS") {
  using device_mismatch::Row;
  for (const Row& row : device_mismatch::rows()) {
    INFO(row.op, " on ", row.devices);
    CHECK(device_mismatch::outcome(row) == row.expected);
  }
}
