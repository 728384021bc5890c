// Places (lvalues): a thread variable, whose words are the same for every thread, or one
// pointer per thread into thread, threadgroup, device or constant memory; possibly a swizzle of
// a vector there. Loads and stores go through Memory (memory.h) for everything but thread
// memory, which is each thread's own and is only checked for bounds here.

#include <utility>

#include "executor.h"

namespace engine::metal::detail {

Executor::Place Executor::place(const Expr& e, const Lanes& lanes) {
  Place p;
  switch (e.kind) {
    case Expr::Kind::Variable: {
      const Variable& v = *e.variable;
      p.type = v.type;
      if (v.storage == Variable::Storage::Threadgroup) {
        p.space = AddressSpace::Threadgroup;
        p.pointers =
            fill({encode({PointerTag::Threadgroup, static_cast<std::uint32_t>(v.id), 0})}, lanes);
      } else if (v.is_reference) {
        p.space = v.reference_space;
        p.pointers = fill({0}, lanes);
        const Word* slot = memory_.thread_column(v.address);
        for (const std::uint16_t l : lanes.ids) p.pointers.component(0)[l] = slot[l];
      } else {
        p.variable = &v;
      }
      return p;
    }
    case Expr::Kind::Deref:
      p.type = e.type;
      p.space = e.operands[0]->type->space;
      p.pointers = eval(*e.operands[0], lanes);
      return p;
    case Expr::Kind::Subscript:
      return subscript_place(e, lanes);
    case Expr::Kind::Swizzle: {
      Place base = place(*e.operands[0], lanes);
      std::array<std::uint8_t, 4> components{};
      for (int i = 0; i < e.swizzle_count; ++i) {
        const std::uint8_t c = e.swizzle[static_cast<std::size_t>(i)];
        components[static_cast<std::size_t>(i)] = base.count > 0 ? base.components[c] : c;
      }
      base.components = components;
      base.count = e.swizzle_count;
      return base;
    }
    default:
      throw ThreadFault{e.where, lanes.ids.front(), "internal error: not a place"};
  }
}

// base[index]. Through a pointer, the access alone is checked (against the object the pointer
// points into); an array's or a vector's index is checked against its length here, so that
// tile[0][20] of a float tile[16][16] is an error although it stays inside tile.
Executor::Place Executor::subscript_place(const Expr& e, const Lanes& lanes) {
  const Expr& base = *e.operands[0];
  const Operand index = eval(*e.operands[1], lanes);
  const bool sign = is_signed(e.operands[1]->type->scalar);
  const bool vector = base.type->is(Type::Kind::Vector);
  Place p;
  p.type = e.type;
  Operand start;  // where base starts, for each thread (never written: it may be a view)
  std::int64_t stride = 0, length = -1;
  if (base.type->is(Type::Kind::Pointer)) {
    p.space = base.type->space;
    start = eval(base, lanes);
    stride = element_stride(*base.type->element, p.space);
  } else {
    Place outer = place(base, lanes);
    p.space = outer.space;
    start = pointers_of(outer, lanes);
    length = vector ? base.type->width : base.type->length;
    stride = vector ? (p.space == AddressSpace::Thread
                           ? 1
                           : static_cast<std::int64_t>(scalar_size(base.type->scalar)))
                    : element_stride(*base.type->element, p.space);
  }
  p.pointers = Operand(registers_, 1);
  for (const std::uint16_t l : lanes.ids) {
    Pointer at = decode(start.component(0)[l]);
    const Word w = index.component(0)[l];
    const std::int64_t i = sign ? word_signed(w) : static_cast<std::int64_t>(w);
    if (length >= 0 && (i < 0 || i >= length)) {
      throw ThreadFault{
          e.where, l,
          "index " + std::to_string(i) + " is out of bounds of " +
              (vector ? "a " + type_name(*base.type) : "an array of " + std::to_string(length)) +
              " in " + memory_.object_name(at)};
    }
    at.offset += i * stride;
    p.pointers.component(0)[l] = encode(at);
  }
  return p;
}

Operand Executor::pointers_of(Place& place, const Lanes& lanes) {
  if (!place.variable) return std::move(place.pointers);
  return fill({encode({PointerTag::Thread, static_cast<std::uint32_t>(place.variable->id), 0})},
              lanes);
}

Word& Executor::thread_word(Pointer p, std::int64_t component, std::uint16_t lane, Location where,
                            bool write) {
  if (p.tag != PointerTag::Thread) {
    throw ThreadFault{where, lane,
                      std::string(write ? "write" : "read") + " through " + memory_.describe(p, 0) +
                          ", which is not thread memory"};
  }
  const Variable& v = *program_.variables[p.object];
  const std::int64_t at = p.offset + component;
  if (at < 0 || at >= words_of(*v.type)) {
    throw ThreadFault{where, lane,
                      std::string("out-of-bounds ") + (write ? "write" : "read") + " of " +
                          memory_.describe(p, 0) + ", " +
                          (at < 0 ? "before its start" : "past its end")};
  }
  return memory_.thread_column(v.address + at)[lane];
}

Operand Executor::load(const Place& place, const Lanes& lanes, Location where) {
  const int width = place.count > 0 ? place.count : words_of(*place.type);
  if (place.variable) {
    Word* column = memory_.thread_column(place.variable->address);
    if (place.count == 0) return Operand(Value{column, width, threads_});
    Operand out(registers_, width);
    for (int c = 0; c < width; ++c) {
      const Word* from = column + place.components[static_cast<std::size_t>(c)] * threads_;
      for (const std::uint16_t l : lanes.ids) out.component(c)[l] = from[l];
    }
    return out;
  }
  Operand out(registers_, width);
  const ScalarKind kind = place.type->scalar;
  const auto bytes = static_cast<std::int64_t>(scalar_size(kind));
  const bool thread = place.space == AddressSpace::Thread;
  if (!thread) memory_.begin(where, false);
  for (const std::uint16_t l : lanes.ids) {
    const Pointer p = decode(place.pointers.component(0)[l]);
    for (int c = 0; c < width; ++c) {
      const std::int64_t component =
          place.count > 0 ? place.components[static_cast<std::size_t>(c)] : c;
      out.component(c)[l] = thread ? thread_word(p, component, l, where, false)
                                   : memory_.load(p, kind, component * bytes, l);
    }
  }
  if (!thread) memory_.end();
  if (place.space == AddressSpace::Threadgroup) counter_.threadgroup(lanes.simd_groups);
  return out;
}

void Executor::store(const Place& place, const Operand& value, const Lanes& lanes, Location where) {
  const int width = place.count > 0 ? place.count : words_of(*place.type);
  const auto component_of = [&](int c) -> std::int64_t {
    return place.count > 0 ? place.components[static_cast<std::size_t>(c)] : c;
  };
  if (place.variable) {
    Word* column = memory_.thread_column(place.variable->address);
    for (int c = 0; c < width; ++c) {
      Word* to = column + component_of(c) * static_cast<std::int64_t>(threads_);
      for (const std::uint16_t l : lanes.ids) to[l] = value.component(c)[l];
    }
    return;
  }
  const ScalarKind kind = place.type->scalar;
  const auto bytes = static_cast<std::int64_t>(scalar_size(kind));
  const bool thread = place.space == AddressSpace::Thread;
  if (!thread) memory_.begin(where, true);
  for (const std::uint16_t l : lanes.ids) {
    const Pointer p = decode(place.pointers.component(0)[l]);
    for (int c = 0; c < width; ++c) {
      if (thread) {
        thread_word(p, component_of(c), l, where, true) = value.component(c)[l];
      } else {
        memory_.store(p, kind, component_of(c) * bytes, l, value.component(c)[l]);
      }
    }
  }
  if (!thread) memory_.end();
  if (place.space == AddressSpace::Threadgroup) counter_.threadgroup(lanes.simd_groups);
}

}  // namespace engine::metal::detail
