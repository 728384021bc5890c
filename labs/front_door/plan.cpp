// `course plan CONFIG`: a model's predicted step time and memory on each simulated Mac, and the
// runbook's recommendation (labs/planner does the work).

#include "course.h"
#include "plan.h"
#include "subcommand.h"

namespace front_door {
namespace {

int plan(Course& course, const Arguments& args) { return planner::plan_command(args, course.out(), course.err()); }

const Registration plan_command({.name = "plan",
                                 .usage = planner::kPlanUsage,
                                 .summary = "predict a model's step time and memory on each simulated Mac",
                                 .order = 70,
                                 .run = plan});

}  // namespace
}  // namespace front_door
