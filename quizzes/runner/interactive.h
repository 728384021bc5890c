#pragma once
// Asking the questions in the terminal: "Question 3 of 8", the options by letter, one answer a
// line. Anything but one valid letter is re-asked with a message; "q" stops; the end of input
// stops too. A stopped quiz records nothing. By default each answer is marked right or wrong
// at once, with why, as mdbook-quiz does; an exam can keep all feedback for the end.

#include <iosfwd>
#include <optional>
#include <vector>

#include "quiz/order.h"

namespace quiz {

enum class Feedback { EachQuestion, AtEnd };

// The chosen letter for each question, or nullopt when the learner stopped or input ended.
// Text is wrapped to `width` columns.
std::optional<std::vector<int>> ask(const std::vector<ShownQuestion>& shown, std::istream& in,
                                    std::ostream& out, Feedback feedback, std::size_t width);

}  // namespace quiz
