#include "engine/python_format.h"

#include <fmt/format.h>

#include <cmath>

namespace engine::py {

std::string str(bool value) { return value ? "True" : "False"; }

std::string str(std::int64_t value) { return std::to_string(value); }

// Python's repr(float) is the shortest string that reads back as the same double, and always
// shows it is a float: "12.0", not "12". fmt's default format is the same shortest
// round-trip, including the switch to "1e+16" / "1e-05" at the same exponents. Python never
// shows a NaN's sign bit ("nan", where fmt writes "-nan" for 0 * -inf and the like).
std::string str(double value) {
  if (std::isnan(value)) return "nan";
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";  // "inf"/"nan" contain n
  return text;
}

std::string str(std::string_view value) { return std::string(value); }

std::string str(const Device& device) { return device.str(); }

std::string str(ScalarType dtype) { return std::string(python_dtype_name(dtype)); }

std::string tuple(IntArrayRef values) {
  if (values.size() == 1) return fmt::format("({},)", values[0]);
  std::string text = "(";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  return text + ")";
}

std::string percent(double value, int digits) {
  return fmt::format("{:.{}f}%", value * 100, digits);
}

}  // namespace engine::py
