#include "commands.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "engine/notebook/course_catalog.h"
#include "engine/notebook/progress.h"
#include "engine/notebook/terminal_markdown.h"
#include "quiz/bank.h"
#include "quiz/grading.h"
#include "quiz/lesson_links.h"
#include "quiz/order.h"
#include "quiz_options.h"
#include "take.h"

namespace quiz {
namespace {

namespace fs = std::filesystem;
using engine::notebook::Progress;
using engine::notebook::QuizRecord;

Progress load_progress(std::ostream& err) {
  return engine::notebook::load_progress(engine::notebook::progress_path(), err);
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
    Options o = parse_options(args, width, program_name(paths));
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
