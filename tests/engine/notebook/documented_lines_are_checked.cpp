// A property of the lesson format, checked on the real lessons: changing any single line of any
// documented output makes that cell's verification fail, naming the cell, showing the line and
// pointing at it (file:line of the changed line).
// Each change goes into a copy of the lesson that the lesson executable reads with --source;
// the unchanged copy must pass first, so a verification that always fails cannot pass here.
//
// usage: documented_lines_are_checked WORK_DIR LESSON_EXE LESSON_SOURCE [LESSON_EXE SOURCE]...

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/notebook/lesson_source.h"
#include "engine/notebook/text_diff.h"

namespace {

namespace fs = std::filesystem;
using engine::notebook::Cell;
using engine::notebook::OutputBlock;

struct Result {
  int status;
  std::string output;
};

Result run(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "cannot start: " + command};
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) output += buffer;
  return {pclose(pipe), output};
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

void write_lines(const fs::path& path, const std::vector<std::string>& lines) {
  std::ofstream out(path);
  for (const std::string& line : lines) out << line << '\n';
}

std::string verify_command(const std::string& exe, const fs::path& copy, const Cell& cell,
                           const OutputBlock& block) {
  std::string command =
      quoted(exe) + " --verify --source " + quoted(copy.string()) + " --cell " + cell.name;
  if (!block.machines.empty()) command += " --machine " + block.machines.front();
  return command;
}

// Returns the number of documented lines checked, or -1 after reporting a problem.
int check_lesson(const fs::path& work_dir, const std::string& exe, const std::string& source) {
  const auto lesson = engine::notebook::load_lesson(source);
  std::ifstream in(source);
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<std::string> lines = engine::notebook::split_lines(text.str());
  const fs::path copy = work_dir / fs::path(source).filename();

  write_lines(copy, lines);
  const Result control = run(quoted(exe) + " --verify --source " + quoted(copy.string()));
  if (control.status != 0) {
    std::cerr << source << ": the unchanged lesson does not verify:\n" << control.output;
    return -1;
  }
  int checked = 0;
  for (const Cell& cell : lesson.cells) {
    for (const OutputBlock& block : cell.outputs) {
      for (std::size_t k = 0; k < block.lines.size(); ++k) {
        const std::string changed = block.lines[k] + " (changed)";
        std::vector<std::string> mutated = lines;
        mutated[static_cast<std::size_t>(block.marker_line) + k] = "// " + changed;
        write_lines(copy, mutated);
        const Result result = run(verify_command(exe, copy, cell, block));
        const bool named = result.output.find("cell '" + cell.name + "'") != std::string::npos;
        const bool shown = result.output.find("- " + changed) != std::string::npos;
        const int line = block.marker_line + 1 + static_cast<int>(k);
        const std::string location = copy.string() + ":" + std::to_string(line) + ": ";
        const bool located = result.output.find(location) != std::string::npos;
        if (result.status == 0 || !named || !shown || !located) {
          std::cerr << source << ":" << line
                    << ": changing this documented line did not fail verification of cell '"
                    << cell.name << "' with a diff that points at this line:\n"
                    << result.output;
          return -1;
        }
        ++checked;
      }
    }
  }
  return checked;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc % 2 != 0) {
    std::cerr << "usage: " << argv[0] << " WORK_DIR LESSON_EXE LESSON_SOURCE...\n";
    return 2;
  }
  const fs::path work_dir = argv[1];
  fs::create_directories(work_dir);
  for (int i = 2; i + 1 < argc; i += 2) {
    const int checked = check_lesson(work_dir, argv[i], argv[i + 1]);
    if (checked < 0) return 1;
    if (checked == 0) {
      std::cerr << argv[i + 1] << ": no documented output to check\n";
      return 1;
    }
    std::cout << argv[i + 1] << ": each of " << checked
              << " documented lines, when changed, fails its cell's verification\n";
  }
  return 0;
}
