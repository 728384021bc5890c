#include "interactive.h"

#include <istream>
#include <ostream>
#include <string>

#include "engine/notebook/terminal_text.h"

namespace quiz {
namespace {

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// Right or wrong, said at once: why a wrong option is wrong, the answer, and why it is right.
void tell(std::ostream& out, const ShownQuestion& q, int chosen, std::size_t width) {
  using engine::notebook::wrap;
  const int answer = q.correct_letter();
  if (chosen == answer) {
    out << wrap("✔ Right. " + q.question->context, width, "", "  ");
    return;
  }
  out << wrap("✘ Not " + std::string(1, letter_of(chosen)) + ": " + q.why(chosen), width, "", "  ")
      << wrap("The answer is " + std::string(1, letter_of(answer)) + ") " + q.option(answer), width,
              "  ", "  ")
      << wrap(q.question->context, width, "  ", "  ");
}

// Why the quiz stopped ("The input ended", "Stopped") at the question it was on, and what
// became of the answers given before it.
std::string stopped_text(const std::string& why, std::size_t answered, std::size_t questions) {
  const std::string at =
      why + " at question " + std::to_string(answered + 1) + " of " + std::to_string(questions);
  if (answered == 0) return at + "; nothing was recorded.";
  return at + ", after " + std::to_string(answered) + (answered == 1 ? " answer" : " answers") +
         "; " + (answered == 1 ? "it was" : "they were") +
         " not recorded: a quiz counts only when finished.";
}

}  // namespace

std::optional<std::vector<int>> ask(const std::vector<ShownQuestion>& shown, std::istream& in,
                                    std::ostream& out, Feedback feedback, std::size_t width) {
  using engine::notebook::wrap;
  std::vector<int> chosen;
  for (const ShownQuestion& q : shown) {
    const char last = letter_of(q.options() - 1);
    print_question(out, q, chosen.size() + 1, shown.size(), width);
    while (true) {
      out << "Your answer (a-" << last << ", or q to stop): " << std::flush;
      std::string line;
      if (!std::getline(in, line)) {
        out << '\n' << wrap(stopped_text("The input ended", chosen.size(), shown.size()), width);
        return std::nullopt;
      }
      const std::string answer = trimmed(line);
      if (answer == "q" || answer == "Q") {
        out << wrap(stopped_text("Stopped", chosen.size(), shown.size()), width);
        return std::nullopt;
      }
      const char c = answer.size() == 1 ? static_cast<char>(answer[0] | 0x20) : '\0';
      if (c >= 'a' && c <= last) {
        chosen.push_back(c - 'a');
        if (feedback == Feedback::EachQuestion) tell(out, q, chosen.back(), width);
        break;
      }
      out << wrap(
          std::string(answer.empty() ? "No answer given." : "That is not one of the letters.") +
              " Type one letter from a to " + last + ", then Enter.",
          width);
    }
  }
  return chosen;
}

}  // namespace quiz
