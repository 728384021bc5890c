// The race and initialisation checks of Note [What an access is checked for] (memory.h), and
// the names the faults give values and threads.

#include <string>

#include "memory.h"
#include "memory_shadow.h"

namespace engine::metal::detail {
namespace {

// "[3][4]" for an offset into an array type (bytes, or words in thread memory).
std::string indices(const Type& type, std::int64_t offset, bool words) {
  if (!type.is(Type::Kind::Array)) return "";
  const std::int64_t stride =
      words ? words_of(*type.element) : static_cast<std::int64_t>(byte_size(*type.element));
  const std::int64_t index = offset >= 0 ? offset / stride : (offset - stride + 1) / stride;
  return "[" + std::to_string(index) + "]" + indices(*type.element, offset - index * stride, words);
}

}  // namespace

std::string Memory::grid_position(std::uint32_t global_id) const {
  const std::uint64_t x = global_id % grid_.width;
  const std::uint64_t y = global_id / grid_.width % grid_.height;
  const std::uint64_t z = global_id / (grid_.width * grid_.height);
  if (grid_.height == 1 && grid_.depth == 1) return std::to_string(x);
  std::string text = "(" + std::to_string(x) + ", " + std::to_string(y);
  if (grid_.depth > 1) text += ", " + std::to_string(z);
  return text + ")";
}

std::string Memory::describe(Pointer p, std::int64_t element_bytes) const {
  switch (p.tag) {
    case PointerTag::Device:
    case PointerTag::Constant: {
      const Buffer& b = buffers_[p.object];
      const std::string name = b.parameter ? b.parameter->name : "buffer";
      const auto size =
          b.parameter ? static_cast<std::int64_t>(b.parameter->element.size()) : element_bytes;
      const std::int64_t index = p.offset >= 0 ? p.offset / size : (p.offset - size + 1) / size;
      return name + "[" + std::to_string(index) + "] (buffer(" + std::to_string(p.object) +
             "): " + b.label + ")";
    }
    case PointerTag::Threadgroup: {
      const Variable& v = *program_.variables[p.object];
      return v.name + indices(*v.type, p.offset, false) + " (threadgroup " + type_name(*v.type) +
             ")";
    }
    case PointerTag::Thread: {
      const Variable& v = *program_.variables[p.object];
      return v.name + indices(*v.type, p.offset, true) + " (" + type_name(*v.type) + ")";
    }
    case PointerTag::Null:
      break;
  }
  return "a null pointer";
}

std::uint32_t Memory::group_of(std::uint32_t global_id) const {
  const std::uint64_t x = global_id % grid_.width;
  const std::uint64_t y = global_id / grid_.width % grid_.height;
  const std::uint64_t z = global_id / (grid_.width * grid_.height);
  const Size3 groups = threadgroups_in(grid_, group_size_);
  return static_cast<std::uint32_t>(
      x / group_size_.width +
      groups.width * (y / group_size_.height + groups.height * (z / group_size_.depth)));
}

std::string Memory::object_name(Pointer p) const {
  switch (p.tag) {
    case PointerTag::Device:
    case PointerTag::Constant: {
      const Buffer& b = buffers_[p.object];
      return (b.parameter ? b.parameter->name : "buffer") + " (buffer(" + std::to_string(p.object) +
             "): " + b.label + ")";
    }
    case PointerTag::Threadgroup:
    case PointerTag::Thread: {
      const Variable& v = *program_.variables[p.object];
      return v.name + " (" + (p.tag == PointerTag::Threadgroup ? "threadgroup " : "") +
             type_name(*v.type) + ")";
    }
    case PointerTag::Null:
      break;
  }
  return "a null pointer";
}

void Memory::race(std::string_view memory, Pointer p, std::uint16_t lane, bool write,
                  const std::string& other, bool other_wrote, std::uint32_t other_line,
                  std::string_view why) const {
  throw ThreadFault{where_, lane,
                    "data race on " + std::string(memory) + " memory: " + describe(p, 0) + " is " +
                        (write ? "written" : "read") + " here after " + other + " " +
                        (other_wrote ? "wrote" : "read") + " it at line " +
                        std::to_string(other_line) + std::string(why)};
}

void Memory::check_threadgroup(Pointer p, std::size_t at, std::uint16_t lane, bool write) {
  TgShadow& s = tg_shadow_[at];
  const std::uint32_t me = lane + 1u;
  if (!write && s.written_in != group_serial_) {
    throw ThreadFault{
        where_, lane,
        "read of uninitialized threadgroup memory: no thread of this threadgroup wrote " +
            describe(p, 0) + " (threadgroup memory starts undefined)"};
  }
  constexpr std::string_view no_barrier =
      ", with no threadgroup_barrier(mem_flags::mem_threadgroup) between them";
  const auto thread = [&](std::uint32_t who) {
    return "thread " + grid_position((*global_ids_)[who - 1]);
  };
  if (s.write_epoch == tg_epoch_ && s.writer != me)
    race("threadgroup", p, lane, write, thread(s.writer), true, s.write_line, no_barrier);
  if (write && s.read_epoch == tg_epoch_ && s.reader != me)
    race("threadgroup", p, lane, write, s.reader == kMany ? "other threads" : thread(s.reader),
         false, s.read_line, no_barrier);
  const auto line = static_cast<std::uint32_t>(where_.line);
  if (write) {
    s.writer = me;
    s.write_epoch = tg_epoch_;
    s.write_line = line;
    s.written_in = group_serial_;
  } else if (s.read_epoch != tg_epoch_) {
    s.reader = me;
    s.read_epoch = tg_epoch_;
    s.read_line = line;
  } else if (s.reader != me) {
    s.reader = kMany;
  }
}

void Memory::check_device(Buffer& buffer, Pointer p, std::size_t at, std::uint16_t lane,
                          bool write) {
  DeviceShadow& s = (*buffer.shadow)[at];
  const std::uint32_t me = (*global_ids_)[lane] + 1u;
  // Two accesses are ordered only within a threadgroup, by a device barrier between them.
  const auto same_group = [&](std::uint32_t thread) { return group_of(thread - 1) == group_; };
  const auto ordered = [&](std::uint32_t thread, std::uint32_t epoch) {
    return same_group(thread) && epoch < device_epoch_;
  };
  const auto why = [](bool in_group) {
    return in_group
               ? ", with no threadgroup_barrier(mem_flags::mem_device) between them"
               : ": threads of different threadgroups are never ordered within a dispatch (an atomic would be)";
  };
  if (s.writer != 0 && s.writer != me && !ordered(s.writer, s.write_epoch))
    race("device", p, lane, write, "thread " + grid_position(s.writer - 1), true, s.write_line,
         why(same_group(s.writer)));
  const bool only_me = s.readers == DeviceShadow::One && s.reader == me;
  if (write && s.readers != DeviceShadow::None && !only_me &&
      (s.readers == DeviceShadow::SeveralGroups || !ordered(s.reader, s.read_epoch))) {
    const bool one = s.readers == DeviceShadow::One;
    race("device", p, lane, write, one ? "thread " + grid_position(s.reader - 1) : "other threads",
         false, s.read_line, why(s.readers != DeviceShadow::SeveralGroups && same_group(s.reader)));
  }
  record_device_access(s, me, write);
}

void Memory::record_device_access(DeviceShadow& s, std::uint32_t me, bool write) const {
  const auto line = static_cast<std::uint16_t>(where_.line);
  if (write) {
    s.writer = me;
    s.write_epoch = device_epoch_;
    s.write_line = line;
    s.readers =
        DeviceShadow::None;  // reads before an ordered write are ordered before what follows it
    return;
  }
  if (s.readers == DeviceShadow::None) {
    s.reader = me;
    s.readers = DeviceShadow::One;
  } else if (s.reader != me || s.readers != DeviceShadow::One) {
    s.readers = group_of(s.reader - 1) == group_ && s.readers != DeviceShadow::SeveralGroups
                    ? DeviceShadow::SeveralInGroup
                    : DeviceShadow::SeveralGroups;
  }
  s.read_epoch = device_epoch_;
  s.read_line = line;
}

}  // namespace engine::metal::detail
