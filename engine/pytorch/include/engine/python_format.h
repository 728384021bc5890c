#pragma once
// How Python prints values, so lessons show what a learner sees from real PyTorch scripts:
// True/False, 12.0 (not 12), tuple shapes "(2, 2)" and "(3,)", percentages "50%".

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/device.h"
#include "engine/int_array_ref.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace engine::py {

std::string str(bool value);
std::string str(std::int64_t value);
std::string str(double value);  // repr(float): shortest round-trip, "12.0", "1e-05", "inf"
std::string str(std::string_view value);
std::string str(const Device& device);
std::string str(ScalarType dtype);  // "torch.float32"
// repr(tensor) / str(tensor): "tensor([1.0000, 2.5000], device='mps:0')". Reading a tensor on
// mps waits for the device.
std::string repr(const Tensor& t);
std::string str(const Tensor& t);

template <std::integral T>
requires(!std::same_as<T, bool> && !std::same_as<T, char>) std::string str(T value) {
  return str(static_cast<std::int64_t>(value));
}
inline std::string str(float value) { return str(static_cast<double>(value)); }
inline std::string str(const char* value) { return str(std::string_view(value)); }
inline std::string str(const std::string& value) { return str(std::string_view(value)); }

// tuple(t.shape): "(32, 3)", "(3,)", "()".
std::string tuple(IntArrayRef values);
// f"{value:.{digits}%}": multiplies by 100 in double and rounds like Python, "50%".
std::string percent(double value, int digits = 0);

}  // namespace engine::py
