#pragma once
// What toml++ 3.3 must not be handed, found before it parses (toml_guard.cpp): characters
// beyond ASCII outside strings and comments, and keys or values nested deeper than a config
// ever is. Both would crash it rather than fail: the first reaches __builtin_unreachable in its
// Unicode tables (marzer/tomlplusplus#295), the second its recursive tables (a key 50,000 dotted
// parts long overflows the stack).

#include <string>
#include <string_view>

namespace planner {

// How deep a config's tables and values may nest: the planner's configs are flat.
inline constexpr int kDeepestToml = 64;

// Throws a ConfigError at the line of the first such character or nesting.
void guard_toml(std::string_view text, const std::string& path);

}  // namespace planner
