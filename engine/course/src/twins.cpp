// `course twins NN [--machine NAME]`: lesson NN's Python twins, run by the learner's own Python
// and PyTorch, each shown beside the output the lesson documents for the simulated machine
// closest to this computer (or for NAME), with the lesson's reason where a twin is known to
// print otherwise. On a Mac with MPS this is the learner's first real MPS run. It only shows:
// nothing of it is recorded, and it verifies no lesson.

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "arguments.h"
#include "course.h"
#include "engine/machine.h"
#include "engine/notebook/child_process.h"
#include "engine/notebook/closest_machine.h"
#include "engine/notebook/documented_machines.h"
#include "engine/notebook/lesson_source.h"
#include "engine/notebook/machine_choice.h"
#include "engine/notebook/text_diff.h"
#include "learner_python.h"

namespace front_door {
namespace {

using engine::notebook::Cell;

// What engine/course/python/twin_runner.py agrees on with this file (and kNoTorch).
constexpr std::string_view kResultsFollow = "--- twin results ---";
// Importing PyTorch takes seconds and each twin is a few lines; a run past this has hung.
constexpr std::chrono::minutes kRunnerLimit{20};

struct Twin {
  const Cell* cell;
  std::string code;     // the lesson's Python prelude, then the twin
  std::string heading;  // in a lesson in sections, above each section's first twin
};

struct TheirRun {
  std::string torch, python, executable, system;
  bool mps = false;
  std::vector<std::pair<std::string, int>> results;  // what each twin printed, its exit status
};

// "2.11.0+cu130" is at least "2.6"?
bool release_at_least(const std::string& version, const std::string& release) {
  int major = 0, minor = 0, wanted_major = 0, wanted_minor = 0;
  if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2 ||
      std::sscanf(release.c_str(), "%d.%d", &wanted_major, &wanted_minor) != 2) {
    return false;
  }
  return major != wanted_major ? major > wanted_major : minor >= wanted_minor;
}

// Runs the twins with the first of the learner's Pythons that imports torch; on failure says why
// on err(), naming every Python tried, and returns nothing.
std::optional<TheirRun> run_twins(Course& course, const std::string& lesson,
                                  const std::vector<Twin>& twins) {
  std::vector<std::string> codes;
  for (const Twin& twin : twins) codes.push_back(twin.code);
  const PythonRun run = run_with_torch(
      (course.layout().top / "engine" / "course" / "python" / "twin_runner.py").string(), codes,
      kRunnerLimit);
  // The command stays whole on a line of its own, to be copied.
  const std::string again =
      "  MPS_COURSE_PYTHON=/path/to/python3 " + course.command("twins " + lesson) + "\n";
  if (run.python.empty()) {
    explain_no_torch(course, run, "twins", "to run the twins", again);
    return std::nullopt;
  }
  const std::string& python = run.python;
  const engine::notebook::Finished& finished = run.finished;
  for (const Refusal& r : run.refusals) course.say("Skipped " + refusal_line(r), "  ");
  const std::size_t marker = finished.output.rfind(kResultsFollow);
  if (finished.status != 0 || finished.stopped || marker == std::string::npos) {
    course.err() << "course twins: " << python << " stopped before reporting"
                 << (finished.stopped ? " (it ran past the time limit)" : "") << ":\n"
                 << finished.output;
    return std::nullopt;
  }
  try {
    const nlohmann::json report =
        nlohmann::json::parse(finished.output.substr(marker + kResultsFollow.size()));
    TheirRun run{.torch = report.at("torch"),
                 .python = report.at("python"),
                 .executable = report.at("executable"),
                 .system = report.at("system"),
                 .mps = report.at("mps"),
                 .results = {}};
    for (const nlohmann::json& result : report.at("results")) {
      run.results.emplace_back(result.at("printed"), result.at("status"));
    }
    if (run.results.size() == twins.size()) return run;
  } catch (const nlohmann::json::exception&) {
  }
  course.err() << "course twins: " << python << "'s report of the twins is unreadable:\n"
               << finished.output;
  return std::nullopt;
}

// Python code beside the gutter, each line broken to the terminal's width as the notebook
// breaks code.
void show_code(Course& course, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    for (const std::string& part : engine::notebook::code_line_parts(line, course.width() - 2))
      course.out() << "│ " << part << '\n';
  }
}

class TwinsView {
 public:
  TwinsView(Course& course, const TheirRun& run, const engine::MachineProfile& machine)
      : course_(course), run_(run), machine_(machine) {}

  void lines(std::string_view gutter, const std::string& text, bool dim) {
    for (const std::string& line : engine::notebook::split_lines(text)) {
      for (const std::string& part :
           engine::notebook::printed_line_parts(line, course_.width() - gutter.size())) {
        course_.out() << gutter << (dim ? dimmed(part) : part) << '\n';
      }
    }
  }

  void show(const Twin& twin, const std::string& printed, int status) {
    const engine::notebook::PythonTwin& python = *twin.cell->python;
    course_.out() << "┌ " << twin.cell->name << (twin.cell->requires_mps ? "  requires mps" : "")
                  << '\n';
    show_code(course_, python.lines);
    const engine::notebook::OutputBlock* block =
        engine::notebook::documented_output(*twin.cell, std::string(machine_.name));
    const std::string documented = block != nullptr ? block->text() : "";
    const bool same = status == 0 && printed == documented;
    course_.out() << "└▶ your PyTorch"
                  << (same ? ", as documented for " + std::string(machine_.name) : "") << '\n';
    lines("  ", printed, false);
    if (same) {
      ++same_;
      course_.out() << '\n';
      return;
    }
    if (status != 0) note(course_.bad("It ended with status " + std::to_string(status) + "."));
    course_.out() << "└▷ documented for " << std::string(machine_.name) << '\n';
    lines("  ", documented, true);
    const bool marked = !python.differs.empty() &&
                        (python.before.empty() || !release_at_least(run_.torch, python.before));
    if (marked) {
      ++marked_;
      note("Why they differ: " + python.differs + ".");
    } else {
      ++unexplained_;
      note("The lesson marks no difference here: this is where your computer and the simulated " +
           std::string(machine_.name) + " part ways.");
    }
    course_.out() << '\n';
  }

  void summary(std::size_t twins, const std::string& lesson) {
    course_.say(std::to_string(twins) + " twins: " + std::to_string(same_) +
                " printed what the lesson documents for " + std::string(machine_.name) + ", " +
                std::to_string(marked_) + " printed otherwise for the reason the " +
                "lesson gives, " + std::to_string(unexplained_) +
                " for no reason the lesson gives. This verified " + "nothing; " +
                course_.command("run " + lesson) + " runs the lesson itself.");
  }

 private:
  // A remark under a cell's outputs, indented with them.
  void note(const std::string& text) {
    course_.out() << engine::notebook::wrap(text, course_.width(), "  ", "  ");
  }

  std::string dimmed(const std::string& text) const {
    return course_.color() ? "\x1b[2m" + text + "\x1b[0m" : text;
  }

  Course& course_;
  const TheirRun& run_;
  const engine::MachineProfile& machine_;
  int same_ = 0, marked_ = 0, unexplained_ = 0;
};

// The machine named by --machine, or the simulated one closest to this computer. Every machine
// counts as documented: an output block without machines documents them all.
const engine::MachineProfile* compared_machine(Course& course,
                                               const std::optional<std::string>& name) {
  if (name) {
    const engine::MachineProfile* machine = engine::find_machine(*name);
    if (machine == nullptr || machine->name == "host") {
      usage_error(course, "twins",
                  machine == nullptr
                      ? engine::notebook::unknown_machine(*name)
                      : "the twins run on this computer already; name a simulated machine to "
                        "compare with (--list-machines lists them)");
      return nullptr;
    }
    return machine;
  }
  const engine::MachineProfile& host = *engine::find_machine("host");
  return &engine::notebook::closest_machine(host, engine::machines());
}

// The twins of a file's unnamed cells, which every twin runs first, a blank line between cells.
void show_prelude(Course& course, const std::string& heading,
                  const std::vector<engine::notebook::Cell>& cells) {
  bool first = true;
  for (const engine::notebook::Cell& cell : cells) {
    if (!cell.is_code() || !cell.name.empty() || !cell.python) continue;
    if (first) {
      course.out() << '\n';
      course.say(heading);
    } else {
      course.out() << "│\n";
    }
    first = false;
    show_code(course, cell.python->lines);
  }
}

// The Python every twin runs after: a lesson in sections shows its shared file's once, then
// what each section adds.
void show_preludes(Course& course, const LessonInfo& lesson,
                   const std::vector<engine::notebook::LessonSource>& sources) {
  if (lesson.sections.empty()) {
    const engine::notebook::LessonSource& source = sources.front();
    std::vector<engine::notebook::Cell> cells = source.shared_cells;  // a section's shared file
    cells.insert(cells.end(), source.cells.begin(), source.cells.end());
    show_prelude(course, "Every twin runs after the lesson's Python prelude:", cells);
    return;
  }
  show_prelude(course,
               "Every twin runs after the Python prelude of " + course.shown(lesson.file) +
                   ", which the sections share:",
               sources.front().shared_cells);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    show_prelude(course, "The twins of section " + lesson.sections[i].number + " also run after:",
                 sources[i].cells);
  }
}

int twins(Course& course, const Arguments& given) {
  const Arguments args = split_option_values(given, {"--machine"});
  std::optional<std::string> number, machine_name;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--machine") {
      if (i + 1 == args.size())
        return usage_error(course, "twins", "--machine needs a machine's name");
      machine_name = args[++i];
    } else if (args[i] == "--list-machines") {
      engine::notebook::list_machines(course.out(), course.width());
      return 0;
    } else if (args[i].rfind("-", 0) == 0) {
      return usage_error(course, "twins", "unknown option " + args[i]);
    } else if (number) {
      return usage_error(course, "twins", "name one lesson");
    } else {
      number = args[i];
    }
  }
  if (!number) return usage_error(course, "twins", "which lesson? Give its number");
  const LessonInfo* lesson = lesson_argument(course, "twins", *number);
  if (lesson == nullptr) return kUsageError;
  const engine::MachineProfile* machine = compared_machine(course, machine_name);
  if (machine == nullptr) return kUsageError;

  // A lesson in sections: every section's twins, in one run of the learner's Python.
  std::vector<engine::notebook::LessonSource> sources;
  try {
    for (const LessonInfo* program : lesson->programs())
      sources.push_back(engine::notebook::load_lesson(program->file.string()));
  } catch (const engine::notebook::FormatError& e) {
    course.err() << e.what() << '\n';
    return kFailed;
  }
  std::vector<Twin> twins;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    std::string heading = lesson->sections.empty() ? ""
                                                   : "Section " + lesson->sections[s].number +
                                                         " · " + lesson->sections[s].title;
    for (const Cell& cell : sources[s].cells) {
      if (!cell.is_code() || cell.name.empty() || !cell.python) continue;
      twins.push_back({&cell, sources[s].twin_script(cell), heading});
      heading.clear();
    }
  }
  if (twins.empty()) {
    course.say("Lesson " + lesson->number + " has no Python twins.");
    return 0;
  }
  course.say("Running lesson " + lesson->number + "'s " + std::to_string(twins.size()) +
             " Python twins with your own PyTorch ...");
  course.out().flush();
  const std::optional<TheirRun> run = run_twins(course, lesson->number, twins);
  if (!run) return kFailed;

  course.say("PyTorch " + run->torch + " on Python " + run->python + " (" + run->executable +
             "), " + run->system + "; MPS " +
             (run->mps ? "available: the twins that ask for it ran on this Mac's GPU."
                       : "not available here.") +
             " Beside each twin: the output lesson " + lesson->number + " documents for " +
             std::string(machine->name) +
             (machine_name ? "" : ", the simulated machine closest to this computer") + ".");
  show_preludes(course, *lesson, sources);
  course.out() << '\n';
  TwinsView view(course, *run, *machine);
  for (std::size_t i = 0; i < twins.size(); ++i) {
    if (!twins[i].heading.empty()) course.say(twins[i].heading);
    view.show(twins[i], run->results[i].first, run->results[i].second);
  }
  view.summary(twins.size(), lesson->number);
  return 0;
}

}  // namespace

const Subcommand kTwinsCommand{
    .name = "twins",
    .usage = "twins NN[.S] [--machine NAME]",
    .summary = "lesson NN's Python twins run by your own PyTorch, beside the lesson's outputs",
    .run = twins,
    .details =
        "Runs each Python twin of lesson NN with the Python that MPS_COURSE_PYTHON names, or else "
        "with the first that imports torch of python3 on PATH and the system's (/usr/bin/python3), "
        "and shows what your PyTorch printed beside the output the lesson documents for the simulated "
        "machine closest to this computer (--machine NAME picks another; --list-machines lists them). On a Mac with MPS the twins run "
        "on its GPU. Nothing is recorded: the lesson stays unverified until `course run NN` runs it.\n"};

}  // namespace front_door
