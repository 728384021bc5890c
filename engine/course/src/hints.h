#pragma once
// A lab's hints (labs/NN_topic/hints.md): each "## " heading starts the next hint, from a nudge
// to nearly the answer. The text before the first heading is for authors and is not shown.

#include <filesystem>
#include <string>
#include <vector>

namespace front_door {

// Each hint's text, its heading first; empty when the file cannot be read.
std::vector<std::string> read_hints(const std::filesystem::path& file);

}  // namespace front_door
