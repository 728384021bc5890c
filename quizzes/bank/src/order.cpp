#include "quiz/order.h"

#include <algorithm>
#include <ostream>
#include <random>

#include "engine/notebook/terminal_text.h"

namespace quiz {

const std::string& ShownQuestion::option(int letter) const {
  const int source = order.at(static_cast<std::size_t>(letter));
  return source == 0 ? question->answer
                     : question->distractors.at(static_cast<std::size_t>(source - 1));
}

int ShownQuestion::correct_letter() const {
  return static_cast<int>(std::find(order.begin(), order.end(), 0) - order.begin());
}

const std::string& ShownQuestion::why(int letter) const {
  static const std::string none;
  const int source = order.at(static_cast<std::size_t>(letter));
  return source == 0 ? none : question->why.at(static_cast<std::size_t>(source - 1));
}

std::vector<ShownQuestion> show(const Bank& bank, std::uint64_t seed,
                                const std::vector<std::string>& ids) {
  std::vector<ShownQuestion> shown;
  for (std::size_t i = 0; i < bank.questions.size(); ++i) {
    const Question& q = bank.questions[i];
    if (!ids.empty() && std::find(ids.begin(), ids.end(), q.id) == ids.end()) continue;
    std::seed_seq seeds{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                        static_cast<std::uint32_t>(i)};
    std::mt19937_64 random(seeds);
    std::vector<int> order(q.distractors.size() + 1);
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
    for (std::size_t k = order.size() - 1; k > 0; --k)
      std::swap(order[k], order[random() % (k + 1)]);
    shown.push_back({&q, static_cast<int>(i) + 1, order});
  }
  return shown;
}

char letter_of(int index) { return static_cast<char>('a' + index); }

void print_question(std::ostream& out, const ShownQuestion& q, std::size_t position,
                    std::size_t count, std::size_t width, bool with_id) {
  out << "\nQuestion " << position << " of " << count
      << (with_id ? " (" + q.question->id + ")" : "") << "\n"
      << engine::notebook::wrap(q.question->prompt, width);
  for (int k = 0; k < q.options(); ++k) {
    out << engine::notebook::wrap(q.option(k), width, std::string("  ") + letter_of(k) + ") ",
                                  "     ");
  }
}

}  // namespace quiz
