#pragma once
// `course plan CONFIG [--machine NAME] [--sweep batch|workers] [--json]`: a model description in, and for
// every simulated machine (or the one named) the predicted steady iteration on the cpu and on mps,
// the Metal memory against the machine's limits, and the runbook's recommendation with its
// reasons; or, with --sweep batch, the runbook's batch sweep on mps. --json prints the same as
// JSON, for other tools. `--torch FILE.py` in place of CONFIG: the learner's own PyTorch model,
// traced by their PyTorch (torch_model.h).

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "planner/torch_model.h"

namespace planner {

inline constexpr const char* kPlanUsage =
    "plan CONFIG|--torch FILE.py [--machine NAME] [--sweep batch|workers] [--json]";

// Runs the subcommand on `args` (what follows "plan"), laid out for a terminal of `width` columns;
// `tracer` traces a --torch FILE.py. Exit status: 0 a plan was printed, 1 the config was refused
// (its message names the field and line) or FILE.py could not be traced, 2 a usage error.
int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 std::size_t width = 80, const Tracer& tracer = {});

}  // namespace planner
