// Splits hints.md at its "## " headings.

#include "hints.h"

#include <fstream>

namespace front_door {

std::vector<std::string> read_hints(const std::filesystem::path& file) {
  std::vector<std::string> hints;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) {
      hints.push_back(line.substr(3) + "\n\n");  // the heading, then its text
    } else if (!hints.empty() && !(line.empty() && hints.back().ends_with("\n\n"))) {
      hints.back() += line + "\n";
    }
  }
  for (std::string& hint : hints) {  // blank lines between hints belong to neither
    while (hint.size() >= 2 && hint[hint.size() - 1] == '\n' && hint[hint.size() - 2] == '\n')
      hint.pop_back();
  }
  return hints;
}

}  // namespace front_door
