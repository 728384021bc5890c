#pragma once
// The torch family, in five files: torch.cpp (the family: a traced model's description, JSON and
// run), torch_trace.cpp (reading the tracer's JSON), torch_calls.cpp and torch_arguments.cpp (the
// torch-level calls the engine runs itself, and their arguments) and torch_replay.cpp (the step
// replayed on the engine).

#include <engine/estimated_operator.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "families/torch_trace.h"
#include "planner/training_step.h"

namespace planner {

std::unique_ptr<TrainingRun::State> make_torch_run(std::shared_ptr<const Trace> trace,
                                                   engine::Device device);

// The class an ATen operator the engine lacks is priced as: a view, a product, a convolution,
// a reduction (a pooling among them), or else an elementwise operator.
engine::sim::OperatorClass operator_class(const std::string& op);

// The trace's operators the replay prices by class, each with how often a step runs it.
std::map<std::string, std::int64_t> estimated_operators(std::shared_ptr<const Trace> trace);

}  // namespace planner
