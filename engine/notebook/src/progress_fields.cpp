#include "progress_fields.h"

#include <algorithm>
#include <stdexcept>

namespace engine::notebook::progress_fields {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxNameLength = 64;

}  // namespace

void corrupt(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

std::string field(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

std::string shown(const json& value) {
  if (!value.is_primitive()) return std::string("an ") + value.type_name();
  std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

std::int64_t integer(const json& value, const std::string& where, std::int64_t low,
                     std::int64_t high) {
  if (!value.is_number_integer()) corrupt(where, "expected a whole number, found " + shown(value));
  // JSON reads 0 and up as unsigned: compared with `high` first, it then fits a signed number.
  const bool fits = value.is_number_unsigned()
                        ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(high) &&
                              static_cast<std::int64_t>(value.get<std::uint64_t>()) >= low
                        : value.get<std::int64_t>() >= low && value.get<std::int64_t>() <= high;
  if (!fits)
    corrupt(where,
            shown(value) + " is out of range " + std::to_string(low) + ".." + std::to_string(high));
  return value.get<std::int64_t>();
}

int bounded(const json& value, const std::string& where, int low, int high) {
  return static_cast<int>(integer(value, where, low, high));
}

std::uint64_t unsigned_64(const json& value, const std::string& where) {
  if (!value.is_number_unsigned() &&
      !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
    corrupt(where, "expected a whole number from 0 to 2^64-1, found " + shown(value));
  }
  return value.get<std::uint64_t>();
}

const std::string& string_value(const json& value, const std::string& where) {
  if (!value.is_string()) corrupt(where, "expected a string, found " + shown(value));
  return value.get_ref<const std::string&>();
}

bool boolean(const json& value, const std::string& where) {
  if (!value.is_boolean()) corrupt(where, "expected true or false, found " + shown(value));
  return value.get<bool>();
}

const std::string& timestamp(const json& value, const std::string& where) {
  const std::string& t = string_value(value, where);
  const auto digits = [&](std::size_t at, std::size_t n, int low, int high) {
    if (t.size() < at + n || !std::all_of(t.begin() + static_cast<std::ptrdiff_t>(at),
                                          t.begin() + static_cast<std::ptrdiff_t>(at + n),
                                          [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    const int number = std::stoi(t.substr(at, n));
    return number >= low && number <= high;
  };
  const bool valid = t.size() == 20 && digits(0, 4, 1970, 9999) && t[4] == '-' &&
                     digits(5, 2, 1, 12) && t[7] == '-' && digits(8, 2, 1, 31) && t[10] == 'T' &&
                     digits(11, 2, 0, 23) && t[13] == ':' && digits(14, 2, 0, 59) && t[16] == ':' &&
                     digits(17, 2, 0, 60) && t[19] == 'Z';
  if (!valid) corrupt(where, shown(value) + " is not a time such as \"2026-11-21T10:00:00Z\"");
  return t;
}

void check_name(const std::string& name, const std::string& where) {
  const bool valid = !name.empty() && name.size() <= kMaxNameLength &&
                     std::all_of(name.begin(), name.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
                     });
  if (!valid)
    corrupt(where, "\"" + name.substr(0, kMaxNameLength) + "\" is not a quiz or lab name");
}

std::string machine_name(const json& value, const std::string& where) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  const bool valid =
      !name.empty() && name.size() <= kMaxNameLength &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
      });
  if (!valid) corrupt(where, shown(value) + " is not a machine's name");
  return name;
}

}  // namespace engine::notebook::progress_fields
