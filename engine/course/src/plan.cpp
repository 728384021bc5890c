// `course plan CONFIG` or `course plan --torch FILE.py`: a model's predicted step time and memory
// on each simulated Mac, and the runbook's recommendation (engine/planner does the work). A
// PyTorch model is traced by the learner's own PyTorch, found as `course twins` finds it.

#include "planner/plan.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "arguments.h"
#include "course.h"
#include "engine/notebook/text_file.h"
#include "learner_python.h"
#include "planner/model_config.h"
#include "subcommand.h"

namespace front_door {
namespace {

// What engine/planner/python/trace_model.py agrees on with this file (and kNoTorch).
constexpr std::string_view kTraceFollows = "--- trace ---\n";
// Importing PyTorch takes seconds, and tracing a step on the meta device a few more for a
// billion parameters; the batch sweep traces seventeen batch sizes.
constexpr std::chrono::minutes kTracerLimit{10};
// The traces of a sweep's seventeen batch sizes, each of at most planner's kTracedOperators
// operators of about a hundred bytes, stay under this.
constexpr std::uintmax_t kTracesLimit = 256u << 20;

// A file of the system's temporary folder that only this run uses, removed when it goes: the
// tracer writes its traces there, apart from what the learner's code prints and whole, where
// what a program prints is kept only in part (child_process.h).
class ScratchFile {
 public:
  ScratchFile() {
    std::string name = (std::filesystem::temp_directory_path() / "course-trace-XXXXXX").string();
    const int descriptor = mkstemp(name.data());
    if (descriptor < 0) throw std::runtime_error("cannot make a file in " + name);
    close(descriptor);
    path_ = name;
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The traces the tracer wrote, each on the line after its marker.
std::vector<std::string> traces_in(const std::string& output) {
  std::vector<std::string> traces;
  for (std::size_t at = output.find(kTraceFollows); at != std::string::npos;
       at = output.find(kTraceFollows, at)) {
    at += kTraceFollows.size();
    traces.push_back(output.substr(at, output.find('\n', at) - at));
  }
  return traces;
}

// The tracer, run with the learner's Python on FILE.py at `batch_sizes`.
planner::Tracer learner_tracer(Course& course) {
  return [&course](const std::string& file, const std::vector<std::int64_t>& batch_sizes) {
    static_cast<void>(planner::config_text(file));  // a file that is not there is named so
    const ScratchFile traces_file;
    std::vector<std::string> arguments{file, "--output", traces_file.path().string()};
    if (!batch_sizes.empty()) arguments.emplace_back("--batch-size");
    for (const std::int64_t size : batch_sizes) arguments.push_back(std::to_string(size));
    const PythonRun run = run_with_torch(
        (course.layout().top / "engine" / "planner" / "python" / "trace_model.py").string(),
        arguments, kTracerLimit);
    if (run.python.empty()) {
      const std::string again =
          "  MPS_COURSE_PYTHON=/path/to/python3 " + course.command("plan --torch " + file) + "\n";
      explain_no_torch(course, run, "plan", "to trace " + file, again);
      throw planner::NotTraced{};
    }
    std::vector<std::string> traces;
    try {
      traces =
          traces_in(engine::notebook::read_text_file(traces_file.path().string(), kTracesLimit));
    } catch (const engine::notebook::UnreadableFile& why) {
      course.err() << engine::notebook::wrap(
          "course plan: the traces of " + file + " cannot be read: " + why.what(), course.width());
      throw planner::NotTraced{};
    }
    if (run.finished.status != 0 || run.finished.stopped || traces.empty()) {
      course.err() << engine::notebook::wrap(
                          "course plan: " + run.python + " could not trace " + file +
                              (run.finished.stopped ? " (it ran past the time limit)" : "") + ":",
                          course.width())
                   << run.finished.output;
      throw planner::NotTraced{};
    }
    return traces;
  };
}

int plan(Course& course, const Arguments& args) {
  return planner::plan_command(split_option_values(args, {"--machine", "--sweep", "--torch"}),
                               course.out(), course.err(), course.width(), learner_tracer(course));
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
        "trainable_layers freezes all but the last blocks. --torch FILE.py plans your own "
        "PyTorch model instead: FILE.py defines training_step(batch_size), returning the model, "
        "its inputs, the loss and the optimizer, and your PyTorch traces one step of it on the "
        "meta device. engine/planner/README.md lists the fields and the contract. Examples: "
        "engine/planner/examples/, for instance\n"
        "  build/course plan engine/planner/examples/laptop_char.toml --machine m1-8gb\n"
        "  build/course plan engine/planner/examples/resnet50_food101.toml\n"
        "  build/course plan --torch engine/planner/examples/pytorch/lenet5.py --machine m1-8gb\n"
        "--sweep batch doubles the batch on mps until the GPU swaps or runs out of memory; "
        "--sweep workers doubles a DataLoader's num_workers (a config with samples = \"jpeg\" "
        "or \"images\") up to the machine's performance cores; "
        "--json prints the plan or the sweep as JSON; --list-machines lists the machines "
        "--machine takes.\n"};

}  // namespace front_door
