// Fuzz target: the progress reader, on any text. A file that is not valid progress must be
// refused with std::invalid_argument (then it is set aside), never crash or be trusted; what
// is accepted is written back (with the fields it keeps unread) and reads back the same, unless
// its text would pass the size limit (std::runtime_error: then nothing is written).

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/notebook/progress.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const engine::notebook::Progress progress = engine::notebook::parse_progress(text);
    for (const auto& [name, record] : progress.quizzes) {  // what was accepted is within bounds
      if (record.attempts < 0 || record.best_correct > record.total ||
          record.last_missed.size() > static_cast<std::size_t>(record.total)) {
        __builtin_trap();
      }
    }
    if (progress.version <= engine::notebook::kProgressVersion) {
      const std::string written = engine::notebook::progress_text(progress);
      if (engine::notebook::progress_text(engine::notebook::parse_progress(written)) != written)
        __builtin_trap();
    }
  } catch (const std::invalid_argument&) {  // unreadable: set aside
  } catch (const std::runtime_error&) {     // too large once indented: not written
  }
  return 0;
}
