#pragma once
// Internal: what the executor computes with. A threadgroup runs in lockstep (Note [Lockstep
// threadgroups] in executor.h): every expression is evaluated once for all the threads that are
// active at that point, its value held per component and per thread, component c of thread l
// at data[c * stride + l]. Threads are numbered by their index in the threadgroup
// (thread_index_in_threadgroup), so thread l is lane l % 32 of SIMD group l / 32.

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/metal/dispatch.h"
#include "scalar_ops.h"

namespace engine::metal::detail {

// The active threads, ascending, and how many SIMD groups they touch (an instruction is issued
// once per SIMD group that has an active thread).
struct Lanes {
  std::vector<std::uint16_t> ids;
  int simd_groups = 0;

  bool empty() const noexcept { return ids.empty(); }
  std::size_t size() const noexcept { return ids.size(); }
  void recount();  // simd_groups from ids
};

Lanes merge(const Lanes& a, const Lanes& b);  // union of two disjoint sets

struct Value {
  Word* data = nullptr;
  int width = 1;
  std::size_t stride = 0;
  Word* component(int c) const { return data + static_cast<std::size_t>(c) * stride; }
};

// Registers of up to four components for every thread of the threadgroup, reused as
// expressions finish with them.
class RegisterPool {
 public:
  void reset(std::size_t threads);
  Word* acquire();
  void release(Word* block);
  std::size_t stride() const noexcept { return stride_; }

 private:
  std::size_t stride_ = 0;
  std::vector<std::unique_ptr<Word[]>> blocks_;
  std::vector<Word*> free_;
};

// A value and, when the value lives in a register, the register it holds.
class Operand {
 public:
  Operand() = default;
  Operand(RegisterPool& pool, int width);         // a fresh register
  explicit Operand(Value view) : value_(view) {}  // a view of thread memory
  Operand(Operand&& other) noexcept;
  Operand& operator=(Operand&& other) noexcept;
  ~Operand();

  const Value& value() const noexcept { return value_; }
  Word* component(int c) const { return value_.component(c); }
  int width() const noexcept { return value_.width; }

 private:
  Value value_;
  RegisterPool* pool_ = nullptr;
};

}  // namespace engine::metal::detail
