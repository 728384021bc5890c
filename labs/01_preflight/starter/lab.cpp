// Lab 1 · Preflight: your code. Replace each TODO line with the code it asks for; lab.h says
// what each function must do. `build/course verify 01` runs the tests.

#include "01_preflight/lab.h"

namespace lab {

bool macos_at_least(const std::string& release, int major, int minor) {
  TODO("1.1", "read the major and minor numbers out of `release` and compare them as numbers");
}

std::vector<std::string> preflight_problems() {
  std::vector<std::string> problems;
  TODO("1.2", "add a line for each requirement the interpreter reports unmet (see lab.h)");
  return problems;
}

std::int64_t batch_bytes(torch::IntArrayRef shape, torch::ScalarType dtype) {
  TODO("1.3", "multiply the sizes in `shape`, then by the width of one element of `dtype`");
}

}  // namespace lab
