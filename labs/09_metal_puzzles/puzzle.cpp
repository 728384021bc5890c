#include "puzzle.h"

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "harness/check.h"
#include "harness/lab_source.h"
#include "harness/run_time_files.h"
#include "harness/todo.h"

namespace lab09 {
namespace {

const harness::LessonCell kCompileError("10_writing_a_metal_kernel/10_1_a_first_kernel",
                                        "a_compile_error");
const harness::LessonCell kTail("10_writing_a_metal_kernel/10_1_a_first_kernel", "the_grids_tail");
const harness::LessonCell kMissingBarrier("10_writing_a_metal_kernel/10_2_fusing_and_reducing",
                                          "a_missing_barrier");
const harness::LessonCell kRowSoftmax("10_writing_a_metal_kernel/10_2_fusing_and_reducing",
                                      "row_softmax");

// The emulator's reports name the source "program_source", as Metal's compiler does; the
// learner's file has a name of its own.
std::string in_file(std::string text, const std::string& shown) {
  const std::string generic = "program_source:";
  for (std::size_t at = 0; (at = text.find(generic, at)) != std::string::npos;) {
    text.replace(at, generic.size(), shown + ":");
    at += shown.size() + 1;
  }
  return text;
}

// The rule a kernel fault broke, from the words of the emulator's report (engine/metal/README.md
// lists them), and where lesson 10 teaches it.
std::string what_the_fault_teaches(const std::string& report) {
  std::ostringstream teaching;
  if (report.find("out-of-bounds") != std::string::npos) {
    teaching << "A thread whose position has no element must not touch memory: a grid rounded "
                "up to whole threadgroups has threads past the end, and each must return before "
                "it reads or writes (the guard)."
             << kTail;
  } else if (report.find("data race") != std::string::npos ||
             report.find("uninitialized threadgroup memory") != std::string::npos) {
    teaching << "Threads of a threadgroup run in any order: a value one thread writes to "
                "threadgroup memory is there for the others only after a "
                "threadgroup_barrier(mem_flags::mem_threadgroup) that every thread reaches, and "
                "two threads must never write one place between barriers."
             << kMissingBarrier << kRowSoftmax;
  } else if (report.find("barrier") != std::string::npos) {
    teaching << "Every thread of a threadgroup must reach each threadgroup_barrier: a barrier "
                "inside an if, or after a return some threads take, waits for threads that never "
                "come."
             << kRowSoftmax;
  } else {
    teaching << "The report names the line and the thread; Metal's rules are the same for every "
                "thread of the grid."
             << kTail;
  }
  return teaching.str();
}

}  // namespace

std::optional<ShaderLibrary> compile_puzzle(std::string_view name) {
  const harness::RunTimeFile file = harness::run_time_file(name);
  const std::vector<harness::TodoLine> todos = harness::todo_lines(file.text);
  if (!todos.empty()) {
    const harness::TodoLine& first = todos.front();
    harness::todo(file.path.c_str(), first.line, first.id.c_str(), first.what.c_str());
  }
  try {
    return engine::py::torch::mps::compile_shader(file.text);
  } catch (const engine::SyntaxError& error) {
    FAIL_CHECK(file.shown << " does not compile:\n"
                          << harness::as_written(
                                 in_file(engine::py::format_exception_only(error), file.shown))
                          << harness::why
                          << "Metal compiles the whole file when compile_shader is called; start "
                             "with the first error, at the line and column it names."
                          << kCompileError);
    return std::nullopt;
  }
}

std::optional<engine::sim::KernelLaunch> run_kernel(const ShaderLibrary& library,
                                                    std::string_view name, std::string_view kernel,
                                                    const std::vector<KernelArgument>& arguments) {
  const harness::RunTimeFile file = harness::run_time_file(name);
  const engine::sim::KernelLaunchRecording recording;
  try {
    library.attr(kernel).call(arguments);
    engine::mps::synchronize();
  } catch (const engine::Error& error) {
    const std::string report = in_file(error.what(), file.shown);
    FAIL_CHECK("the kernel " << std::string(kernel) << " stopped:\n"
                             << harness::as_written(report) << harness::why
                             << what_the_fault_teaches(report));
    return std::nullopt;
  }
  REQUIRE(recording.launches().size() == 1);
  return recording.launches().front();
}

void check_values(const engine::Tensor& got, const engine::Tensor& expected,
                  const std::string& why) {
  check_values(got, expected.cpu().to_vector<float>(), why);
}

void check_values(const engine::Tensor& got, const std::vector<float>& wanted,
                  const std::string& why) {
  const std::vector<float> values = got.cpu().to_vector<float>();
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (std::abs(values[i] - wanted[i]) <= 1e-4f * (1 + std::abs(wanted[i]))) continue;
    FAIL_CHECK("element " << i << " is " << values[i] << ", expected " << wanted[i] << harness::why
                          << why);
    return;
  }
}

}  // namespace lab09
