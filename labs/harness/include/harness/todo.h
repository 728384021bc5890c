#pragma once
// TODO("5.1", "what to write here") marks a place in a lab where the learner writes code.
// Reaching it throws, and the lab's tests report the first TODO still open as the next thing to
// do. Replace the whole TODO line with your code. It never returns, so a function whose body is
// still a TODO needs no return statement.

namespace harness {

[[noreturn]] void todo(const char* file, int line, const char* id, const char* what);

}  // namespace harness

#define TODO(id, what) ::harness::todo(__FILE__, __LINE__, id, what)
