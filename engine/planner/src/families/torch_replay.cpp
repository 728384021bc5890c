// A traced PyTorch step replayed on the engine, shape-only: the trace's parameters and buffers
// made on the device, its batch made on the cpu and copied in each step (a DataLoader's), the
// forward pass call by call through the engine's own operators where it has them
// (torch_calls.cpp) and operator by operator, priced by class, where it has not
// (sim::estimated_operator); then the engine's own backward, and its optimizer where the
// trace's is SGD, Adam or AdamW (others: the traced optimizer's operators, priced by class).
// So the step is priced, placed and counted in memory as the families' steps are.

#include "families/torch_replay.h"

#include <engine/estimated_operator.h>

#include <algorithm>
#include <set>

#include "families/torch_calls.h"
#include "run_state.h"

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace torch_replay {

using engine::Tensor;
using engine::sim::OperatorClass;

double product_of(const std::vector<std::int64_t>& sizes, std::size_t from = 0) {
  double p = 1;
  for (std::size_t i = from; i < sizes.size(); ++i) p *= static_cast<double>(sizes[i]);
  return p;
}

// A matrix product's work from its operands: the first of two or more dimensions is the left.
engine::sim::ProductShape product_shape(const TracedOp& op) {
  const auto left = std::find_if(op.inputs.begin(), op.inputs.end(),
                                 [](const TracedTensor& t) { return t.shape.size() >= 2; });
  const std::vector<std::int64_t>& out = op.outputs.front().shape;
  const double n = out.empty() ? 1 : static_cast<double>(out.back());
  const double depth = left == op.inputs.end() ? 1 : static_cast<double>(left->shape.back());
  return {product_of(out) / std::max(n, 1.0), n, depth, 1};
}

// A convolution's, unfolded: images x output pixels rows, output channels columns, and input
// channels a group x kernel area deep (a transposed one scatters its input: the same work).
engine::sim::ProductShape convolution_shape(const TracedOp& op) {
  const std::vector<std::int64_t>& out = op.outputs.front().shape;
  const std::vector<std::int64_t>& weight = op.inputs.at(1).shape;
  const double channels = out.size() > 1 ? static_cast<double>(out[1]) : 1;
  const double depth = product_of(weight) / std::max(static_cast<double>(weight.front()), 1.0);
  return {product_of(out) / std::max(channels, 1.0), channels, depth, 1};
}

}  // namespace torch_replay

namespace torch_replay {

// ATen's views (metadata only), matrix products and reductions (the poolings and the
// normalizations among them), by name without "aten::".
const std::set<std::string> kViews{
    "view",    "_unsafe_view", "_reshape_alias", "reshape",    "t",       "transpose",
    "permute", "expand",       "expand_as",      "as_strided", "slice",   "select",
    "squeeze", "unsqueeze",    "detach",         "alias",      "split",   "split_with_sizes",
    "chunk",   "unbind",       "narrow",         "lift_fresh", "view_as", "diagonal",
    "movedim", "unflatten"};
const std::set<std::string> kProducts{"mm",    "addmm", "bmm",    "baddbmm", "matmul", "mv",
                                      "addmv", "dot",   "linear", "addbmm",  "einsum"};
const std::set<std::string> kReductions{"sum",
                                        "mean",
                                        "amax",
                                        "amin",
                                        "max",
                                        "min",
                                        "var",
                                        "std",
                                        "var_mean",
                                        "std_mean",
                                        "norm",
                                        "linalg_vector_norm",
                                        "prod",
                                        "logsumexp",
                                        "argmax",
                                        "argmin",
                                        "any",
                                        "all",
                                        "cumsum",
                                        "_softmax",
                                        "_log_softmax",
                                        "native_layer_norm",
                                        "native_batch_norm",
                                        "_native_batch_norm_legit",
                                        "native_group_norm",
                                        "nll_loss_forward",
                                        "nll_loss2d_forward"};

}  // namespace torch_replay

engine::sim::OperatorClass operator_class(const std::string& op) {
  using engine::sim::OperatorClass;
  const std::string name = op.starts_with("aten::") ? op.substr(6) : op;
  if (torch_replay::kViews.count(name) != 0) return OperatorClass::View;
  if (torch_replay::kProducts.count(name) != 0) return OperatorClass::Product;
  if (name.find("conv") != std::string::npos) return OperatorClass::Convolution;
  if (torch_replay::kReductions.count(name) != 0 || name.find("pool") != std::string::npos)
    return OperatorClass::Reduction;
  return OperatorClass::Elementwise;
}

namespace torch_replay {

// The engine's optimizer for the trace's, where it has one (the groups' settings of the
// first group), over the parameters that train.
std::unique_ptr<engine::optim::Optimizer> engine_optimizer(const Trace& trace,
                                                           std::vector<Tensor> trained) {
  namespace optim = engine::optim;
  const TracedOptimizerGroup group =
      trace.groups.empty() ? TracedOptimizerGroup{} : trace.groups.front();
  if (trace.optimizer == "SGD") {
    return std::make_unique<optim::SGD>(
        std::move(trained),
        optim::SGDOptions(1e-3).momentum(group.momentum).weight_decay(group.weight_decay));
  }
  if (trace.optimizer == "Adam") {
    return std::make_unique<optim::Adam>(std::move(trained), optim::AdamOptions(1e-3)
                                                                 .betas({group.beta1, group.beta2})
                                                                 .weight_decay(group.weight_decay));
  }
  if (trace.optimizer == "AdamW") {
    return std::make_unique<optim::AdamW>(std::move(trained),
                                          optim::AdamWOptions(1e-3)
                                              .betas({group.beta1, group.beta2})
                                              .weight_decay(group.weight_decay));
  }
  return nullptr;
}

// For each forward operator, the tensors whose last use in the forward pass it is: once it (or
// the call it belongs to) has run, nothing holds them but autograd's saved tensors, as in
// PyTorch. Never the parameters, buffers, batch or loss, nor a tensor made before the step (a
// module's plain attribute), which live on.
std::map<std::size_t, std::vector<std::int64_t>> last_uses(const Trace& trace) {
  std::set<std::int64_t> kept{trace.loss.id}, made;
  for (const TracedParameter& p : trace.parameters) kept.insert(p.tensor.id);
  for (const TracedParameter& b : trace.buffers) kept.insert(b.tensor.id);
  for (const TracedTensor& t : trace.inputs) kept.insert(t.id);
  if (trace.targets) kept.insert(trace.targets->id);
  std::map<std::int64_t, std::size_t> last;
  std::map<std::size_t, std::size_t> unit_of_call;  // a call's operators run as one unit
  for (std::size_t i = 0; i < trace.ops.size(); ++i) {
    const TracedOp& op = trace.ops[i];
    if (op.phase != "forward") continue;
    const std::size_t unit = op.call ? unit_of_call.emplace(*op.call, i).first->second : i;
    for (const TracedTensor& t : op.inputs) last[t.id] = unit;
    for (const TracedTensor& t : op.outputs) made.insert(t.id);
  }
  std::map<std::size_t, std::vector<std::int64_t>> uses;
  for (const auto& [id, unit] : last) {
    if (made.count(id) != 0 && kept.count(id) == 0) uses[unit].push_back(id);
  }
  return uses;
}

struct TorchRun final : TrainingRun::State {
  TorchRun(std::shared_ptr<const Trace> t, engine::Device d)
      : trace(std::move(t)), maker(d, 0, -1), tensors(*trace, d), last_use(last_uses(*trace)) {
    for (const TracedParameter& p : trace->parameters) {
      Tensor made = maker.weight(p.tensor.shape);
      made.requires_grad_(p.requires_grad);
      tensors.bind(p.tensor, made);
    }
    for (const TracedParameter& b : trace->buffers) {
      buffers.push_back(engine::zeros(b.tensor.shape, engine_dtype(b.tensor.dtype)).to(d));
      tensors.bind(b.tensor, buffers.back());
    }
    optimizer = engine_optimizer(*trace, maker.trained());
  }

  // The batch: made on the cpu (a DataLoader's collated tensors) and copied to the device.
  void copy_batch_in() {
    const auto copy = [&](const TracedTensor& t) {
      tensors.bind(t, engine::zeros(t.shape, engine_dtype(t.dtype)).to(tensors.device()));
    };
    for (const TracedTensor& t : trace->inputs) copy(t);
    if (trace->targets) copy(*trace->targets);
  }

  // One ATen operator of the trace, priced by its class.
  void estimate(const TracedOp& op) {
    std::vector<Tensor> inputs;
    for (const TracedTensor& t : op.inputs) inputs.push_back(tensors.get(t));
    const OperatorClass kind = operator_class(op.op);
    const engine::sim::ProductShape product = kind == OperatorClass::Product ? product_shape(op)
                                              : kind == OperatorClass::Convolution
                                                  ? convolution_shape(op)
                                                  : engine::sim::ProductShape{};
    for (const TracedTensor& out : op.outputs) {
      tensors.bind(
          out, engine::sim::estimated_operator(op.op, kind, inputs, out.shape,
                                               engine_dtype(out.dtype), tensors.device(), product));
    }
    if (kind != OperatorClass::View) ++estimated[op.op];
  }

  // The forward pass and the loss: each call through the engine where it can, else its ops.
  Tensor forward() {
    std::set<std::size_t> done;
    for (std::size_t i = 0; i < trace->ops.size(); ++i) {
      const TracedOp& op = trace->ops[i];
      if (op.phase != "forward" || (op.call && !done.insert(*op.call).second)) continue;
      if (op.call) {
        run_call(*op.call);
      } else {
        estimate(op);
      }
      if (const auto dead = last_use.find(i); dead != last_use.end()) {
        for (const std::int64_t id : dead->second) tensors.drop(id);
      }
    }
    return tensors.get(trace->loss);
  }

  // One torch-level call: through the engine where it can, else its operators one by one.
  void run_call(std::size_t index) {
    const TracedCall& call = trace->calls[index];
    if (const auto results = run_on_engine(call, tensors)) {
      for (std::size_t i = 0; i < results->size(); ++i)
        tensors.bind(call.outputs[i], (*results)[i]);
      return;
    }
    for (const TracedOp& op : trace->ops) {
      if (op.phase == "forward" && op.call == index) estimate(op);
    }
  }

  // Where the engine has no optimizer like the trace's: the traced one's operators, its state
  // (made at the first step) kept from one step to the next.
  void step_traced_optimizer() {
    std::vector<Tensor> state;
    for (const TracedOp& op : trace->ops) {
      if (op.phase != "optimizer") continue;
      estimate(op);
      for (const TracedTensor& out : op.outputs) state.push_back(tensors.get(out));
    }
    optimizer_state = std::move(state);
    for (const Tensor& p : maker.trained()) p.set_grad(Tensor());  // zero_grad(set_to_none)
  }

  Tensor iterate() override {
    copy_batch_in();
    Tensor loss = forward();
    loss.backward();
    if (trace->clip_grad_norm)
      engine::py::torch::nn::utils::clip_grad_norm_(maker.trained(), *trace->clip_grad_norm);
    if (optimizer) {
      optimizer->step();
      optimizer->zero_grad();
    } else {
      step_traced_optimizer();
    }
    return loss;
  }

  void estimate_loss(int eval_iters) override {
    engine::NoGradGuard no_grad;
    for (int k = 0; k < eval_iters; ++k) {
      copy_batch_in();
      static_cast<void>(forward().item<float>());
    }
  }

  void infer() override {
    engine::NoGradGuard no_grad;
    copy_batch_in();
    static_cast<void>(forward());
  }

  std::vector<Tensor> parameters() const override { return maker.all(); }

  std::shared_ptr<const Trace> trace;
  runs::ParameterMaker maker;
  TensorTable tensors;
  std::map<std::size_t, std::vector<std::int64_t>> last_use;
  std::vector<Tensor> buffers, optimizer_state;
  std::unique_ptr<engine::optim::Optimizer> optimizer;
  std::map<std::string, std::int64_t> estimated;  // the operators priced by class, counted
};

}  // namespace torch_replay

std::unique_ptr<TrainingRun::State> make_torch_run(std::shared_ptr<const Trace> trace,
                                                   engine::Device device) {
  return std::make_unique<torch_replay::TorchRun>(std::move(trace), device);
}

std::map<std::string, std::int64_t> estimated_operators(std::shared_ptr<const Trace> trace) {
  engine::sim::ShapeOnlyGuard shape_only;
  torch_replay::TorchRun run(std::move(trace), engine::Device("cpu"));
  static_cast<void>(run.iterate());
  return run.estimated;
}

}  // namespace planner
