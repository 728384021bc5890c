#include "session.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "engine/mps.h"
#include "engine/notebook/cell.h"
#include "engine/notebook/closest_machine.h"
#include "engine/notebook/completion_channel.h"
#include "engine/notebook/documented_machines.h"
#include "engine/notebook/prose_values.h"
#include "engine/notebook/stopped_code.h"
#include "engine/notebook/terminal_text.h"
#include "engine/notebook/text_diff.h"
#include "engine/sim.h"
#include "run_config.h"

namespace engine::notebook {
namespace {

std::vector<Registration>& mutable_registrations() {
  static std::vector<Registration> all;
  return all;
}

Session* g_active = nullptr;

// One stream's view of a cell's output: what is written through it lands, in order, in the
// transcript shared with the other stream, marked with where it came from.
class TranscriptBuffer : public std::streambuf {
 public:
  struct Piece {
    bool from_stderr;
    std::string text;
  };
  TranscriptBuffer(std::vector<Piece>& transcript, bool from_stderr)
      : transcript_(transcript), from_stderr_(from_stderr) {}

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const char c = traits_type::to_char_type(ch);
    xsputn(&c, 1);
    return ch;
  }
  std::streamsize xsputn(const char* text, std::streamsize n) override {
    if (transcript_.empty() || transcript_.back().from_stderr != from_stderr_)
      transcript_.push_back({from_stderr_, ""});
    transcript_.back().text.append(text, static_cast<std::size_t>(n));
    return n;
  }

 private:
  std::vector<Piece>& transcript_;
  bool from_stderr_;
};

// Swaps std::cout and std::cerr for one transcript while a cell runs. The notebook view and
// doctest write to their own stream over the real stdout, so they are never captured.
class OutputCapture {
 public:
  OutputCapture()
      : out_(transcript_, false),
        err_(transcript_, true),
        old_out_(std::cout.rdbuf(&out_)),
        old_err_(std::cerr.rdbuf(&err_)) {}
  ~OutputCapture() { restore(); }
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

  void finish(CellRun& run) {
    restore();
    bool at_line_start = true;
    for (const TranscriptBuffer::Piece& piece : transcript_) {
      for (const char c : piece.text) {
        if (at_line_start) run.from_stderr.push_back(piece.from_stderr);
        run.output += c;
        at_line_start = c == '\n';
      }
    }
    if (!run.output.empty() && run.output.back() != '\n') run.output += '\n';  // implied newline
  }

 private:
  void restore() {
    if (old_out_ == nullptr) return;
    std::cout.rdbuf(old_out_);
    std::cerr.rdbuf(old_err_);
    old_out_ = old_err_ = nullptr;
  }

  std::vector<TranscriptBuffer::Piece> transcript_;
  TranscriptBuffer out_, err_;
  std::streambuf* old_out_;
  std::streambuf* old_err_;
};

std::string mismatch_message(const CellRun& run, const std::string& machine,
                             const std::vector<DiffLine>& diff) {
  std::string message = "cell '" + run.cell->name + "' ";
  if (run.documented == nullptr) {
    message += "printed output but documents none; add a // %% [output] block below it";
  } else {
    message += "printed something other than its documented output on " + machine;
  }
  message += "\n(- documented, + printed)\n";
  message += format_diff(diff);
  return message;
}

std::string names_of(const std::vector<const MachineProfile*>& machines) {
  std::string names;
  for (const MachineProfile* m : machines)
    names += (names.empty() ? "" : ", ") + std::string(m->name);
  return names;
}

// The line where a registration's TUTOR_CELL( stands. A macro call that spans lines reports
// its __LINE__ at the first line under g++ and at the closing parenthesis under clang, so the
// call is looked for a few lines up from there, and must hold the claim. 0: none.
int tutor_cell_line(const Cell& cell, int reported, const std::string& claim) {
  constexpr int kLongestCall = 4;  // lines
  const auto text = [&](int line) -> const std::string& {
    return cell.lines[static_cast<std::size_t>(line - cell.first_line)];
  };
  for (int line = reported; line >= std::max(cell.first_line, reported - kLongestCall + 1);
       --line) {
    if (text(line).find("TUTOR_CELL") == std::string::npos) continue;
    std::string call;
    for (int in_call = line; in_call <= std::min(cell.last_line(), line + kLongestCall - 1);
         ++in_call) {
      call += text(in_call);
    }
    // The claim's first words, as the source spells them (up to any character it escapes).
    const std::string opening =
        claim.substr(0, std::min(claim.find_first_of("\"\\"), std::size_t{12}));
    return call.find(opening) != std::string::npos ? line : 0;
  }
  return 0;
}

}  // namespace

CellRegistration::CellRegistration(const char* file, int line, const char* claim) {
  mutable_registrations().push_back({file, line, claim});
}

const std::vector<Registration>& registrations() { return mutable_registrations(); }

Session::Session(const MachineProfile& machine, const std::string& source) : machine_(&machine) {
  const auto& regs = registrations();
  if (regs.empty()) throw FormatError("lesson", 0, "this program defines no TUTOR_CELL");
  const std::string& built_from = regs.front().file;
  lesson_ = load_lesson(source.empty() ? built_from : source);
  register_cells(built_from);
  check_documented_outputs();
  check_prose_values(lesson_, documented_);
  compared_ = is_documented(machine) ? machine_ : &closest_machine(machine, documented_);
}

void Session::register_cells(const std::string& built_from) {
  const std::string& path = lesson_.path;
  for (const Registration& reg : registrations()) {
    if (reg.file != built_from) {
      throw FormatError(reg.file, reg.line, "TUTOR_CELL outside the lesson file " + built_from);
    }
    const Cell* cell = lesson_.code_cell_at(reg.line);
    const int line = cell == nullptr ? 0 : tutor_cell_line(*cell, reg.line, reg.claim);
    if (line == 0) {
      throw FormatError(path, reg.line,
                        "no TUTOR_CELL on this line any more: the lesson changed "
                        "since this program was built; rebuild it "
                        "(cmake --build build)");
    }
    if (cell->name.empty()) {
      throw FormatError(path, line,
                        "TUTOR_CELL in an unnamed code cell (line " +
                            std::to_string(cell->marker_line) + "); name it: // %% my_cell");
    }
    if (reg.claim.find_first_of("*?") != std::string::npos) {
      throw FormatError(path, line,
                        "a claim cannot contain * or ?, which doctest's filters "
                        "read as wildcards: \"" +
                            reg.claim + "\"");
    }
    for (const Runnable& other : runnable_) {
      if (other.cell == cell) {
        throw FormatError(path, line,
                          "cell '" + cell->name + "' already has a TUTOR_CELL at line " +
                              std::to_string(other.line) + "; one per cell");
      }
      if (other.claim == reg.claim) {
        throw FormatError(path, line,
                          "the claim \"" + reg.claim + "\" is already made at line " +
                              std::to_string(other.line) + "; each cell claims something");
      }
    }
    runnable_.push_back({cell, line, reg.claim});
  }
  std::sort(runnable_.begin(), runnable_.end(),
            [](const Runnable& a, const Runnable& b) { return a.line < b.line; });
}

void Session::check_documented_outputs() {
  const std::string& path = lesson_.path;
  const auto lessons_document =
      engine::notebook::documented_machines();  // not the member of that name
  documented_.assign(lessons_document.begin(), lessons_document.end());
  for (const Cell& cell : lesson_.cells) {
    for (const OutputBlock& block : cell.outputs) {
      if (!runs(cell)) {
        throw FormatError(
            path, block.marker_line,
            "cell '" + cell.name + "' documents output but has no TUTOR_CELL to print it");
      }
      for (const std::string& machine : block.machines) {
        const MachineProfile* named = find_machine(machine);
        if (named == nullptr) {
          throw FormatError(
              path, block.marker_line,
              "unknown machine '" + machine + "'; known machines: " + machine_names());
        }
        if (cell.requires_mps && !sim::mps_available_on(*named)) {
          throw FormatError(path, block.marker_line,
                            "cell '" + cell.name + "' requires mps, which " + machine +
                                " has not: there it prints \"" + std::string(kNeedsMpsLine) +
                                "\" without running; document no output for it");
        }
        if (!is_documented(*named)) {
          throw FormatError(path, block.marker_line,
                            "output cannot be documented for '" + machine +
                                "': the lessons document " + names_of(documented_) +
                                "; any other machine is compared with the closest of them");
        }
      }
    }
  }
  for (const Cell& cell : lesson_.cells) {
    for (const std::string& machine : cell.compare) {
      const bool documented =
          std::any_of(documented_.begin(), documented_.end(),
                      [&](const MachineProfile* m) { return m->name == machine; });
      if (!documented) {
        throw FormatError(path, cell.marker_line,
                          "compare names '" + machine +
                              "', which the lessons document no output for; "
                              "documented machines: " +
                              names_of(documented_));
      }
    }
  }
}

std::vector<OtherOutput> Session::other_outputs(const Cell& cell, bool every_machine) const {
  const OutputBlock* own = documented_output(cell, compared_->name);
  std::vector<OtherOutput> others;
  for (const MachineProfile* machine : documented_) {
    const bool wanted =
        every_machine || std::count(cell.compare.begin(), cell.compare.end(), machine->name) > 0;
    const OutputBlock* block = documented_output(cell, machine->name);
    if (!wanted || block == nullptr || block == own) continue;
    const bool listed = std::any_of(others.begin(), others.end(),
                                    [&](const OtherOutput& other) { return other.block == block; });
    if (listed) continue;
    OtherOutput other{.machines = {}, .block = block};
    for (const MachineProfile* m : documented_) {
      if (documented_output(cell, m->name) == block) other.machines.emplace_back(m->name);
    }
    others.push_back(std::move(other));
  }
  return others;
}

Session& Session::active() { return *g_active; }

std::string Session::lesson_name() const {
  const std::string& path = lesson_.path;
  const auto slash = path.find_last_of('/');
  const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  return file.substr(0, file.find_last_of('.'));
}
void Session::activate(Session* session) { g_active = session; }

const Cell& Session::cell_registered_at(int line) const {
  const Cell* cell = lesson_.code_cell_at(line);
  for (const Runnable& entry : runnable_) {
    if (entry.cell == cell) return *entry.cell;
  }
  throw FormatError(lesson_.path, line, "no cell registered at this line");
}

bool Session::runs(const Cell& cell) const {
  return std::any_of(runnable_.begin(), runnable_.end(),
                     [&](const Runnable& entry) { return entry.cell == &cell; });
}

const std::string& Session::claim_of(const Cell& cell) const {
  for (const Runnable& entry : runnable_) {
    if (entry.cell == &cell) return entry.claim;
  }
  throw FormatError(lesson_.path, cell.marker_line, "cell '" + cell.name + "' runs nothing");
}

std::vector<std::string> Session::runnable_names() const {
  std::vector<std::string> names;
  for (const Runnable& entry : runnable_) names.push_back(entry.cell->name);
  return names;
}

std::vector<std::string> Session::test_listing() const {
  std::vector<std::string> lines;
  for (const Runnable& entry : runnable_) {
    lines.push_back(entry.cell->name);
    for (const OutputBlock& block : entry.cell->outputs) {
      for (const std::string& machine : block.machines) {
        if (machine != default_machine().name) lines.push_back(entry.cell->name + " " + machine);
      }
    }
    if (!entry.cell->requires_mps) continue;
    for (const MachineProfile* machine : documented_) {  // where the cell prints the standard line
      if (!sim::mps_available_on(*machine))
        lines.push_back(entry.cell->name + " " + std::string(machine->name));
    }
  }
  return lines;
}

void run_cell(const char* /*file*/, int line, CellBody body) {
  Session& session = Session::active();
  CellRun run{.cell = &session.cell_registered_at(line)};
  sim::use_machine(session.machine());  // every cell starts in a fresh simulated process
  sim::label_process(session.lesson_name() + "/" + run.cell->name);
  report_completion("cell " + run.cell->name);  // the one that was running, if none finishes
  {
    OutputCapture capture;
    // An edited cell may loop forever.
    limit_time("\n" +
               wrap("✘ " + stopped_after("cell '" + run.cell->name + "'"), run_config().width));
    try {
      if (run.cell->requires_mps && !engine::mps::is_available()) {
        std::cout << kNeedsMpsLine << '\n';  // requires="mps": the standard line, not the cell
      } else {
        body();
      }
    } catch (...) {
      lift_time_limit();
      capture.finish(run);
      session.record(std::move(run));
      throw;
    }
    lift_time_limit();
    capture.finish(run);
  }
  run.documented = documented_output(*run.cell, session.compared_machine().name);
  const std::string documented = run.documented ? run.documented->text() : std::string();
  run.matches = run.output == documented;
  if (run.matches) {
    session.record(std::move(run));
    return;
  }
  const std::vector<DiffLine> diff = line_diff(documented, run.output);
  // The lesson documents nothing for this machine: a difference from the one it resembles is
  // worth showing, but it is no failure.
  if (session.compared_with_another()) {
    run.difference = format_diff(diff);
    run.matches = true;
    session.record(std::move(run));
    return;
  }
  // A failure points at the first documented line that differs, where the fix goes.
  const bool in_source =
      run.documented != nullptr && run.documented->marker_line != 0;  // not the standard line
  const int report_line =
      in_source ? run.documented->line_of(first_difference(diff)) : run.cell->marker_line;
  const std::string message = mismatch_message(run, std::string(session.machine().name), diff);
  session.record(std::move(run));
  ADD_FAIL_CHECK_AT(session.lesson().path.c_str(), report_line, doctest::String(message.c_str()));
}

}  // namespace engine::notebook
