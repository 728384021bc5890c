// main() of every lesson executable: parse the options, load the lesson the program was built
// from, then show it as a notebook or verify it for CTest.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cell_outputs.h"
#include "command_line.h"
#include "engine/errors.h"
#include "engine/machine.h"
#include "engine/notebook/completion_channel.h"
#include "engine/notebook/documented_machines.h"
#include "engine/notebook/lesson_names.h"
#include "engine/notebook/machine_choice.h"
#include "engine/notebook/progress.h"
#include "engine/notebook/stopped_code.h"
#include "engine/notebook/terminal_markdown.h"
#include "engine/notebook/terminal_text.h"
#include "engine/sim.h"
#include "run_config.h"
#include "session.h"

namespace {

using namespace engine::notebook;
namespace fs = std::filesystem;

bool use_color(ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and non-empty
  return isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
}

// Whether the trace file can be written, checked before anything runs. Without blocking: a
// FIFO that nobody reads is refused at once.
bool can_write(const std::string& path, std::string& problem) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0) {
    problem = std::strerror(errno);
    return false;
  }
  ::close(fd);
  return true;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  // A write past the file-size limit (`ulimit -f`) fails instead of killing the run, so that it
  // can say that its trace or the progress was not written (status 4); a lesson program starts
  // no other program that would inherit this.
  std::signal(SIGXFSZ, SIG_IGN);
  take_completion_channel();  // course verify's: a run says how far it got (completion_channel.h)
  std::ostream stdout_stream(std::cout.rdbuf());  // the real stdout, even while cells are captured
  const std::string path = argc > 0 ? argv[0] : "lesson";
  const std::string program = path.substr(path.find_last_of('/') + 1);
  CommandLine options;
  try {
    options = parse_command_line(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << program << ": " << e.what() << "\nTry '" << program << " --help'.\n";
    return kUsageError;
  }
  try {
    time_limit_seconds();  // the environment's, checked before a cell runs
  } catch (const std::invalid_argument& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return kUsageError;
  }
  if (options.help) {
    stdout_stream << options.help_text;
    return 0;
  }
  if (options.glossary) {
    // The glossary sits in lessons/, beside the lesson this program was built from (or its folder,
    // for a section of a lesson in sections).
    const fs::path lesson = registrations().front().file;
    const fs::path lessons =
        shared_file_of(lesson).empty() ? lesson.parent_path() : lesson.parent_path().parent_path();
    const std::string glossary = (lessons / "glossary.md").string();
    try {
      stdout_stream << render_markdown_file(
          glossary,
          TerminalLook{.color = use_color(options.color), .width = terminal_width(STDOUT_FILENO)});
    } catch (const std::runtime_error& e) {
      std::cerr << program << ": " << e.what() << '\n';
      return kUsageError;
    }
    return 0;
  }
  if (options.list_machines) {
    list_machines(stdout_stream, terminal_width(STDOUT_FILENO));
    return 0;
  }
  const engine::MachineProfile* machine = engine::find_machine(options.machine);
  if (machine == nullptr) {
    std::cerr << program << ": " << unknown_machine(options.machine) << '\n';
    return kUsageError;
  }
  try {
    Session session(*machine, options.source);
    Session::activate(&session);
    if (options.list_cells || options.list_tests) {
      const auto lines = options.list_cells ? session.runnable_names() : session.test_listing();
      for (const std::string& line : lines) stdout_stream << line << '\n';
      return 0;
    }
    RunConfig config{.verify = options.verify,
                     .color = use_color(options.color),
                     .width = terminal_width(STDOUT_FILENO),
                     .minimal = options.minimal,
                     .python = options.python,
                     .compare = options.compare,
                     .program = program,
                     .out = &stdout_stream,
                     .outputs = !options.outputs.empty()};
    for (const std::string& name : options.cells) {
      const Cell* cell = session.lesson().find(name);
      if (cell == nullptr || !session.runs(*cell)) {
        std::cerr << program << ": no code cell named '" << name
                  << "' runs in this lesson; cells: " << joined(session.runnable_names()) << '\n';
        return kUsageError;
      }
      config.only.push_back(cell);
    }
    if (!options.trace.empty()) {
      if (std::string problem; !can_write(options.trace, problem)) {
        std::cerr << program << ": cannot write the trace to " << options.trace << ": " << problem
                  << '\n';
        return kUsageError;
      }
      engine::sim::start_tracing();
    }
    int status = run_cells(config);
    report_completion("done");
    if (!options.trace
             .empty()) {  // written before the run counts as verified: a failure here is the run's
      try {
        engine::sim::write_trace(options.trace, options.full_trace
                                                    ? engine::sim::TraceDetail::Full
                                                    : engine::sim::TraceDetail::Summarised);
        std::cerr << wrap(program + ": wrote the trace to " + options.trace +
                              " (open it in Perfetto: ui.perfetto.dev)",
                          terminal_width(STDERR_FILENO));
      } catch (const engine::Error& e) {
        std::cerr << program << ": " << e.what() << '\n';
        if (status == 0) status = kNotWritten;
      }
    }
    // A whole lesson shown as a notebook with every cell as its machine's documentation says
    // counts as verified in the course progress (quiz progress), with the machine. Test runs use
    // --verify, --cell or --source; tools that show the lesson elsewhere use --outputs. A machine
    // without documented outputs was only compared with another's (documented_machines.h).
    const auto number = program_number(session.lesson_name());
    if (status == 0 && number && options.cells.empty() && !options.verify &&
        options.source.empty() && options.outputs.empty() && is_documented(*machine)) {
      try {
        record_lesson_verified(*number, machine->name, std::cerr);
        report_completion("recorded");
      } catch (const std::exception& e) {
        std::cerr << program
                  << ": every cell printed its documented output, but the run could not be "
                  << "recorded as verified: " << e.what() << '\n';
        return kNotWritten;
      }
    }
    if (!options.outputs.empty()) write_cell_outputs(options.outputs);
    return status;
  } catch (const FormatError& e) {
    std::cerr << e.what() << '\n';
    return kUsageError;
  } catch (const engine::Error& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return kUsageError;
  }
}
