// Writes the lessons' Python twins as JSON for check_twins.py and capture_pytorch.py, through the
// course's one parser of the lesson format: for every lesson, and every named code cell of it,
// the code to run (the lesson's Python prelude, then the twin), the output documented for the
// reference machine, and the twin's marks.
//   twin_cases MACHINE LESSON.cpp...

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/notebook/documented_machines.h"
#include "engine/notebook/lesson_source.h"

namespace {

nlohmann::json twins_of(const engine::notebook::LessonSource& lesson, const std::string& machine) {
  nlohmann::json cells = nlohmann::json::array();
  for (const engine::notebook::Cell& cell : lesson.cells) {
    if (!cell.is_code() || cell.name.empty()) continue;
    const engine::notebook::OutputBlock* documented =
        engine::notebook::documented_output(cell, machine);
    nlohmann::json entry = {{"cell", cell.name}, {"line", cell.marker_line}, {"twin", nullptr}};
    if (cell.python) {
      entry["twin"] = {{"line", cell.python->marker_line},
                       {"code", lesson.twin_script(cell)},
                       {"differs", cell.python->differs},
                       {"before", cell.python->before}};
    }
    entry["expected"] = documented != nullptr ? documented->text() : "";
    cells.push_back(entry);
  }
  return {{"lesson", lesson.path}, {"machine", machine}, {"cells", cells}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: twin_cases MACHINE LESSON.cpp...\n";
    return 2;
  }
  const std::string machine = argv[1];
  nlohmann::json lessons = nlohmann::json::array();
  for (int i = 2; i < argc; ++i) {
    try {
      lessons.push_back(twins_of(engine::notebook::load_lesson(argv[i]), machine));
    } catch (const engine::notebook::FormatError& e) {
      std::cerr << e.what() << '\n';
      return 2;
    }
  }
  std::cout << lessons.dump(1) << '\n';
  return 0;
}
