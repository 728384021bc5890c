// Fuzz target: the quiz-bank loader (our checks on top of toml++), on any text. A malformed
// bank must be a BankError, never a crash or undefined behaviour.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "quiz/bank.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    quiz::parse_bank(text, "fuzz.toml");
  } catch (const quiz::BankError&) {
  }
  return 0;
}
