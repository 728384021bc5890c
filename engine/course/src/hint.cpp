// `course hint [NN]`: the next hint for lab NN, one more each time, from a nudge to nearly the
// answer. How many the learner has seen is kept in the progress file; a hint that cannot be
// counted there exits with kNotSaved.

#include <algorithm>
#include <ostream>

#include "arguments.h"
#include "course.h"
#include "hints.h"

namespace front_door {
namespace {

int hint(Course& course, const Arguments& args) {
  const LabInfo* lab = lab_argument_or_current(course, "hint", args);
  if (lab == nullptr) return kUsageError;
  const std::vector<std::string> hints = read_hints(lab->hints_file());
  if (hints.empty()) {
    course.err() << "course hint: " << course.shown(lab->hints_file()) << " has no hints\n";
    return kFailed;
  }
  const engine::notebook::Progress progress = course.progress();
  const auto record = progress.labs.find(lab->name);
  const int seen = record == progress.labs.end() ? 0 : record->second.hints_shown;
  const int count = static_cast<int>(hints.size());
  const int number = std::min(seen + 1, count);
  course.show_markdown("# Lab " + lab->number + " · " + lab->title + " · hint " +
                       std::to_string(number) + " of " + std::to_string(count) + " · " +
                       hints[static_cast<std::size_t>(number - 1)]);
  course.out() << '\n';
  if (number < count) {
    course.say("Still stuck after trying it? " + course.command("hint " + lab->number) +
               " gives the next one.");
  } else {
    course.say("That is the last hint.");
  }
  if (number > seen) {
    const bool saved = course.update_progress([&](engine::notebook::Progress& p) {
      int& shown = p.labs[lab->name].hints_shown;
      shown = std::max(shown, number);
    });
    if (!saved) return kNotSaved;  // update_progress has said why; the next hint is this one again
  }
  return 0;
}

}  // namespace

const Subcommand kHintCommand{.name = "hint",
                              .usage = "hint [NN]",
                              .summary = "the next hint for lab NN, one more each time",
                              .run = hint};

}  // namespace front_door
