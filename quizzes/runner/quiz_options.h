#pragma once
// The quiz program's command line (commands.h lists its commands): the options, the usage error
// that answers a wrong one, and a quiz's NAME resolved to its bank.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "interactive.h"
#include "quiz/bank.h"

namespace quiz {

// A usage error: the message goes to stderr with a pointer to --help, status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string command, name;
  std::optional<std::string> answers;
  std::optional<std::uint64_t> seed;
  bool missed = false, json = false, help = false, reveal_answers = false;
  std::optional<Feedback> feedback;  // none given: the quiz's own (take.cpp)
  std::size_t width = 80;            // columns to wrap text at
  std::string help_text;
};

// The options in `args`, with --help's text wrapped to `width` and naming the program `name`
// ("quiz", "course quiz"); throws UsageError.
Options parse_options(const std::vector<std::string>& args, std::size_t width,
                      const std::string& name);

// The bank of the quiz the learner named; throws UsageError when there is none of that name.
Bank load_named(const Paths& paths, const std::string& name);

}  // namespace quiz
