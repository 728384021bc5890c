#include "mps/fallback.h"

#include <algorithm>
#include <iostream>
#include <string>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/version.h"
#include "machine/process.h"
#include "trace/trace.h"

namespace engine::detail {
namespace {

// EmbeddingBag had no MPS kernels until the 2.10 development cycle: #162270 ("Implement
// `_embedding_bag` for MPS", September 2025) asked for them; #163012 (forward) and #163931
// (backward) added them, first seen on 2.10.0a0 (pytorch/pytorch#163630). The 2.9 branch was
// cut on 2025-09-09 (pytorch/pytorch#162493), before either.
constexpr MissingMpsKernel kMissing[] = {
    {"aten::_embedding_bag", "pytorch/pytorch#162270; forward kernel added by #163012 for 2.10"},
    {"aten::_embedding_bag_forward_only",
     "pytorch/pytorch#162270; forward kernel added by #163012 for 2.10"},
    {"aten::_embedding_bag_dense_backward",
     "pytorch/pytorch#162270; backward kernel added by #163931 for 2.10"},
};

std::string not_implemented_message(std::string_view op) {
  return "The operator '" + std::string(op) +
         "' is not currently implemented for the MPS device. If you want this op to be considered "
         "for addition please comment on https://github.com/pytorch/pytorch/issues/141287 and "
         "mention use-case, that resulted in missing op as well as commit hash " +
         std::string(kEmulatedPyTorchCommit) +
         ". As a temporary fix, you can set the environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` "
         "to use the CPU as a fallback for this op. WARNING: this will be slower than running "
         "natively on MPS.";
}

// Python prints a warning to stderr with its category; the file and line Python adds in front
// ("(Triggered internally at ...)" from a build path) are left out.
void warn_fallback_once(Process& p, std::string_view op) {
  if (p.fallback_warned) return;
  p.fallback_warned = true;
  std::cerr << "UserWarning: The operator '" << op
            << "' is not currently supported on the MPS backend and will fall back to run on the "
               "CPU. This may have performance implications.\n";
}

}  // namespace

std::span<const MissingMpsKernel> operators_without_mps_kernel() { return kMissing; }

Tensor run_without_mps_kernel(std::string_view op, const std::vector<Tensor>& inputs,
                              const std::function<Tensor(const std::vector<Tensor>&)>& cpu_kernel) {
  NoGradGuard no_grad;
  const auto first_on_mps =
      std::find_if(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.is_mps(); });
  if (first_on_mps == inputs.end()) return cpu_kernel(inputs);
  Process& p = process();
  if (!p.fallback_variable.enabled) throw NotImplementedError(not_implemented_message(op));
  warn_fallback_once(p, op);
  ++p.fallback_counts[std::string(op)];
  const double start = p.timeline.host_now;
  struct InFallback {
    int& depth;
    explicit InFallback(int& d) : depth(++d) {}
    ~InFallback() { --depth; }
  } in_fallback(p.fallback_depth);
  std::vector<Tensor> on_cpu;
  for (const Tensor& t : inputs) on_cpu.push_back(t.to(Device(DeviceType::CPU)));  // at::_to_cpu
  Tensor result = cpu_kernel(on_cpu).to(inputs.front().device());
  trace_span(Track::Host, "cpu fallback: " + std::string(op), "fallback", start,
             p.timeline.host_now - start);
  return result;
}

}  // namespace engine::detail
