#pragma once
// A scratch directory of a test program's own, in the system's temporary directory: named after
// the process, as CTest may run one program several times at once (each test case, and the
// peak-memory check the whole program), and removed with all it holds when the program ends, so
// that a run of the suite leaves nothing behind.
//
//   const std::filesystem::path dir = scratch_directory("quiz_test_bank");  // made, and empty

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace test_scratch {

class Made {
 public:
  ~Made() {
    for (const std::filesystem::path& dir : dirs_) {
      std::error_code ignored;  // a test may have left it read-only
      std::filesystem::permissions(dir, std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::add, ignored);
      std::filesystem::remove_all(dir, ignored);
    }
  }
  void add(const std::filesystem::path& dir) {
    for (const std::filesystem::path& made : dirs_) {
      if (made == dir) return;
    }
    dirs_.push_back(dir);
  }

 private:
  std::vector<std::filesystem::path> dirs_;
};

inline Made& made() {
  static Made dirs;
  return dirs;
}

}  // namespace test_scratch

// The directory `name`_PID, emptied (made if need be), and removed when the program ends.
inline std::filesystem::path scratch_directory(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  test_scratch::made().add(dir);
  std::error_code ignored;
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(dir, ignored);
  std::filesystem::create_directories(dir);
  return dir;
}
