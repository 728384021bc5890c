// Writes a lesson's Python twins as JSON for check_twins.py, through the course's one parser of
// the lesson format: for every named code cell with a twin, the code to run (the lesson's
// Python prelude, then the twin), the output documented for the reference machine, and the
// twin's marks.
//   twin_cases LESSON.cpp MACHINE

#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/notebook/lesson_source.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: twin_cases LESSON.cpp MACHINE\n";
    return 2;
  }
  try {
    const engine::notebook::LessonSource lesson = engine::notebook::load_lesson(argv[1]);
    const std::string prelude = lesson.python_prelude();
    nlohmann::json cells = nlohmann::json::array();
    for (const engine::notebook::Cell& cell : lesson.cells) {
      if (!cell.is_code() || cell.name.empty()) continue;
      const engine::notebook::OutputBlock* documented = cell.output_for(argv[2]);
      nlohmann::json entry = {{"cell", cell.name}, {"line", cell.marker_line}, {"twin", nullptr}};
      if (cell.python) {
        entry["twin"] = {{"line", cell.python->marker_line},
                         {"code", prelude + cell.python->code()},
                         {"differs", cell.python->differs},
                         {"before", cell.python->before}};
      }
      entry["expected"] = documented != nullptr ? documented->text() : "";
      cells.push_back(entry);
    }
    std::cout << nlohmann::json{{"lesson", lesson.path}, {"machine", argv[2]}, {"cells", cells}}.dump(1) << '\n';
    return 0;
  } catch (const engine::notebook::FormatError& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }
}
