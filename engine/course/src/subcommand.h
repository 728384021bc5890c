#pragma once
// The course command's subcommands. Each lives in its own file, which defines its Subcommand:
//
//   namespace {
//   int hint(Course& course, const Arguments& args) { ... }
//   }  // namespace
//   const Subcommand kHintCommand{.name = "hint", .usage = "hint [NN]",
//                                 .summary = "the next hint for lab NN", .run = hint};
//
// and the table in subcommand.cpp lists them all, in the order `course --help` shows them. A new
// subcommand is one new file, its line in CMakeLists.txt, and its line in the table.

#include <string>
#include <string_view>
#include <vector>

namespace front_door {

class Course;
using Arguments = std::vector<std::string>;  // what follows the subcommand's name

struct Subcommand {
  std::string_view name;
  std::string_view usage;    // "verify [NN]"
  std::string_view summary;  // one line in `course --help`
  int (*run)(Course& course, const Arguments& args) = nullptr;
  // More for `course NAME --help`: lines wrapped to the terminal, except those that start with
  // two spaces (a command to copy), shown as they are.
  std::string_view details = {};
  bool forwards_help = false;  // `course NAME --help` is the help of the program it runs
};

extern const Subcommand kStatusCommand, kListCommand, kRunCommand, kVerifyCommand, kHintCommand,
    kResetCommand, kPlanCommand, kWatchCommand, kQuizCommand, kTwinsCommand;

// Every subcommand, in help order.
const std::vector<const Subcommand*>& subcommands();
const Subcommand* find_subcommand(std::string_view name);

// Exit statuses shared by the course's programs: 0 done, 1 a check failed, 2 a usage error,
// 4 done, but the progress file could not be written (as a lesson's, lesson_main.cpp).
inline constexpr int kFailed = 1;
inline constexpr int kUsageError = 2;
inline constexpr int kNotSaved = 4;

// Reports a usage error on the course's error stream, with the subcommand's usage line.
int usage_error(Course& course, std::string_view subcommand, const std::string& message);

// `course args...`: the status when there are none, else --help or a subcommand.
int run_course(Course& course, const std::vector<std::string>& args);

}  // namespace front_door
