// `course run NN [options]`: lesson NN as a notebook, built first so an edit shows; a lesson in
// sections runs each in order, and `course run NN.S` one of them. Options after the number go to
// the lesson (--machine m1-8gb, --cell NAME, --trace FILE, --help); in a lesson in sections,
// each --cell goes to the section that has that cell.

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "arguments.h"
#include "course.h"
#include "engine/notebook/child_process.h"
#include "engine/notebook/lesson_names.h"
#include "engine/notebook/lesson_source.h"
#include "verification.h"

namespace front_door {
namespace {

struct ProgramRun {
  const LessonInfo* program;
  Arguments options;  // what goes to its program
};

// The cells a section's file names, in order; none where it does not parse (its program says
// what is wrong when it is built).
std::vector<std::string> cells_of(const LessonInfo& section) {
  std::vector<std::string> names;
  try {
    for (const engine::notebook::Cell& cell :
         engine::notebook::load_lesson(section.file.string()).cells) {
      if (cell.is_code() && !cell.name.empty()) names.push_back(cell.name);
    }
  } catch (const engine::notebook::FormatError&) {
  }
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The runs the options ask for, each section with the --cell options it has; empty after a
// usage error. A lesson of one file takes the options as they are: its program names an unknown
// cell itself.
std::vector<ProgramRun> plan_runs(Course& course, const LessonInfo& asked, const Arguments& args) {
  const LessonInfo& lesson = *course.catalog().lesson(asked.number.substr(0, 2));
  std::vector<const LessonInfo*> programs = asked.programs();
  if (lesson.sections.empty()) return {{&asked, args}};
  Arguments shared;
  std::vector<std::string> cells;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--trace" || args[i] == "--outputs" || args[i].starts_with("--trace=") ||
        args[i].starts_with("--outputs=")) {
      if (programs.size() > 1) {
        usage_error(course, "run",
                    args[i].substr(0, args[i].find('=')) +
                        " writes one section's file: name the "
                        "section, for example " +
                        course.command("run " + programs.front()->number + " " + args[i] + " ..."));
        return {};
      }
    }
    if (args[i] == "--cell" && i + 1 < args.size()) {
      cells.push_back(args[++i]);
    } else if (args[i].starts_with("--cell=")) {
      cells.push_back(args[i].substr(7));
    } else {
      shared.push_back(args[i]);
    }
  }
  if (cells.empty()) {
    std::vector<ProgramRun> runs;
    for (const LessonInfo* program : programs) runs.push_back({program, args});
    return runs;
  }
  std::vector<std::vector<std::string>> named;  // each section's cells
  for (const LessonInfo& section : lesson.sections) named.push_back(cells_of(section));
  std::vector<ProgramRun> runs;
  for (std::size_t s = 0; s < lesson.sections.size(); ++s) {
    const LessonInfo* section = &lesson.sections[s];
    ProgramRun run{section, shared};
    for (const std::string& cell : cells) {
      if (has(named[s], cell)) run.options.insert(run.options.end(), {"--cell", cell});
    }
    const bool asked_for = std::find(programs.begin(), programs.end(), section) != programs.end();
    if (run.options.size() > shared.size() && asked_for) runs.push_back(std::move(run));
  }
  for (const std::string& cell : cells) {
    std::string where, all;
    for (std::size_t s = 0; s < lesson.sections.size(); ++s) {
      if (has(named[s], cell)) where = lesson.sections[s].number;
      std::string list;
      for (const std::string& name : named[s]) list += (list.empty() ? "" : ", ") + name;
      all += "\n  " + lesson.sections[s].number + ": " + list;
    }
    if (where.empty()) {
      usage_error(course, "run",
                  "no section of lesson " + lesson.number + " has a cell named '" + cell +
                      "'; their cells:" + all);
      return {};
    }
    const bool in_asked = std::any_of(programs.begin(), programs.end(),
                                      [&](const LessonInfo* p) { return p->number == where; });
    if (!in_asked) {
      usage_error(course, "run",
                  "the cell '" + cell + "' is in section " + where + ": " +
                      course.command("run " + where + " --cell " + cell));
      return {};
    }
  }
  return runs;
}

int run(Course& course, const Arguments& args) {
  if (args.empty()) return usage_error(course, "run", "which lesson? Give its number");
  const LessonInfo* lesson = lesson_argument(course, "run", args.front());
  if (lesson == nullptr) return kUsageError;
  const std::vector<ProgramRun> runs =
      plan_runs(course, *lesson, Arguments(args.begin() + 1, args.end()));
  if (runs.empty()) return kUsageError;
  // A lesson in sections runs them in order, as one notebook, up to the first that fails.
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const LessonInfo& program = *runs[i].program;
    if (i > 0) course.out() << '\n';
    const std::string target = engine::notebook::program_target(program.number);
    if (!build_or_explain(course, target, program.file)) return kFailed;
    std::vector<std::string> command{(course.layout().lesson_programs / target).string()};
    command.insert(command.end(), runs[i].options.begin(), runs[i].options.end());
    course.out().flush();
    const int status = engine::notebook::run_attached(command);
    // The notebook showed the crash under its cell; this says what ended the program. A cell
    // that never ended has said so itself (status 124).
    if (const std::string signal = engine::notebook::signal_ended(status); !signal.empty()) {
      course.out() << course.bad("✘ Lesson " + program.number + " crashed (" + signal + ").")
                   << '\n';
    }
    if (status != 0) {
      if (i + 1 < runs.size()) {
        course.say("Section " + runs[i + 1].program->number + " and any after it did not run; " +
                   course.command("run " + runs[i + 1].program->number) + " runs it.");
      }
      return status;
    }
  }
  return 0;
}

}  // namespace

const Subcommand kRunCommand{
    .name = "run",
    .usage = "run NN[.S] [options]",
    .summary =
        "lesson NN (or its section NN.S) as a notebook; options go to the lesson (--machine m1-8gb)",
    .run = run};

}  // namespace front_door
