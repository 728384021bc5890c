#pragma once
// Internal: the checks of the progress file's values (progress_format.cpp). Each takes `where`,
// the value's place in the file ("quizzes.mastery.attempts"), and throws std::invalid_argument
// naming it and what is wrong with the value.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace engine::notebook::progress_fields {

inline constexpr std::size_t kMaxFileBytes = 1 << 20;  // a real progress file is a few KiB

[[noreturn]] void corrupt(const std::string& where, const std::string& problem);

// "quizzes" + "mastery" -> "quizzes.mastery"; "" + "labs" -> "labs".
std::string field(const std::string& where, const std::string& key);

// A value as a message shows it: a short primitive as written, a long one cut, a container by
// its type (never a dump of deep nesting).
std::string shown(const nlohmann::json& value);

// A whole number from `low` to `high`.
std::int64_t integer(const nlohmann::json& value, const std::string& where, std::int64_t low,
                     std::int64_t high);
int bounded(const nlohmann::json& value, const std::string& where, int low, int high);
// A whole number from 0 to 2^64-1 (a seed).
std::uint64_t unsigned_64(const nlohmann::json& value, const std::string& where);
const std::string& string_value(const nlohmann::json& value, const std::string& where);
bool boolean(const nlohmann::json& value, const std::string& where);
// "2026-11-21T10:00:00Z", as progress_timestamp writes it.
const std::string& timestamp(const nlohmann::json& value, const std::string& where);
// A quiz's or a lab's name: what a bank's or a lab's file name can be.
void check_name(const std::string& name, const std::string& where);
// A simulated machine's name as --machine takes it ("m3-max-64gb").
std::string machine_name(const nlohmann::json& value, const std::string& where);

}  // namespace engine::notebook::progress_fields
