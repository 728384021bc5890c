// `course reset NN [--yes]`: put the learner's lab NN back to its starter, after asking. Their
// file is kept beside it, never deleted; a file that is the starter still is left as it is.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <istream>
#include <ostream>

#include "arguments.h"
#include "course.h"
#include "engine/notebook/terminal_text.h"
#include "lab_files.h"

namespace front_door {
namespace {

bool agreed(std::istream& in) {
  std::string answer;
  if (!std::getline(in, answer)) return false;
  std::transform(answer.begin(), answer.end(), answer.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return answer == "y" || answer == "yes";
}

int reset(Course& course, const Arguments& args) {
  Arguments numbers;
  bool yes = false;
  for (const std::string& arg : args) {
    if (arg == "--yes" || arg == "-y") {
      yes = true;
    } else if (arg.rfind("-", 0) == 0) {
      return usage_error(course, "reset", "unknown option " + arg);
    } else {
      numbers.push_back(arg);
    }
  }
  if (numbers.size() != 1) return usage_error(course, "reset", "name exactly one lab");
  const LabInfo* lab = lab_argument(course, "reset", numbers.front());
  if (lab == nullptr) return kUsageError;
  const std::string file = course.shown(lab->learner_file());
  const bool had_file = std::filesystem::exists(lab->learner_file());
  if (is_starter(lab->learner_file(), lab->starter_file())) {
    course.say(file + " is the starter still, as it came: nothing to reset, and nothing kept.");
    return 0;
  }
  if (!yes) {
    // The question wraps like any text, the answer typed after its last line.
    std::string question =
        engine::notebook::wrap(had_file ? "Put " + file +
                                              " back to the starter? Your file will be kept beside "
                                              "it. [y/N]"
                                        : "There is no " + file + ". Copy the starter there? [y/N]",
                               course.width());
    question.back() = ' ';
    course.out() << question;
    course.out().flush();
    if (!agreed(course.in())) {
      course.out() << "\nNothing changed.\n";
      return kFailed;
    }
  }
  try {
    const std::filesystem::path kept = reset_to_starter(lab->learner_file(), lab->starter_file());
    course.say(file + (had_file ? " is the starter again." : " is the starter now.") +
               (kept.empty() ? "" : " Your version is kept as " + course.shown(kept) + "."));
    return 0;
  } catch (const std::filesystem::filesystem_error& e) {
    course.err() << "course reset: " << e.what() << "\nYour file " << file << " was not changed.\n";
    return kFailed;
  }
}

}  // namespace

const Subcommand kResetCommand{
    .name = "reset",
    .usage = "reset NN [--yes]",
    .summary = "put lab NN back to its starter, after asking; your file is kept aside",
    .run = reset};

}  // namespace front_door
