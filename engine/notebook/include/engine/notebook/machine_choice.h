#pragma once
// A machine named on a command line (`lessonNN --machine`, `course twins --machine`, `course plan
// --machine`): the profile, or what to say of a name no machine has.

#include <string>
#include <string_view>

namespace engine::notebook {

// "unknown machine 'm3-max'; did you mean m3-max-64gb?": the names it is a slip of, or the start
// of (machines are named chip first, then memory), else a pointer to --list-machines.
std::string unknown_machine(std::string_view typed);

}  // namespace engine::notebook
