#include "grading.h"

#include <stdexcept>

namespace quiz {

bool passes(int correct, int total) { return total > 0 && 4 * correct > 3 * total; }

std::vector<Graded> grade(const std::vector<ShownQuestion>& shown, const std::vector<int>& chosen) {
  std::vector<Graded> graded;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    graded.push_back({&shown[i], chosen.at(i), chosen.at(i) == shown[i].correct_letter()});
  }
  return graded;
}

std::vector<int> parse_answer_sheet(const std::string& sheet, const std::vector<ShownQuestion>& shown) {
  std::vector<std::string> items;
  std::string item;
  for (const char c : sheet + ",") {
    if (c == ',') {
      items.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  if (items.size() != shown.size()) {
    throw std::invalid_argument("the answer sheet has " + std::to_string(items.size()) + " answers for " +
                                std::to_string(shown.size()) + " questions");
  }
  std::vector<int> chosen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string& a = items[i];
    const char last = letter_of(shown[i].options() - 1);
    const char c = a.size() == 1 ? static_cast<char>(a[0] | 0x20) : '\0';  // lower case
    if (c < 'a' || c > last) {
      throw std::invalid_argument("answer " + std::to_string(i + 1) + " is \"" + a + "\"; expected one letter from a to " +
                                  std::string(1, last));
    }
    chosen.push_back(c - 'a');
  }
  return chosen;
}

}  // namespace quiz
