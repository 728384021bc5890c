#pragma once
// How far a name the learner typed is from one the course knows, for "did you mean ...?": the
// `course` command's subcommands, the planner's config fields, the machines' names.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace engine::notebook {

// The edits that turn `a` into `b`: a letter added, dropped or changed, or two neighbours swapped
// ("wacth" is one edit from "watch").
std::size_t spelling_distance(std::string_view a, std::string_view b);

// The known name `typed` is a slip of, if any: the nearest within one edit, or two where both
// are longer than five letters ("test" is no slip of "reset", "bais" is one of "bias").
std::optional<std::string> nearest_name(std::string_view typed, std::span<const std::string> known);

}  // namespace engine::notebook
