#include "learner_python.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace front_door {
namespace {

// `name` in the folders of PATH, as the shell finds it; `name` itself where none has it.
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view folders = path != nullptr ? path : "";
  while (!folders.empty()) {
    const std::size_t colon = folders.find(':');
    const std::string folder(folders.substr(0, colon));
    folders = colon == std::string_view::npos ? "" : folders.substr(colon + 1);
    const std::string file = (folder.empty() ? "." : folder) + "/" + name;
    if (std::filesystem::is_regular_file(file) && access(file.c_str(), X_OK) == 0) return file;
  }
  return name;
}

// One file reached by two names (/bin/python3 and /usr/bin/python3) is one Python. Only the
// folder is resolved: a virtual environment's python3 links to the system's but is another.
std::string same_file_key(const std::string& path) {
  std::error_code error;
  const std::filesystem::path file(path);
  const std::filesystem::path folder = std::filesystem::canonical(
      file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path(), error);
  return error ? path : (folder / file.filename()).string();
}

// The Pythons to try, in order: the one MPS_COURSE_PYTHON names, alone (the learner chose it),
// else python3 on PATH, then the system's own (and on macOS Homebrew's and python.org's).
std::vector<Interpreter> interpreters() {
  const char* chosen = std::getenv("MPS_COURSE_PYTHON");
  if (chosen != nullptr && *chosen != '\0') return {{chosen, "MPS_COURSE_PYTHON"}};
  std::vector<Interpreter> found{{on_path("python3"), "python3 on PATH"}};
  const std::vector<std::string> system {
    "/usr/bin/python3",
#if defined(__APPLE__)
        "/opt/homebrew/bin/python3", "/usr/local/bin/python3",
        "/Library/Frameworks/Python.framework/Versions/Current/bin/python3",
#endif
  };
  for (const std::string& path : system) {
    const bool known = std::any_of(found.begin(), found.end(), [&](const Interpreter& i) {
      return same_file_key(i.path) == same_file_key(path);
    });
    if (!known && std::filesystem::exists(path)) found.push_back({path, "the system's"});
  }
  return found;
}

}  // namespace

PythonRun run_with_torch(const std::string& script, const std::vector<std::string>& arguments,
                         std::chrono::seconds limit) {
  PythonRun run;
  run.tried = interpreters();
  for (const Interpreter& candidate : run.tried) {
    std::vector<std::string> command{candidate.path, script};
    command.insert(command.end(), arguments.begin(), arguments.end());
    run.finished = engine::notebook::run_collecting(command, limit);
    if (run.finished.status != 127 && run.finished.status != kNoTorch) {
      run.python = candidate.path;
      break;
    }
    run.without_torch = run.without_torch || run.finished.status == kNoTorch;
    run.refusals.push_back({candidate, run.finished.output});
  }
  return run;
}

std::string refusal_line(const Refusal& r) {
  std::string said = r.said;
  while (!said.empty() && std::isspace(static_cast<unsigned char>(said.back()))) said.pop_back();
  for (char& c : said) c = c == '\n' ? ' ' : c;
  return r.python.path + " (" + r.python.why + "): " + said;
}

void explain_no_torch(Course& course, const PythonRun& run, const std::string& subcommand,
                      const std::string& what, const std::string& again) {
  std::string tried;
  for (const Refusal& r : run.refusals)
    tried += engine::notebook::wrap(refusal_line(r), course.width(), "  ", "    ");
  if (run.tried.size() == 1 && run.tried.front().why == "MPS_COURSE_PYTHON")
    tried += engine::notebook::wrap(
        "(MPS_COURSE_PYTHON names it, so no other Python was tried; without it the course "
        "tries python3 on PATH, then the system's.)",
        course.width());
  const std::string prefix = "course " + subcommand + ": ";
  if (!run.without_torch) {
    course.err() << engine::notebook::wrap(prefix + "no Python " + what + ". Tried:",
                                           course.width())
                 << tried
                 << engine::notebook::wrap(
                        "Install Python 3 with PyTorch, or name the Python that has it:",
                        course.width())
                 << again;
    return;
  }
  course.err() << engine::notebook::wrap(prefix + "no PyTorch found in any Python tried:",
                                         course.width())
               << tried
               << engine::notebook::wrap(
                      "Install it (pip install torch; on Debian, sudo apt-get install "
                      "python3-torch), or name the Python that has it:",
                      course.width())
               << again;
}

}  // namespace front_door
