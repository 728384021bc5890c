// The "lab" doctest reporter: one line per test (✔ or ✘), under a failed one what its checks
// saw and what they teach, and at the end the verdict and the one next thing to do, which is the
// first TODO still open when the tests reached one. Written for the learner, so paths are
// relative to the course, doctest's own decorations and the failed expressions are left out
// (--details shows those), what several inputs or machines teach is said once under what each
// of them saw, the same message on several machines is said once, naming them all, code that
// threw is named with what it threw instead of a lesson about another mistake, and the text wraps
// to the terminal.

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/machine.h"
#include "engine/notebook/completion_channel.h"
#include "engine/notebook/stopped_code.h"
#include "engine/notebook/terminal_text.h"
#include "engine/notebook/text_diff.h"
#include "harness/check.h"
#include "open_todo.h"
#include "report.h"

namespace harness {
namespace {

constexpr const char* kGreen = "\033[32m";
constexpr const char* kRed = "\033[31m";
constexpr const char* kDim = "\033[2m";
constexpr const char* kBold = "\033[1m";
constexpr const char* kReset = "\033[0m";

bool wants_color(const doctest::ContextOptions& options) {
  if (options.no_colors) return false;
  if (options.force_colors) return true;
  const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and non-empty
  return isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
}

// What the exception translator says when the code reached a TODO (see runner.cpp).
bool is_open_todo(const std::string& error) { return error.rfind("stopped at TODO ", 0) == 0; }

// What a failed check says, read out of its contexts and message (harness::why): what it saw,
// what it teaches and the lesson cells to re-run; or, when the code threw instead of answering,
// what it threw.
struct Problem {
  std::vector<std::string> seen;     // the input, the machine, the values
  std::vector<std::string> teaches;  // the misconception, after harness::why
  std::vector<std::string> see;      // "see: build/lessons/..." lines
  std::string thrown;                // what the code threw, if it threw
  std::string expression;            // the failed expression, with where (--details)

  bool operator==(const Problem&) const = default;

  // Reads one context or message: its lines before harness::why are what was seen, those after
  // it what is taught; a "see: " line is a lesson cell's link wherever it is.
  void read(const std::string& text) {
    bool teaching = false;
    for (std::string line : engine::notebook::split_lines(text)) {
      if (!line.empty() && line.front() == kWhyMark) {
        teaching = true;
        line.erase(0, 1);
        if (line.empty()) continue;
      }
      if (line.rfind("see: ", 0) == 0) {
        see.push_back(line);
      } else {
        (teaching ? teaches : seen).push_back(line);
      }
    }
  }
};

// A machine's name stands for itself in a message; this marks where one was.
constexpr char kMachineMark = '\x01';

// `text` with each simulated machine's name replaced by the mark, and the names it replaced.
std::pair<std::string, std::vector<std::string>> without_machines(std::string text) {
  std::vector<std::string> found;
  for (const engine::MachineProfile* m : engine::machines()) {
    const std::string name(m->name);
    // "host", the profile of this computer, is also a word the messages use ("the host waits").
    if (name.find_first_of("0123456789") == std::string::npos) continue;
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      const bool whole = (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]))) &&
                         (at + name.size() == text.size() ||
                          (!std::isalnum(static_cast<unsigned char>(text[at + name.size()])) &&
                           text[at + name.size()] != '-'));
      if (!whole) continue;
      text.replace(at, name.size(), 1, kMachineMark);
      if (std::find(found.begin(), found.end(), name) == found.end()) found.push_back(name);
    }
  }
  return {text, found};
}

// "a", "a and b", "a, b and c"
std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// Where a failed expression was checked: its ", file:line)" ending (the values it saw differ
// from machine to machine).
std::string checked_at(const std::string& expression) {
  const std::size_t at = expression.rfind(", ");
  return at == std::string::npos ? expression : expression.substr(at);
}

// Failed checks of one test that teach the same thing, or threw the same exception, and what each
// of them saw; what several machines saw alike is one text that names them all.
struct Group {
  struct Seen {
    std::string text;                   // with the mark where the machines' names go
    std::vector<std::string> machines;  // the names, when the text named exactly one
    std::string expression;
  };
  std::string thrown;
  std::vector<std::string> teaches, see;
  std::vector<Seen> seen;

  void add(const Problem& p) {
    std::string text;
    for (const std::string& line : p.seen) text += (text.empty() ? "" : "\n") + line;
    const auto found =
        without_machines(text);  // no structured binding: the lambda uses it (clang 14)
    if (found.second.size() == 1) {
      auto same = std::find_if(seen.begin(), seen.end(), [&](const Seen& s) {
        return !s.machines.empty() && s.text == found.first &&
               checked_at(s.expression) == checked_at(p.expression);
      });
      if (same != seen.end()) {
        same->machines.push_back(found.second.front());
        return;
      }
      seen.push_back({found.first, found.second, p.expression});
      return;
    }
    seen.push_back({text, {}, p.expression});
  }
};

// The problems of one test as the learner reads them: in groups, in the order they first failed.
std::vector<Group> grouped(const std::vector<Problem>& problems) {
  std::vector<Group> groups;
  for (const Problem& p : problems) {
    auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.thrown == p.thrown && g.teaches == p.teaches && g.see == p.see;
    });
    if (same == groups.end()) {
      groups.push_back({p.thrown, p.teaches, p.see, {}});
      same = groups.end() - 1;
    }
    same->add(p);
  }
  for (Group& g : groups) {
    for (Group::Seen& s : g.seen) {
      for (std::size_t at; (at = s.text.find(kMachineMark)) != std::string::npos;)
        s.text.replace(at, 1, joined(s.machines));
    }
  }
  return groups;
}

// The next step after a check that crashed or never finished.
constexpr const char* kNextAfterStop =
    "Next: the check marked ✘ above names what it tests; the code of your file that does that is "
    "where to look.";

class LabReporter : public doctest::IReporter {
 public:
  explicit LabReporter(const doctest::ContextOptions& options)
      : out_(*options.cout), color_(wants_color(options)), width_(report_width()) {}

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}

  // "  ✔ the check's name", wrapped under its name where the terminal is narrow.
  std::string check_line(bool passed) const {
    const std::string mark =
        "  " + std::string(style(passed ? kGreen : kRed)) + (passed ? "✔ " : "✘ ") + reset();
    return engine::notebook::wrap(name_, width_, mark, "    ");
  }

  void test_case_start(const doctest::TestCaseData& test) override {
    name_ = test.m_name;
    problems_.clear();
    engine::notebook::report_completion("check " + name_);  // which one ran, if none reports
    // The learner's code may never return: then the check is reported as stopped.
    engine::notebook::limit_time(
        check_line(false) +
        engine::notebook::wrap(engine::notebook::stopped_after("your code"), width_, "    ",
                               "      ") +
        style(kRed) + style(kBold) +
        engine::notebook::wrap(
            "✘ Your code did not finish, so the checks after that one did not run.", width_) +
        reset() + engine::notebook::wrap(kNextAfterStop, width_));
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    engine::notebook::lift_time_limit();
    ++run_;
    const bool passed = stats.testCaseSuccess;
    out_ << check_line(passed);
    if (!passed) {
      ++failed_;
      const std::vector<Group> groups = grouped(problems_);
      if (failed_ == 1) first_failure_threw_ = !groups.empty() && !groups.front().thrown.empty();
      said_.clear();
      for (const Group& group : groups) show(group);
    }
    out_.flush();  // everything so far stays on screen if the next check crashes or never ends
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    Problem problem;
    if (e.is_crash) {
      crashed_ = true;
      problem.read("your code crashed with " +
                   engine::notebook::crash_description(e.error_string.c_str()) + " in '" + name_ +
                   "'");
      return add_problem(problem);
    }
    const std::string error = e.error_string.c_str();
    if (is_open_todo(error)) return add_todo(error);  // not written yet: nothing else to say
    problem.thrown = error;
    const doctest::String* contexts = get_stringified_contexts();
    for (int i = get_num_stringified_contexts() - 1; i >= 0; --i) problem.read(contexts[i].c_str());
    add_problem(problem);
  }

  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}

  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    Problem problem;
    if (a.m_threw) {  // doctest quotes the exception's text in an assertion
      std::string error = a.m_exception.c_str();
      if (error.size() >= 2 && error.front() == '"' && error.back() == '"')
        error = error.substr(1, error.size() - 2);
      if (is_open_todo(error)) return add_todo(error);
      problem.thrown = error;
    }
    read_active_contexts(problem);
    std::ostringstream expression;
    expression << "(" << a.m_expr;
    if (a.m_threw) {
      expression << " raised " << a.m_exception.c_str();
    } else if (a.m_decomp.size() > 0 && std::string(a.m_decomp.c_str()) != a.m_expr) {
      expression << " was " << a.m_decomp.c_str();
    }
    expression << ", " << course_path(a.m_file) << ":" << a.m_line << ")";
    problem.expression = expression.str();
    add_problem(problem);
  }

  void log_message(const doctest::MessageData& m) override {  // FAIL_CHECK("...") and the like
    Problem problem;
    read_active_contexts(problem);
    problem.read(m.m_string.c_str());
    add_problem(problem);
  }

  void test_case_skipped(const doctest::TestCaseData&) override {}

  void test_run_end(const doctest::TestRunStats&) override {
    record_checks(run_, failed_);
    if (run_ == 0) {
      out_ << "No test matches the filter.\n";
      return;
    }
    if (failed_ == 0) {
      out_ << style(kGreen) << style(kBold) << "✔ All " << run_ << " checks pass." << reset()
           << '\n';
      return;
    }
    if (crashed_) {
      out_ << style(kRed) << style(kBold)
           << engine::notebook::wrap(
                  "✘ Your code crashed, so the checks after that one did not run.", width_)
           << reset() << engine::notebook::wrap(kNextAfterStop, width_) << std::flush;
      return;
    }
    out_ << style(kRed) << style(kBold) << "✘ " << failed_ << " of " << run_ << " checks fail."
         << reset() << '\n';
    using engine::notebook::wrap;
    std::vector<OpenTodo> todos = reached_todos();
    if (todos.empty()) {
      out_ << wrap(first_failure_threw_
                       ? "Next: the first check marked ✘ above stopped at an exception your code "
                         "threw, before it could test your answer: find where your code throws it."
                       : "Next: the first check marked ✘ above says what went wrong and where to "
                         "read about it.",
                   width_);
    } else {
      const auto first =
          std::min_element(todos.begin(), todos.end(), [](const OpenTodo& a, const OpenTodo& b) {
            return a.file != b.file ? a.file < b.file : a.line < b.line;
          });
      out_ << wrap("Next: TODO " + first->id + " in " + course_path(first->file.c_str()) + ":" +
                       std::to_string(first->line) + ": " + first->what,
                   width_, "", "  ");
    }
    if (hidden_ > 0)
      out_ << style(kDim) << wrap("(--details also shows the expression each ✘ tested.)", width_)
           << reset();
  }

 private:
  void add_problem(const Problem& problem) {
    if (std::find(problems_.begin(), problems_.end(), problem) == problems_.end())
      problems_.push_back(problem);
  }
  void add_todo(const std::string& text) {
    Problem problem;
    problem.read(text);
    add_problem(problem);
  }
  void read_active_contexts(Problem& problem) const {
    const doctest::IContextScope* const* contexts = get_active_contexts();
    for (int i = 0; i < get_num_active_contexts(); ++i) {
      std::ostringstream text;
      contexts[i]->stringify(&text);
      problem.read(text.str());
    }
  }

  // A group of problems under its check: what each saw, then what they teach and the lesson
  // cells, each line once in the check; or what the code threw, and where. Each line is wrapped
  // to the terminal, except a command to re-run, which stays whole so that it can be copied, and
  // a line marked as written (harness::as_written: a diagnostic's source line and caret), which
  // keeps its columns; the expressions only with --details.
  void show(const Group& group) {
    using engine::notebook::wrap;
    const bool threw = !group.thrown.empty();
    if (threw) out_ << wrap("Your code threw " + group.thrown, width_, "    ", "      ");
    std::vector<std::string> above;  // the lines of what the check before this one saw
    for (const Group::Seen& seen : group.seen) {
      const std::vector<std::string> lines = engine::notebook::split_lines(seen.text);
      // The context both share (the machine, the input) is said once, above both.
      std::size_t from = 0;
      while (from + 1 < lines.size() && from < above.size() && lines[from] == above[from]) ++from;
      for (std::size_t i = from; i < lines.size(); ++i) {
        if (threw) {
          out_ << wrap((i == 0 ? "while checking: " : "") + lines[i], width_, "      ", "        ");
        } else if (lines[i].starts_with(kAsWrittenMark)) {
          out_ << "    " << lines[i].substr(1) << '\n';
        } else {
          out_ << wrap(lines[i], width_, "    ", "      ");
        }
      }
      above = lines;
      if (seen.expression.empty()) continue;
      if (show_details()) {
        out_ << style(kDim) << wrap(seen.expression, width_, "    ", "      ") << reset();
      } else {
        ++hidden_;
      }
    }
    if (threw) return;  // what the check teaches is about an answer the code never gave
    for (const std::string& line : group.teaches) {
      if (say_once(line)) out_ << wrap(line, width_, "    ", "      ");
    }
    for (const std::string& line : group.see) {
      if (say_once(line)) out_ << "    " << line << '\n';
    }
  }
  // Whether `line` is new in this check's report; it is from now on.
  bool say_once(const std::string& line) {
    if (std::find(said_.begin(), said_.end(), line) != said_.end()) return false;
    said_.push_back(line);
    return true;
  }

  const char* style(const char* code) const { return color_ ? code : ""; }
  const char* reset() const { return color_ ? kReset : ""; }

  std::ostream& out_;
  bool color_;
  std::size_t width_;
  std::string name_;
  bool crashed_ = false;
  bool first_failure_threw_ = false;  // the first failed check stopped at the code's exception
  int hidden_ = 0;                    // failed expressions left out of the report
  std::vector<Problem> problems_;
  std::vector<std::string> said_;  // what the failed check's report has said that it teaches
  int run_ = 0;
  int failed_ = 0;
};

}  // namespace
}  // namespace harness

DOCTEST_REGISTER_REPORTER("lab", 1, harness::LabReporter);
