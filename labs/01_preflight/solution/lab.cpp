// Lab 1 · Preflight: the reference solution.

#include <cstdio>

#include "01_preflight/lab.h"

namespace lab {

bool macos_at_least(const std::string& release, int major, int minor) {
  int found_major = 0, found_minor = 0;
  const int read = std::sscanf(release.c_str(), "%d.%d", &found_major, &found_minor);
  if (read < 1) return false;
  return found_major != major ? found_major > major : found_minor >= minor;
}

std::vector<std::string> preflight_problems() {
  std::vector<std::string> problems;
  if (py::platform::system() != "Darwin") {
    problems.push_back("not macOS: MPS needs a Mac; train on the cpu or a Mac");
    return problems;
  }
  if (py::platform::proc_translated()) {
    problems.push_back("the interpreter is x86_64 under Rosetta: install an arm64 Python");
  } else if (py::platform::machine() != "arm64") {
    problems.push_back("the interpreter is x86_64 on an Intel Mac: MPS on Apple's terms needs Apple silicon");
  }
  const std::string release = py::platform::mac_release();
  if (!macos_at_least(release, 14, 0)) problems.push_back("macOS " + release + " is older than 14.0: update macOS");
  const std::string python = py::platform::python_version();
  if (!macos_at_least(python, 3, 10)) problems.push_back("Python " + python + " is older than 3.10: install a newer Python");  // versions compare alike
  if (py::platform::xcode_select_path().empty()) problems.push_back("no Xcode command-line tools: run xcode-select --install");
  return problems;
}

std::int64_t batch_bytes(torch::IntArrayRef shape, torch::ScalarType dtype) {
  std::int64_t elements = 1;
  for (const std::int64_t size : shape) elements *= size;
  return elements * static_cast<std::int64_t>(torch::elementSize(dtype));
}

}  // namespace lab
