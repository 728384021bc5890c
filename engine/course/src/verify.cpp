// `course verify [NN]`: build the learner's lab NN and run its tests; the verdict is recorded (a
// pass that cannot be recorded exits with kNotSaved).
// `--details` also shows the expression each failed check tested. Authors add
// `--variant solution|starter|DECOY` to run the lab's other versions the same way.

#include <filesystem>
#include <ostream>

#include "arguments.h"
#include "course.h"
#include "verification.h"

namespace front_door {
namespace {

int verify(Course& course, const Arguments& args) {
  Arguments numbers;
  LabRun how;
  std::string& variant = how.variant;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--variant") {
      if (i + 1 == args.size())
        return usage_error(course, "verify", "--variant needs solution, starter or a decoy's name");
      variant = args[++i];
    } else if (args[i] == "--details") {
      how.details = true;
    } else if (args[i].rfind("--", 0) == 0) {
      return usage_error(course, "verify", "unknown option " + args[i]);
    } else {
      numbers.push_back(args[i]);
    }
  }
  const LabInfo* lab = lab_argument_or_current(course, "verify", numbers);
  if (lab == nullptr) return kUsageError;
  if (!time_limit_usable(course, "verify")) return kUsageError;
  const bool known = variant.empty() || variant == "solution" || variant == "starter" ||
                     std::filesystem::exists(lab->dir / "decoys" / (variant + ".md"));
  if (!known) {
    return usage_error(course, "verify",
                       "lab " + lab->number + " has no version '" + variant +
                           "'; try solution, starter or a file name in " +
                           course.shown(lab->dir / "decoys") + " without .md");
  }
  const Verdict verdict = verify_lab(course, *lab, how);
  if (verdict == Verdict::Passed && variant.empty()) print_next_step(course);
  if (verdict == Verdict::NotRecorded) return kNotSaved;
  return verdict == Verdict::Passed ? 0 : kFailed;
}

}  // namespace

const Subcommand kVerifyCommand{
    .name = "verify",
    .usage = "verify [NN] [--details]",
    .summary = "build your lab NN and run its tests (default: the lab you are on)",
    .run = verify};

}  // namespace front_door
