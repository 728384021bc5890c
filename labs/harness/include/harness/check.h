#pragma once
// What a lab's tests use besides doctest: links to the lesson cells that teach each point, the
// mark between what a check saw and what it teaches, and numbers written the way the messages
// show them. A test says what it saw, names the misconception it caught and ends its message
// with the command that re-runs the lesson cell about it.
//
//   const harness::LessonCell kWarmUp("05_timing_and_synchronization/05_1_timing_gpu_work", "warm_up");
//   CHECK_MESSAGE(cold < 1.5 * warm, "measured " << harness::fixed(cold) << " ms" << harness::why
//                 << "The first run builds its graph." << kWarmUp);
//   // measured 9.87 ms
//   // The first run builds its graph.
//   // see: build/lessons/lesson05_1 --cell warm_up
//
// doctest prints a `const char*` in a message as an address: stream std::string instead.
//
// Declare each link once, at namespace scope: the lab's proof run checks that every declared
// link names a real code cell (--check-lesson-links).

#include <iosfwd>
#include <string>
#include <vector>

namespace harness {

class LessonCell {
 public:
  // The lesson's file below lessons/ without .cpp, and the cell: "04_cpu_fallback",
  // "fallback_step_time"; in a lesson in sections, "05_timing_and_synchronization/05_1_timing_gpu_work",
  // "warm_up".
  LessonCell(const char* lesson, const char* cell);
  const std::string& lesson() const noexcept { return lesson_; }
  const std::string& cell() const noexcept { return cell_; }
  // "build/lessons/lesson05_1 --cell warm_up"
  std::string command() const;
  // "\nsee: build/lessons/lesson05_1 --cell warm_up", the last line of a teaching message.
  std::string see() const { return "\nsee: " + command(); }

 private:
  std::string lesson_;
  std::string cell_;
};

// Streams see(), for doctest's messages: CHECK_MESSAGE(ok, "..." << kWarmUp).
std::ostream& operator<<(std::ostream& out, const LessonCell& cell);

// Streamed into a message (or an INFO) between what the check saw, its input, machine and values,
// and what it teaches. The report says what was seen for every input and machine that fails, and
// what it teaches once under them all; when the learner's code threw instead of answering, it
// shows what was thrown and leaves the teaching out, which is about another mistake. A test that
// expects a particular exception (a placement error, a missing kernel) catches it and says what
// it teaches with FAIL_CHECK. Without the mark, only the "see:" lines teach.
struct Why {};
inline constexpr Why why{};
std::ostream& operator<<(std::ostream& out, Why);

// What why streams: a new line that starts with this character, which the report reads.
inline constexpr char kWhyMark = '\x1e';

// `text` with each line that must keep its columns marked so that the report shows it as written
// instead of wrapping it: the source line and the caret under it that a compiler's diagnostic
// quotes ("    out[i] = a[i] + c[i];" and "                    ^").
std::string as_written(const std::string& text);
inline constexpr char kAsWrittenMark = '\x1f';

// Every link the tests declared, in declaration order.
const std::vector<const LessonCell*>& lesson_cells();

// 3.14159 -> "3.14" with `digits` decimals: measured numbers as the messages print them.
std::string fixed(double value, int digits = 2);

}  // namespace harness
