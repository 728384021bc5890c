#include "course.h"

#include <stdexcept>

#include "engine/notebook/course_catalog.h"
#include "engine/notebook/lesson_names.h"
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

// The page of the file a lesson's sections share: prose and code, and no program of its own.
Lesson shared_page(const engine::notebook::LessonSource& section, const std::string& number) {
  const fs::path shared = section.shared_path;
  Lesson page{.stem = shared.parent_path().filename().string(),
              .number = number,
              .file = (shared.parent_path().filename() / shared.filename()).string(),
              .source = {.path = section.shared_path, .cells = section.shared_cells}};
  page.title = engine::notebook::first_heading(lesson_markdown_start(page.source));
  if (page.title.empty()) page.title = "Lesson " + number;
  return page;
}

}  // namespace

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

Course load_course(const std::vector<fs::path>& lesson_files, const fs::path& programs,
                   const fs::path& banks, const fs::path& labs, const fs::path& theme) {
  Course course;
  course.theme = Theme::load(theme);
  std::string shared_shown;  // the shared file whose page is in already
  for (const fs::path& file : lesson_files) {
    Lesson lesson{.stem = file.stem().string()};
    const auto number = engine::notebook::program_number(lesson.stem);
    if (!number) {
      throw std::runtime_error(
          file.string() +
          ": a lesson's file name must be NN_topic.cpp (a section's NN_S_topic.cpp)");
    }
    lesson.number = *number;
    lesson.source = engine::notebook::load_lesson(file.string());
    lesson.file = file.filename().string();
    if (!lesson.source.shared_path.empty()) {
      const fs::path folder = fs::path(lesson.source.shared_path).parent_path();
      lesson.file = (folder.filename() / lesson.file).string();
      if (lesson.source.shared_path != shared_shown) {
        course.lessons.push_back(shared_page(lesson.source, lesson.number.substr(0, 2)));
        shared_shown = lesson.source.shared_path;
      }
    }
    lesson.title = engine::notebook::first_heading(lesson_markdown_start(lesson.source));
    if (lesson.title.empty()) lesson.title = "Lesson " + lesson.number;
    lesson.target = engine::notebook::program_target(lesson.number);
    lesson.program = programs / lesson.target;
    if (!fs::exists(lesson.program)) {
      throw std::runtime_error("no lesson program " + lesson.program.string() +
                               "; build the lessons first");
    }
    course.lessons.push_back(std::move(lesson));
  }
  for (const fs::path& file : quiz::bank_files(banks))
    course.banks.push_back(quiz::load_bank(file));
  if (fs::exists(labs / "README.md")) course.labs_overview = labs / "README.md";
  for (const engine::notebook::CatalogEntry& lab :
       engine::notebook::read_catalog(labs.parent_path()).labs) {
    course.labs.push_back(Lab{.stem = lab.name, .title = lab.heading, .readme = lab.file});
  }
  return course;
}

}  // namespace site
