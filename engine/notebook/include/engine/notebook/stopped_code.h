#pragma once
// What the course says when code a learner wrote or edited stops the program that runs it: a
// crash (a signal), or a loop that never ends. Without these, `course verify` would wait
// forever on the loop, and a crash would leave only the program's exit status behind.

#include <string>
#include <string_view>

namespace engine::notebook {

// Runs take a fraction of a second, so 10 s means a loop without end; MPS_COURSE_TIME_LIMIT
// sets other seconds (a slow emulator, or the tests of this limit), at most a day. Throws
// std::invalid_argument, naming the variable, its value and the range, for anything but whole
// seconds in that range: a program checks it before it runs anything.
inline constexpr int kLongestTimeLimit = 24 * 60 * 60;
int time_limit_seconds();

// "Stopped after 10 s: <running> was still running. Look for a loop whose condition never
// changes." `running` names the check or the cell.
std::string stopped_after(std::string_view running);

// (Re)starts the clock. When it runs out, the program prints `message` on its standard output
// (the caller's words around stopped_after(), laid out as it lays out text) and exits with
// status 124, what timeout(1) returns.
void limit_time(std::string_view message);
// Stops the clock: what runs next is the course's own code.
void lift_time_limit();

// doctest's text for a signal ("SIGSEGV - Segmentation violation signal") in the learner's
// words: "a segmentation fault (SIGSEGV: memory read or written through a null, dangling or
// out-of-range pointer)".
std::string crash_description(std::string_view doctest_signal_text);

}  // namespace engine::notebook
