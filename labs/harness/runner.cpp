// main() of every lab program: the lab's tests, run against one version of the learner's file
// (theirs, the starter, the reference solution or a decoy), reported by the "lab" reporter.
//   labNN                              run every test
//   labNN --test-case=NAME             doctest's filters work as usual (the proofs use them)
//   labNN --check-lesson-links=DIR     first check that each lesson cell the tests cite exists
//   labNN --details                    also show the expression each failed check tested
//   labNN --width=N                    wrap the report to N columns (default: the terminal's)

#include <cxxabi.h>
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <typeinfo>
#include <vector>

#include "engine/errors.h"
#include "engine/notebook/completion_channel.h"
#include "engine/notebook/lesson_source.h"
#include "engine/notebook/stopped_code.h"
#include "engine/notebook/terminal_text.h"
#include "harness/built_from.h"
#include "harness/check.h"
#include "open_todo.h"
#include "report.h"

namespace harness {
namespace {

int g_checks_run = 0;
int g_checks_failed = 0;
const char* g_built_from = nullptr;  // the learner's source, by its digest (harness/built_from.h)
bool g_details = false;
std::size_t g_width = 0;  // 0: the terminal's

// Every cited cell must be a code cell of its lesson; returns how many are not.
int broken_lesson_links(const std::string& lessons_dir) {
  int broken = 0;
  for (const LessonCell* link : lesson_cells()) {
    const std::string path = lessons_dir + "/" + link->lesson() + ".cpp";
    try {
      const engine::notebook::LessonSource lesson = engine::notebook::load_lesson(path);
      const engine::notebook::Cell* cell = lesson.find(link->cell());
      if (cell != nullptr && cell->is_code()) continue;
      std::cerr << path << ": no code cell named '" << link->cell() << "', which the tests cite\n";
    } catch (const std::exception& e) {
      std::cerr << e.what() << '\n';
    }
    ++broken;
  }
  return broken;
}

// The name of `type` as C++ code spells it: "std::out_of_range".
std::string type_name(const std::type_info& type) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string name = status == 0 && demangled != nullptr ? demangled : type.name();
  std::free(demangled);
  // The standard library's inline namespaces are not part of the names a learner writes.
  for (const std::string inner : {"__cxx11::", "__1::"}) {
    for (std::size_t at; (at = name.find(inner)) != std::string::npos;)
      name.erase(at, inner.size());
  }
  return name;
}

}  // namespace

std::string course_path(const char* file) {
  const std::string top = TUTOR_SOURCE_DIR "/";
  const std::string path = file;
  return path.rfind(top, 0) == 0 ? path.substr(top.size()) : path;
}

bool show_details() { return g_details; }
std::size_t report_width() {
  return g_width != 0 ? g_width : engine::notebook::terminal_width(STDOUT_FILENO);
}

void record_checks(int run, int failed) {
  g_checks_run = run;
  g_checks_failed = failed;
}
int checks_run() { return g_checks_run; }

BuiltFrom::BuiltFrom(const char* digest) { g_built_from = digest; }

// On the completion channel, the run says first what it was built from ("built_from fnv1a64-..."),
// then each check as it starts ("check NAME", by the reporter), and last, once every test has
// reported, its verdict: "done checks=3 failed=0". Code that ends the program sooner never writes
// that last line.
void report_built_from() {
  if (g_built_from != nullptr)
    engine::notebook::report_completion(std::string("built_from ") + g_built_from);
}
void report_done() {
  engine::notebook::report_completion("done checks=" + std::to_string(g_checks_run) +
                                      " failed=" + std::to_string(g_checks_failed));
}

}  // namespace harness

// A TODO reached names itself and where it is; an engine error reads as Python prints it.
DOCTEST_REGISTER_EXCEPTION_TRANSLATOR(const harness::TodoReached& reached) {
  const harness::OpenTodo& todo = reached.todo();
  const std::string text = "stopped at TODO " + todo.id + " (" +
                           harness::course_path(todo.file.c_str()) + ":" +
                           std::to_string(todo.line) + "): " + todo.what;
  return doctest::String(text.c_str());
}
DOCTEST_REGISTER_EXCEPTION_TRANSLATOR(const engine::Error& error) {
  return doctest::String(engine::py::format_exception_only(error).c_str());
}
// Memory that ran out reads as such, with the limit the course set (learner_run.h), which
// std::bad_alloc's what() does not say.
DOCTEST_REGISTER_EXCEPTION_TRANSLATOR(const std::bad_alloc&) {
  std::string text = "std::bad_alloc: out of memory";
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    text += ": a lab program may use " + std::to_string(limit.rlim_cur >> 30) + " GiB";
  return doctest::String(text.c_str());
}
// Any other exception reads as its type and what(), the way Python names an exception:
// "std::invalid_argument: stoi". (Translators are tried in the order they are registered.)
DOCTEST_REGISTER_EXCEPTION_TRANSLATOR(const std::exception& error) {
  return doctest::String((harness::type_name(typeid(error)) + ": " + error.what()).c_str());
}

int main(int argc, char** argv) {
  engine::notebook::take_completion_channel();
  harness::report_built_from();
  const char* links_option = "--check-lesson-links=";
  std::vector<char*> doctest_args;
  std::string lessons_dir;
  const char* width_option = "--width=";
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], links_option, std::strlen(links_option)) == 0) {
      lessons_dir = argv[i] + std::strlen(links_option);
    } else if (std::strcmp(argv[i], "--details") == 0) {
      harness::g_details = true;
    } else if (std::strncmp(argv[i], width_option, std::strlen(width_option)) == 0) {
      harness::g_width = std::max(20, std::atoi(argv[i] + std::strlen(width_option)));
    } else {
      doctest_args.push_back(argv[i]);
    }
  }
  if (!lessons_dir.empty() && harness::broken_lesson_links(lessons_dir) > 0) return 1;
  try {
    engine::notebook::time_limit_seconds();  // the environment's, checked before a test runs
  } catch (const std::invalid_argument& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }

  doctest::Context context;
  context.setOption("reporters", "lab");
  context.setOption("order-by", "file");  // tests run in the order the lab presents them
  context.setOption("no-breaks", true);
  context.applyCommandLine(static_cast<int>(doctest_args.size()), doctest_args.data());
  const int status = context.run();
  if (context.shouldExit()) return status;
  harness::report_done();
  return harness::checks_run() == 0 ? 3 : status;
}
