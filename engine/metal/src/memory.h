#pragma once
// Internal: the memory a dispatch reads and writes, and what it checks on every access.
// Thread memory is each thread's own (its locals and parameters); threadgroup memory is its
// threadgroup's, undefined until written; device and constant memory are the bound buffers.
//
// Note [What an access is checked for]
// - Bounds: an access must fall inside the object its pointer points into (a buffer as bound,
//   a variable as declared, one dimension of an array at a time).
// - Uninitialised threadgroup memory: reading what no thread of the threadgroup wrote.
// - Data races (MSL specification, section 6.9.1: memory written by one thread and accessed by
//   another is ordered only by a barrier): on threadgroup memory, two threads of the group
//   accessing the same value between two threadgroup_barrier(mem_flags::mem_threadgroup),
//   one of them writing; on device memory, the same for threads of different threadgroups
//   (never ordered within a dispatch) or of one threadgroup without a barrier with
//   mem_flags::mem_device between them. Atomics never race.
// Each check names the value, the thread and the line; a race also the other thread and line.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "engine/metal/dispatch.h"
#include "lanes.h"
#include "pointer.h"
#include "work_counter.h"

namespace engine::metal::detail {

struct DeviceShadow;

// A scalar's bytes in memory, as MSL lays them out, from and to the executor's words.
Word read_scalar(const std::byte* at, ScalarKind kind);
void write_scalar(std::byte* at, ScalarKind kind, Word value);

// A kernel that broke a rule, thrown by the executor and reported by dispatch() with the
// thread's position.
struct ThreadFault {
  Location where;
  std::uint16_t lane = 0;
  std::string message;
};

class Memory {
 public:
  Memory(const Program& program, const Function& kernel, std::span<const BufferBinding> buffers,
         Size3 grid, Size3 group, WorkCounter& work);
  ~Memory();

  // A new threadgroup of `threads` threads, whose global thread ids (x + y W + z W H in the
  // grid) are `global_ids`, the threadgroup `group` (its linear index in the grid of groups).
  void start_threadgroup(std::size_t threads, const std::vector<std::uint32_t>& global_ids,
                         std::uint32_t group);
  // threadgroup_barrier: orders what came before it for the flags' memory.
  void barrier(bool threadgroup, bool device);

  // Thread memory: the words of word `address` for every thread.
  Word* thread_column(std::int64_t address) { return thread_.data() + address * stride_; }
  std::size_t stride() const noexcept { return stride_; }

  // One load or store instruction: the accesses of one component by every active thread,
  // between begin() and end() (which counts its memory transactions).
  void begin(Location where, bool write);
  // The scalar of `kind` at `byte` bytes past where p points.
  Word load(Pointer p, ScalarKind kind, std::int64_t byte, std::uint16_t lane);
  void store(Pointer p, ScalarKind kind, std::int64_t byte, std::uint16_t lane, Word value);
  void end();

  // The bytes of the atomic at p (device or threadgroup memory), bounds-checked; atomics are
  // exempt from the race checks.
  std::byte* atomic_address(Pointer p, ScalarKind kind, std::uint16_t lane, Location where);

  // What a pointer points at, for messages: "out[16] (buffer(0): a tensor of ...)",
  // "tile[3][4] (threadgroup float [16][16])".
  std::string describe(Pointer p, std::int64_t element_bytes) const;
  // The object it points into: "out (buffer(0): ...)", "tile (threadgroup float [16][16])".
  std::string object_name(Pointer p) const;
  // A global thread id as a position in the grid: "(16, 0, 0)".
  std::string grid_position(std::uint32_t global_id) const;

 private:
  struct Buffer;
  std::byte* locate(Pointer p, std::size_t bytes, std::uint16_t lane, bool write);
  void check_threadgroup(Pointer p, std::size_t at, std::uint16_t lane, bool write);
  void check_device(Buffer& buffer, Pointer p, std::size_t at, std::uint16_t lane, bool write);
  std::uint32_t group_of(std::uint32_t global_id) const;  // its threadgroup's linear index
  void record_device_access(DeviceShadow& shadow, std::uint32_t thread, bool write) const;
  // "data race on threadgroup memory: tile[3] (...) is read here after thread 4 wrote it at line
  // 7, with no threadgroup_barrier(...) between them"
  [[noreturn]] void race(std::string_view memory, Pointer p, std::uint16_t lane, bool write,
                         const std::string& other, bool other_wrote, std::uint32_t other_line,
                         std::string_view why) const;

  const Program& program_;
  Size3 grid_, group_size_;
  WorkCounter& work_;
  std::size_t stride_ = 0;
  std::vector<Word> thread_;
  std::vector<std::byte> threadgroup_;
  std::vector<std::span<std::byte>> threadgroup_variables_;  // by variable id
  struct TgShadow;
  std::vector<TgShadow> tg_shadow_;
  std::vector<Buffer> buffers_;
  std::vector<std::vector<DeviceShadow>> shadows_;  // Buffer::shadow points into it
  const std::vector<std::uint32_t>* global_ids_ = nullptr;
  std::uint32_t group_ = 0;
  std::uint32_t group_serial_ = 0;
  std::uint32_t tg_epoch_ = 0;
  std::uint32_t device_epoch_ = 0;
  Location where_;
  bool write_ = false;
};

}  // namespace engine::metal::detail
