#include "quiz_options.h"

// cxxopts' regular expressions cost seconds of compile time and are not needed here.
#define CXXOPTS_NO_REGEX 1

#include <cxxopts.hpp>
#include <filesystem>

#include "engine/notebook/terminal_text.h"

namespace quiz {
namespace {

// The commands for --help, each description beside its command where the terminal is wide
// enough, else under it.
std::string command_list(std::size_t width) {
  const std::vector<std::pair<std::string, std::string>> commands{
      {"list", "the quizzes, with your best scores"},
      {"take NAME", "answer a quiz (passing needs more than 75 % in one sitting)"},
      {"show NAME", "the questions and their lettered options, without answers"},
      {"review NAME",
       "every question with its answer and why each other option is wrong, once you have taken the "
       "quiz (or with --reveal-answers)"},
      {"progress", "lessons verified, self-checks and the mastery check"},
      {"check", "validate every bank and lesson link"},
      {"key NAME",
       "the answer sheet that scores full marks, once you have passed (or with --reveal-answers)"},
      {"glossary", "the terms the course uses"}};
  const std::size_t column = 23;
  std::string text = "\n\nCommands:\n";
  for (const auto& [command, description] : commands) {
    const std::string lead = "  " + command;
    text += width >= column + 30
                ? engine::notebook::wrap(description, width,
                                         lead + std::string(column - lead.size(), ' '),
                                         std::string(column, ' '))
                : lead + "\n" + engine::notebook::wrap(description, width, "      ", "      ");
  }
  text.pop_back();  // cxxopts adds the line's end
  return text;
}

}  // namespace

Options parse_options(const std::vector<std::string>& args, std::size_t width,
                      const std::string& name) {
  std::string description = engine::notebook::wrap(
      "The course's quizzes: the self-check of each lesson and the mastery check.", width);
  description.pop_back();  // cxxopts adds the line's end
  cxxopts::Options spec(name, description);
  spec.set_width(width);
  spec.custom_help("COMMAND [NAME] [options]");
  spec.positional_help(command_list(width));
  spec.add_options()("answers",
                     "grade this answer sheet instead of asking: a letter per question id, e.g. "
                     "stack=c,unified-memory=b,... in the order '" +
                         name + " show' prints",
                     cxxopts::value<std::string>(), "SHEET")(
      "seed",
      "shuffle the options with this seed (answer sheets and '" + name + " show' default to 0)",
      cxxopts::value<std::uint64_t>(),
      "N")("missed",
           "practise only the questions the last attempt missed (practice is not recorded: a pass "
           "needs one sitting of the whole quiz)")(
      "feedback",
      "when to say right or wrong: each (after every answer: a self-check's and practice's "
      "default) or end (after the last: the mastery check, an exam, always)",
      cxxopts::value<std::string>(),
      "WHEN")("reveal-answers",
              "with key or review: print the answers before you have passed or taken the quiz")(
      "json", "print the result as JSON")("h,help", "show this help")(
      "command", "", cxxopts::value<std::string>())("name", "", cxxopts::value<std::string>());
  spec.parse_positional({"command", "name"});
  std::vector<const char*> argv{name.c_str()};
  for (const std::string& a : args) argv.push_back(a.c_str());
  Options o;
  try {
    const auto result = spec.parse(static_cast<int>(argv.size()), argv.data());
    if (!result.unmatched().empty())
      throw UsageError("unexpected argument '" + result.unmatched().front() + "'");
    o.help = result.count("help") > 0;
    if (result.count("command")) o.command = result["command"].as<std::string>();
    if (result.count("name")) o.name = result["name"].as<std::string>();
    if (result.count("answers")) {
      o.answers = result["answers"].as<std::string>();
      if (o.answers->empty()) {
        throw UsageError(
            "--answers needs an answer sheet, a letter per question id, e.g. --answers stack=c,... "
            "('" +
            name + " show NAME' lists the ids)");
      }
    }
    if (result.count("seed")) o.seed = result["seed"].as<std::uint64_t>();
    o.missed = result.count("missed") > 0;
    o.json = result.count("json") > 0;
    o.reveal_answers = result.count("reveal-answers") > 0;
    if (result.count("feedback")) {
      const std::string feedback = result["feedback"].as<std::string>();
      if (feedback != "each" && feedback != "end") {
        throw UsageError("--feedback takes each or end, not '" + feedback + "'");
      }
      o.feedback = feedback == "end" ? Feedback::AtEnd : Feedback::EachQuestion;
    }
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(e.what());
  }
  o.help_text = spec.help();
  return o;
}

Bank load_named(const Paths& paths, const std::string& name) {
  if (name.empty()) throw UsageError("name a quiz; '" + paths.command + " list' shows them");
  const std::filesystem::path file = paths.banks / (name + ".toml");
  if (!std::filesystem::exists(file))
    throw UsageError("no quiz named '" + name + "'; '" + paths.command + " list' shows them");
  return load_bank(file);
}

}  // namespace quiz
