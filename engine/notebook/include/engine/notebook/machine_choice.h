#pragma once
// A machine named on a command line (`lessonNN --machine`, `course twins --machine`, `course plan
// --machine`): the profile, or what to say of a name no machine has.

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace engine::notebook {

// "unknown machine 'm3-max'; did you mean m3-max-64gb?": the course's machines it is the start
// of, else the configurations sold it starts or has every part of ("m3-max-30gpu-36gb" names
// m3-max-14cpu-30gpu-36gb), else those it is a slip of, else a pointer to --list-machines.
std::string unknown_machine(std::string_view typed);

// --list-machines (of the lessons, `course plan` and `course twins`): the machines the lessons
// document, the others simulated, then every configuration sold, wrapped to `width` columns.
void list_machines(std::ostream& out, std::size_t width);

}  // namespace engine::notebook
