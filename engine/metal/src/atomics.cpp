// Atomic functions on device and threadgroup memory (MSL specification, section 6.15). The
// threads of a threadgroup apply theirs one after another in thread order, threadgroups in
// the order they run, so a float sum made with atomic_fetch_add_explicit rounds the same way
// on every host (on a GPU the order, and so the last bits, vary from run to run).

#include "executor.h"

namespace engine::metal::detail {
namespace {

// The value a read-modify-write leaves in memory, from the old one and the operand.
Word updated(Builtin b, ScalarKind kind, Word old, Word operand) {
  OpFault ignored = OpFault::None;  // adds wrap; and, or, xor cannot fault
  switch (b) {
    case Builtin::AtomicLoad:
      return old;
    case Builtin::AtomicFetchAdd:
      return binary_scalar(Op::Add, kind, old, operand, ignored);
    case Builtin::AtomicFetchSub:
      return binary_scalar(Op::Sub, kind, old, operand, ignored);
    case Builtin::AtomicFetchMin:
    case Builtin::AtomicFetchMax: {
      const bool less = is_signed(kind) ? word_signed(operand) < word_signed(old) : operand < old;
      return less == (b == Builtin::AtomicFetchMin) ? operand : old;
    }
    case Builtin::AtomicFetchAnd:
      return old & operand;
    case Builtin::AtomicFetchOr:
      return old | operand;
    case Builtin::AtomicFetchXor:
      return old ^ operand;
    default:  // store, exchange
      return operand;
  }
}

}  // namespace

Operand Executor::atomic(const Expr& e, const Lanes& lanes) {
  const Builtin b = e.builtin;
  const bool exchange = b == Builtin::AtomicCompareExchangeWeak;
  const Operand pointers = eval(*e.operands[0], lanes);
  const Operand value =
      b != Builtin::AtomicLoad ? eval(*e.operands[exchange ? 2 : 1], lanes) : Operand();
  const Operand expected = exchange ? eval(*e.operands[1], lanes) : Operand();
  const ScalarKind kind = e.operands[0]->type->element->scalar;
  counter_.atomics(lanes.size());
  Operand out(registers_, 1);
  for (const std::uint16_t l : lanes.ids) {
    std::byte* at = memory_.atomic_address(decode(pointers.component(0)[l]), kind, l, e.where);
    const Word old = read_scalar(at, kind);
    const Word operand = b != Builtin::AtomicLoad ? value.component(0)[l] : 0;
    if (!exchange) {
      write_scalar(at, kind, updated(b, kind, old, operand));
      out.component(0)[l] = old;
      continue;
    }
    // atomic_compare_exchange_weak_explicit: the desired value if memory holds the expected
    // one, else the expected one becomes what memory holds (the emulator never fails spuriously).
    Word& wanted = thread_word(decode(expected.component(0)[l]), 0, l, e.where, true);
    const bool swap = old == wanted;
    if (swap)
      write_scalar(at, kind, operand);
    else
      wanted = old;
    out.component(0)[l] = swap;
  }
  return out;
}

}  // namespace engine::metal::detail
