// The "lab" doctest reporter: one line per test (✔ or ✘), under a failed one what it teaches,
// and at the end the verdict and the one next thing to do, which is the first TODO still open
// when the tests reached one. Written for the learner, so paths are relative to the course,
// doctest's own decorations and the failed expressions are left out (--details shows those),
// the same message on several machines is said once, naming them all, and the text wraps to
// the terminal.

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
#include "engine/notebook/stopped_code.h"
#include "engine/notebook/terminal_text.h"
#include "engine/notebook/text_diff.h"
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

// What a failed check says: its teaching text (the lines of its context and message) and the
// expression that failed, with where.
struct Problem {
  std::string text;
  std::string expression;  // empty for an exception or a TODO
};

// A machine's name stands for itself in a message; this marks where one was.
constexpr char kMachineMark = '\x01';

// `text` with each simulated machine's name replaced by the mark, and the names it replaced.
std::pair<std::string, std::vector<std::string>> without_machines(std::string text) {
  std::vector<std::string> found;
  for (const engine::MachineProfile* m : engine::machines()) {
    const std::string name(m->name);
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

// The problems as the learner reads them: those that differ only in the one machine they name
// become one, naming every machine.
std::vector<Problem> grouped(const std::vector<Problem>& problems) {
  struct Group {
    std::string masked, expression;
    std::vector<std::string> machines;
  };
  std::vector<Group> groups;
  std::vector<Problem> out;
  for (const Problem& p : problems) {
    const auto found =
        without_machines(p.text);  // no structured binding: the lambda below uses it (clang 14)
    const std::string& masked = found.first;
    const std::vector<std::string>& machines = found.second;
    if (machines.size() != 1) {
      groups.push_back({p.text, p.expression, {}});
      continue;
    }
    auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return !g.machines.empty() && g.masked == masked &&
             checked_at(g.expression) == checked_at(p.expression);
    });
    if (same == groups.end()) {
      groups.push_back({masked, p.expression, machines});
    } else {
      same->machines.push_back(machines.front());
    }
  }
  for (const Group& g : groups) {
    std::string text = g.masked;
    for (std::size_t at; (at = text.find(kMachineMark)) != std::string::npos;)
      text.replace(at, 1, joined(g.machines));
    out.push_back({text, g.expression});
  }
  return out;
}

class LabReporter : public doctest::IReporter {
 public:
  explicit LabReporter(const doctest::ContextOptions& options)
      : out_(*options.cout), color_(wants_color(options)), width_(report_width()) {}

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}

  void test_case_start(const doctest::TestCaseData& test) override {
    name_ = test.m_name;
    problems_.clear();
    // The learner's code may never return: then the check is reported as stopped.
    engine::notebook::limit_time(
        "  " + std::string(style(kRed)) + "✘ " + reset() + name_ + '\n' +
        engine::notebook::wrap(engine::notebook::stopped_after("your code"), width_, "    ",
                               "      ") +
        style(kRed) + style(kBold) +
        engine::notebook::wrap(
            "✘ Your code did not finish, so the checks after that one did not run.", width_) +
        reset());
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    engine::notebook::lift_time_limit();
    ++run_;
    const bool passed = stats.testCaseSuccess;
    out_ << "  " << style(passed ? kGreen : kRed) << (passed ? "✔ " : "✘ ") << reset() << name_
         << '\n';
    if (!passed) {
      ++failed_;
      for (const Problem& problem : grouped(problems_)) show(problem);
    }
    out_.flush();  // everything so far stays on screen if the next check crashes or never ends
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    if (e.is_crash) {
      crashed_ = true;
      return add_problem({"your code crashed with " +
                              engine::notebook::crash_description(e.error_string.c_str()) +
                              " in '" + name_ + "'",
                          ""});
    }
    std::string text = e.error_string.c_str();
    if (is_open_todo(text)) return add_problem({text, ""});  // not written yet: nothing else to say
    const doctest::String* contexts = get_stringified_contexts();
    for (int i = get_num_stringified_contexts() - 1; i >= 0; --i)
      text += std::string("\n") + contexts[i].c_str();
    add_problem({text, ""});
  }

  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}

  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    if (a.m_threw) {  // doctest quotes the exception's text in an assertion
      std::string error = a.m_exception.c_str();
      if (error.size() >= 2 && error.front() == '"' && error.back() == '"')
        error = error.substr(1, error.size() - 2);
      if (is_open_todo(error)) return add_problem({error, ""});
    }
    std::ostringstream text;
    const doctest::IContextScope* const* contexts = get_active_contexts();
    for (int i = 0; i < get_num_active_contexts(); ++i) {
      if (i > 0) text << '\n';
      contexts[i]->stringify(&text);
    }
    std::ostringstream expression;
    expression << "(" << a.m_expr;
    if (a.m_threw) {
      expression << " raised " << a.m_exception.c_str();
    } else if (a.m_decomp.size() > 0 && std::string(a.m_decomp.c_str()) != a.m_expr) {
      expression << " was " << a.m_decomp.c_str();
    }
    expression << ", " << course_path(a.m_file) << ":" << a.m_line << ")";
    add_problem({text.str(), expression.str()});
  }

  void log_message(const doctest::MessageData& m) override {
    add_problem({m.m_string.c_str(), ""});
  }

  void test_case_skipped(const doctest::TestCaseData&) override {}

  void test_run_end(const doctest::TestRunStats&) override {
    record_checks_run(run_);
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
           << reset()
           << engine::notebook::wrap(
                  "Next: the check marked ✘ above names what it tests; the code of your file that "
                  "does that is where to look.",
                  width_)
           << std::flush;
      return;
    }
    out_ << style(kRed) << style(kBold) << "✘ " << failed_ << " of " << run_ << " checks fail."
         << reset() << '\n';
    using engine::notebook::wrap;
    std::vector<OpenTodo> todos = reached_todos();
    if (todos.empty()) {
      out_ << wrap(
          "Next: the first check marked ✘ above says what went wrong and where to read about it.",
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
    const bool seen = std::any_of(problems_.begin(), problems_.end(), [&](const Problem& p) {
      return p.text == problem.text && p.expression == problem.expression;
    });
    if (!seen) problems_.push_back(problem);
  }

  // A problem under its check: each line wrapped to the terminal, except a command to re-run,
  // which stays whole so that it can be copied; the expression only with --details.
  void show(const Problem& problem) {
    for (const std::string& line : engine::notebook::split_lines(problem.text)) {
      out_ << (line.rfind("see: ", 0) == 0
                   ? "    " + line + '\n'
                   : engine::notebook::wrap(line, width_, "    ", "      "));
    }
    if (problem.expression.empty()) return;
    if (show_details()) {
      out_ << style(kDim) << engine::notebook::wrap(problem.expression, width_, "    ", "      ")
           << reset();
    } else {
      ++hidden_;
    }
  }
  const char* style(const char* code) const { return color_ ? code : ""; }
  const char* reset() const { return color_ ? kReset : ""; }

  std::ostream& out_;
  bool color_;
  std::size_t width_;
  std::string name_;
  bool crashed_ = false;
  int hidden_ = 0;  // failed expressions left out of the report
  std::vector<Problem> problems_;
  int run_ = 0;
  int failed_ = 0;
};

}  // namespace
}  // namespace harness

DOCTEST_REGISTER_REPORTER("lab", 1, harness::LabReporter);
