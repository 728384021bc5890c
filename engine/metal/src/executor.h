#pragma once
// Internal: the executor of a checked kernel, one threadgroup at a time.
//
// Note [Lockstep threadgroups]
// A threadgroup runs as SIMT hardware runs a SIMD group, but all of it at once: every
// expression is evaluated once for all the threads active at that point (lanes.h), and control
// flow splits the active set instead of branching: an `if` runs its then-branch for the threads
// whose condition holds and its else-branch for the others; a loop keeps running the threads
// that have not left it; a return, break or continue takes its threads out until the function,
// loop or iteration ends. Why this design:
//  - threadgroup_barrier means what Metal says: every thread of the group must reach it. Here a
//    barrier is reached by the active set, and anything less than the whole threadgroup (a
//    thread that returned early, or took the other branch of an if) is reported with the
//    thread and where it went;
//  - SIMD-group functions (simd_sum, simd_shuffle_down, ...) see exactly the active threads of
//    each 32-thread SIMD group, as on the GPU;
//  - it is fast: the cost of walking the tree is paid once per threadgroup, not per thread
//    (a million threads of ten operations take well under a second on one core).
// Lockstep execution would hide a missing barrier (every thread's write happens before any
// thread's next read), so memory.h checks every access for races instead of relying on the
// order the emulator happens to run threads in.

#include <array>
#include <span>
#include <string>
#include <vector>

#include "ast.h"
#include "engine/metal/dispatch.h"
#include "lanes.h"
#include "memory.h"
#include "work_counter.h"

namespace engine::metal::detail {

class Executor {
 public:
  Executor(const Program& program, const Function& kernel, std::span<const BufferBinding> buffers,
           Size3 grid, Size3 group, DispatchWork& work);
  // Runs the threadgroup at `position` in the grid of threadgroups.
  void run(Size3 position);
  void finish() { counter_.finish(); }
  // "16 of the grid (thread 0 of threadgroup 1)" for the current threadgroup's thread `lane`.
  std::string describe_thread(std::uint16_t lane) const;

 private:
  struct Place {
    TypeRef type;  // what it holds: a scalar, vector, array or atomic
    AddressSpace space = AddressSpace::Thread;
    const Variable* variable = nullptr;  // a thread variable, the same words for every thread
    Operand pointers;                    // otherwise, one pointer per thread
    std::array<std::uint8_t, 4> components{};
    int count = 0;  // a swizzle's components; 0 for the whole value
  };
  struct Loop {
    Lanes broken, continued;
  };
  struct Call {
    const Function* function = nullptr;
    Lanes returned;
  };
  struct Branch {
    Location where;
    const Lanes* entered;
    const char* what;
  };

  // the threadgroup's threads and the kernel's parameters (execute.cpp, kernel_inputs.cpp)
  Lanes start(Size3 position);
  void bind_parameters();
  std::array<std::uint64_t, 3> input_value(KernelInput input, std::size_t lane) const;
  std::array<std::uint64_t, 3> local_position(std::size_t lane) const;
  std::array<std::uint64_t, 3> grid_position(std::size_t lane) const;

  // statements (execute.cpp)
  void exec(const Stmt& stmt, Lanes& active);
  void declare(const Stmt& stmt, const Lanes& active);
  void branch(const Stmt& stmt, Lanes& active);
  void loop(const Stmt& stmt, Lanes& active);
  Operand call(const Expr& e, const Lanes& lanes);
  void barrier(const Expr& e, const Lanes& lanes);
  [[noreturn]] void missed_barrier(const Expr& e, const Lanes& lanes);

  // expressions (evaluate.cpp)
  Operand eval(const Expr& e, const Lanes& lanes);
  Operand fill(const std::vector<Word>& words, const Lanes& lanes);
  Operand convert(const Expr& e, const Lanes& lanes);
  Operand unary(const Expr& e, const Lanes& lanes);
  Operand binary(const Expr& e, const Lanes& lanes);
  Operand logical(const Expr& e, const Lanes& lanes);
  Operand conditional(const Expr& e, const Lanes& lanes);
  Operand assign(const Expr& e, const Lanes& lanes);
  Operand increment(const Expr& e, const Lanes& lanes);
  Operand construct(const Expr& e, const Lanes& lanes);
  Operand component_of(const Expr& e, const Lanes& lanes);
  Operand arithmetic(Op op, const Type& type, const Operand& a, const Operand& b,
                     const Lanes& lanes, Location where);
  [[noreturn]] void op_fault(OpFault fault, Location where, std::uint16_t lane, const Type& type);

  // places (place.cpp)
  Place place(const Expr& e, const Lanes& lanes);
  Place subscript_place(const Expr& e, const Lanes& lanes);
  Operand pointers_of(Place& place, const Lanes& lanes);
  Operand load(const Place& place, const Lanes& lanes, Location where);
  void store(const Place& place, const Operand& value, const Lanes& lanes, Location where);
  Word& thread_word(Pointer p, std::int64_t component, std::uint16_t lane, Location where,
                    bool write);

  // builtins (builtin_math.cpp, simd.cpp, atomics.cpp)
  Operand builtin(const Expr& e, const Lanes& lanes);
  Operand math(const Expr& e, const Lanes& lanes);
  Operand simd(const Expr& e, const Lanes& lanes);
  Operand atomic(const Expr& e, const Lanes& lanes);

  const Program& program_;
  const Function& kernel_;
  Size3 grid_, group_;
  WorkCounter counter_;
  Memory memory_;
  RegisterPool registers_;

  // the threadgroup running now
  Size3 position_;  // in the grid of threadgroups
  Size3 size_;      // its threads: smaller than group_ at the grid's far edges
  std::size_t threads_ = 0;
  std::vector<std::uint32_t> global_ids_;
  std::vector<std::uint32_t> returned_at_;  // the line each thread returned at, 0 if running
  std::vector<Loop*> loops_;
  std::vector<Call*> calls_;
  std::vector<Branch> branches_;
};

}  // namespace engine::metal::detail
