// Calls of helper functions (their frames are fixed: MSL has no recursion) and barriers, which
// every thread of the threadgroup must reach.

#include <algorithm>

#include "executor.h"

namespace engine::metal::detail {

Operand Executor::call(const Expr& e, const Lanes& lanes) {
  const Function& fn = *e.callee;
  std::vector<Operand> arguments;
  for (std::size_t i = 0; i < fn.params.size(); ++i) {
    if (fn.params[i].is_reference) {
      Place target = place(*e.operands[i], lanes);
      arguments.push_back(pointers_of(target, lanes));
    } else {
      arguments.push_back(eval(*e.operands[i], lanes));
    }
  }
  for (std::size_t i = 0; i < fn.params.size(); ++i) {  // after all are evaluated: f(a, f(b, c))
    Word* column = memory_.thread_column(fn.params[i].variable->address);
    for (int c = 0; c < arguments[i].width(); ++c) {
      for (const std::uint16_t l : lanes.ids)
        column[static_cast<std::size_t>(c) * threads_ + l] = arguments[i].component(c)[l];
    }
  }
  Call state{&fn, {}};
  calls_.push_back(&state);
  Lanes running = lanes;
  exec(*fn.body, running);
  calls_.pop_back();
  if (!running.empty() && fn.return_slot) {
    throw ThreadFault{
        fn.body->where, running.ids.front(),
        "the end of non-void function '" + fn.name + "' was reached without a return"};
  }
  for (const std::uint16_t l : state.returned.ids) returned_at_[l] = 0;  // back in the caller
  if (!fn.return_slot) return {};
  const int width = words_of(*fn.result);
  Operand result(registers_, width);
  const Word* slot = memory_.thread_column(fn.return_slot->address);
  for (int c = 0; c < width; ++c) {
    for (const std::uint16_t l : lanes.ids)
      result.component(c)[l] = slot[static_cast<std::size_t>(c) * threads_ + l];
  }
  return result;
}

void Executor::barrier(const Expr& e, const Lanes& lanes) {
  const Operand flags = eval(*e.operands[0], lanes);
  if (lanes.size() != threads_) missed_barrier(e, lanes);
  const Word mask = flags.component(0)[lanes.ids.front()];
  counter_.barrier();
  memory_.barrier((mask & 2) != 0, (mask & 1) != 0);  // mem_threadgroup, mem_device
}

// A barrier reached by only some threads of the threadgroup: names the first missing thread
// and where it went.
void Executor::missed_barrier(const Expr& e, const Lanes& lanes) {
  std::uint16_t missing = 0;
  while (std::binary_search(lanes.ids.begin(), lanes.ids.end(), missing)) ++missing;
  std::string where;
  if (returned_at_[missing] != 0) {
    where = "it returned at line " + std::to_string(returned_at_[missing]);
  } else {
    for (const Branch& b : branches_) {
      if (!std::binary_search(b.entered->ids.begin(), b.entered->ids.end(), missing)) {
        where = std::string("it is not in ") + b.what + " at line " + std::to_string(b.where.line);
        break;
      }
    }
  }
  throw ThreadFault{e.where, missing,
                    "threadgroup_barrier is reached by " + std::to_string(lanes.size()) +
                        " of the " + std::to_string(threads_) +
                        " threads of the threadgroup, but every thread must reach it; this one "
                        "does not: " +
                        where};
}

}  // namespace engine::metal::detail
