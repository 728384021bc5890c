#pragma once
// A model the learner describes in PyTorch (`course plan --torch FILE.py`): FILE.py's
// training_step(batch_size), traced by the learner's own PyTorch on the meta device
// (python/trace_model.py) and replayed through the engine like any family's step.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "planner/model_config.h"

namespace planner {

// Traces FILE.py's training step at each of `batch_sizes` (none: at training_step's own
// default) and returns each trace's JSON, in order; where it cannot (no PyTorch, the file fails,
// an operator the meta device cannot run), says why and throws NotTraced. The course runs
// the tracer with the learner's Python (engine/course/src/plan.cpp).
using Tracer = std::function<std::vector<std::string>(
    const std::string& file, const std::vector<std::int64_t>& batch_sizes)>;

// Thrown by a Tracer that has already told the learner why it could not trace (the course's
// words about their Python and what it printed): course plan adds nothing to them.
struct NotTraced {};

// The batch sizes the batch sweep tries: 1, 2, 4, ... up to 65,536.
std::vector<std::int64_t> sweep_batch_sizes();

// The model FILE.py describes, at training_step's batch_size; the batch sweep traces it again,
// once, at every batch size it may try.
ModelConfig traced_model_config(const std::string& file, const Tracer& tracer);

// The model one trace describes (the tracer's JSON, named `source` in messages), at its batch
// size only.
ModelConfig traced_model_config_of(const std::string& trace_json, const std::string& source);

}  // namespace planner
