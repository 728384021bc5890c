#pragma once
// Building one target of the build tree before running it, and showing a failed build the way a
// learner can act on it: the compiler's and the linker's messages about their code, without
// the build system's own lines.

#include <string>

#include "layout.h"

namespace front_door {

struct BuildResult {
  bool built = false;
  std::string messages;  // when it failed: what the compiler or linker said
};

// cmake --build <build tree> --target <target>, or ninja -C <build tree> <target>
BuildResult build_target(const Layout& layout, const std::string& target);

// Ninja's output reduced to the compiler's and linker's messages of the failed steps, with
// paths inside `top` made relative to it ("labs/05_timing/lab.cpp:12:3: error: ...").
// Output without a failed step (say, CMake stopping) comes back whole.
std::string compiler_messages(const std::string& build_output, const std::string& top);

}  // namespace front_door
