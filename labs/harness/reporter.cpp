// The "lab" doctest reporter: one line per test (✔ or ✘), under a failed one what it teaches,
// and at the end the verdict and the one next thing to do, which is the first TODO still open
// when the tests reached one. Written for the learner, so paths are relative to the course
// and doctest's own decorations are left out.

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/notebook/stopped_code.h"
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

// Each line of `text`, indented under the test it belongs to.
void indented(std::ostream& out, const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out << "    " << line << '\n';
}

class LabReporter : public doctest::IReporter {
 public:
  explicit LabReporter(const doctest::ContextOptions& options)
      : out_(*options.cout), color_(wants_color(options)) {}

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}

  void test_case_start(const doctest::TestCaseData& test) override {
    name_ = test.m_name;
    problems_.clear();
    engine::notebook::limit_time("the check '" + name_ + "'");  // the learner's code may never return
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    engine::notebook::lift_time_limit();
    ++run_;
    const bool passed = stats.testCaseSuccess;
    out_ << "  " << style(passed ? kGreen : kRed) << (passed ? "✔ " : "✘ ") << reset() << name_ << '\n';
    if (!passed) {
      ++failed_;
      for (const std::string& problem : problems_) indented(out_, problem);
    }
    out_.flush();  // everything so far stays on screen if the next check crashes or never ends
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    if (e.is_crash) {
      crashed_ = true;
      return add_problem("your code crashed with " + engine::notebook::crash_description(e.error_string.c_str()) +
                         " in '" + name_ + "'");
    }
    std::string text = e.error_string.c_str();
    if (is_open_todo(text)) return add_problem(text);  // not written yet: nothing else to say
    const doctest::String* contexts = get_stringified_contexts();
    for (int i = get_num_stringified_contexts() - 1; i >= 0; --i) text += std::string("\n") + contexts[i].c_str();
    add_problem(text);
  }

  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}

  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    if (a.m_threw) {  // doctest quotes the exception's text in an assertion
      std::string error = a.m_exception.c_str();
      if (error.size() >= 2 && error.front() == '"' && error.back() == '"') error = error.substr(1, error.size() - 2);
      if (is_open_todo(error)) return add_problem(error);
    }
    std::ostringstream text;
    const doctest::IContextScope* const* contexts = get_active_contexts();
    for (int i = 0; i < get_num_active_contexts(); ++i) {
      contexts[i]->stringify(&text);
      text << '\n';
    }
    text << style(kDim) << "(" << a.m_expr;
    if (a.m_threw) {
      text << " raised " << a.m_exception.c_str();
    } else if (a.m_decomp.size() > 0 && std::string(a.m_decomp.c_str()) != a.m_expr) {
      text << " was " << a.m_decomp.c_str();
    }
    text << ", " << course_path(a.m_file) << ":" << a.m_line << ")" << reset();
    add_problem(text.str());
  }

  void log_message(const doctest::MessageData& m) override {
    add_problem(m.m_string.c_str());
  }

  void test_case_skipped(const doctest::TestCaseData&) override {}

  void test_run_end(const doctest::TestRunStats&) override {
    record_checks_run(run_);
    if (run_ == 0) {
      out_ << "No test matches the filter.\n";
      return;
    }
    if (failed_ == 0) {
      out_ << style(kGreen) << style(kBold) << "✔ All " << run_ << " checks pass." << reset() << '\n';
      return;
    }
    if (crashed_) {
      out_ << style(kRed) << style(kBold) << "✘ Your code crashed, so the checks after that one did not run."
           << reset() << "\nNext: the functions of your file that the crashed check calls are where to look.\n"
           << std::flush;
      return;
    }
    out_ << style(kRed) << style(kBold) << "✘ " << failed_ << " of " << run_ << " checks fail." << reset() << '\n';
    std::vector<OpenTodo> todos = reached_todos();
    if (todos.empty()) {
      out_ << "Next: the first check marked ✘ above says what went wrong and where to read about it.\n";
      return;
    }
    const auto first = std::min_element(todos.begin(), todos.end(), [](const OpenTodo& a, const OpenTodo& b) {
      return a.file != b.file ? a.file < b.file : a.line < b.line;
    });
    out_ << "Next: TODO " << first->id << " in " << course_path(first->file.c_str()) << ":" << first->line
         << ": " << first->what << '\n';
  }

 private:
  void add_problem(const std::string& text) {
    if (std::find(problems_.begin(), problems_.end(), text) == problems_.end()) problems_.push_back(text);
  }
  const char* style(const char* code) const { return color_ ? code : ""; }
  const char* reset() const { return color_ ? kReset : ""; }

  std::ostream& out_;
  bool color_;
  std::string name_;
  bool crashed_ = false;
  std::vector<std::string> problems_;
  int run_ = 0;
  int failed_ = 0;
};

}  // namespace
}  // namespace harness

DOCTEST_REGISTER_REPORTER("lab", 1, harness::LabReporter);
