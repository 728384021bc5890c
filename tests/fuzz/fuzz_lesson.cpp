// Fuzz target: the lesson parser, on any text. A malformed lesson must be a FormatError, never
// a crash, a hang or undefined behaviour.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/notebook/lesson_source.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const engine::notebook::LessonSource lesson = engine::notebook::parse_lesson(text, "fuzz.cpp");
    for (const engine::notebook::Cell& cell : lesson.cells) {  // what the consumers of a lesson ask
      if (cell.is_code()) lesson.code_cell_at(cell.first_line);
      if (!cell.name.empty()) lesson.find(cell.name);
      for (const engine::notebook::OutputBlock& block : cell.outputs) block.text();
      if (cell.python) cell.python->code();
    }
    lesson.python_prelude();
  } catch (const engine::notebook::FormatError&) {
  }
  return 0;
}
