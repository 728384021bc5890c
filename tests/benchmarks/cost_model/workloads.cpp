// The operator cases: inputs made on the device (shape-only: only costs matter), then the op
// timed as the published script timed it (README.md, "Timing").

#include "workloads.h"

#include <functional>
#include <stdexcept>

#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "engine/time.h"

namespace cost_model {
namespace {

using engine::Device;
using engine::Tensor;
namespace F = engine::nn::functional;

// The op of `c` as a callable, its inputs already on `device`.
std::function<void()> make_op(const Case& c, Device device) {
  std::vector<Tensor> in;
  for (const auto& shape : c.shapes) in.push_back(engine::randn(shape, device));
  if (c.op == "matmul") return [in] { in[0].matmul(in[1]); };
  if (c.op == "linear") return [in] { F::linear(in[0], in[1], in[2]); };
  if (c.op == "softmax") return [in, dim = c.dims.front()] { engine::softmax(in[0], dim); };
  if (c.op == "relu") return [in] { engine::relu(in[0]); };
  if (c.op == "layer_norm")
    return [in] { F::layer_norm(in[0], F::LayerNormFuncOptions({in[0].size(-1)})); };
  if (c.op == "sum" && c.dims.empty()) return [in] { in[0].sum(); };
  if (c.op == "sum") return [in, dims = c.dims] { in[0].sum(dims); };
  throw std::logic_error("no operator workload for op \"" + c.op + "\"");
}

void sync(Device device) {
  if (device.is_mps()) engine::mps::synchronize();
}

// Seconds per op, measured as the case's source measured it.
double seconds_per_op(const Source& s, const std::function<void()>& op, Device device) {
  switch (s.timing) {
    case Timing::
        SyncEach: {  // each run: clock, op, synchronize(), clock; the mean of the timed runs
      double total = 0;
      for (int run = 0; run < s.warmup + s.repeat; ++run) {
        sync(device);
        const double start = engine::py::time::perf_counter();
        op();
        sync(device);
        if (run >= s.warmup) total += engine::py::time::perf_counter() - start;
      }
      return total / s.repeat;
    }
    case Timing::
        SyncLoop: {  // warm-up runs, synchronize(), clock, the timed runs, synchronize(), clock
      for (int run = 0; run < s.warmup; ++run) op();
      sync(device);
      const double start = engine::py::time::perf_counter();
      for (int run = 0; run < s.repeat; ++run) op();
      sync(device);
      return (engine::py::time::perf_counter() - start) / s.repeat;
    }
    case Timing::Events: {  // warm-up runs, then two events around the timed runs
      for (int run = 0; run < s.warmup; ++run) op();
      sync(device);
      engine::py::torch::mps::Event start(true), end(true);
      start.record();
      for (int run = 0; run < s.repeat; ++run) op();
      end.record();
      return start.elapsed_time(end) * 1e-3 / s.repeat;
    }
    case Timing::Script:
      break;
  }
  throw std::logic_error("operator cases are timed by sync_each, sync_loop or events");
}

double matmul_flops(const Case& c) {
  const auto& a = c.shapes[0];
  const auto& b = c.shapes[1];
  double batch = 1;
  for (std::size_t i = 0; i + 2 < a.size(); ++i) batch *= static_cast<double>(a[i]);
  return 2 * batch * static_cast<double>(a[a.size() - 2]) * static_cast<double>(a.back()) *
         static_cast<double>(b.back());
}

}  // namespace

double predict(const Case& c) {
  engine::sim::use_machine(c.source->machine);
  if (c.op.rfind("nanogpt", 0) == 0) return nanogpt(c);
  if (c.op == "gpt_classifier") return gpt_classifier(c);
  if (family_of(c.op) != "operator") return classifier(c);
  engine::sim::ShapeOnlyGuard shape_only;  // values are never needed: the timings are the point
  const Device device(c.device);
  const double seconds = seconds_per_op(*c.source, make_op(c, device), device);
  if (c.unit == "TFLOPS") return matmul_flops(c) / seconds / 1e12;
  return c.unit == "s" ? seconds : seconds * 1e3;
}

}  // namespace cost_model
