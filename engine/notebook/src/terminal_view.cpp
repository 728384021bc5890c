// The lesson as an executed notebook in the terminal: prose, then each code cell and what it
// printed, in the order of the source. A doctest reporter, so failed checks and exceptions
// appear under the cell that caused them.

#include <doctest/doctest.h>
#include <fmt/color.h>
#include <fmt/format.h>

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/notebook/lesson_names.h"
#include "engine/notebook/prose_values.h"
#include "engine/notebook/stopped_code.h"
#include "engine/notebook/terminal_markdown.h"
#include "engine/notebook/terminal_text.h"
#include "engine/notebook/text_diff.h"
#include "engine/version.h"
#include "run_config.h"
#include "session.h"

namespace engine::notebook {
namespace {

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string operator()(fmt::text_style style, std::string_view text) const {
    return color_ ? fmt::format(style, "{}", text) : std::string(text);
  }

 private:
  bool color_;
};

const fmt::text_style kDim = fmt::emphasis::faint;
const fmt::text_style kGutter = fg(fmt::terminal_color::blue);
const fmt::text_style kOutput = fmt::emphasis::bold;
const fmt::text_style kWarning = fg(fmt::terminal_color::yellow);
const fmt::text_style kFailure = fg(fmt::terminal_color::bright_red);
const fmt::text_style kSuccess = fg(fmt::terminal_color::bright_green);

class NotebookReporter : public doctest::IReporter {
 public:
  explicit NotebookReporter(const doctest::ContextOptions& options)
      : out_(*options.cout),
        config_(run_config()),
        style_(config_.color),
        session_(Session::active()) {}

  void report_query(const doctest::QueryData&) override {}

  void test_run_start() override {
    if (config_.minimal) return;
    const MachineProfile& m = session_.machine();
    say(kDim, fmt::format("simulated machine {}: {}; emulating PyTorch {}", m.name, m.summary,
                          kEmulatedPyTorchVersion));
    if (session_.compared_with_another()) {
      say(kDim, fmt::format("no output is documented for {}: compared with {}'s, the documented "
                            "machine closest to it",
                            m.name, session_.compared_machine().name));
    }
    out_ << '\n';
    // The first section of a lesson in sections opens with the file its sections share, as the
    // lesson's first page does on the site.
    if (config_.only.empty() &&
        program_number(session_.lesson_name()).value_or("").ends_with(".1")) {
      for (const Cell& cell : session_.lesson().shared_cells) print_cell(cell);
    }
  }

  void test_case_start(const doctest::TestCaseData& test) override {
    problems_.clear();
    const Cell& cell = session_.cell_registered_at(static_cast<int>(test.m_line));
    current_ = &cell;
    if (config_.minimal) return;
    if (config_.only.empty()) print_cells_before(cell);
    print_code(cell);
    cursor_ = index_of(cell) + 1;
    out_.flush();  // the code is on screen before it runs, should it crash or never end
  }

  void test_case_reenter(const doctest::TestCaseData&) override {}

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    ++cells_run_;
    std::optional<CellRun> run = session_.take_last();
    if (run) {
      printed_[run->cell->name] = run->output;
      print_output(*run);
      if (!run->difference.empty()) ++differed_;
    }
    for (const std::string& problem : problems_) print_problem(problem);
    if (!stats.testCaseSuccess) failed_.push_back(current_->name);
    if (!config_.minimal) out_ << '\n';
    out_.flush();
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    problems_.push_back(e.is_crash
                            ? "the cell crashed with " + crash_description(e.error_string.c_str())
                            : std::string("raised ") + e.error_string.c_str());
  }

  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}

  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    std::string text =
        fmt::format("line {}: {}( {} ) failed", a.m_line, doctest::assertString(a.m_at), a.m_expr);
    if (a.m_threw) {
      text += fmt::format(", it raised {}", a.m_exception.c_str());
    } else if (a.m_decomp.size() > 0) {
      text += fmt::format(": {}", a.m_decomp.c_str());
    }
    problems_.push_back(text);
  }

  void log_message(const doctest::MessageData& m) override {
    problems_.push_back(m.m_string.c_str());
  }

  void test_case_skipped(const doctest::TestCaseData&) override {}

  void test_run_end(const doctest::TestRunStats&) override {
    if (!config_.minimal && config_.only.empty()) print_cells_from(cursor_);
    if (config_.minimal) return;
    const std::string machine(session_.machine().name);
    if (failed_.empty() && session_.compared_with_another()) {
      const std::string differences =
          differed_ == 0 ? ""
                         : fmt::format(
                               "; {} printed {}'s own values (the difference is shown "
                               "under {})",
                               differed_, run_on(), differed_ == 1 ? "it" : "each");
      say(kSuccess,
          fmt::format("✔ {} cell{} ran on {}: {} printed what {} documents{}.", cells_run_,
                      cells_run_ == 1 ? "" : "s", machine, cells_run_ - differed_,
                      session_.compared_machine().name, differences));
      say(kDim,
          fmt::format(
              "The lessons document no output for {}, so this run does not verify the lesson; "
              "a run on a machine they document does (--list-machines lists them).",
              run_on()));
      return;
    }
    if (failed_.empty()) {
      say(kSuccess,
          fmt::format("✔ {} cell{} ran on {} and printed {} documented output.", cells_run_,
                      cells_run_ == 1 ? "" : "s", machine, cells_run_ == 1 ? "its" : "their"));
      return;
    }
    std::string names;
    for (const std::string& name : failed_) names += (names.empty() ? "" : ", ") + name;
    say(kFailure, fmt::format("✘ {} of {} cells failed on {}: {}", failed_.size(), cells_run_,
                              machine, names));
    // The command stays on one line, whole, so that it can be copied.
    out_ << style_(kDim,
                   fmt::format("  details for one cell: {} --verify --cell {}{}", config_.program,
                               failed_.front(),
                               machine == default_machine().name ? "" : " --machine " + machine))
         << '\n';
  }

 private:
  // Who printed this run's outputs, in the view's sentences.
  std::string run_on() const {
    const std::string_view name = session_.machine().name;
    return name == "host" ? "this computer" : std::string(name);
  }

  // The view's own words, wrapped to the terminal's width and styled line by line.
  void say(fmt::text_style style, const std::string& text, std::string_view indent = "") {
    for (const std::string& line : split_lines(wrap(text, config_.width, indent, indent))) {
      out_ << style_(style, line) << '\n';
    }
  }

  std::size_t index_of(const Cell& cell) const {
    return static_cast<std::size_t>(&cell - session_.lesson().cells.data());
  }

  void print_cells_before(const Cell& cell) {
    const std::size_t end = index_of(cell);
    for (; cursor_ < end; ++cursor_) print_cell(session_.lesson().cells[cursor_]);
  }

  void print_cells_from(std::size_t begin) {
    const auto& cells = session_.lesson().cells;
    for (std::size_t i = begin; i < cells.size(); ++i) print_cell(cells[i]);
  }

  void print_cell(const Cell& cell) {
    if (cell.is_code()) {
      print_code(cell);
      out_ << '\n';
    } else {
      print_markdown(cell);
    }
  }

  void print_markdown(const Cell& cell) {
    std::string markdown;
    for (const std::string& line : cell.lines) markdown += line + '\n';
    markdown = with_values(markdown, [&](const ValueReference& reference) {
      return value_on_screen(reference).value_or("?");
    });
    out_ << render_markdown(markdown, TerminalLook{.color = config_.color, .width = config_.width})
         << '\n';
  }

  // A number the prose quotes, as the screen shows it: what the cell printed in this run, or,
  // for another machine, its documented output shown under the cell (prose_values.h).
  std::optional<std::string> value_on_screen(const ValueReference& reference) const {
    if (!reference.machine.empty())
      return documented_value(session_.lesson(), reference, reference.machine);
    const auto printed = printed_.find(reference.cell);
    if (printed == printed_.end()) return std::nullopt;
    return value_after(printed->second, reference.anchor);
  }

  void print_code(const Cell& cell) {
    if (!cell.name.empty()) {
      out_ << style_(kGutter, "┌ " + cell.name)
           << (cell.requires_mps ? style_(kDim, "  requires mps") : "") << '\n';
    }
    for (const std::string& line : cell.lines) print_code_line(line, {});
    if (config_.python && cell.python) print_python_twin(*cell.python);
  }

  // A line of code beside the gutter. One wider than the terminal goes on over several lines,
  // each continuation indented as the line itself and marked, as outputs are.
  void print_code_line(std::string_view line, const fmt::text_style& look) {
    const std::string_view kGutterText = "│ ";
    for (const std::string& part :
         code_line_parts(line, config_.width - display_width(kGutterText))) {
      out_ << style_(kGutter, std::string(kGutterText)) << style_(look, part) << '\n';
    }
  }

  // The same cell in PyTorch's Python API, below the C++ and marked as Python.
  void print_python_twin(const PythonTwin& twin) {
    out_ << style_(kGutter, "├ in Python") << '\n';
    for (const std::string& line : twin.lines) print_code_line(line, kDim);
    if (!twin.differs.empty()) {
      const std::string when = twin.before.empty() ? "" : " (PyTorch before " + twin.before + ")";
      print_code_line("# real PyTorch prints otherwise" + when + ": " + twin.differs, kWarning);
    }
  }

  void print_output(const CellRun& run) {
    const bool show_header = !config_.minimal;
    const std::vector<OtherOutput> others = show_header
                                                ? session_.other_outputs(*run.cell, config_.compare)
                                                : std::vector<OtherOutput>{};
    if (show_header) {
      out_ << style_(kGutter, others.empty()
                                  ? "└▶"
                                  : "└▶ this run, on " + std::string(session_.machine().name))
           << '\n';
    }
    const std::vector<std::string> lines = split_lines(run.output);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const bool warning = i < run.from_stderr.size() && run.from_stderr[i];
      if (show_header) {
        print_output_line(lines[i], warning ? kWarning : kOutput);
      } else {
        out_ << style_(warning ? kWarning : kOutput, lines[i]) << '\n';  // --minimal: as printed
      }
    }
    if (!run.difference.empty() && show_header) {
      say(kDim,
          fmt::format("{} printed something other than {}'s documented output:", run_on(),
                      session_.compared_machine().name),
          "  ");
      out_ << "  " << style_(kDim, "(- documented, + printed)") << '\n';
      print_problem(run.difference);
    }
    for (const OtherOutput& other : others) print_other_output(other);
  }

  // Another machine's documented output, labelled and dimmed so it is not mistaken for this run's.
  void print_other_output(const OtherOutput& other) {
    std::string machines;
    for (const std::string& name : other.machines)
      machines += (machines.empty() ? "" : ", ") + name;
    for (const std::string& line :
         split_lines(wrap("└▷ documented for " + machines, config_.width, "", "   "))) {
      out_ << style_(kGutter, line) << '\n';
    }
    for (const std::string& line : other.block->lines) print_output_line(line, kDim);
  }

  // An output line, indented under its cell and broken to the terminal's width.
  void print_output_line(std::string_view line, const fmt::text_style& look) {
    const std::string_view kIndent = "  ";
    for (const std::string& part : printed_line_parts(line, config_.width - kIndent.size())) {
      out_ << kIndent << style_(look, part) << '\n';
    }
  }

  // A failed check or a diff, indented under the cell; in the notebook view a line wider than
  // the terminal goes on in marked parts, as an output line does (--minimal prints it whole).
  void print_problem(const std::string& problem) {
    for (const std::string& line : split_lines(problem)) {
      const bool added = line.rfind("+ ", 0) == 0, same = line.rfind("  ", 0) == 0;
      const fmt::text_style look = added ? kSuccess : same ? kDim : kFailure;
      if (config_.minimal) {
        out_ << "  " << style_(look, line) << '\n';
        continue;
      }
      for (const std::string& part :
           printed_line_parts(line, config_.width > 2 ? config_.width - 2 : 1, 2)) {
        out_ << "  " << style_(look, part) << '\n';
      }
    }
  }

  std::ostream& out_;
  const RunConfig& config_;
  Style style_;
  Session& session_;
  std::size_t cursor_ = 0;
  const Cell* current_ = nullptr;
  std::vector<std::string> problems_;
  std::vector<std::string> failed_;
  std::map<std::string, std::string> printed_;  // what each cell printed in this run
  int cells_run_ = 0;
  int differed_ = 0;  // cells whose output differed on "host", where that is no failure
};

}  // namespace
}  // namespace engine::notebook

DOCTEST_REGISTER_REPORTER("notebook", 1, engine::notebook::NotebookReporter);
