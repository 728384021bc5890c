// `course plan CONFIG`: a model's predicted step time and memory on each simulated Mac, and the
// runbook's recommendation (engine/planner does the work).

#include "planner/plan.h"

#include "course.h"
#include "subcommand.h"

namespace front_door {
namespace {

int plan(Course& course, const Arguments& args) {
  return planner::plan_command(args, course.out(), course.err(), course.width());
}

}  // namespace

const Subcommand kPlanCommand{
    .name = "plan",
    .usage = planner::kPlanUsage,
    .summary = "predict a model's step time and memory on each simulated Mac",
    .run = plan,
    .details =
        "CONFIG is a TOML file or one of nanoGPT's config/*.py files, with nanoGPT's "
        "names (n_layer, n_head, n_embd, block_size, batch_size, ...): "
        "engine/planner/README.md lists them. Examples: engine/planner/examples/, "
        "for instance\n"
        "  build/course plan engine/planner/examples/laptop_char.toml --machine m1-8gb\n"
        "--sweep batch doubles the batch on mps until the GPU swaps or runs out of memory; "
        "--json prints the plan or the sweep as JSON.\n"};

}  // namespace front_door
