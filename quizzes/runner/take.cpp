// quiz take NAME (commands.h): one sitting of a quiz, graded and recorded in the progress file;
// or, with --missed, practice of the questions the last sitting missed, graded and recorded
// nowhere. A pass is one sitting's: more than 75 % of the whole quiz at once, never a sitting's
// right answers added to a practice's (once, 0 of 12 and then a practice of the twelve recorded
// "12 of 12, passed").
// How the answers are told is the examiner's choice, documented in quizzes/README.md: a lesson's
// self-check is practice and marks each answer at once, with why; the mastery check is an exam
// (Bank::exam) and marks nothing until the last answer, then reviews every question.

#include "take.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
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
using engine::notebook::wrap;

// One run of take: a sitting of the whole quiz, or practice of some of its questions.
struct Attempt {
  const Bank& bank;
  bool practice = false;
  Feedback feedback = Feedback::EachQuestion;
  std::uint64_t seed = 0;
  std::vector<ShownQuestion> shown{};
};

// "passing needs 12 of 15, more than 75 %"
std::string pass_rule(int total) {
  return "passing needs " + std::to_string(answers_needed_to_pass(total)) + " of " +
         std::to_string(total) + ", more than 75 %";
}

std::string percent_text(int correct, int total) {
  return std::to_string(correct) + " of " + std::to_string(total) + " (" +
         std::to_string(Score{correct, total, false}.percent()) + " %)";
}

Feedback feedback_of(const Bank& bank, const Options& o) {
  if (!bank.exam || o.missed) return o.feedback.value_or(Feedback::EachQuestion);
  if (o.feedback == Feedback::EachQuestion) {
    throw UsageError("'" + bank.name +
                     "' is an exam: it marks nothing until its end (--feedback each is for the "
                     "self-checks, and for practice with --missed)");
  }
  return Feedback::AtEnd;
}

// The ids of the questions to practise: those the last sitting missed that the bank still has
// (the course may have moved one since). Throws UsageError when there was no sitting.
std::vector<std::string> practised_ids(const Bank& bank, const QuizRecord& record) {
  if (record.attempts == 0) throw UsageError("no earlier attempt of '" + bank.name + "' to retry");
  std::vector<std::string> ids;
  for (const Question& q : bank.questions) {
    if (std::count(record.last_missed.begin(), record.last_missed.end(), q.id) > 0)
      ids.push_back(q.id);
  }
  return ids;
}

// What the learner reads before the first question: what is asked, what passes, how answers
// are told, and the command that shows the same order again.
std::string header(const Attempt& a, const Paths& paths) {
  const int total = static_cast<int>(a.bank.questions.size());
  const std::size_t asked = a.shown.size();
  std::string text =
      a.practice
          ? "Practice of the " + a.bank.title + ": the " + std::to_string(asked) + " question" +
                (asked == 1 ? "" : "s") +
                " your last attempt missed. Practice is not recorded: " + pass_rule(total) +
                ", in one sitting of the whole quiz."
          : a.bank.title + ": " + std::to_string(total) + " questions; " + pass_rule(total) + ".";
  text += a.feedback == Feedback::EachQuestion
              ? " Each answer is marked right or wrong at once."
              : std::string(a.bank.exam && !a.practice ? " An exam: nothing" : " Nothing") +
                    " is marked until the end, then every question is reviewed.";
  const std::string again = paths.command + " take " + a.bank.name +
                            (a.practice ? " --missed" : "") + " --seed " + std::to_string(a.seed);
  return text + " The options are shuffled with seed " + std::to_string(a.seed) + " (" + again +
         " shows them in the same order).";
}

// One question of the result, numbered as this run asked it ("Question 2 of 3" in practice).
// `review` tells what was not told at the answer: the prompt, the answer and the explanation.
void print_graded(std::ostream& out, const Graded& g, std::size_t number, std::size_t count,
                  const Paths& paths, bool review, std::size_t width) {
  const ShownQuestion& q = *g.shown;
  const auto option = [&](const std::string& label, int letter) {
    return label + letter_of(letter) + ") " + q.option(letter);
  };
  out << "  Question " << number << " of " << count << ": " << q.question->id
      << (review ? (g.correct ? " ✔" : " ✘") : "") << "\n";
  if (review) {
    out << wrap(q.question->prompt, width, "    ", "    ");
    if (g.correct) {
      out << wrap(option("Your answer, right: ", g.chosen), width, "    ", "      ");
    } else {
      out << wrap(option("You chose ", g.chosen), width, "    ", "      ")
          << wrap("Why not: " + q.why(g.chosen), width, "    ", "      ")
          << wrap(option("The answer: ", q.correct_letter()), width, "    ", "      ");
    }
    out << wrap(q.question->context, width, "    ", "    ");
  }
  // A command stays whole on a line of its own, so that it can be copied.
  if (!g.correct) {
    out << "    Re-run the cell that teaches it:\n      "
        << rerun_command(parse_link(q.question->lesson), paths.lesson_programs) << "\n";
  }
}

// Marked at every answer, the missed questions only (their why was said then); otherwise
// every question, reviewed.
void print_answers(std::ostream& out, const Attempt& a, const std::vector<Graded>& graded,
                   bool told, const Paths& paths, std::size_t width) {
  const bool any_missed =
      std::any_of(graded.begin(), graded.end(), [](const Graded& g) { return !g.correct; });
  if (!told) out << "\nEvery question, with its answer:\n";
  if (told && any_missed) out << "\nMissed:\n";
  for (std::size_t i = 0; i < graded.size(); ++i) {
    if (!told || !graded[i].correct)
      print_graded(out, graded[i], i + 1, graded.size(), paths, !told, width);
  }
  // The command stays whole on a line of its own, so that it can be copied.
  if (any_missed) {
    out << "\n"
        << wrap(std::string(a.practice ? "To practise the questions still missed"
                                       : "To practise only the missed questions") +
                    " (practice is not recorded):",
                width)
        << "  " << paths.command << " take " << a.bank.name << " --missed\n";
  }
}

nlohmann::json result_json(const Attempt& a, const std::vector<Graded>& graded, const Score& score,
                           int attempt, bool recorded, const Paths& paths) {
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
  return {{"quiz", a.bank.name},
          {"title", a.bank.title},
          {"seed", a.seed},
          {"attempt", attempt},
          {"retry_of_missed", a.practice},
          {"recorded", recorded},
          {"correct", score.correct},
          {"total", score.total},
          {"percent", score.percent()},
          {"passed", score.passed},
          {"needed", answers_needed_to_pass(static_cast<int>(a.bank.questions.size()))},
          {"answers", answers}};
}

// Records a sitting on the progress file as it is now (another program may have recorded since
// it was read); the attempt's number, or 0 where it could not be recorded (said on `err`).
int record_sitting(const Attempt& a, const Score& score, const std::vector<Graded>& graded,
                   std::ostream& err, const Paths& paths) {
  std::vector<std::string> missed;
  for (const Graded& g : graded) {
    if (!g.correct) missed.push_back(g.shown->question->id);
  }
  int attempt = 0;  // set while the change is made, which may then fail to be written
  try {
    engine::notebook::update_progress(
        engine::notebook::progress_path(), err, [&](Progress& progress) {
          QuizRecord& r = progress.quizzes[a.bank.name];
          r.attempts = std::min(r.attempts + 1, QuizRecord::kMaxAttempts);
          r.total = score.total;
          r.best_correct =
              std::min(std::max(r.best_correct, score.correct), r.total);  // the bank may shrink
          r.passed = r.passed || score.passed;
          r.last_seed = a.seed;
          r.last_missed = missed;
          attempt = r.attempts;
        });
    return attempt;
  } catch (const std::exception& e) {
    err << program_name(paths) << ": this attempt was not recorded: " << e.what() << "\n";
    return 0;
  }
}

// The score line: a sitting's against the pass mark; practice's, which passes nothing.
std::string score_line(const Attempt& a, const Score& score) {
  const int total = static_cast<int>(a.bank.questions.size());
  if (a.practice) {
    return "Practice: " + std::to_string(score.correct) + " of " + std::to_string(score.total) +
           " right. It is not recorded; " + pass_rule(total) +
           ", in one sitting of the whole quiz.";
  }
  return a.bank.title + ": " + percent_text(score.correct, score.total) + ". " +
         (score.passed ? "Passed" : "Not passed yet") + ": " + pass_rule(total) + ".";
}

// The letters chosen: the answer sheet's, or the learner's, asked after the header; nullopt
// when the learner stopped.
std::optional<std::vector<int>> answers(const Attempt& a, const Options& o, std::istream& in,
                                        std::ostream& out, const Paths& paths) {
  if (!o.answers) {
    out << wrap(header(a, paths), o.width);
    return ask(a.shown, in, out, a.feedback, o.width);
  }
  try {
    return parse_answer_sheet(*o.answers, a.shown);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

int take(const Options& o, std::istream& in, std::ostream& out, std::ostream& err,
         const Paths& paths) {
  const Bank bank = load_named(paths, o.name);
  Attempt a{bank, o.missed, feedback_of(bank, o)};
  // Read now only for what to practise; a sitting is recorded on the file as it is at the end.
  const Progress before = engine::notebook::load_progress(engine::notebook::progress_path(), err);
  const auto earlier = before.quizzes.find(bank.name);
  const QuizRecord record = earlier == before.quizzes.end() ? QuizRecord{} : earlier->second;
  const std::vector<std::string> ids =
      a.practice ? practised_ids(bank, record) : std::vector<std::string>{};
  if (a.practice && ids.empty()) {
    out << "The last attempt of " << bank.title
        << (record.last_missed.empty() ? " missed nothing"
                                       : " missed only questions this quiz no longer has")
        << "; there is nothing to retry.\n";
    return 0;
  }
  a.seed = o.seed ? *o.seed : o.answers ? 0 : std::random_device{}();
  a.shown = show(bank, a.seed, ids);
  const std::optional<std::vector<int>> chosen = answers(a, o, in, out, paths);
  if (!chosen) return 3;
  const std::vector<Graded> graded = grade(a.shown, *chosen);
  Score score{0, static_cast<int>(graded.size()), false};
  score.correct = static_cast<int>(
      std::count_if(graded.begin(), graded.end(), [](const Graded& g) { return g.correct; }));
  score.passed = !a.practice && passes(score.correct, score.total);
  const int attempt = a.practice ? record.attempts : record_sitting(a, score, graded, err, paths);
  const bool recorded = !a.practice && attempt > 0;
  if (o.json) {
    out << result_json(a, graded, score, attempt, recorded, paths).dump(2) << "\n";
  } else {
    out << "\n" << wrap(score_line(a, score), o.width);
    const bool told = !o.answers && a.feedback == Feedback::EachQuestion;
    print_answers(out, a, graded, told, paths, o.width);
  }
  if (!a.practice && !recorded) return 4;
  return a.practice ? (score.correct == score.total ? 0 : 1) : (score.passed ? 0 : 1);
}

}  // namespace quiz
