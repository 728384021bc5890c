// A learner's program and its completion record.

#include "learner_run.h"

#include <signal.h>

#include <sstream>

#include "course.h"
#include "engine/notebook/stopped_code.h"

namespace front_door {
namespace {

// " while the check 'NAME' ran" or " before its first check ran".
std::string when(const LearnerRun& run, const std::string& unit) {
  return run.running.empty() ? " before its first " + unit + " ran"
                             : " while " + run.running + " ran";
}

}  // namespace

std::chrono::seconds learner_program_limit() {
  return 6 * std::chrono::seconds(engine::notebook::time_limit_seconds());
}

LearnerRun run_learner_program(const std::vector<std::string>& command) {
  LearnerRun run{.finished = engine::notebook::run_collecting(
                     command, learner_program_limit(),
                     {.memory_limit = kLearnerMemoryLimit, .completion_channel = true})};
  std::istringstream lines(run.finished.completion);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("built_from ")) {
      run.built_from = line.substr(11);
    } else if (line.starts_with("check ") || line.starts_with("cell ")) {
      const std::size_t space = line.find(' ');
      run.running = "the " + line.substr(0, space) + " '" + line.substr(space + 1) + "'";
    } else {
      run.last_word = line;
    }
  }
  return run;
}

bool explain_unfinished(Course& course, const LearnerRun& run, const std::string& what,
                        const std::string& unit) {
  const engine::notebook::Finished& finished = run.finished;
  if (finished.stopped) {
    course.say(course.bad("✘ " + what + " ran for " +
                          std::to_string(learner_program_limit().count()) +
                          " s without finishing and was stopped.") +
               " Look for a loop whose condition never changes.");
    return true;
  }
  const std::string signal = engine::notebook::signal_ended(finished.status);
  if (!run.last_word.empty()) {
    if (signal.empty()) return false;
    course.say(course.bad("✘ " + what + " crashed (" + signal + ") after its " + unit + "s ran:") +
               " code that runs as the program ends (a static object's destructor) crashed.");
    return true;
  }
  // Its own time limit (engine/notebook/stopped_code.h) has said what was running.
  if (finished.status == 124) return true;
  if (finished.status == 128 + SIGKILL) {
    course.say(course.bad("✘ " + what + " was killed (SIGKILL)" + when(run, unit) + ".") +
               " The system kills a program so when memory runs out: look for memory your code "
               "takes without end, such as a container that grows in a loop.");
  } else if (!signal.empty()) {
    // Inside a check or a cell, the program has named the crash itself.
    if (finished.output.find("crashed with") == std::string::npos)
      course.say(course.bad("✘ " + what + " crashed (" + signal + ")" + when(run, unit) + "."));
  } else {
    course.say(course.bad("✘ " + what + " ended (exit status " + std::to_string(finished.status) +
                          ")" + when(run, unit) + ", before its " + unit + "s had all reported.") +
               " Your code ended the program (exit(), _exit(), quick_exit()): a " + unit +
               " passes only by returning, so this is no pass.");
  }
  return true;
}

}  // namespace front_door
