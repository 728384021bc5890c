// `course reset NN [--yes]`: put the learner's lab NN back to its starter, after asking. Their
// file is kept beside it, never deleted; a file that is the starter still is left as it is. In
// a lab of several files (lab 9's kernels), each file that is not the starter is put back.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

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

// The learner's files of `lab` that are not the starter as it came, a missing one included.
std::vector<std::string> changed_files(const LabInfo& lab) {
  std::vector<std::string> changed;
  for (const std::string& name : lab.files) {
    if (!is_starter(lab.learner_file(name), lab.starter_file(name))) changed.push_back(name);
  }
  return changed;
}

// "labs/05_timing/lab.cpp", or "labs/09_metal_puzzles/01_map.metal, 02_zip.metal and ...".
std::string named(const Course& course, const LabInfo& lab, const std::vector<std::string>& files) {
  std::string text = course.shown(lab.learner_file(files.front()));
  for (std::size_t i = 1; i < files.size(); ++i)
    text += (i + 1 == files.size() ? " and " : ", ") + files[i];
  return text;
}

// Puts each of `files` back to its starter; returns where the learner's versions are kept.
std::string put_back(const Course& course, const LabInfo& lab,
                     const std::vector<std::string>& files) {
  std::string kept;
  for (const std::string& name : files) {
    const std::filesystem::path copy =
        reset_to_starter(lab.learner_file(name), lab.starter_file(name));
    if (!copy.empty()) kept += (kept.empty() ? "" : ", ") + course.shown(copy);
  }
  return kept;
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
  const std::vector<std::string> changed = changed_files(*lab);
  if (changed.empty()) {
    course.say(lab->files.size() == 1
                   ? course.shown(lab->learner_file(lab->files.front())) +
                         " is the starter still, as it came: nothing to reset, and nothing kept."
                   : "The files of " + course.shown(lab->dir) +
                         " are the starters still, as they came: nothing to reset, and nothing "
                         "kept.");
    return 0;
  }
  const std::string file = named(course, *lab, changed);
  const bool one = changed.size() == 1;
  const bool had_file = std::all_of(changed.begin(), changed.end(), [&](const std::string& name) {
    return std::filesystem::exists(lab->learner_file(name));
  });
  if (!yes) {
    // The question wraps like any text, the answer typed after its last line.
    std::string question =
        engine::notebook::wrap(had_file ? "Put " + file + " back to the starter? " +
                                              (one ? "Your file will be kept beside it."
                                                   : "Your files will be kept beside them.") +
                                              " [y/N]"
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
    const std::string kept = put_back(course, *lab, changed);
    course.say(file +
               (had_file ? (one ? " is the starter again." : " are the starters again.")
                         : (one ? " is the starter now." : " are the starters now.")) +
               (kept.empty() ? ""
                             : (one ? " Your version is kept as " : " Your versions are kept as ") +
                                   kept + "."));
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
