// Atomic functions on device and threadgroup memory (MSL specification, section 6.15). The
// threads of a threadgroup apply theirs one after another in thread order, threadgroups in
// the order they run, so a float sum made with atomic_fetch_add_explicit rounds the same way
// on every host (on a GPU the order, and so the last bits, vary from run to run).

#include "executor.h"

namespace engine::metal::detail {

Operand Executor::atomic(const Expr& e, const Lanes& lanes) {
  const Builtin b = e.builtin;
  const Operand pointers = eval(*e.operands[0], lanes);
  const bool takes_value = b != Builtin::AtomicLoad;
  const Operand value =
      takes_value ? eval(*e.operands[b == Builtin::AtomicCompareExchangeWeak ? 2 : 1], lanes)
                  : Operand();
  const Operand expected =
      b == Builtin::AtomicCompareExchangeWeak ? eval(*e.operands[1], lanes) : Operand();
  const ScalarKind kind = e.operands[0]->type->element->scalar;
  counter_.atomics(lanes.size());
  Operand out(registers_, 1);
  for (const std::uint16_t l : lanes.ids) {
    std::byte* at = memory_.atomic_address(decode(pointers.component(0)[l]), kind, l, e.where);
    const Word old = read_scalar(at, kind);
    const Word operand = takes_value ? value.component(0)[l] : 0;
    OpFault ignored = OpFault::None;  // adds wrap; and, or, xor cannot fault
    Word result = old;
    switch (b) {
      case Builtin::AtomicLoad:
        break;
      case Builtin::AtomicStore:
      case Builtin::AtomicExchange:
        write_scalar(at, kind, operand);
        break;
      case Builtin::AtomicFetchAdd:
        write_scalar(at, kind, binary_scalar(Op::Add, kind, old, operand, ignored));
        break;
      case Builtin::AtomicFetchSub:
        write_scalar(at, kind, binary_scalar(Op::Sub, kind, old, operand, ignored));
        break;
      case Builtin::AtomicFetchMin:
      case Builtin::AtomicFetchMax: {
        const bool less = is_signed(kind) ? word_signed(operand) < word_signed(old) : operand < old;
        if (less == (b == Builtin::AtomicFetchMin) && operand != old)
          write_scalar(at, kind, operand);
        break;
      }
      case Builtin::AtomicFetchAnd:
        write_scalar(at, kind, old & operand);
        break;
      case Builtin::AtomicFetchOr:
        write_scalar(at, kind, old | operand);
        break;
      case Builtin::AtomicFetchXor:
        write_scalar(at, kind, old ^ operand);
        break;
      case Builtin::AtomicCompareExchangeWeak: {
        Word& wanted = thread_word(decode(expected.component(0)[l]), 0, l, e.where, true);
        if (old == wanted) {
          write_scalar(at, kind, operand);
          result = 1;
        } else {
          wanted = old;
          result = 0;
        }
        break;
      }
      default:
        break;
    }
    out.component(0)[l] = result;
  }
  return out;
}

}  // namespace engine::metal::detail
