#pragma once
// Internal to memory.cpp and memory_checks.cpp: what Memory remembers about each value to
// check the next access to it (Note [What an access is checked for] in memory.h).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "memory.h"

namespace engine::metal::detail {

inline constexpr std::uint32_t kMany = 0xffffffffu;  // accessed by more than one thread

// Per byte of threadgroup memory (used at the first byte of each scalar): the threadgroup
// that first wrote it, and the last writer and readers in the current barrier interval (a
// thread as its index in the threadgroup plus one).
struct Memory::TgShadow {
  std::uint32_t written_in = 0;
  std::uint32_t write_epoch = 0, writer = 0, write_line = 0;
  std::uint32_t read_epoch = 0, reader = 0, read_line = 0;
};

// Per scalar of a device buffer that the kernel may write: the last writer and the readers
// since (a thread as its global id plus one; an epoch counts device barriers).
struct DeviceShadow {
  enum Readers : std::uint8_t { None, One, SeveralInGroup, SeveralGroups };
  std::uint32_t writer = 0, write_epoch = 0;
  std::uint32_t reader = 0, read_epoch = 0;  // the first reader since the write; the last read
  std::uint16_t write_line = 0, read_line = 0;
  Readers readers = None;
};

struct Memory::Buffer {
  std::span<std::byte> bytes;
  std::string label;
  const BufferParameter* parameter = nullptr;
  std::size_t scalar_bytes = 1;
  // The race shadow of its memory, shared by every binding of the same bytes (a tensor passed
  // twice); none for memory that no parameter can write, where nothing can race.
  std::vector<DeviceShadow>* shadow = nullptr;
};

}  // namespace engine::metal::detail
