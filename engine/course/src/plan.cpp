// `course plan CONFIG`: a model's predicted step time and memory on each simulated Mac, and the
// runbook's recommendation (engine/planner does the work).

#include "planner/plan.h"

#include "arguments.h"
#include "course.h"
#include "subcommand.h"

namespace front_door {
namespace {

int plan(Course& course, const Arguments& args) {
  return planner::plan_command(split_option_values(args, {"--machine", "--sweep"}), course.out(),
                               course.err(), course.width());
}

}  // namespace

const Subcommand kPlanCommand{
    .name = "plan",
    .usage = planner::kPlanUsage,
    .summary = "predict a model's step time and memory on each simulated Mac",
    .run = plan,
    .details =
        "CONFIG is a TOML file, one of nanoGPT's config/*.py files or a Hugging Face "
        "config.json: a GPT in nanoGPT's names (n_layer, n_head, n_embd, ...) or GPT-2's "
        "(model_type = \"gpt2\", transformers' names), an MLP "
        "(family = \"mlp\", widths), an encoder (model_type = \"bert\", \"distilbert\" or "
        "\"vit\", Hugging Face's names) or a torchvision CNN (model = \"resnet50\"); "
        "trainable_layers freezes all but the last blocks. engine/planner/README.md lists "
        "the fields. Examples: engine/planner/examples/, for instance\n"
        "  build/course plan engine/planner/examples/laptop_char.toml --machine m1-8gb\n"
        "  build/course plan engine/planner/examples/resnet50_food101.toml\n"
        "--sweep batch doubles the batch on mps until the GPU swaps or runs out of memory; "
        "--json prints the plan or the sweep as JSON.\n"};

}  // namespace front_door
