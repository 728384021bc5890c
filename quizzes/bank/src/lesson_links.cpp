#include "quiz/lesson_links.h"

#include "engine/notebook/lesson_names.h"
#include "engine/notebook/lesson_source.h"

namespace quiz {

LessonLink parse_link(const std::string& link) {
  const auto hash = link.find('#');
  return {link.substr(0, hash), hash == std::string::npos ? "" : link.substr(hash + 1)};
}

std::string check_link(const LessonLink& link, const std::filesystem::path& lessons_dir) {
  const std::filesystem::path file = lessons_dir / (link.lesson + ".cpp");
  if (!std::filesystem::exists(file)) return "no lesson " + file.string();
  try {
    const engine::notebook::LessonSource lesson = engine::notebook::load_lesson(file.string());
    if (lesson.find(link.cell) == nullptr)
      return "lesson " + link.lesson + " has no code cell named '" + link.cell + "'";
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string as_typed(const std::filesystem::path& program) {
  std::error_code ignored;
  const std::filesystem::path relative =
      std::filesystem::relative(program, std::filesystem::current_path(), ignored);
  return !relative.empty() && relative.begin()->string() != ".." ? relative.string()
                                                                 : program.string();
}

std::string rerun_command(const LessonLink& link, const std::filesystem::path& lesson_bin_dir) {
  const std::string stem = std::filesystem::path(link.lesson).filename().string();
  const std::string number = engine::notebook::program_number(stem).value_or(stem.substr(0, 2));
  return as_typed(lesson_bin_dir / engine::notebook::program_target(number)) + " --cell " +
         link.cell;
}

}  // namespace quiz
