#pragma once
// Internal: one run of a lesson executable. It ties each TUTOR_CELL to its cell in the parsed
// source, runs cells on the chosen machine, and keeps what each cell printed for the view.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/machine.h"
#include "engine/notebook/lesson_source.h"

namespace engine::notebook {

struct Registration {
  std::string file;
  int line = 0;
  std::string claim;
};

// Every TUTOR_CELL of the program, in registration (file) order.
const std::vector<Registration>& registrations();

struct CellRun {
  const Cell* cell = nullptr;
  // What the cell printed, stdout and stderr interleaved as a terminal or a notebook shows
  // them; warnings go to stderr, and the lines that came from there are marked.
  std::string output{};
  std::vector<bool> from_stderr{};  // one entry per line of `output`
  const OutputBlock* documented = nullptr;
  bool matches = true;
  // On a machine without documented outputs: how the output differs from the compared
  // machine's, shown but not a failure.
  std::string difference{};
};

// A documented output of other machines, shown under a cell for comparison.
struct OtherOutput {
  std::vector<std::string> machines;  // every named machine it is documented for
  const OutputBlock* block = nullptr;
};

class Session {
 public:
  // Parses the lesson the registered cells come from (or `source`, a copy of it with the same
  // line numbers) and checks that cells and TUTOR_CELLs agree; throws FormatError naming the
  // line of any disagreement.
  explicit Session(const MachineProfile& machine, const std::string& source = "");

  static Session& active();
  static void activate(Session* session);

  const LessonSource& lesson() const noexcept { return lesson_; }
  // The lesson file's name without directory and extension: "05_timing".
  std::string lesson_name() const;
  const MachineProfile& machine() const noexcept { return *machine_; }
  // The machines the lesson documents outputs for (documented_machines.h), in --list-machines
  // order.
  const std::vector<const MachineProfile*>& documented_machines() const noexcept {
    return documented_;
  }
  // Whose documented outputs this run is compared with: the machine itself, or for one the
  // lessons do not document ("host", a chip of the cost model) the documented machine it
  // resembles most (closest_machine.h). Differences from another machine's are no failure, and
  // such a run never verifies the lesson.
  const MachineProfile& compared_machine() const noexcept { return *compared_; }
  bool compared_with_another() const noexcept { return compared_ != machine_; }

  const Cell& cell_registered_at(int line) const;
  bool runs(const Cell& cell) const;  // has a TUTOR_CELL
  // The claim (doctest test-case name) of a cell that runs.
  const std::string& claim_of(const Cell& cell) const;
  // Names of the cells that run, in order.
  std::vector<std::string> runnable_names() const;
  // "cell" and "cell machine" lines: what CTest verifies (the default machine for every cell,
  // plus every machine a cell documents separately, and where a requires="mps" cell prints the
  // standard line).
  std::vector<std::string> test_listing() const;

  // The outputs documented for other machines to show under `cell`: those of the machines its
  // compare option names, or with `every_machine` all of them; one per distinct block, in the
  // order of --list-machines, without the block this run is compared with.
  std::vector<OtherOutput> other_outputs(const Cell& cell, bool every_machine) const;

  void record(CellRun run) { last_ = std::move(run); }
  std::optional<CellRun> take_last() { return std::exchange(last_, std::nullopt); }

 private:
  // Ties each TUTOR_CELL to its cell; throws FormatError where they disagree.
  void register_cells(const std::string& built_from);
  // Checks every output block and compare option, and finds the documented machines.
  void check_documented_outputs();

  LessonSource lesson_;
  const MachineProfile* machine_;
  std::vector<const MachineProfile*> documented_;
  const MachineProfile* compared_ = nullptr;
  struct Runnable {
    const Cell* cell;
    int line;  // of its TUTOR_CELL
    std::string claim;
  };
  std::vector<Runnable> runnable_;  // in source order
  std::optional<CellRun> last_;
};

}  // namespace engine::notebook
