// Decoy: compares release strings as text, so "13.10" comes before "13.4".
// Fails: "macOS releases compare as numbers and not as text"
// Says: "as text"

#include <cstdio>

#include "01_preflight/lab.h"

namespace lab {

bool macos_at_least(const std::string& release, int major, int minor) {
  return release >= std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> preflight_problems() {
  std::vector<std::string> problems;
  if (torch::platform::system() != "Darwin") {
    problems.push_back("not macOS: MPS needs a Mac; train on the cpu or a Mac");
    return problems;
  }
  if (torch::platform::proc_translated()) {
    problems.push_back("the interpreter is x86_64 under Rosetta: install an arm64 Python");
  } else if (torch::platform::machine() != "arm64") {
    problems.push_back("the interpreter is x86_64 on an Intel Mac: MPS on Apple's terms needs Apple silicon");
  }
  const std::string release = torch::platform::mac_release();
  if (!macos_at_least(release, 14, 0)) problems.push_back("macOS " + release + " is older than 14.0: update macOS");
  return problems;
}

std::int64_t batch_bytes(torch::IntArrayRef shape, torch::ScalarType dtype) {
  std::int64_t elements = 1;
  for (const std::int64_t size : shape) elements *= size;
  return elements * static_cast<std::int64_t>(torch::element_size(dtype));
}

}  // namespace lab
