// Every line `course plan` prints, pinned: for each example config, a transcript of the plan, the
// plan as JSON, the batch sweep and the sweep as JSON (transcripts/EXAMPLE.txt), and one of the
// command's refusals (transcripts/refusals.txt), each compared whole. Where one differs, the test
// writes what the planner prints now into the build tree and names the file to compare and copy.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "planner/model_config.h"
#include "planner/plan.h"

namespace {

const std::string kSource = TUTOR_SOURCE_DIR "/";
const std::string kTranscripts = kSource + "tests/engine/planner/transcripts/";

struct Command {
  std::vector<std::string> args;  // paths relative to the source tree
  std::size_t width = 160;        // the README's terminal
};

// The planner run from the top of the source tree, as a learner in a clone runs it: the paths it
// prints, and so where its lines wrap, never depend on where the clone is.
class InSourceTree {
 public:
  InSourceTree() { std::filesystem::current_path(kSource); }
  ~InSourceTree() { std::filesystem::current_path(was_); }
  InSourceTree(const InSourceTree&) = delete;
  InSourceTree& operator=(const InSourceTree&) = delete;

 private:
  std::filesystem::path was_ = std::filesystem::current_path();
};

// A command and what it printed: stdout, then stderr under a marker, then a non-zero status.
std::string run(const Command& command) {
  std::string line = "$ course plan";
  for (const std::string& arg : command.args) line += " " + arg;
  if (command.width != 160) line += "    # " + std::to_string(command.width) + " columns";
  std::ostringstream out, err;
  const InSourceTree in_source_tree;
  const int status = planner::plan_command(command.args, out, err, command.width);
  std::string text = line + "\n" + out.str();
  if (!err.str().empty()) text += "[stderr]\n" + err.str();
  if (status != 0) text += "[exit status " + std::to_string(status) + "]\n";
  return text + "\n";
}

std::string transcript(const std::vector<Command>& commands) {
  std::string text;
  for (const Command& command : commands) text += run(command);
  return text;
}

// The committed transcript `name`, compared with what the planner prints now.
void check_transcript(const std::string& name, const std::vector<Command>& commands) {
  const std::string now = transcript(commands);
  std::ifstream in(kTranscripts + name);
  std::stringstream committed;
  committed << in.rdbuf();
  const bool same = committed.str() == now;
  const std::filesystem::path written =
      std::filesystem::current_path() / "planner_transcripts" / name;
  if (!same) {
    std::filesystem::create_directories(written.parent_path());
    std::ofstream(written) << now;
  }
  CHECK_MESSAGE(same, "tests/engine/planner/transcripts/"
                          << name << " differs from what course plan prints now, which is in "
                          << written.string()
                          << ": compare them, and copy it over if the change is meant");
}

// GPT-2's plan, the examples' largest, is a test of its own, run beside them, and two machines
// pin its sweep's lines.
constexpr const char* kSlowExample = "train_gpt2.py";

// The plan and the sweep, in text and JSON. The sweep's JSON, a dozen fields per batch, is
// pinned on two machines: one whose GPU swaps, one without MPS; the text pins every machine's.
std::vector<Command> example_commands(const std::string& example) {
  const std::string path = "engine/planner/examples/" + example;
  std::vector<Command> commands{{{path}}, {{path, "--json"}}};
  if (example == kSlowExample) {
    for (const char* machine : {"m1-pro-16gb", "m3-max-64gb"})
      commands.push_back({{path, "--sweep", "batch", "--machine", machine}});
  } else {
    commands.push_back({{path, "--sweep", "batch"}});
  }
  for (const char* machine : {"m1-8gb", "linux-x86_64"})
    commands.push_back({{path, "--sweep", "batch", "--machine", machine, "--json"}});
  // and where the config has an input pipeline, the workers sweep: every machine's text, and one
  // machine's JSON and narrow layout
  if (planner::read_model_config(kSource + path).input.reads_samples()) {
    commands.push_back({{path, "--sweep", "workers"}});
    commands.push_back({{path, "--sweep", "workers", "--machine", "m1-8gb", "--json"}});
    commands.push_back({{path, "--sweep", "workers", "--machine", "m1-8gb"}, 60});
  }
  return commands;
}

void check_example(const std::string& example) {
  CAPTURE(example);
  check_transcript(example + ".txt", example_commands(example));
}

}  // namespace

TEST_CASE("course plan prints, for every example config, the lines its transcript pins") {
  std::vector<std::string> examples;
  for (const auto& entry :
       std::filesystem::directory_iterator(kSource + "engine/planner/examples")) {
    if (!entry.is_directory())  // pytorch/: models course plan --torch traces (torch_test.cpp)
      examples.push_back(entry.path().filename().string());
  }
  std::sort(examples.begin(), examples.end());
  for (const std::string& example : examples) {
    if (example != kSlowExample) check_example(example);
  }
  // and no transcript of an example since removed: one per example, the narrow terminals' and
  // the refusals' (the traced examples' are torch_test.cpp's: pytorch_*.txt)
  const auto transcripts = std::count_if(
      std::filesystem::directory_iterator(kTranscripts), std::filesystem::directory_iterator(),
      [](const auto& entry) { return !entry.path().filename().string().starts_with("pytorch_"); });
  CHECK(static_cast<std::size_t>(transcripts) == examples.size() + 2);
}

TEST_CASE("course plan prints, for GPT-2's nanoGPT config, the lines its transcript pins") {
  check_example(kSlowExample);
}

TEST_CASE("course plan's narrow layouts and its refusals print the lines their transcript pins") {
  const std::string shakespeare = "engine/planner/examples/train_shakespeare_char.toml";
  const std::string laptop = "engine/planner/examples/laptop_char.toml";
  const std::string refused = "tests/engine/planner/refused/";
  check_transcript("narrow_terminals.txt",
                   {{{shakespeare, "--machine", "m1-8gb"}, 100},
                    {{shakespeare, "--machine", "m1-8gb"}, 60},
                    {{shakespeare, "--machine", "m1-8gb"}, 40},
                    {{shakespeare, "--machine", "m1-8gb", "--sweep", "batch"}, 60},
                    {{shakespeare, "--machine", "m1-8gb", "--sweep", "batch"}, 40}});
  std::vector<Command> refusals{
      {{}},
      {{laptop, "--machine"}},
      {{laptop, "--machine", "m9-ultra"}},
      {{laptop, "--machine", "m9-ultra"}, 60},
      {{laptop, "--fast"}},
      {{laptop, "--sweep"}},
      {{laptop, "--sweep", "block_size"}},
      {{laptop, "--sweep", "workers"}},  // batches made in memory: no workers to sweep
      {{laptop, "engine/planner/examples/mnist_mlp.toml"}},
      {{"engine/planner/examples/no_such_config.toml"}},
      {{"engine/planner/examples/"}},
      {{"--torch"}},
      {{laptop, "--torch", "engine/planner/examples/pytorch/lenet5.py"}},
      {{"--torch", "engine/planner/examples/pytorch/lenet5.py"}},  // a program with no tracer
  };
  std::vector<std::string> configs;
  for (const auto& entry : std::filesystem::directory_iterator(kSource + refused))
    configs.push_back(entry.path().filename().string());
  std::sort(configs.begin(), configs.end());
  for (const std::string& config : configs) {
    refusals.push_back({{refused + config}});
    refusals.push_back({{refused + config}, 60});
  }
  check_transcript("refusals.txt", refusals);
}
