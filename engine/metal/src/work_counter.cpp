#include "work_counter.h"

#include <algorithm>
#include <bit>

namespace engine::metal::detail {

WorkCounter::WorkCounter(DispatchWork& work, std::span<const BufferBinding> buffers) : work_(work) {
  work_.idle_threads.assign(work_.grid.count(), true);
  touched_.resize(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const std::uint64_t lines = (buffers[i].bytes.size() + kCacheLineBytes - 1) / kCacheLineBytes;
    touched_[i].assign((lines + 63) / 64, 0);
  }
}

void WorkCounter::begin_instruction() {
  simd_group_ = -1;
  last_line_ = ~std::uint64_t{0};
  group_lines_.clear();
}

void WorkCounter::device_access(std::uint32_t buffer, std::uint64_t byte, std::uint16_t lane) {
  const int group = lane / kSimdWidth;
  if (group != simd_group_) {
    flush_simd_group();
    simd_group_ = group;
    last_line_ = ~std::uint64_t{0};
  }
  const std::uint64_t line = byte / kCacheLineBytes;
  const std::uint64_t key = (static_cast<std::uint64_t>(buffer) << 48) | line;
  if (key == last_line_) return;  // counted already, in this SIMD group and the footprint
  last_line_ = key;
  group_lines_.push_back(key);
  std::vector<std::uint64_t>& bits = touched_[buffer];
  bits[line / 64] |= std::uint64_t{1} << (line % 64);
}

void WorkCounter::end_instruction() { flush_simd_group(); }

void WorkCounter::flush_simd_group() {
  if (group_lines_.empty()) return;
  if (!std::is_sorted(group_lines_.begin(), group_lines_.end()))
    std::sort(group_lines_.begin(), group_lines_.end());
  const auto distinct =
      std::unique(group_lines_.begin(), group_lines_.end()) - group_lines_.begin();
  work_.device_transaction_bytes += static_cast<double>(distinct * kCacheLineBytes);
  group_lines_.clear();
}

void WorkCounter::finish() {
  std::uint64_t lines = 0;
  for (const auto& bits : touched_) {
    for (const std::uint64_t word : bits) lines += static_cast<std::uint64_t>(std::popcount(word));
  }
  work_.device_footprint_bytes = static_cast<double>(lines * kCacheLineBytes);
}

}  // namespace engine::metal::detail
