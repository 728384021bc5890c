#include "mps/kernel_bytes.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "engine/errors.h"
#include "engine/metal/half.h"
#include "engine/metal/library.h"
#include "engine/python_format.h"
#include "tensor/tensor_impl.h"

namespace engine::detail {
namespace {

using metal::ScalarKind;

template <typename T>
void append(std::vector<std::byte>& bytes, T value) {
  const std::size_t at = bytes.size();
  bytes.resize(at + sizeof value);
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

// One value, converted as `cast` says (std::vector<T>(values) and static_cast<T>(value) in
// OptionalArgCaster::setValue); returns the element kind of its bytes.
ScalarKind append_value(std::vector<std::byte>& bytes, double value, bool integer,
                        const std::string& cast, const std::string& default_cast) {
  if (cast.empty()) {
    if (integer)
      append(bytes, static_cast<std::int64_t>(value));
    else
      append(bytes, static_cast<float>(value));
    return integer ? ScalarKind::Long : ScalarKind::Float;
  }
  if (cast == "fp16") {
    append(bytes, metal::half_bits(static_cast<float>(value)));  // c10::Half(float)
    return ScalarKind::Half;
  }
  if (cast == "bf16")
    throw Error("the emulator has no bfloat16: arg_casts \"bf16\" is not supported");
  const std::map<std::string, std::pair<ScalarKind, double>> integers = {
      {"int32", {ScalarKind::Int, 2147483648.0}},
      {"int16", {ScalarKind::Short, 32768.0}},
      {"int8", {ScalarKind::Char, 128.0}},
      {"uint8", {ScalarKind::UChar, 256.0}}};
  const auto found = integers.find(cast);
  if (found == integers.end()) throw Error("Unsupported cast instruction " + default_cast);
  const auto [kind, limit] = found->second;
  const double truncated = std::trunc(value);
  if (!integer && !(truncated >= (kind == ScalarKind::UChar ? 0.0 : -limit) && truncated < limit))
    throw Error("arg_casts \"" + cast + "\" of " + py::str(value) +
                " is out of the type's range: undefined in C++");
  const auto whole = static_cast<std::int64_t>(truncated);
  if (kind == ScalarKind::Int) append(bytes, static_cast<std::int32_t>(whole));
  if (kind == ScalarKind::Short) append(bytes, static_cast<std::int16_t>(whole));
  if (kind == ScalarKind::Char) append(bytes, static_cast<std::int8_t>(whole));
  if (kind == ScalarKind::UChar) append(bytes, static_cast<std::uint8_t>(whole));
  return kind;
}

}  // namespace

const std::string& Casts::cast_for(unsigned index) const {
  const auto found = by_index.find(index);
  return found != by_index.end() ? found->second : all;
}

BoundValue encode_argument(const py::torch::mps::KernelArgument::Value& value, const Casts& casts,
                           unsigned index, std::vector<std::byte>& bytes) {
  const std::string& cast = casts.cast_for(index);
  const std::string& default_cast = casts.all;  // what PyTorch names when a cast is unknown
  BoundValue bound;
  if (const auto* f = std::get_if<double>(&value)) {
    bound.kind = append_value(bytes, *f, false, cast, default_cast);
    bound.label = "the Python float " + py::str(*f);
  } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
    bound.kind = append_value(bytes, static_cast<double>(*i), true, cast, default_cast);
    bound.label = "the Python int " + py::str(*i);
    if (cast.empty()) bound.integer = *i;
  } else {
    const auto* ints = std::get_if<std::vector<std::int64_t>>(&value);
    const auto* floats = std::get_if<std::vector<double>>(&value);
    const std::size_t n = ints ? ints->size() : floats->size();
    if (n == 0) throw Error("Empty list/tuple can not be an argument to metal kernel");
    for (std::size_t k = 0; k < n; ++k) {
      bound.kind =
          ints ? append_value(bytes, static_cast<double>((*ints)[k]), true, cast, default_cast)
               : append_value(bytes, (*floats)[k], false, cast, default_cast);
    }
    bound.list = true;
    bound.label = "a list of " + std::to_string(n) + (ints ? " Python ints" : " Python floats");
  }
  return bound;
}

BoundValue tensor_value(const Tensor& t) {
  BoundValue bound;
  bound.dtype = t.scalar_type();
  bound.label = "a " + std::string(python_dtype_name(t.scalar_type())) + " tensor of " +
                std::to_string(t.numel()) + (t.numel() == 1 ? " value" : " values");
  return bound;
}

namespace {

// Whether a buffer of `element` reads a tensor of `dtype` as the values it holds.
bool reads_as_is(ScalarType dtype, const metal::ElementType& element) {
  switch (dtype) {
    case ScalarType::Float:
      return element.scalar == ScalarKind::Float;
    case ScalarType::Long:
      return element.scalar == ScalarKind::Long || element.scalar == ScalarKind::ULong;
    case ScalarType::Bool:
      return element.scalar == ScalarKind::Bool || element.scalar == ScalarKind::UChar ||
             element.scalar == ScalarKind::Char;
  }
  return false;
}

// Whether a buffer of `element` reads a scalar's or a list's bytes as their values: the same
// kind (signedness aside), or an uncast Python int whose value the narrower integer holds (Metal
// reads the low bytes of the int64).
bool reads_as_is(const BoundValue& v, const metal::ElementType& element) {
  const ScalarKind k = element.scalar;
  if (metal::scalar_size(k) == metal::scalar_size(v.kind) &&
      metal::is_floating(k) == metal::is_floating(v.kind))
    return true;
  if (!v.integer || v.list || metal::is_floating(k)) return false;
  const int bits = static_cast<int>(metal::scalar_size(k)) * 8;
  const double low = metal::is_signed(k) ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double high = metal::is_signed(k) ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);
  const auto value = static_cast<double>(*v.integer);
  return value >= low && value < high;
}

std::string bytes_of(const BoundValue& v) {
  if (v.dtype) return "the tensor's bytes";
  return "its bytes (" + std::string(metal::scalar_name(v.kind)) + ")";
}

}  // namespace

void bind_buffers(const metal::Kernel& kernel, KernelCall& call,
                  const std::vector<BoundValue>& values) {
  std::size_t slots = values.size();
  for (const metal::BufferParameter& p : kernel.buffers()) {
    const auto index = static_cast<std::size_t>(p.index);
    const std::string reads = "kernel '" + kernel.name() + "' reads buffer(" +
                              std::to_string(p.index) + ") (" + p.declaration + ")";
    const std::string stops = " (the emulator stops instead)";
    if (index >= values.size()) {
      throw Error(
          reads + ", but the call binds " + std::to_string(values.size()) +
          (values.size() == 1 ? " argument" : " arguments") +
          ": PyTorch 2.9 does not check this, and Metal would read whatever was bound there "
          "before" +
          stops);
    }
    const BoundValue& v = values[index];
    const bool fits = v.dtype ? reads_as_is(*v.dtype, p.element) : reads_as_is(v, p.element);
    if (!fits) {
      throw Error("argument " + std::to_string(p.index) + " is " + v.label + ", and " + reads +
                  ": PyTorch 2.9 passes " + bytes_of(v) +
                  " as they are, and Metal would read them as " + p.element.name() + stops);
    }
    slots = std::max(slots, index + 1);
  }
  call.bindings.resize(slots);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Tensor& t = call.tensors[i];
    std::span<std::byte> bytes = call.bytes[i];
    if (t.defined() && t.is_mps()) {
      bytes = std::span(reinterpret_cast<std::byte*>(t.impl().storage->data()) +
                            t.impl().offset * t.element_size(),
                        static_cast<std::size_t>(t.numel() * t.element_size()));
    }
    call.bindings[i] = {.bytes = bytes, .label = values[i].label, .bound = true};
  }
}

}  // namespace engine::detail
