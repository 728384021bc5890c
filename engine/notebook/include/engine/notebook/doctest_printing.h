#pragma once
// How a failed doctest CHECK shows the engine's types: devices as str(torch.device) prints
// them ("mps:0"), device types by name ("mps"), shapes as tuples ("(32, 3)"), dtypes as Python
// names ("torch.float32") and a tensor by its shape, dtype and device. Without these doctest
// prints "{?} != {?}" (and enums as numbers).
//
// A tensor's values are left out on purpose: reading an mps tensor waits for the device, and
// a failure message must not move the simulated clock it may be reporting on.
//
// Include this before the first CHECK on these types in a translation unit (lesson.h does for
// every lesson; the engine's tests include it through test_support.h).

#include <doctest/doctest.h>

#include <string>

#include "engine/device.h"
#include "engine/int_array_ref.h"
#include "engine/python_format.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace doctest {

template <>
struct StringMaker<engine::Device> {
  static String convert(const engine::Device& device) { return device.str().c_str(); }
};

template <>
struct StringMaker<engine::IntArrayRef> {
  static String convert(engine::IntArrayRef sizes) { return engine::py::tuple(sizes).c_str(); }
};

template <>
struct StringMaker<engine::Tensor> {
  static String convert(const engine::Tensor& t) {
    if (!t.defined()) return "Tensor(undefined)";
    return ("Tensor(shape=" + engine::py::tuple(t.sizes()) +
            ", dtype=" + std::string(engine::python_dtype_name(t.dtype())) +
            ", device=" + t.device().str() + ")")
        .c_str();
  }
};

}  // namespace doctest

// doctest prints an enum as its number unless an overload of toString is found by
// argument-dependent lookup, as these are.
namespace engine {

inline doctest::String toString(DeviceType type) {
  return DeviceTypeName(type, /*lower_case=*/true).c_str();
}
inline doctest::String toString(ScalarType dtype) {
  return std::string(python_dtype_name(dtype)).c_str();
}

}  // namespace engine
