// The learner's own state, before and after the tests: their progress file and their lab files
// (labs/NN_topic/lab.cpp, lab 9's labs/09_metal_puzzles/*.metal). CTest runs `snapshot` before every other test and `compare` after
// the last (a fixture every test requires), and compare fails naming each file a test changed.
//   learner_state_guard snapshot|compare DIRECTORY
// Under `ctest --preset my-labs` (MPS_COURSE_MY_LABS=1) the learner grades their own labs, and
// a lab that passes is recorded in their progress: there only the lab files must stay as they are.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "engine/notebook/progress.h"

namespace fs = std::filesystem;

namespace {

struct Watched {
  fs::path path;
  std::string key;  // its name in the snapshot directory
  bool may_change;
};

std::vector<Watched> watched_files() {
  const char* my_labs = std::getenv("MPS_COURSE_MY_LABS");
  const bool grading = my_labs != nullptr && std::string(my_labs) == "1";
  std::vector<Watched> files{{engine::notebook::progress_path(), "progress.json", grading}};
  for (const fs::directory_entry& lab :
       fs::directory_iterator(fs::path(TUTOR_SOURCE_DIR) / "labs")) {
    if (!lab.is_directory() || !fs::exists(lab.path() / "starter")) continue;
    // The learner's files are those the starter holds: lab.cpp, or lab 9's .metal kernels.
    for (const fs::directory_entry& starter : fs::directory_iterator(lab.path() / "starter")) {
      const std::string name = starter.path().filename().string();
      files.push_back({lab.path() / name, lab.path().filename().string() + "." + name, false});
    }
  }
  return files;
}

std::optional<std::string> contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The snapshot holds each file's copy, or a file named KEY.absent where there was none.
void snapshot(const fs::path& directory) {
  fs::remove_all(directory);
  fs::create_directories(directory);
  for (const Watched& file : watched_files()) {
    const std::optional<std::string> text = contents(file.path);
    std::ofstream(directory / (file.key + (text ? "" : ".absent")), std::ios::binary)
        << text.value_or("");
  }
}

int compare(const fs::path& directory) {
  int changed = 0;
  for (const Watched& file : watched_files()) {
    const bool was_absent = fs::exists(directory / (file.key + ".absent"));
    const std::optional<std::string> before =
        was_absent ? std::nullopt : contents(directory / file.key);
    if (!was_absent && !before) {
      std::cerr << "no snapshot of " << file.path.string()
                << ": run the whole suite, or ctest -R learner\n";
      return 2;
    }
    if (file.may_change || contents(file.path) == before) continue;
    std::cerr << "a test changed the learner's " << file.path.string()
              << " (tests must use files of their own: MPS_COURSE_PROGRESS, a copy of the lab)\n";
    ++changed;
  }
  if (changed == 0)
    std::cout << "the learner's progress and lab files are as they were before the tests\n";
  return changed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode == "snapshot") {
    snapshot(argv[2]);
    return 0;
  }
  if (mode == "compare") return compare(argv[2]);
  std::cerr << "usage: learner_state_guard snapshot|compare DIRECTORY\n";
  return 2;
}
