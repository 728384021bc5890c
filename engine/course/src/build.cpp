// Ninja prints, for a step that fails: "FAILED: <output>", the command line, then what the
// compiler said; "[n/m] ..." lines announce steps and "ninja: ..." lines are its own.

#include "build.h"

#include <sstream>
#include <vector>

#include "engine/notebook/child_process.h"

namespace front_door {
namespace {

bool starts_with(const std::string& text, std::string_view prefix) {
  return text.rfind(prefix, 0) == 0;
}

// "[12/40] Building CXX object ...": ninja announcing a step.
bool is_progress_line(const std::string& line) {
  std::size_t i = 1;
  if (line.empty() || line[0] != '[') return false;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    return i > start;
  };
  if (!digits() || i >= line.size() || line[i++] != '/' || !digits()) return false;
  return line.compare(i, 2, "] ") == 0;
}

std::string relative_to(std::string text, const std::string& top) {
  const std::string prefix = top + "/";
  for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at))
    text.erase(at, prefix.size());
  return text;
}

}  // namespace

BuildResult build_target(const Layout& layout, const std::string& target) {
  const engine::notebook::Finished finished =
      layout.ninja.empty()
          ? engine::notebook::run_collecting(
                {layout.cmake.string(), "--build", layout.build.string(), "--target", target})
          : engine::notebook::run_collecting(
                {layout.ninja.string(), "-C", layout.build.string(), target});
  if (finished.status == 0) return {true, ""};
  return {false, compiler_messages(finished.output, layout.top.string())};
}

std::string compiler_messages(const std::string& build_output, const std::string& top) {
  std::istringstream lines(build_output);
  std::string messages;
  bool in_failed_step = false;
  bool skip_command = false;
  bool found = false;
  for (std::string line; std::getline(lines, line);) {
    if (starts_with(line, "FAILED: ")) {
      in_failed_step = found = true;
      skip_command = true;
      continue;
    }
    if (starts_with(line, "ninja: error: ")) {  // a missing source, for instance
      messages += line.substr(7) + "\n";
      found = true;
      continue;
    }
    if (starts_with(line, "ninja: ") || is_progress_line(line)) {
      in_failed_step = false;
      continue;
    }
    if (!in_failed_step) continue;
    if (skip_command) {
      skip_command = false;
      continue;
    }
    messages += line + "\n";
  }
  return relative_to(found ? messages : build_output, top);
}

}  // namespace front_door
