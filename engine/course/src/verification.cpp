// Build, run, verdict, record.

#include "verification.h"

#include <sstream>
#include <stdexcept>
#include <system_error>

#include "build.h"
#include "course.h"
#include "engine/notebook/lesson_names.h"
#include "engine/notebook/stopped_code.h"
#include "harness/lab_source.h"
#include "harness/learner_source.h"
#include "hints.h"
#include "lab_files.h"
#include "learner_run.h"

namespace front_door {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxMessageLines = 40;  // the first error matters; the rest is usually its echo

// A learner's file saved again while it was checked is checked again, this many times at most.
constexpr int kMostAttempts = 3;

// What a lesson program exits with when its progress could not be written (lesson_main.cpp).
constexpr int kLessonNotRecorded = 4;

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

// A lesson's --verify run in doctest's console format, without the framework's own lines: its
// "[doctest] ..." banners and summary and its "=====" rules. What is left is each failed cell's
// file:line, claim and difference, which is what the learner acts on.
std::string without_doctest_framing(const std::string& output) {
  std::istringstream lines(output);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    std::string_view visible = line;
    for (std::size_t end;
         visible.starts_with("\033[") && (end = visible.find('m')) != visible.npos;)
      visible.remove_prefix(end + 1);  // a colour
    const bool rule = !visible.empty() && visible.find_first_not_of('=') == std::string::npos;
    if (!rule && !visible.starts_with("[doctest] ")) kept += line + '\n';
  }
  return kept;
}

// The doctest options that make a lab program colour its report like ours.
std::string color_option(const Course& course) {
  return course.color() ? "--force-colors" : "--no-colors";
}

// A lab program's last word, "done checks=3 failed=0": every check ran, and none failed.
bool every_check_passed(const LearnerRun& run) {
  std::istringstream words(run.last_word);
  std::string done, checks, failed;
  words >> done >> checks >> failed;
  return done == "done" && checks != "checks=0" && failed == "failed=0";
}

// The report of a lab program's run, how it ended, and its verdict.
Verdict show_lab_run(Course& course, const LabInfo& lab, const LearnerRun& run, bool learners) {
  course.out() << run.finished.output;
  const bool unfinished = explain_unfinished(course, run, "Your lab", "check");
  if (!unfinished && run.finished.status == 0 && every_check_passed(run)) return Verdict::Passed;
  if (learners) {
    const std::size_t hints = read_hints(lab.hints_file()).size();
    course.out() << "Stuck? " << course.command("hint " + lab.number) << " gives one of " << hints
                 << " hints at a time.\n";
  }
  return Verdict::Failed;
}

std::vector<std::string> lab_command(const Course& course, const fs::path& program,
                                     const LabRun& how) {
  std::vector<std::string> command{program.string(), color_option(course),
                                   "--width=" + std::to_string(course.width())};
  if (how.details) command.push_back("--details");
  return command;
}

// Where the build keeps the copy of the learner's file it compiles (tutor_add_learner_lab_program
// in cmake/TutorLabs.cmake), and the digest of what that copy holds.
fs::path learner_snapshot(const Course& course, const LabInfo& lab) {
  return course.layout().lab_programs / "learner" / lab.name / "lab.cpp";
}
std::string snapshot_digest(const fs::path& snapshot) {
  try {
    return harness::snapshot_digest(harness::read_lab_file(snapshot));
  } catch (const harness::DecoyError&) {
    return "";  // none yet: the build writes it
  }
}

// Whether the progress file holds this verdict on this version already (and, for a pass, the
// pass): a file checked again unchanged costs no write.
bool already_recorded(Course& course, const LabInfo& lab, const engine::notebook::LabCheck& check) {
  const engine::notebook::Progress progress = course.progress();
  const auto it = progress.labs.find(lab.name);
  return it != progress.labs.end() && it->second.last_check == check &&
         (!check.passed || !it->second.passed_at.empty());
}

// Records the verdict on the version `source` of the learner's file: its last check, and a first
// pass. A pass that cannot be recorded is said to be so (update_progress has said why).
Verdict record_verdict(Course& course, const LabInfo& lab, const std::string& source,
                       Verdict verdict) {
  const bool passed = verdict == Verdict::Passed;
  const engine::notebook::LabCheck check{source, passed};
  if (already_recorded(course, lab, check)) {
    if (passed) course.out() << course.good("✔ Lab " + lab.number + " passes.") << '\n';
    return verdict;
  }
  bool first = false;
  const bool saved = course.update_progress([&](engine::notebook::Progress& progress) {
    engine::notebook::LabRecord& record = progress.labs[lab.name];
    record.last_check = check;
    first = passed && record.passed_at.empty();
    if (first) record.passed_at = engine::notebook::progress_timestamp();
  });
  if (!passed) return verdict;
  course.out() << course.good("✔ Lab " + lab.number + " passes.")
               << (first && saved ? " Well done; it is recorded in your progress." : "") << '\n';
  if (saved) return Verdict::Passed;
  course.say(course.bad("✘ The pass is not recorded: your progress could not be saved (above)."));
  return Verdict::NotRecorded;
}

// What the learner writes in `lab`, as the verdict names it: labs/05_timing/lab.cpp, or lab 9's
// folder of kernels, labs/09_metal_puzzles.
fs::path learners_work(const LabInfo& lab) {
  return lab.read_at_run_time() ? lab.dir : lab.learner_file("lab.cpp");
}

// The learner's files as they are on disk now, by their digest; nothing, after saying why, when
// one cannot be read.
std::optional<std::string> digest_now(Course& course, const LabInfo& lab) {
  try {
    return digest_on_disk(lab);
  } catch (const harness::DecoyError& e) {
    const std::string message = e.what();
    const std::string file = message.substr(0, message.find(": cannot be read: "));
    course.say(
        course.bad("✘ " + course.shown(file) + " cannot be read: " + why_unreadable(e) + ".") +
        " " + course.command("reset " + lab.number) + " puts the starter back.");
    return std::nullopt;
  }
}

// The learner's own file: built, run and recorded only when what was built is what is on disk
// once the run is over; a file saved meanwhile is checked again.
Verdict verify_learners_lab(Course& course, const LabInfo& lab, const LabRun& how) {
  const std::string target = "lab" + lab.number;
  const fs::path snapshot = learner_snapshot(course, lab);
  for (int attempt = 0; attempt < kMostAttempts; ++attempt) {
    if (!digest_now(course, lab)) return Verdict::Missing;
    // A lab whose files are read at run time builds its program once; a save needs only a run.
    const BuildResult build = build_target(course.layout(), target);
    LearnerRun run;
    if (build.built)
      run = run_learner_program(lab_command(course, course.layout().lab_programs / target, how));
    const std::string built = run.built_from.empty() && !lab.read_at_run_time()
                                  ? snapshot_digest(snapshot)
                                  : run.built_from;
    const std::optional<std::string> now = digest_now(course, lab);
    if (!now) return Verdict::Missing;
    if (built != *now && (build.built || !lab.read_at_run_time())) {
      // saved during the build or the run: the copy is checked again
      std::error_code ignored;
      fs::remove(snapshot, ignored);
      continue;
    }
    if (!build.built) {
      show_build_failure(course, build.messages, course.shown(learners_work(lab)), target);
      return record_verdict(course, lab, *now, Verdict::DoesNotCompile);
    }
    return record_verdict(course, lab, *now, show_lab_run(course, lab, run, true));
  }
  course.say(course.bad("✘ " + course.shown(learners_work(lab)) +
                        " changed while it was checked, " + std::to_string(kMostAttempts) +
                        " times: no verdict.") +
             " Save it once more, or run " + course.command("verify " + lab.number) + " again.");
  return Verdict::Failed;
}

}  // namespace

bool time_limit_usable(Course& course, std::string_view subcommand) {
  try {
    engine::notebook::time_limit_seconds();
    return true;
  } catch (const std::invalid_argument& e) {
    course.err() << "course " << subcommand << ": " << e.what() << '\n';
    return false;
  }
}

bool build_or_explain(Course& course, const std::string& target, const fs::path& file) {
  const BuildResult build = build_target(course.layout(), target);
  if (!build.built) show_build_failure(course, build.messages, course.shown(file), target);
  return build.built;
}

Verdict verify_lab(Course& course, const LabInfo& lab, const LabRun& how) {
  const std::string& variant = how.variant;
  if (variant.empty()) {
    course.out() << "Lab " << lab.number << " · " << lab.title << " · "
                 << course.shown(learners_work(lab)) << '\n';
    for (const fs::path& file : lab.learner_files()) {
      if (fs::exists(file)) continue;
      course.out() << course.bad("✘ " + course.shown(file) + " is missing.") << " "
                   << course.command("reset " + lab.number) << " puts the starter back.\n";
      return Verdict::Missing;
    }
    return verify_learners_lab(course, lab, how);
  }
  const bool decoy = variant != "solution" && variant != "starter";
  const std::string target = "lab" + lab.number + (decoy ? "_decoy_" : "_") + variant;
  const fs::path file = decoy                    ? lab.dir / "decoys" / (variant + ".md")
                        : lab.read_at_run_time() ? lab.dir / variant
                                                 : lab.dir / variant / "lab.cpp";
  course.out() << "Lab " << lab.number << " · " << lab.title << " · " << course.shown(file) << '\n';
  if (!fs::exists(file)) {
    course.out() << course.bad("✘ " + course.shown(file) + " is missing.") << '\n';
    return Verdict::Missing;
  }
  if (!build_or_explain(course, target, file)) return Verdict::DoesNotCompile;
  const fs::path program = course.layout().lab_programs / "proofs" / target;
  return show_lab_run(course, lab, run_learner_program(lab_command(course, program, how)), false);
}

namespace {

Verdict verify_program(Course& course, const LessonInfo& lesson) {
  const std::string target = engine::notebook::program_target(lesson.number);
  const fs::path program = course.layout().lesson_programs / target;
  const std::string what = "Lesson " + lesson.number;
  course.out() << what << " · " << lesson.title << " · " << course.shown(lesson.file) << '\n';
  if (!build_or_explain(course, target, lesson.file)) return Verdict::DoesNotCompile;
  const LearnerRun checks = run_learner_program(
      {program.string(), "--verify", "--color", course.color() ? "always" : "never"});
  if (checks.finished.status != 0 || checks.last_word.empty()) {
    course.out() << without_doctest_framing(checks.finished.output);
    if (!explain_unfinished(course, checks, what, "cell")) {
      course.out() << course.bad("✘ " + what + ": a cell no longer prints its documented output.")
                   << '\n';
    }
    return Verdict::Failed;
  }
  // The notebook run is what records a lesson as verified (lesson_main.cpp), and says so last.
  const LearnerRun notebook = run_learner_program({program.string(), "--minimal"});
  if (notebook.last_word == "recorded") {
    course.out() << course.good("✔ " + what + ": every cell prints its documented output.")
                 << " It counts as verified.\n";
    return Verdict::Passed;
  }
  course.out() << notebook.finished.output;
  if (notebook.finished.status == kLessonNotRecorded) {
    course.out() << course.bad("✘ " + what + " is not recorded as verified:")
                 << " your progress could not be written (above).\n";
    return Verdict::NotRecorded;
  }
  if (!explain_unfinished(course, notebook, what, "cell")) {
    course.out() << course.bad("✘ " + what + ": a cell no longer prints its documented output.")
                 << '\n';
  }
  return Verdict::Failed;
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
