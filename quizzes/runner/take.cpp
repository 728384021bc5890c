#include "take.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <random>

#include "engine/notebook/progress.h"
#include "engine/notebook/terminal_text.h"
#include "interactive.h"
#include "quiz/grading.h"
#include "quiz/lesson_links.h"
#include "quiz/order.h"

namespace quiz {
namespace {

namespace fs = std::filesystem;
using engine::notebook::Progress;
using engine::notebook::QuizRecord;

std::string percent_text(int correct, int total) {
  return std::to_string(correct) + " of " + std::to_string(total) + " (" +
         std::to_string(Score{correct, total, false}.percent()) + " %)";
}

// The score, then each missed question numbered as this run asked it ("Question 2 of 2" in a
// retry). After feedback at every answer, the why was said already: only the re-run hint stays.
void print_result(std::ostream& out, const Bank& bank, const std::vector<Graded>& graded,
                  const Score& score, const Paths& paths, bool retry, bool told,
                  std::size_t width) {
  using engine::notebook::wrap;
  out << "\n"
      << wrap(bank.title + ": " + percent_text(score.correct, score.total) + ". " +
                  (score.passed ? "Passed" : "Not passed yet") + ": passing needs more than 75 %.",
              width);
  if (retry) out << "(Questions you answered correctly before count as correct.)\n";
  bool header = false;
  for (std::size_t i = 0; i < graded.size(); ++i) {
    const Graded& g = graded[i];
    if (g.correct) continue;
    if (!header) out << "\nMissed:\n";
    header = true;
    const ShownQuestion& q = *g.shown;
    out << "  Question " << i + 1 << " of " << graded.size() << ": " << q.question->id << "\n";
    if (!told) {
      out << wrap(std::string("You chose ") + letter_of(g.chosen) + ") " + q.option(g.chosen),
                  width, "    ", "      ")
          << wrap("Why not: " + q.why(g.chosen), width, "    ", "      ")
          << wrap(std::string("The answer: ") + letter_of(q.correct_letter()) + ") " +
                      q.option(q.correct_letter()),
                  width, "    ", "      ")
          << wrap(q.question->context, width, "    ", "    ");
    }
    // A command stays whole on a line of its own, so that it can be copied.
    out << "    Re-run the cell that teaches it:\n      "
        << rerun_command(parse_link(q.question->lesson), paths.lesson_programs) << "\n";
  }
  // The command stays whole on a line of its own, so that it can be copied.
  if (header)
    out << "\nTo answer only the missed questions again:\n  " << paths.command << " take "
        << bank.name << " --missed\n";
}

nlohmann::json result_json(const Bank& bank, const std::vector<Graded>& graded, const Score& score,
                           std::uint64_t seed, int attempt, bool retry, const Paths& paths) {
  nlohmann::json answers = nlohmann::json::array();
  for (const Graded& g : graded) {
    const ShownQuestion& q = *g.shown;
    answers.push_back(
        {{"id", q.question->id},
         {"number", q.number},
         {"chosen", std::string(1, letter_of(g.chosen))},
         {"answer", std::string(1, letter_of(q.correct_letter()))},
         {"correct", g.correct},
         {"lesson", q.question->lesson},
         {"rerun", rerun_command(parse_link(q.question->lesson), paths.lesson_programs)}});
  }
  return {{"quiz", bank.name},    {"title", bank.title},        {"seed", seed},
          {"attempt", attempt},   {"retry_of_missed", retry},   {"correct", score.correct},
          {"total", score.total}, {"percent", score.percent()}, {"passed", score.passed},
          {"answers", answers}};
}

}  // namespace

int take(const Options& o, std::istream& in, std::ostream& out, std::ostream& err,
         const Paths& paths) {
  const Bank bank = load_named(paths, o.name);
  const fs::path progress_file = engine::notebook::progress_path();
  // Read now only for what to retry; the attempt is recorded on the file as it is at the end.
  const Progress before = engine::notebook::load_progress(progress_file, err);
  const auto earlier = before.quizzes.find(bank.name);
  const QuizRecord record = earlier == before.quizzes.end() ? QuizRecord{} : earlier->second;
  std::vector<std::string> ids;
  if (o.missed) {
    if (record.attempts == 0)
      throw UsageError("no earlier attempt of '" + bank.name + "' to retry");
    // Questions the bank no longer has (the course changed since) are not asked.
    for (const Question& q : bank.questions) {
      if (std::count(record.last_missed.begin(), record.last_missed.end(), q.id) > 0)
        ids.push_back(q.id);
    }
    if (ids.empty()) {
      out << "The last attempt of " << bank.title
          << (record.last_missed.empty() ? " missed nothing"
                                         : " missed only questions this quiz no longer has")
          << "; there is nothing to retry.\n";
      return 0;
    }
  }
  const std::uint64_t seed = o.seed ? *o.seed : o.answers ? 0 : std::random_device{}();
  const std::vector<ShownQuestion> shown = show(bank, seed, ids);
  std::vector<int> chosen;
  if (o.answers) {
    try {
      chosen = parse_answer_sheet(*o.answers, shown);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  } else {
    out << engine::notebook::wrap(
        bank.title + ": " + std::to_string(shown.size()) + (o.missed ? " missed" : "") +
            " question" + (shown.size() == 1 ? "" : "s") + ". The options are shuffled with seed " +
            std::to_string(seed) + " (" + paths.command + " take " + bank.name + " --seed " +
            std::to_string(seed) + " shows them in the same order).",
        o.width);
    const auto answers = ask(shown, in, out, o.feedback, o.width);
    if (!answers) return 3;
    chosen = *answers;
  }
  const std::vector<Graded> graded = grade(shown, chosen);
  Score score{0, static_cast<int>(bank.questions.size()), false};
  score.correct = o.missed ? score.total - static_cast<int>(ids.size()) : 0;
  std::vector<std::string> missed;
  for (const Graded& g : graded) {
    if (g.correct)
      ++score.correct;
    else
      missed.push_back(g.shown->question->id);
  }
  score.passed = passes(score.correct, score.total);

  int attempt = record.attempts + 1;
  bool recorded = true;
  try {
    engine::notebook::update_progress(progress_file, err, [&](Progress& progress) {
      QuizRecord& r = progress.quizzes[bank.name];
      r.attempts = std::min(r.attempts + 1, QuizRecord::kMaxAttempts);
      r.total = score.total;
      r.best_correct =
          std::min(std::max(r.best_correct, score.correct), r.total);  // the bank may have shrunk
      r.passed = r.passed || score.passed;
      r.last_seed = seed;
      r.last_missed = missed;
      attempt = r.attempts;
    });
  } catch (const std::exception& e) {
    err << program_name(paths) << ": this attempt was not recorded: " << e.what() << "\n";
    recorded = false;
  }
  if (o.json) {
    out << result_json(bank, graded, score, seed, attempt, o.missed, paths).dump(2) << "\n";
  } else {
    const bool told = !o.answers && o.feedback == Feedback::EachQuestion;
    print_result(out, bank, graded, score, paths, o.missed, told, o.width);
  }
  if (!recorded) return 4;
  return score.passed ? 0 : 1;
}

}  // namespace quiz
