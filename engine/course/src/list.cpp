// `course list`: every lesson, lab and quiz in course order, with the learner's state of each.

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "course.h"
#include "hints.h"
#include "lab_files.h"
#include "subcommand.h"

namespace front_door {
namespace {

using engine::notebook::Progress;

// A lesson in sections counts as verified when all its sections are: on the day and the machine
// of the last one.
std::string lesson_state(const LessonInfo& lesson, const Progress& progress) {
  const std::vector<const LessonInfo*> programs = lesson.programs();
  std::size_t verified = 0;
  std::string last;
  for (const LessonInfo* program : programs) {
    const auto it = progress.lessons_verified.find(program->number);
    if (it == progress.lessons_verified.end()) continue;
    ++verified;
    if (last.empty() || it->second > progress.lessons_verified.at(last)) last = program->number;
  }
  if (verified < programs.size()) {
    return verified == 0 ? "not verified yet"
                         : std::to_string(verified) + " of " + std::to_string(programs.size()) +
                               " sections verified";
  }
  const auto machine = progress.lessons_verified_on.find(last);  // none in older files
  return "verified " + progress.lessons_verified.at(last).substr(0, 10) +
         (machine == progress.lessons_verified_on.end() ? "" : " on " + machine->second);
}

// The digest of the learner's lab files as they are now (harness/learner_source.h); none without
// every file. Throws harness::DecoyError for one that cannot be read (a FIFO, a device).
std::optional<std::string> digest_now(const LabInfo& lab) {
  for (const std::filesystem::path& file : lab.learner_files()) {
    if (!std::filesystem::exists(file)) return std::nullopt;
  }
  return digest_on_disk(lab);
}

// A lab that passed once: whether the learner's file as it is now passes, from the verdict of
// its last check and the digest of what that check saw; nothing for a record from before checks
// were kept, or a file that is gone.
std::string state_now(const std::optional<std::string>& digest,
                      const engine::notebook::LabRecord& record) {
  if (!record.last_check || !digest) return "";
  if (*digest != record.last_check->source) return ", not checked since your last edit";
  return record.last_check->passed ? ", passes now" : ", fails now";
}

std::string lab_state(const LabInfo& lab, const Progress& progress) {
  const auto it = progress.labs.find(lab.name);
  const int hints = it == progress.labs.end() ? 0 : it->second.hints_shown;
  std::string state;
  try {
    const std::optional<std::string> digest = digest_now(lab);
    if (it != progress.labs.end() && !it->second.passed_at.empty()) {
      state = "passed " + it->second.passed_at.substr(0, 10) + state_now(digest, it->second);
    } else {
      const std::size_t todos = open_todos(lab).size();
      state = todos == 0 ? "not passed yet"
                         : std::to_string(todos) + (todos == 1 ? " TODO open" : " TODOs open");
    }
  } catch (const harness::DecoyError& e) {
    state = (lab.read_at_run_time() ? "a kernel" : "lab.cpp") + std::string(" cannot be read: ") +
            why_unreadable(e);
  }
  if (hints > 0)
    state += ", " + std::to_string(hints) + (hints == 1 ? " hint" : " hints") + " used";
  return state;
}

std::string quiz_state(const QuizInfo& quiz, const Progress& progress) {
  const auto it = progress.quizzes.find(quiz.name);
  if (it == progress.quizzes.end() || it->second.attempts == 0) return "not taken yet";
  const auto& r = it->second;
  return std::string(r.passed ? "passed" : "not passed yet") + ", best " +
         std::to_string(r.best_correct) + "/" + std::to_string(r.total);
}

int list(Course& course, const Arguments& args) {
  if (!args.empty()) return usage_error(course, "list", "takes no arguments");
  using engine::notebook::display_width;
  const Catalog& catalog = course.catalog();
  const Progress progress = course.progress();
  const std::optional<Step> next = next_step(catalog, progress);
  struct Row {
    std::string heading;  // a group's heading, or empty for an item
    Step step;
    std::string label, state;
  };
  std::vector<Row> rows;
  rows.push_back({"Lessons (" + course.command("run NN") + ")", {}, "", ""});
  for (const LessonInfo& l : catalog.lessons()) {
    rows.push_back(
        {"", {StepKind::Lesson, l.number}, l.number + " · " + l.title, lesson_state(l, progress)});
  }
  rows.push_back({"Labs (" + course.command("verify NN") + ")", {}, "", ""});
  for (const LabInfo& l : catalog.labs()) {
    rows.push_back(
        {"", {StepKind::Lab, l.number}, l.number + " · " + l.title, lab_state(l, progress)});
  }
  rows.push_back({"Quizzes (" + course.command("quiz take NAME") + ")", {}, "", ""});
  for (const QuizInfo& q : catalog.quizzes()) {
    rows.push_back(
        {"", {StepKind::Quiz, q.name}, q.name + " · " + q.title, quiz_state(q, progress)});
  }
  // The states in a column beside the labels where the terminal is wide enough, else under them.
  std::size_t label_width = 0, line_width = 0;
  for (const Row& r : rows) label_width = std::max(label_width, display_width(r.label));
  for (const Row& r : rows)
    line_width = std::max(line_width, 4 + label_width + 2 + display_width(r.state));
  const bool beside = line_width <= course.width();
  for (const Row& r : rows) {
    if (!r.heading.empty()) {
      course.out() << r.heading << '\n';
      continue;
    }
    const bool done = is_done(r.step, catalog, progress);
    const bool is_next = next && next->kind == r.step.kind && next->id == r.step.id;
    const std::string mark = done ? course.good("✔") : is_next ? "▶" : "·";
    if (beside) {
      course.out() << "  " << mark << " " << r.label
                   << std::string(label_width - display_width(r.label) + 2, ' ') << r.state << '\n';
    } else {
      course.out() << "  " << mark << " " << r.label << '\n'
                   << engine::notebook::wrap(r.state, course.width(), "      ", "      ");
    }
  }
  course.say("Your progress is kept in " + engine::notebook::progress_path().string() + ".");
  return 0;
}

}  // namespace

const Subcommand kListCommand{
    .name = "list",
    .usage = "list",
    .summary = "lessons, labs and quizzes in course order, with your progress",
    .run = list};

}  // namespace front_door
