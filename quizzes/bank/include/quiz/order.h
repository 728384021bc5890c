#pragma once
// The order a question's options are shown in. Every attempt shuffles them with a seed, so
// that a learner cannot pass by remembering letters, and records the seed, so that an
// attempt can be repeated (quiz take NAME --seed N) and an answer sheet graded against it.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "quiz/bank.h"

namespace quiz {

struct ShownQuestion {
  const Question* question = nullptr;
  int number = 0;          // 1-based position in the bank
  std::vector<int> order;  // order[letter] = 0 for the answer, i for distractor i - 1

  int options() const { return static_cast<int>(order.size()); }
  const std::string& option(int letter) const;
  int correct_letter() const;
  // Why the option at `letter` is wrong ("" for the answer).
  const std::string& why(int letter) const;
};

// The questions of `bank` whose ids are in `ids` (all when empty), in bank order, each with
// its options in the order `seed` gives it. A question's order depends only on the seed and
// its place in the bank, so a retry of missed questions shows them as before. The shuffle is
// written out (Fisher-Yates over std::mt19937_64) so it is the same with every compiler.
std::vector<ShownQuestion> show(const Bank& bank, std::uint64_t seed,
                                const std::vector<std::string>& ids = {});

char letter_of(int index);  // 0 -> 'a'

// "Question 3 of 8" (with the question's id when `with_id`, for writing answer sheets), the
// prompt, and the options by letter, wrapped at word boundaries to `width` columns.
void print_question(std::ostream& out, const ShownQuestion& q, std::size_t position,
                    std::size_t count, std::size_t width, bool with_id = false);

}  // namespace quiz
