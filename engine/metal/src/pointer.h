#pragma once
// Internal: a pointer as the executor holds it, in one word: the address space, the object it
// points into (a thread or threadgroup variable, or a buffer index) and an offset from the
// object's start (bytes in threadgroup, device and constant memory; words in thread memory).
// Keeping the object makes every access checkable against the bounds of what it points into.

#include <cstdint>

#include "scalar_ops.h"

namespace engine::metal::detail {

enum class PointerTag : std::uint8_t {
  Null = 0,
  Thread = 1,
  Threadgroup = 2,
  Device = 3,
  Constant = 4
};

struct Pointer {
  PointerTag tag = PointerTag::Null;
  std::uint32_t object = 0;  // below 2^16
  std::int64_t offset = 0;   // within +-2^43
};

inline constexpr int kOffsetBits = 44;

inline Word encode(Pointer p) {
  const Word offset = static_cast<Word>(p.offset) & ((Word{1} << kOffsetBits) - 1);
  return (static_cast<Word>(p.tag) << 60) | (static_cast<Word>(p.object & 0xffffu) << kOffsetBits) |
         offset;
}

inline Pointer decode(Word w) {
  Pointer p;
  p.tag = static_cast<PointerTag>(w >> 60);
  p.object = static_cast<std::uint32_t>((w >> kOffsetBits) & 0xffffu);
  const Word raw = w & ((Word{1} << kOffsetBits) - 1);
  const Word sign = Word{1} << (kOffsetBits - 1);
  p.offset = static_cast<std::int64_t>((raw ^ sign) - sign);  // sign-extend
  return p;
}

inline PointerTag tag_of(AddressSpace space) {
  switch (space) {
    case AddressSpace::Thread:
      return PointerTag::Thread;
    case AddressSpace::Threadgroup:
      return PointerTag::Threadgroup;
    case AddressSpace::Device:
      return PointerTag::Device;
    case AddressSpace::Constant:
      return PointerTag::Constant;
  }
  return PointerTag::Null;
}

// How far one element of `type` moves a pointer into `space`: its bytes, or its words in
// thread memory.
inline std::int64_t element_stride(const Type& type, AddressSpace space) {
  return space == AddressSpace::Thread ? words_of(type)
                                       : static_cast<std::int64_t>(byte_size(type));
}

}  // namespace engine::metal::detail
