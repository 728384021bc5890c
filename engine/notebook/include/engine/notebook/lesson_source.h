#pragma once
// The literate lesson format: a C++ file in Jupytext's percent format, with each code cell's
// documented output written right below it. One parser serves every consumer: lesson
// verification, the terminal notebook, the site generator and the notebook exporter.
//
//   // %% [markdown]                  a prose cell: Markdown in // comments
//   // %% [markdown] facts="221 ms"   ... which states those numbers as facts; every other
//                                     number with a unit quotes an output: prose_values.h
//   // %%                             an unnamed code cell (includes, helpers)
//   // %% sanity_check                a named code cell; its name identifies it everywhere
//   // %% sanity_check compare="linux-x86_64,intel-mac-macos12.0"
//                                     ... whose prose discusses those machines' outputs: the
//                                     notebook shows them under the cell's own
//   // %% sanity_check requires="mps" ... which runs only where MPS is available; elsewhere the
//                                     notebook prints one standard line instead (its documented
//                                     output there: documented_machines.h)
//   // %% [output]                    the named cell's documented output, one // line each
//   // %% [output] machine="linux-x86_64,rosetta-x86_64"   what those machines print instead
//   // %% [python]                    the cell's Python twin: the same cell in PyTorch's Python
//                                     API, one // line each; after the outputs
//   // %% [python] differs="why"      a twin real PyTorch runs but prints something else for
//   // %% [python] before="2.6" differs="why"   ... only in releases older than 2.6
//
// An [output] block without machines applies to every machine that has no block of its own.
// The twin of an unnamed code cell (the includes) is the lesson's Python prelude: the imports
// every other twin starts with, since every cell runs in a fresh process.

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace engine::notebook {

// What a requires="mps" cell (and its twin) prints, instead of running, where MPS is unavailable:
// its documented output on every such machine, which the lesson therefore does not write out.
inline constexpr std::string_view kNeedsMpsLine = "no mps device here: this cell needs MPS";

struct OutputBlock {
  std::vector<std::string> machines{};  // empty: every machine without a block of its own
  int marker_line = 0;
  std::vector<std::string> lines{};
  // The lines as printed text: each ends with a newline.
  std::string text() const;
  // The source line of documented line `index` (0-based); past the end, the last line.
  int line_of(std::size_t index) const noexcept;
  bool documents(std::string_view machine) const;
};

// A code cell written with PyTorch's Python API. Real PyTorch (linux, cpu) runs it, and what it
// prints must equal the cell's documented output for linux-x86_64 unless `differs` says why not.
struct PythonTwin {
  int marker_line = 0;
  std::vector<std::string> lines{};
  std::string differs{};     // why real PyTorch prints something other than the documented output
  std::string before{};      // the difference holds only for releases older than this ("2.6")
  std::string code() const;  // the lines, each ending in a newline
};

enum class CellKind { Code, Markdown };

struct Cell {
  CellKind kind = CellKind::Code;
  std::string name{};                // named code cells only
  int marker_line = 0;               // 0 for text before the first marker
  int first_line = 0;                // first content line
  std::vector<std::string> lines{};  // code as written; Markdown without its "// " prefix
  // Machines whose documented outputs the notebook shows under this cell's, because the prose
  // discusses them (compare="..." on the marker).
  std::vector<std::string> compare{};
  // requires="mps" on the marker: the cell runs only where MPS is available.
  bool requires_mps = false;
  std::vector<OutputBlock> outputs{};
  std::optional<PythonTwin> python{};
  // A Markdown cell's facts="...": the numbers with a unit its prose states itself rather than
  // quoting an output (prose_values.h).
  std::vector<std::string> facts{};

  bool is_code() const noexcept { return kind == CellKind::Code; }
  int last_line() const noexcept { return first_line + static_cast<int>(lines.size()) - 1; }
  // The block documented for `machine`, else the machine-independent one, else null.
  const OutputBlock* output_for(std::string_view machine) const;
};

struct LessonSource {
  std::string path;
  std::vector<Cell> cells{};
  // A section of a lesson in sections (lesson_names.h): its folder's shared file, whose code the
  // section includes and whose twins' prelude its twins start with. Empty for other lessons.
  std::string shared_path{};
  std::vector<Cell> shared_cells{};

  const Cell* find(std::string_view name) const;
  // The code cell whose content contains `line`, or null.
  const Cell* code_cell_at(int line) const;
  // The twins of the unnamed code cells, the shared file's first, joined: what every named cell's
  // twin runs after.
  std::string python_prelude() const;
  // What the twin of named `cell` runs as a script: the prelude, then, for a requires="mps"
  // cell, the standard line and a clean exit where MPS is unavailable, then the twin.
  std::string twin_script(const Cell& cell) const;
};

// A malformed lesson, reported as compilers report errors: "path:line: error: message".
class FormatError : public std::runtime_error {
 public:
  FormatError(std::string path, int line, const std::string& message);
  const std::string& path() const noexcept { return path_; }
  int line() const noexcept { return line_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string path_;
  int line_;
  std::string message_;
};

LessonSource parse_lesson(std::string_view text, std::string path);
// The lesson in `path`, with its shared file's cells where it is a section.
LessonSource load_lesson(const std::string& path);

}  // namespace engine::notebook
