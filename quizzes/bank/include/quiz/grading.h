#pragma once
// Grading: which answers were right, the score, and the pass rule of the course (strictly
// more than 75 %: 6 of 8 fails, 7 of 8 passes).

#include <string>
#include <vector>

#include "quiz/order.h"

namespace quiz {

struct Graded {
  const ShownQuestion* shown;
  int chosen;  // letter index
  bool correct;
};

struct Score {
  int correct = 0;
  int total = 0;
  bool passed = false;
  int percent() const { return total == 0 ? 0 : (correct * 100 + total / 2) / total; }
};

bool passes(int correct, int total);
// The fewest right answers that pass a quiz of `total` questions: 10 of 12, 4 of 5, 3 of 3.
int answers_needed_to_pass(int total);
std::vector<Graded> grade(const std::vector<ShownQuestion>& shown, const std::vector<int>& chosen);

// "stack=c,unified-memory=b,...": one letter for each question of `shown`, keyed by question id
// and in any order, so that a sheet cannot be applied to the wrong questions. The letters are
// those of the option order `shown` was made with. Returns the letters in the order of
// `shown`; throws std::invalid_argument saying what is wrong.
std::vector<int> parse_answer_sheet(const std::string& sheet,
                                    const std::vector<ShownQuestion>& shown);
// The sheet that answers every question of `shown` correctly, in the same form.
std::string answer_key(const std::vector<ShownQuestion>& shown);

}  // namespace quiz
