#pragma once
// `course plan CONFIG [--machine NAME] [--sweep batch] [--json]`: a model description in, and for
// every simulated machine (or the one named) the predicted steady iteration on the cpu and on mps,
// the Metal memory against the machine's limits, and the runbook's recommendation with its
// reasons; or, with --sweep batch, the runbook's batch sweep on mps. --json prints the same as
// JSON, for other tools.

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace planner {

inline constexpr const char* kPlanUsage = "plan CONFIG [--machine NAME] [--sweep batch] [--json]";

// Runs the subcommand on `args` (what follows "plan"), laid out for a terminal of `width` columns.
// Exit status: 0 a plan was printed, 1 the config was refused (its message names the field and
// line), 2 a usage error.
int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 std::size_t width = 80);

}  // namespace planner
