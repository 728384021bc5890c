#include "engine/notebook/course_catalog.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <optional>
#include <string_view>

#include "engine/notebook/lesson_names.h"
#include "engine/notebook/lesson_source.h"
#include "engine/notebook/markdown.h"
#include "engine/notebook/text_file.h"

namespace engine::notebook {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kLargestReadme = 1 << 20;

// The text of a node's inline descendants: code spans without their backticks, emphasis without
// its stars.
void append_text(cmark_node* node, std::string& text) {
  for (cmark_node* child = cmark_node_first_child(node); child != nullptr;
       child = cmark_node_next(child)) {
    const cmark_node_type type = cmark_node_get_type(child);
    if (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE) {
      text += cmark_node_get_literal(child);
    } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
      text += ' ';
    } else {
      append_text(child, text);
    }
  }
}

std::string lesson_heading(const fs::path& file) {
  try {
    for (const Cell& cell : load_lesson(file.string()).cells) {
      if (cell.is_code()) continue;
      std::string markdown;
      for (const std::string& line : cell.lines) markdown += line + '\n';
      return first_heading(markdown);
    }
  } catch (const std::exception&) {
    // Listed by its name: running the lesson reports the format error, with its line.
  }
  return "";
}

CatalogEntry entry(const fs::path& file, const std::string& name, const std::string& heading,
                   std::string number) {
  return {.number = std::move(number),
          .name = name,
          .heading = heading.empty() ? name : heading,
          .title = heading.empty() ? name : title_of(heading),
          .file = file};
}

// "09" for a README whose text says "After lesson 9." (the labs' READMEs open so).
std::optional<std::string> lesson_a_lab_follows(std::string_view readme) {
  constexpr std::string_view kAfter = "After lesson ";
  const std::size_t at = readme.find(kAfter);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t end = at + kAfter.size();
  std::string digits;
  while (end < readme.size() && digits.size() < 2 &&
         std::isdigit(static_cast<unsigned char>(readme[end])))
    digits += readme[end++];
  if (digits.empty()) return std::nullopt;
  return digits.size() == 1 ? "0" + digits : digits;
}

const auto by_name = [](const CatalogEntry& a, const CatalogEntry& b) { return a.name < b.name; };

// A lesson's folder: its shared file, and the sections of its own number.
CatalogEntry lesson_in_sections(const fs::path& folder, const std::string& number) {
  const fs::path shared = folder / kSharedFile;
  CatalogEntry lesson = entry(shared, folder.filename().string(), lesson_heading(shared), number);
  std::error_code ignored;
  for (const fs::directory_entry& file : fs::directory_iterator(folder, ignored)) {
    const std::string name = file.path().stem().string();
    const auto section = program_number(name);
    if (file.path().extension() != ".cpp" || !section || section->size() != 4 ||
        section->substr(0, 2) != number)
      continue;
    lesson.sections.push_back(entry(file.path(), name, lesson_heading(file.path()), *section));
  }
  std::sort(lesson.sections.begin(), lesson.sections.end(), by_name);
  return lesson;
}

const CatalogEntry* find(const std::vector<CatalogEntry>& entries, std::string_view number) {
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const CatalogEntry& e) { return e.number == number; });
  return it == entries.end() ? nullptr : &*it;
}

}  // namespace

std::string first_heading(std::string_view markdown) {
  const MarkdownDocument document(markdown);
  for (cmark_node* node = cmark_node_first_child(document.root()); node != nullptr;
       node = cmark_node_next(node)) {
    if (cmark_node_get_type(node) != CMARK_NODE_HEADING) continue;
    std::string text;
    append_text(node, text);
    return text;
  }
  return "";
}

std::string title_of(const std::string& heading) {
  const std::string dot = "· ";
  const auto at = heading.find(dot);
  return at == std::string::npos ? heading : heading.substr(at + dot.size());
}

const CatalogEntry* CourseCatalog::lesson(std::string_view number) const {
  return find(lessons, number);
}
const CatalogEntry* CourseCatalog::lab(std::string_view number) const { return find(labs, number); }

const CatalogEntry* CourseCatalog::section(std::string_view number) const {
  const CatalogEntry* in = number.size() > 2 ? lesson(number.substr(0, 2)) : nullptr;
  return in == nullptr ? nullptr : find(in->sections, number);
}

std::vector<std::string> CatalogEntry::program_numbers() const {
  if (sections.empty()) return {number};
  std::vector<std::string> numbers;
  for (const CatalogEntry& section : sections) numbers.push_back(section.number);
  return numbers;
}

CourseCatalog read_catalog(const fs::path& top) {
  CourseCatalog catalog;
  std::error_code ignored;
  for (const fs::directory_entry& file : fs::directory_iterator(top / "lessons", ignored)) {
    const std::string name = file.path().stem().string();
    const auto number = lesson_number(name);
    if (number && file.is_directory() && fs::exists(file.path() / kSharedFile)) {
      catalog.lessons.push_back(lesson_in_sections(file.path(), *number));
    } else if (number && file.path().extension() == ".cpp") {
      catalog.lessons.push_back(entry(file.path(), name, lesson_heading(file.path()), *number));
    }
  }
  for (const fs::directory_entry& dir : fs::directory_iterator(top / "labs", ignored)) {
    const std::string name = dir.path().filename().string();
    const fs::path readme = dir.path() / "README.md";
    if (!dir.is_directory() || !lesson_number(name) || !fs::exists(readme) ||
        !fs::exists(dir.path() / "starter"))
      continue;
    std::string text;
    try {
      text = read_text_file(readme.string(), kLargestReadme);
    } catch (const UnreadableFile&) {
      // Listed by its name, after the lesson of its number.
    }
    CatalogEntry lab = entry(readme, name, first_heading(text), name.substr(0, 2));
    lab.after_lesson = lesson_a_lab_follows(text).value_or(lab.number);
    catalog.labs.push_back(std::move(lab));
  }
  std::sort(catalog.lessons.begin(), catalog.lessons.end(), by_name);
  std::sort(catalog.labs.begin(), catalog.labs.end(), by_name);
  return catalog;
}

}  // namespace engine::notebook
