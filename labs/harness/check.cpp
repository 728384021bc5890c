// Lesson-cell links and the mark of what a check teaches, for the labs' messages, and number
// formatting for them.

#include "harness/check.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "engine/notebook/lesson_names.h"

namespace harness {
namespace {

std::vector<const LessonCell*>& mutable_cells() {
  static std::vector<const LessonCell*> cells;
  return cells;
}

}  // namespace

LessonCell::LessonCell(const char* lesson, const char* cell) : lesson_(lesson), cell_(cell) {
  mutable_cells().push_back(this);
}

std::string LessonCell::command() const {
  const std::string stem = lesson_.substr(lesson_.find('/') + 1);  // a section's file, if named
  const std::string number = engine::notebook::program_number(stem).value_or(stem.substr(0, 2));
  return "build/lessons/" + engine::notebook::program_target(number) + " --cell " + cell_;
}

std::ostream& operator<<(std::ostream& out, const LessonCell& cell) { return out << cell.see(); }

std::ostream& operator<<(std::ostream& out, Why) { return out << '\n' << kWhyMark; }

const std::vector<const LessonCell*>& lesson_cells() { return mutable_cells(); }

std::string as_written(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const bool caret =
        line.find('^') != std::string::npos && line.find_first_not_of(" \t^~") == std::string::npos;
    if (!caret) continue;
    lines[i] = kAsWrittenMark + lines[i];
    if (!lines[i - 1].starts_with(kAsWrittenMark)) lines[i - 1] = kAsWrittenMark + lines[i - 1];
  }
  std::string marked;
  for (std::size_t i = 0; i < lines.size(); ++i) marked += (i == 0 ? "" : "\n") + lines[i];
  return marked;
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

}  // namespace harness
