#pragma once
// How far a name the learner typed is from one the course knows, for "did you mean ...?": the
// `course` command's subcommands and the planner's config fields.

#include <cstddef>
#include <string_view>

namespace engine::notebook {

// The edits that turn `a` into `b`: a letter added, dropped or changed, or two neighbours swapped
// ("wacth" is one edit from "watch").
std::size_t spelling_distance(std::string_view a, std::string_view b);

}  // namespace engine::notebook
