// Memory and its checks: Note [What an access is checked for] in memory.h.

#include "memory.h"

#include <cstring>

#include "engine/metal/half.h"
#include "memory_shadow.h"

namespace engine::metal::detail {
namespace {

template <typename T>
T read_raw(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

template <typename T>
void write_raw(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

std::string noun(bool write) { return write ? "write" : "read"; }

}  // namespace

Word read_scalar(const std::byte* at, ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Bool:
      return read_raw<std::uint8_t>(at) != 0;
    case ScalarKind::Char:
      return static_cast<Word>(static_cast<std::int64_t>(read_raw<std::int8_t>(at)));
    case ScalarKind::UChar:
      return read_raw<std::uint8_t>(at);
    case ScalarKind::Short:
      return static_cast<Word>(static_cast<std::int64_t>(read_raw<std::int16_t>(at)));
    case ScalarKind::UShort:
      return read_raw<std::uint16_t>(at);
    case ScalarKind::Half:
      return float_word(half_from_bits(read_raw<std::uint16_t>(at)));
    case ScalarKind::Int:
      return static_cast<Word>(static_cast<std::int64_t>(read_raw<std::int32_t>(at)));
    case ScalarKind::UInt:
    case ScalarKind::Float:
      return read_raw<std::uint32_t>(at);
    case ScalarKind::Long:
    case ScalarKind::ULong:
      return read_raw<std::uint64_t>(at);
  }
  return 0;
}

void write_scalar(std::byte* at, ScalarKind kind, Word value) {
  switch (scalar_size(kind)) {
    case 1:
      return write_raw(at, static_cast<std::uint8_t>(value));
    case 2:
      return write_raw(at, kind == ScalarKind::Half ? half_bits(word_float(value))
                                                    : static_cast<std::uint16_t>(value));
    case 4:
      return write_raw(at, static_cast<std::uint32_t>(value));
    default:
      return write_raw(at, value);
  }
}

Memory::Memory(const Program& program, const Function& kernel,
               std::span<const BufferBinding> buffers, Size3 grid, Size3 group, WorkCounter& work)
    : program_(program), grid_(grid), group_size_(group), work_(work) {
  threadgroup_.resize(static_cast<std::size_t>(kernel.threadgroup_memory));
  tg_shadow_.resize(threadgroup_.size());
  threadgroup_variables_.resize(program.variables.size());
  for (const Variable* v : kernel.threadgroup_variables) {
    threadgroup_variables_[static_cast<std::size_t>(v->id)] =
        std::span(threadgroup_).subspan(static_cast<std::size_t>(v->address), byte_size(*v->type));
  }
  buffers_.resize(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    buffers_[i].bytes = buffers[i].bytes;
    buffers_[i].label = buffers[i].label;
  }
  for (const BufferParameter& param : kernel.buffers) {
    Buffer& b = buffers_[static_cast<std::size_t>(param.index)];
    b.parameter = &param;
    b.scalar_bytes = scalar_size(param.element.scalar);
  }
  // A shadow for the memory some parameter may write, shared by the bindings of that memory.
  shadows_.reserve(kernel.buffers.size());
  for (const BufferParameter& param : kernel.buffers) {
    if (!param.writable || param.element.atomic) continue;
    Buffer& written = buffers_[static_cast<std::size_t>(param.index)];
    if (written.shadow) continue;
    shadows_.emplace_back(written.bytes.size() / written.scalar_bytes);
    for (Buffer& b : buffers_) {
      if (b.bytes.data() == written.bytes.data() && b.bytes.size() == written.bytes.size() &&
          b.scalar_bytes == written.scalar_bytes)
        b.shadow = &shadows_.back();
    }
  }
}

Memory::~Memory() = default;

void Memory::start_threadgroup(std::size_t threads, const std::vector<std::uint32_t>& global_ids,
                               std::uint32_t group) {
  stride_ = threads;
  thread_.assign(static_cast<std::size_t>(program_.thread_words) * threads, 0);
  global_ids_ = &global_ids;
  group_ = group;
  ++group_serial_;
  ++tg_epoch_;  // nothing of an earlier threadgroup orders anything of this one
  ++device_epoch_;
}

void Memory::barrier(bool threadgroup, bool device) {
  if (threadgroup) ++tg_epoch_;
  if (device) ++device_epoch_;
}

void Memory::begin(Location where, bool write) {
  where_ = where;
  write_ = write;
  work_.begin_instruction();
}

void Memory::end() { work_.end_instruction(); }

std::byte* Memory::locate(Pointer p, std::size_t bytes, std::uint16_t lane, bool write) {
  std::span<std::byte> object;
  switch (p.tag) {
    case PointerTag::Threadgroup:
      object = threadgroup_variables_[p.object];
      break;
    case PointerTag::Device:
    case PointerTag::Constant:
      object = buffers_[p.object].bytes;
      break;
    default:
      throw ThreadFault{where_, lane, "dereference of a null pointer"};
  }
  if (p.offset < 0 || static_cast<std::size_t>(p.offset) + bytes > object.size()) {
    throw ThreadFault{where_, lane,
                      "out-of-bounds " + noun(write) + " of " +
                          describe(p, static_cast<std::int64_t>(bytes)) + ", " +
                          (p.offset < 0 ? "before its start" : "past its end")};
  }
  return object.data() + p.offset;
}

Word Memory::load(Pointer p, ScalarKind kind, std::int64_t at, std::uint16_t lane) {
  const std::size_t bytes = scalar_size(kind);
  p.offset += at;
  std::byte* where = locate(p, bytes, lane, false);
  if (p.tag == PointerTag::Threadgroup) {
    check_threadgroup(p, static_cast<std::size_t>(where - threadgroup_.data()), lane, false);
  } else {
    Buffer& buffer = buffers_[p.object];
    if (buffer.shadow)
      check_device(buffer, p, static_cast<std::size_t>(p.offset) / buffer.scalar_bytes, lane,
                   false);
    work_.device_access(p.object, static_cast<std::uint64_t>(p.offset), lane);
    if (p.tag == PointerTag::Device) {  // not constant memory: a guard reads its count there
      work_.device_load();
      work_.thread_touched_device((*global_ids_)[lane]);
    }
  }
  return read_scalar(where, kind);
}

void Memory::store(Pointer p, ScalarKind kind, std::int64_t at, std::uint16_t lane, Word value) {
  const std::size_t bytes = scalar_size(kind);
  p.offset += at;
  if (p.tag == PointerTag::Constant)
    throw ThreadFault{
        where_, lane,
        "write to constant memory (" + describe(p, static_cast<std::int64_t>(bytes)) + ")"};
  std::byte* where = locate(p, bytes, lane, true);
  if (p.tag == PointerTag::Threadgroup) {
    check_threadgroup(p, static_cast<std::size_t>(where - threadgroup_.data()), lane, true);
  } else {
    Buffer& buffer = buffers_[p.object];
    if (buffer.shadow)
      check_device(buffer, p, static_cast<std::size_t>(p.offset) / buffer.scalar_bytes, lane, true);
    work_.device_access(p.object, static_cast<std::uint64_t>(p.offset), lane);
    work_.thread_touched_device((*global_ids_)[lane]);
  }
  write_scalar(where, kind, value);
}

std::byte* Memory::atomic_address(Pointer p, ScalarKind kind, std::uint16_t lane, Location where) {
  where_ = where;
  std::byte* at = locate(p, scalar_size(kind), lane, true);
  if (p.tag == PointerTag::Threadgroup) {
    tg_shadow_[static_cast<std::size_t>(at - threadgroup_.data())].written_in = group_serial_;
  } else {
    work_.thread_touched_device((*global_ids_)[lane]);
  }
  return at;
}

}  // namespace engine::metal::detail
