#include "theme.h"

#include <fmt/args.h>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "text.h"

namespace site {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  if (!fs::is_regular_file(path)) throw ThemeError(path.string() + ": the theme has no such file");
  return read_text(path.string());
}

// `where` names the template in errors: "site/theme/texts.toml, text lesson_tools".
std::string fill(const std::string& pattern, const Fields& fields, const std::string& where) {
  fmt::dynamic_format_arg_store<fmt::format_context> args;
  for (const auto& [name, value] : fields) args.push_back(fmt::arg(name, value));
  try {
    return fmt::vformat(pattern, args);
  } catch (const fmt::format_error& e) {
    throw ThemeError(where + ": " + e.what() +
                     " (its fields are named {like_this}; a brace is written {{ or }})");
  }
}

}  // namespace

Theme Theme::load(const fs::path& folder) {
  Theme theme;
  theme.folder_ = folder;
  theme.page_ = read_file(folder / "page.html");
  theme.home_ = read_file(folder / "home.html");
  const fs::path texts = folder / "texts.toml";
  toml::table table;
  try {
    table = toml::parse(read_file(texts), texts.string());
  } catch (const toml::parse_error& e) {
    throw ThemeError(texts.string() + ":" + std::to_string(e.source().begin.line) + ": " +
                     std::string(e.description()));
  }
  for (const auto& [key, value] : table) {
    const auto* text = value.as_string();
    if (text == nullptr)
      throw ThemeError(texts.string() + ": " + std::string(key.str()) + " must be a string");
    theme.texts_.emplace(std::string(key.str()), text->get());
  }
  return theme;
}

std::string Theme::page(const Fields& fields) const {
  return fill(page_, fields, (folder_ / "page.html").string());
}

std::string Theme::home(const Fields& fields) const {
  return fill(home_, fields, (folder_ / "home.html").string());
}

std::string Theme::text(std::string_view key, const Fields& fields) const {
  const auto it = texts_.find(key);
  const std::string where = (folder_ / "texts.toml").string();
  if (it == texts_.end())
    throw ThemeError(where + ": the text " + std::string(key) + " is missing");
  return fill(it->second, fields, where + ", text " + std::string(key));
}

std::vector<fs::path> Theme::files() const {
  return {folder_ / "page.html", folder_ / "home.html", folder_ / "texts.toml"};
}

}  // namespace site
