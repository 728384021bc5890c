// Build, run, verdict, record.

#include "verification.h"

#include <sstream>
#include <stdexcept>

#include "build.h"
#include "course.h"
#include "engine/notebook/lesson_names.h"
#include "engine/notebook/stopped_code.h"
#include "hints.h"

namespace front_door {
namespace {

using engine::notebook::Finished;
using engine::notebook::run_collecting;

namespace fs = std::filesystem;

constexpr int kMaxMessageLines = 40;  // the first error matters; the rest is usually its echo

void show_build_failure(Course& course, const std::string& messages, const std::string& what,
                        const std::string& target) {
  std::istringstream lines(messages);
  int shown = 0, hidden = 0;
  for (std::string line; std::getline(lines, line);) {
    if (shown < kMaxMessageLines) {
      course.out() << line << '\n';
      ++shown;
    } else {
      ++hidden;
    }
  }
  course.out() << course.bad("✘ " + what + " does not compile.")
               << " Start with the first error above.\n";
  if (messages.find("undefined reference") != std::string::npos ||
      messages.find("undefined symbol") != std::string::npos) {
    course.out()
        << "(An undefined symbol is a function that lab.h declares and your file does not define, or "
           "defines with other parameters.)\n";
  }
  if (hidden > 0) {
    course.out() << "(" << hidden << " more lines: " << course.shown(course.layout().cmake)
                 << " --build " << course.shown(course.layout().build) << " --target " << target
                 << " shows them all)\n";
  }
}

}  // namespace

std::chrono::seconds learner_program_limit() {
  return 6 * std::chrono::seconds(engine::notebook::time_limit_seconds());
}

bool time_limit_usable(Course& course, std::string_view subcommand) {
  try {
    engine::notebook::time_limit_seconds();
    return true;
  } catch (const std::invalid_argument& e) {
    course.err() << "course " << subcommand << ": " << e.what() << '\n';
    return false;
  }
}

bool explain_stop(Course& course, const Finished& run, const std::string& what) {
  if (run.stopped) {
    course.out() << course.bad("✘ " + what + " ran for " +
                               std::to_string(learner_program_limit().count()) +
                               " s without finishing and was stopped.")
                 << " Look for a loop whose condition never changes.\n";
    return true;
  }
  // Its own time limit (engine/notebook/stopped_code.h) has said what was running.
  if (run.status == 124) return true;
  const std::string signal = engine::notebook::signal_ended(run.status);
  if (signal.empty()) return false;
  // Inside a check or a cell, the program has named the crash itself; before one, nobody has.
  if (run.output.find("crashed with") == std::string::npos) {
    course.out() << course.bad("✘ " + what + " crashed (" + signal +
                               ") before its first check ran.")
                 << '\n';
  }
  return true;
}

bool build_or_explain(Course& course, const std::string& target, const fs::path& file) {
  const BuildResult build = build_target(course.layout(), target);
  if (!build.built) show_build_failure(course, build.messages, course.shown(file), target);
  return build.built;
}

namespace {

// The doctest options that make a lab program colour its report like ours.
std::string color_option(const Course& course) {
  return course.color() ? "--force-colors" : "--no-colors";
}

}  // namespace

Verdict verify_lab(Course& course, const LabInfo& lab, const LabRun& how) {
  const std::string& variant = how.variant;
  std::string target = "lab" + lab.number;
  fs::path program = course.layout().lab_programs / target;
  fs::path file = lab.learner_file();
  if (!variant.empty()) {
    const bool decoy = variant != "solution" && variant != "starter";
    target += decoy ? "_decoy_" + variant : "_" + variant;
    program = course.layout().lab_programs / "proofs" / target;
    file = decoy ? lab.dir / "decoys" / (variant + ".md") : lab.dir / variant / "lab.cpp";
  }
  course.out() << "Lab " << lab.number << " · " << lab.title << " · " << course.shown(file) << '\n';
  if (!fs::exists(file)) {
    course.out() << course.bad("✘ " + course.shown(file) + " is missing.");
    if (variant.empty())
      course.out() << " " << course.command("reset " + lab.number) << " puts the starter back.";
    course.out() << '\n';
    return Verdict::Missing;
  }
  if (!build_or_explain(course, target, file)) return Verdict::DoesNotCompile;
  std::vector<std::string> command{program.string(), color_option(course),
                                   "--width=" + std::to_string(course.width())};
  if (how.details) command.push_back("--details");
  const Finished run = run_collecting(command, learner_program_limit());
  course.out() << run.output;
  explain_stop(course, run, "Your lab");
  if (run.status != 0) {
    if (variant.empty()) {
      const std::size_t hints = read_hints(lab.hints_file()).size();
      course.out() << "Stuck? " << course.command("hint " + lab.number) << " gives one of " << hints
                   << " hints at a time.\n";
    }
    return Verdict::Failed;
  }
  if (!variant.empty()) return Verdict::Passed;
  bool first = false;
  const bool saved = course.update_progress([&](engine::notebook::Progress& progress) {
    engine::notebook::LabRecord& record = progress.labs[lab.name];
    first = record.passed_at.empty();
    if (first) record.passed_at = engine::notebook::progress_timestamp();
  });
  course.out() << course.good("✔ Lab " + lab.number + " passes.")
               << (first && saved ? " Well done; it is recorded in your progress." : "") << '\n';
  return Verdict::Passed;
}

namespace {

Verdict verify_program(Course& course, const LessonInfo& lesson) {
  const std::string target = engine::notebook::program_target(lesson.number);
  const fs::path program = course.layout().lesson_programs / target;
  course.out() << "Lesson " << lesson.number << " · " << lesson.title << " · "
               << course.shown(lesson.file) << '\n';
  if (!build_or_explain(course, target, lesson.file)) return Verdict::DoesNotCompile;
  const Finished checks =
      run_collecting({program.string(), "--verify", "--color", course.color() ? "always" : "never"},
                     learner_program_limit());
  if (checks.status != 0) {
    course.out() << checks.output;
    if (!explain_stop(course, checks, "Lesson " + lesson.number)) {
      course.out() << course.bad("✘ Lesson " + lesson.number +
                                 ": a cell no longer prints its documented output.")
                   << '\n';
    }
    return Verdict::Failed;
  }
  // The notebook run is what records a lesson as verified (see lesson_main.cpp).
  const Finished notebook =
      run_collecting({program.string(), "--minimal"}, learner_program_limit());
  if (notebook.status != 0) {
    course.out() << notebook.output;
    return Verdict::Failed;
  }
  course.out() << course.good("✔ Lesson " + lesson.number +
                              ": every cell prints its documented output.")
               << " It counts as verified.\n";
  return Verdict::Passed;
}

}  // namespace

Verdict verify_lesson(Course& course, const LessonInfo& lesson) {
  for (const LessonInfo* program : lesson.programs()) {
    if (const Verdict verdict = verify_program(course, *program); verdict != Verdict::Passed)
      return verdict;
  }
  return Verdict::Passed;
}

}  // namespace front_door
