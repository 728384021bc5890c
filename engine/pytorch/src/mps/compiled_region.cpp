// engine::compile, torch.compile's stand-in (engine/compile.h): graphs, their compilation, and
// which kernels belong to them. What a compiled kernel costs is in cost_model.cpp.
//
// Note [Compile time]
// torch.compile pays on the host, once per graph: Dynamo traces the forward's bytecode,
// AOTAutograd traces the joint forward and backward and partitions it, Inductor lowers and
// schedules each graph and writes its kernels, and Metal compiles them. All of these grow with
// the number of operations in the graph, so the model charges a fixed time per operation. The
// forward graph compiles on the first call; the backward compiles lazily, when backward first
// runs through it, as AOTAutograd does. Each mode is its own graph: a call under no_grad after
// training calls recompiles (Dynamo guards on grad mode).

#include "mps/compiled_region.h"

#include <functional>
#include <memory>
#include <utility>

#include "engine/autograd.h"
#include "engine/compile.h"
#include "machine/process.h"
#include "trace/trace.h"

namespace engine::detail {

// [fit] Host seconds per operation of a graph, Dynamo to Metal. Fitted to seed 003: nanoGPT's
// first compiled iteration on the M3 Max took 85.3 s against 25.9 s eager (its evaluation of
// 400 batches, one graph, then the first training step, a second graph and its backward). One
// measurement fixes this one constant; no other published compile time on MPS was found.
constexpr double kCompileSecondsPerOp = 0.06;
// [estimate] AOTAutograd's backward graph holds about two operations per forward operation: a
// product has two gradient products, a pointwise op one gradient op and often a saved mask.
constexpr double kBackwardOpsPerForwardOp = 2;

struct CompiledGraph {
  std::int64_t forward_ops = 0;  // counted by Dynamo's trace
  bool traced = false;
  bool backward_compiled = false;
};

struct CompileCache {
  std::shared_ptr<CompiledGraph> with_grad = std::make_shared<CompiledGraph>();
  std::shared_ptr<CompiledGraph> no_grad = std::make_shared<CompiledGraph>();
};

namespace {

thread_local CompiledGraph* dynamo_trace = nullptr;   // Dynamo is tracing this graph's forward
thread_local std::shared_ptr<CompiledGraph> running;  // this graph's kernels run now
thread_local bool in_backward = false;

// Runs the kernels launched while alive as part of `graph`.
class RunningGraph {
 public:
  RunningGraph(std::shared_ptr<CompiledGraph> graph, bool backward)
      : saved_(running), saved_backward_(in_backward) {
    running = std::move(graph);
    in_backward = backward;
  }
  ~RunningGraph() {
    running = std::move(saved_);
    in_backward = saved_backward_;
  }
  RunningGraph(const RunningGraph&) = delete;
  RunningGraph& operator=(const RunningGraph&) = delete;

 private:
  std::shared_ptr<CompiledGraph> saved_;
  bool saved_backward_;
};

void charge_compile(std::int64_t ops, const char* what) {
  Process& p = process();
  const double seconds = kCompileSecondsPerOp * static_cast<double>(ops);
  trace_span(Track::Host, what, "compile", p.timeline.host_now, seconds);
  p.timeline.host_now += seconds;
}

}  // namespace

std::shared_ptr<CompileCache> make_compile_cache() { return std::make_shared<CompileCache>(); }

void run_compiled(CompileCache& cache, const std::function<void()>& forward) {
  const std::shared_ptr<CompiledGraph>& graph =
      GradMode::is_enabled() ? cache.with_grad : cache.no_grad;
  if (!graph->traced) {
    dynamo_trace = graph.get();
    try {
      forward();
    } catch (...) {
      dynamo_trace = nullptr;
      throw;
    }
    dynamo_trace = nullptr;
    graph->traced = true;
    charge_compile(graph->forward_ops, "torch.compile: forward graph");
  }
  RunningGraph region(graph, false);
  forward();
}

const CompiledGraph* current_compiled_graph() { return running.get(); }

bool count_traced_op() {
  if (dynamo_trace == nullptr) return false;
  ++dynamo_trace->forward_ops;
  return true;
}

bool dynamo_tracing() { return dynamo_trace != nullptr; }

void compile_backward_if_needed() {
  if (!in_backward || running == nullptr || running->backward_compiled) return;
  running->backward_compiled = true;
  const auto ops = static_cast<double>(running->forward_ops) * kBackwardOpsPerForwardOp;
  charge_compile(static_cast<std::int64_t>(ops), "torch.compile: backward graph");
}

autograd::Node::Backward within_compiled_graph(autograd::Node::Backward backward) {
  if (running == nullptr || in_backward) return backward;
  return [graph = running, inner = std::move(backward)](const Tensor& grad) {
    RunningGraph region(graph, true);
    return inner(grad);
  };
}

}  // namespace engine::detail
