#include "course.h"

#include <algorithm>
#include <stdexcept>

#include "engine/notebook/progress.h"
#include "prose.h"
#include "text.h"

namespace site {
namespace fs = std::filesystem;

namespace {

std::string lesson_markdown_start(const engine::notebook::LessonSource& source) {
  for (const auto& cell : source.cells) {
    if (!cell.is_code()) return joined(cell.lines);
  }
  return "";
}

}  // namespace

std::string first_heading(const std::string& markdown) {
  PageIds ids;
  const Prose prose = render_prose(markdown, ids);
  return prose.headings.empty() ? "" : prose.headings.front().text;
}

const quiz::Bank* Course::bank(const std::string& name) const {
  for (const quiz::Bank& b : banks) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

const Lesson* Course::lesson(const std::string& stem) const {
  for (const Lesson& l : lessons) {
    if (l.stem == stem) return &l;
  }
  return nullptr;
}

Course load_course(const std::vector<fs::path>& lesson_files, const fs::path& programs, const fs::path& banks,
                   const fs::path& labs) {
  Course course;
  for (const fs::path& file : lesson_files) {
    Lesson lesson{.stem = file.stem().string()};
    const auto number = engine::notebook::lesson_number(lesson.stem);
    if (!number) throw std::runtime_error(file.string() + ": a lesson's file name must be NN_topic.cpp");
    lesson.number = *number;
    lesson.source = engine::notebook::load_lesson(file.string());
    lesson.title = first_heading(lesson_markdown_start(lesson.source));
    if (lesson.title.empty()) lesson.title = "Lesson " + lesson.number;
    lesson.program = programs / ("lesson" + lesson.number);
    if (!fs::exists(lesson.program)) {
      throw std::runtime_error("no lesson program " + lesson.program.string() + "; build the lessons first");
    }
    course.lessons.push_back(std::move(lesson));
  }
  for (const fs::path& file : quiz::bank_files(banks)) course.banks.push_back(quiz::load_bank(file));
  if (fs::exists(labs / "README.md")) course.labs_overview = labs / "README.md";
  if (fs::is_directory(labs)) {
    for (const fs::directory_entry& entry : fs::directory_iterator(labs)) {
      const std::string stem = entry.path().filename().string();
      const fs::path readme = entry.path() / "README.md";
      if (!entry.is_directory() || !engine::notebook::lesson_number(stem) || !fs::exists(readme)) continue;
      const std::string title = first_heading(read_text(readme.string()));
      course.labs.push_back(Lab{.stem = stem, .title = title.empty() ? "Lab " + stem : title, .readme = readme});
    }
  }
  std::sort(course.labs.begin(), course.labs.end(), [](const Lab& a, const Lab& b) { return a.stem < b.stem; });
  return course;
}

}  // namespace site
