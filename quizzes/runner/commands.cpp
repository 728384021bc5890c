#include "commands.h"

// cxxopts' regular expressions cost seconds of compile time and are not needed here.
#define CXXOPTS_NO_REGEX 1

#include <algorithm>
#include <cxxopts.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <random>
#include <stdexcept>

#include "engine/notebook/course_catalog.h"
#include "engine/notebook/progress.h"
#include "engine/notebook/terminal_markdown.h"
#include "interactive.h"
#include "quiz/bank.h"
#include "quiz/grading.h"
#include "quiz/lesson_links.h"
#include "quiz/order.h"

namespace quiz {
namespace {

namespace fs = std::filesystem;
using engine::notebook::Progress;
using engine::notebook::QuizRecord;

// A usage error: the message goes to stderr with a pointer to --help, status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string command, name;
  std::optional<std::string> answers;
  std::optional<std::uint64_t> seed;
  bool missed = false, json = false, help = false, reveal_answers = false;
  Feedback feedback = Feedback::EachQuestion;
  std::size_t width = 80;  // columns to wrap text at
  std::string help_text;
};

// The commands for --help, each description beside its command where the terminal is wide
// enough, else under it.
std::string command_list(std::size_t width) {
  const std::vector<std::pair<std::string, std::string>> commands{
      {"list", "the quizzes, with your best scores"},
      {"take NAME", "answer a quiz (passing needs more than 75 %)"},
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

Options parse(const std::vector<std::string>& args, std::size_t width, const std::string& name) {
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
      "N")("missed", "ask only the questions the last attempt missed")(
      "feedback", "when to say right or wrong: each (after every answer) or end (after the last)",
      cxxopts::value<std::string>()->default_value("each"),
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
    const std::string feedback = result["feedback"].as<std::string>();
    if (feedback != "each" && feedback != "end") {
      throw UsageError("--feedback takes each or end, not '" + feedback + "'");
    }
    o.feedback = feedback == "end" ? Feedback::AtEnd : Feedback::EachQuestion;
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(e.what());
  }
  o.help_text = spec.help();
  return o;
}

Progress load_progress(std::ostream& err) {
  return engine::notebook::load_progress(engine::notebook::progress_path(), err);
}

Bank load_named(const Paths& paths, const std::string& name) {
  if (name.empty()) throw UsageError("name a quiz; '" + paths.command + " list' shows them");
  const fs::path file = paths.banks / (name + ".toml");
  if (!fs::exists(file))
    throw UsageError("no quiz named '" + name + "'; '" + paths.command + " list' shows them");
  return load_bank(file);
}

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

int show_questions(const Options& o, std::ostream& out, const Paths& paths) {
  const Bank bank = load_named(paths, o.name);
  const std::uint64_t seed = o.seed.value_or(0);
  out << engine::notebook::wrap(
      bank.title + " (options in the order of seed " + std::to_string(seed) +
          "; an answer sheet names each question by the id in parentheses: --answers " +
          bank.questions.front().id + "=b,...)",
      o.width);
  for (const ShownQuestion& q : show(bank, seed)) {
    print_question(out, q, static_cast<std::size_t>(q.number), bank.questions.size(), o.width,
                   true);
  }
  return 0;
}

int review(const Options& o, std::ostream& out, std::ostream& err, const Paths& paths) {
  const Bank bank = load_named(paths, o.name);
  const Progress progress = load_progress(err);
  const auto record = progress.quizzes.find(bank.name);
  const bool taken = record != progress.quizzes.end() && record->second.attempts > 0;
  // Like mdbook-quiz, the answers come after an attempt: reading them first spoils the quiz.
  if (!taken && !o.reveal_answers) {
    throw UsageError(program_name(paths) + " review shows the answers of " + bank.name +
                     " once you have taken it (" + paths.command + " take " + bank.name +
                     "); to see them now, add --reveal-answers");
  }
  const std::uint64_t seed = o.seed ? *o.seed : taken ? record->second.last_seed : 0;
  out << engine::notebook::wrap(
      bank.title + ": every question with its answer (options in the order of seed " +
          std::to_string(seed) + ")",
      o.width);
  if (seed != 0)
    out << engine::notebook::wrap(
        "(An answer sheet with these letters needs --seed " + std::to_string(seed) + ".)", o.width);
  for (const ShownQuestion& q : show(bank, seed)) {
    const bool missed = taken && std::count(record->second.last_missed.begin(),
                                            record->second.last_missed.end(), q.question->id) > 0;
    out << "\nQuestion " << q.number << " of " << bank.questions.size()
        << (missed ? "  (missed last time)" : "") << "\n"
        << engine::notebook::wrap(q.question->prompt, o.width);
    for (int k = 0; k < q.options(); ++k) {
      const bool right = k == q.correct_letter();
      const std::string label = std::string("  ") + letter_of(k) + ") ";
      out << engine::notebook::wrap(q.option(k) + (right ? "  <- the answer" : ""), o.width, label,
                                    "     ")
          << engine::notebook::wrap(right ? q.question->context : "Why not: " + q.why(k), o.width,
                                    "     ", "     ");
    }
    out << "  Lesson: " << rerun_command(parse_link(q.question->lesson), paths.lesson_programs)
        << "\n";
  }
  return 0;
}

int list(std::ostream& out, std::ostream& err, const Paths& paths, std::size_t width) {
  const Progress progress = load_progress(err);
  for (const fs::path& file : bank_files(paths.banks)) {
    const Bank bank = load_bank(file);
    std::string status = "not taken";
    if (const auto r = progress.quizzes.find(bank.name);
        r != progress.quizzes.end() && r->second.attempts > 0) {
      status = std::string(r->second.passed ? "passed" : "not passed yet") + ", best " +
               std::to_string(r->second.best_correct) + "/" + std::to_string(r->second.total);
    }
    out << "  " << bank.name << std::string(10 - std::min<std::size_t>(bank.name.size(), 9), ' ')
        << bank.title << ", " << bank.questions.size() << " questions: " << status << "\n";
  }
  out << engine::notebook::wrap("Take one with: " + paths.command + " take NAME", width);
  return 0;
}

int course_progress(const Options& o, std::ostream& out, std::ostream& err, const Paths& paths) {
  const Progress progress = load_progress(err);
  // The lessons of the course whose lessons/ folder this is (engine/notebook/course_catalog.h);
  // a lesson in sections counts once every section is verified.
  const std::vector<engine::notebook::CatalogEntry> entries =
      engine::notebook::read_catalog(paths.lessons.parent_path()).lessons;
  std::vector<std::string> lessons, verified;
  for (const engine::notebook::CatalogEntry& lesson : entries) {
    lessons.push_back(lesson.number);
    if (engine::notebook::lesson_verified(progress, lesson.program_numbers()))
      verified.push_back(lesson.number);
  }
  const auto mastery = progress.quizzes.find("mastery");
  const bool taken = mastery != progress.quizzes.end() && mastery->second.attempts > 0;
  std::string mastery_text = "mastery check not taken yet";
  if (taken) {
    const QuizRecord& r = mastery->second;
    const std::string best = std::to_string(r.best_correct) + "/" + std::to_string(r.total);
    mastery_text = r.passed ? "mastery check passed " + best
                            : "mastery check not passed yet (best " + best + ")";
  }
  if (o.json) {
    nlohmann::json quizzes = nlohmann::json::object();
    for (const auto& [name, r] : progress.quizzes) {
      quizzes[name] = {{"attempts", r.attempts},
                       {"best_correct", r.best_correct},
                       {"total", r.total},
                       {"passed", r.passed}};
    }
    out << nlohmann::json{{"lessons", lessons.size()},
                          {"lessons_verified", verified},
                          {"quizzes", quizzes},
                          {"mastery_passed", taken && mastery->second.passed}}
               .dump(2)
        << "\n";
    return 0;
  }
  out << engine::notebook::wrap(std::to_string(verified.size()) + " of " +
                                    std::to_string(lessons.size()) + " lessons verified, " +
                                    mastery_text,
                                o.width);
  for (const std::string& n : lessons) {
    const std::string bank = "lesson" + n;
    std::string self_check = "self-check not taken";
    if (const auto r = progress.quizzes.find(bank);
        r != progress.quizzes.end() && r->second.attempts > 0) {
      self_check = std::string("self-check ") +
                   (r->second.passed ? "passed " : "not passed yet, best ") +
                   std::to_string(r->second.best_correct) + "/" + std::to_string(r->second.total);
    }
    const bool done = std::find(verified.begin(), verified.end(), n) != verified.end();
    out << engine::notebook::wrap(
        "lesson " + n + ": " + (done ? "verified" : "not verified yet") + ", " + self_check,
        o.width, "  ", "    ");
  }
  out << engine::notebook::wrap(
      "A lesson counts as verified once you run it and every cell prints its documented output.",
      o.width);
  return 0;
}

int check(std::ostream& out, std::ostream& err, const Paths& paths) {
  int problems = 0, questions = 0;
  const std::vector<fs::path> files = bank_files(paths.banks);
  for (const fs::path& file : files) {
    try {
      const Bank bank = load_bank(file);
      if (const std::string giveaway = length_giveaway(bank); !giveaway.empty()) {
        err << bank.path << ":1: error: " << giveaway << "\n";
        ++problems;
      }
      for (const Question& q : bank.questions) {
        ++questions;
        const std::string problem = check_link(parse_link(q.lesson), paths.lessons);
        if (!problem.empty()) {
          err << bank.path << ":" << q.line << ": error: question '" << q.id << "': " << problem
              << "\n";
          ++problems;
        }
      }
    } catch (const std::exception& e) {
      err << e.what() << "\n";
      ++problems;
    }
  }
  if (problems > 0) {
    err << problems << " problem" << (problems == 1 ? "" : "s") << " in the question banks\n";
    return 1;
  }
  out << files.size() << " banks, " << questions
      << " questions: every bank parses, every lesson link resolves, and no bank's answers stand out by length\n";
  return 0;
}

// The full-marks sheet gives the quiz away, so it is shown only to a learner who has passed,
// or to whoever asks for it by name (authors checking a bank).
int key(const Options& o, std::ostream& out, std::ostream& err, const Paths& paths) {
  const Bank bank = load_named(paths, o.name);
  if (!o.reveal_answers) {
    const Progress progress = load_progress(err);
    const auto record = progress.quizzes.find(bank.name);
    if (record == progress.quizzes.end() || !record->second.passed) {
      throw UsageError(program_name(paths) + " key shows the answers of " + bank.name +
                       " once you have passed it; to see them now, add "
                       "--reveal-answers");
    }
  }
  const std::uint64_t seed = o.seed.value_or(0);
  out << answer_key(show(bank, seed)) << "\n";
  if (seed != 0)
    err << "(letters in the order of seed " << seed << ": grade it with --seed " << seed << ")\n";
  return 0;
}

}  // namespace

int glossary(const Options& o, std::ostream& out, const Paths& paths) {
  out << engine::notebook::render_markdown_file(
      (paths.lessons / "glossary.md").string(),
      engine::notebook::TerminalLook{.color = false, .width = o.width});
  return 0;
}

std::string program_name(const Paths& paths) {
  const std::size_t program_end = std::min(paths.command.find(' '), paths.command.size());
  const std::size_t folder_end = paths.command.rfind('/', program_end);
  return folder_end == std::string::npos ? paths.command : paths.command.substr(folder_end + 1);
}

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err, const Paths& paths, std::size_t width) {
  try {
    Options o = parse(args, width, program_name(paths));
    o.width = width;
    if (o.help || o.command.empty()) {
      (o.help ? out : err) << o.help_text;
      return o.help ? 0 : 2;
    }
    if (!o.name.empty() && (o.command == "list" || o.command == "progress" ||
                            o.command == "check" || o.command == "glossary")) {
      throw UsageError("'" + program_name(paths) + " " + o.command +
                       "' takes no name; unexpected argument '" + o.name + "'");
    }
    if (o.command == "list") return list(out, err, paths, o.width);
    if (o.command == "take") return take(o, in, out, err, paths);
    if (o.command == "show") return show_questions(o, out, paths);
    if (o.command == "review") return review(o, out, err, paths);
    if (o.command == "progress") return course_progress(o, out, err, paths);
    if (o.command == "check") return check(out, err, paths);
    if (o.command == "key") return key(o, out, err, paths);
    if (o.command == "glossary") return glossary(o, out, paths);
    throw UsageError("unknown command '" + o.command + "'");
  } catch (const UsageError& e) {
    err << program_name(paths) << ": " << e.what() << "\nTry '" << paths.command << " --help'.\n";
    return 2;
  } catch (const std::exception& e) {
    err << program_name(paths) << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace quiz
