#include "engine/notebook/lesson_names.h"

namespace engine::notebook {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// "08_2_compile": a section's digit (1 to 9) and its underscore follow the lesson's number.
bool names_section(std::string_view stem) {
  return stem.size() >= 6 && digit(stem[3]) && stem[3] != '0' && stem[4] == '_';
}

}  // namespace

std::optional<std::string> lesson_number(std::string_view name) {
  if (name.size() < 4 || !digit(name[0]) || !digit(name[1]) || name[2] != '_') return std::nullopt;
  return std::string(name.substr(0, 2));
}

std::optional<std::string> program_number(std::string_view stem) {
  const auto lesson = lesson_number(stem);
  if (!lesson || !names_section(stem)) return lesson;
  return *lesson + "." + stem[3];
}

std::string program_target(std::string_view number) {
  std::string target = "lesson" + std::string(number);
  if (const auto dot = target.find('.'); dot != std::string::npos) target[dot] = '_';
  return target;
}

std::filesystem::path shared_file_of(const std::filesystem::path& program_source) {
  const std::filesystem::path folder = program_source.parent_path();
  if (program_source.filename() == kSharedFile || !lesson_number(folder.filename().string()))
    return {};
  const std::filesystem::path shared = folder / kSharedFile;
  std::error_code ignored;
  return std::filesystem::is_regular_file(shared, ignored) ? shared : std::filesystem::path{};
}

}  // namespace engine::notebook
