#pragma once
// Numbers in a lesson's prose that come from its cells' outputs, so that the prose never
// contradicts the screen. A Markdown cell writes such a number as a reference,
//
//   the detour costs {{fallback_step_time:with the cpu fallback:}} ms a step
//   on the M1 it is {{fallback_step_time@m1-8gb:with the cpu fallback:}} ms
//
// which stands for the number that follows the anchor text ("with the cpu fallback:") on the
// first line of the named cell's output that holds it: the output of the machine being run, or
// of the machine after '@', whose documented output the notebook shows under the cell (the
// cell's compare="..." must name it). The terminal resolves a reference from what the cell
// printed in this very run; the site, from each machine's documented output.
//
// An anchor may skip what lies between its parts with "...", across lines if need be:
// {{batch_sweep:4096 reports:...live,}} is the number after the first "live," that follows
// "4096 reports:", and the number is looked for on that line. "#N" at an anchor's end means
// the Nth number after it rather than the first: {{sweep:16    256#2}} is a table's third column.
//
// A number with a unit that prose writes out itself (12 ms, 36 %, 2.1x, 6 GiB) must be a fact
// the cell's marker lists, `// %% [markdown] facts="221 ms, 64 GB"`: a published measurement, a
// size a machine is sold with, a threshold. Everything else is a reference; check_prose_values
// holds every lesson to that rule for every documented machine.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/machine.h"
#include "engine/notebook/lesson_source.h"

namespace engine::notebook {

struct ValueReference {
  std::string cell;     // the code cell whose output holds the value
  std::string machine;  // empty: the machine being run
  std::string anchor;   // the text the value follows on its output line
  std::size_t begin{};  // where "{{" stands in the prose
  std::size_t end{};    // one past the closing "}}"
};

// The references in `prose`, in order. Throws std::invalid_argument naming what is malformed
// (an unclosed "{{", a missing anchor, a cell name that is not one).
std::vector<ValueReference> references_in(std::string_view prose);

// The number ("4.71", "-0.5", "1,986") that follows `anchor` (its parts, in order) on the line
// where it ends in `output`; nullopt if `output` lacks it or no number follows it there.
std::optional<std::string> value_after(std::string_view output, std::string_view anchor);

// `prose` with each reference replaced by what `value` gives for it.
std::string with_values(std::string_view prose,
                        const std::function<std::string(const ValueReference&)>& value);

// The numbers with a unit that `prose` writes out itself, outside references, `code` spans and
// fenced code: "12.5 ms", "36 %", "2.1x", "6.09 GiB", as written.
std::vector<std::string> stated_numbers(std::string_view prose);

// Every reference of the lesson's prose resolves, on every documented machine, to a number of
// an output the notebook shows there, and every number with a unit that prose states is a
// listed fact. Throws FormatError at the Markdown cell's line otherwise.
void check_prose_values(const LessonSource& lesson,
                        std::span<const MachineProfile* const> documented);

// The value of `reference` on `machine` from the documented outputs, as the site and the
// exported notebooks show it; nullopt where it does not resolve.
std::optional<std::string> documented_value(const LessonSource& lesson,
                                            const ValueReference& reference,
                                            std::string_view machine);

}  // namespace engine::notebook
