#pragma once
// Helpers shared by the engine's tests.

#include <string>

#include "engine/errors.h"

namespace test_support {

// The message of the engine error `action` raises, or "no error": the tests compare it with
// PyTorch's exact text.
template <typename Action>
std::string error_of(const Action& action) {
  try {
    action();
  } catch (const engine::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace test_support
