#include "quiz/grading.h"

#include <map>
#include <stdexcept>

namespace quiz {

bool passes(int correct, int total) { return total > 0 && 4 * correct > 3 * total; }

int answers_needed_to_pass(int total) { return total * 3 / 4 + 1; }

std::vector<Graded> grade(const std::vector<ShownQuestion>& shown, const std::vector<int>& chosen) {
  std::vector<Graded> graded;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    graded.push_back({&shown[i], chosen.at(i), chosen.at(i) == shown[i].correct_letter()});
  }
  return graded;
}

std::vector<int> parse_answer_sheet(const std::string& sheet,
                                    const std::vector<ShownQuestion>& shown) {
  std::map<std::string, std::string> answers;
  std::string item;
  for (const char c : sheet + ",") {
    if (c != ',') {
      if (c != ' ') item += c;
      continue;
    }
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw std::invalid_argument("an answer sheet names the question of each answer, as in " +
                                  shown.front().question->id + "=b; \"" + item +
                                  "\" names none ('quiz show' lists the ids)");
    }
    const std::string id = item.substr(0, equals);
    if (!answers.emplace(id, item.substr(equals + 1)).second) {
      throw std::invalid_argument("the answer sheet answers '" + id + "' twice");
    }
    item.clear();
  }
  std::vector<int> chosen;
  std::string missing;
  for (const ShownQuestion& q : shown) {
    const auto answer = answers.find(q.question->id);
    if (answer == answers.end()) {
      missing += (missing.empty() ? "" : ", ") + q.question->id;
      continue;
    }
    const std::string& a = answer->second;
    const char last = letter_of(q.options() - 1);
    const char c = a.size() == 1 ? static_cast<char>(a[0] | 0x20) : '\0';  // lower case
    if (c < 'a' || c > last) {
      throw std::invalid_argument("the answer to '" + q.question->id + "' is \"" + a +
                                  "\"; expected one letter from a to " + std::string(1, last));
    }
    chosen.push_back(c - 'a');
    answers.erase(answer);
  }
  if (!answers.empty()) {
    std::string asked;
    for (const ShownQuestion& q : shown) asked += (asked.empty() ? "" : ", ") + q.question->id;
    throw std::invalid_argument("the answer sheet names '" + answers.begin()->first +
                                "', which is not among the questions asked: " + asked);
  }
  if (!missing.empty()) throw std::invalid_argument("the answer sheet leaves out: " + missing);
  return chosen;
}

std::string answer_key(const std::vector<ShownQuestion>& shown) {
  std::string sheet;
  for (const ShownQuestion& q : shown) {
    sheet += (sheet.empty() ? "" : ",") + q.question->id + "=" + letter_of(q.correct_letter());
  }
  return sheet;
}

}  // namespace quiz
