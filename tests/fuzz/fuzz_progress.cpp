// Fuzz target: the progress reader, on any text. A file that is not valid progress must be
// refused with std::invalid_argument (then it is set aside), never crash or be trusted.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "engine/notebook/progress.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const engine::notebook::QuizQuestionIds known{
      {"mastery", {"placement", "sync", "fallback-diagnosis"}}};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const engine::notebook::Progress progress = engine::notebook::parse_progress(text, known);
    for (const auto& [name, record] : progress.quizzes) {  // what was accepted is within bounds
      if (record.attempts < 0 || record.best_correct > record.total ||
          record.last_missed.size() > static_cast<std::size_t>(record.total)) {
        __builtin_trap();
      }
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
