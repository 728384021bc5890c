#pragma once
// The site's words and page frame, read from its theme folder (site/theme/) rather than written
// into the generator: page.html, the frame of every page; home.html, the home page; texts.toml,
// the sentences the generator puts into pages. Each is a template whose {name} fields the
// generator fills with fmt's named arguments.

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace site {

// A theme file that is missing, malformed, or lacks a text or a field the generator fills.
class ThemeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Fields = std::vector<std::pair<const char*, std::string>>;

class Theme {
 public:
  // Reads the three files of `folder`; throws ThemeError naming the file and what is wrong.
  static Theme load(const std::filesystem::path& folder);

  std::string page(const Fields& fields) const;
  std::string home(const Fields& fields) const;
  // The text `key` of texts.toml with its fields filled in.
  std::string text(std::string_view key, const Fields& fields = {}) const;

  // The files read, for the site's dependency file.
  std::vector<std::filesystem::path> files() const;

 private:
  std::filesystem::path folder_;
  std::string page_, home_;
  std::map<std::string, std::string, std::less<>> texts_;
};

}  // namespace site
