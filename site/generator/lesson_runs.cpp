#include "lesson_runs.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "engine/notebook/child_process.h"
#include "text.h"

namespace site {
namespace fs = std::filesystem;

namespace {

struct CellRun {
  std::size_t lesson;
  std::string machine;
  std::string cell;
  fs::path outputs, trace, log;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// The names of the cells a lesson runs, from the program itself (`--list-cells`).
std::vector<std::vector<std::string>> list_cells(const std::vector<Lesson>& lessons,
                                                 const fs::path& work, unsigned jobs) {
  std::vector<engine::notebook::Command> commands;
  for (const Lesson& lesson : lessons) {
    const fs::path dir = work / lesson.stem;
    fs::remove_all(
        dir);  // every run starts afresh: no machine or cell left over from an earlier one
    fs::create_directories(dir);
    if (lesson.program.empty()) continue;  // the page of a shared file runs nothing
    commands.push_back({{lesson.program.string(), "--list-cells"},
                        (dir / "cells.txt").string(),
                        (dir / "cells.log").string()});
  }
  const std::vector<int> statuses = engine::notebook::run_in_parallel(commands, jobs);
  std::vector<std::vector<std::string>> cells;
  std::size_t i = 0;  // the command of each lesson that has a program
  for (const Lesson& lesson : lessons) {
    if (lesson.program.empty()) {
      cells.emplace_back();
      continue;
    }
    if (statuses[i] != 0) {
      throw std::runtime_error(lesson.program.string() + " --list-cells failed:\n" +
                               read_text(commands[i].errors));
    }
    cells.push_back(lines_of(read_text(commands[i].output)));
    ++i;
  }
  return cells;
}

// What one run printed, and its timelines if it ran work on the device.
CellCapture read_run(const CellRun& run, const Lesson& lesson, int status) {
  if (!fs::exists(run.outputs)) {
    throw std::runtime_error(lesson.program.string() + " could not run cell '" + run.cell +
                             "' on " + run.machine + " (exit status " + std::to_string(status) +
                             "):\n" + read_text(run.log.string()));
  }
  auto outputs = read_cell_outputs(run.outputs.string());
  const auto found = outputs.find(run.cell);
  if (found == outputs.end())
    throw std::runtime_error(run.outputs.string() + " has no output of cell '" + run.cell + "'");
  CellCapture capture = std::move(found->second);
  std::vector<TracedProcess> processes = read_trace(run.trace.string());
  fs::remove(run.trace);  // a long cell's trace takes tens of megabytes
  std::erase_if(processes, [](const TracedProcess& p) { return p.spans.empty(); });
  const bool device_work = std::any_of(processes.begin(), processes.end(),
                                       [](const TracedProcess& p) { return p.has_device_work(); });
  if (device_work) capture.timeline = std::move(processes);
  return capture;
}

}  // namespace

std::map<std::string, CellCapture> read_cell_outputs(const std::string& path) {
  std::map<std::string, CellCapture> captures;
  try {
    const nlohmann::json document = nlohmann::json::parse(read_text(path));
    for (const nlohmann::json& cell : document.at("cells")) {
      CellCapture capture;
      capture.output = cell.value("output", std::string());
      capture.from_stderr = cell.value("from_stderr", std::vector<bool>{});
      capture.passed = cell.at("passed").get<bool>();
      capture.matches = cell.value("matches", true);
      capture.problems = cell.at("problems").get<std::vector<std::string>>();
      for (const nlohmann::json& launch : cell.value("launches", nlohmann::json::array())) {
        capture.launches.push_back(
            {.kernel = launch.at("kernel").get<std::string>(),
             .grid = launch.at("grid").get<std::array<std::uint64_t, 3>>(),
             .group = launch.at("group").get<std::array<std::uint64_t, 3>>(),
             .calls = launch.at("calls").get<int>(),
             .idle =
                 launch.at("idle").get<std::vector<std::pair<std::uint64_t, std::uint64_t>>>()});
      }
      captures[cell.at("name").get<std::string>()] = std::move(capture);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not the outputs of a lesson run: " + e.what());
  }
  return captures;
}

std::vector<LessonCaptures> run_lessons(const std::vector<Lesson>& lessons,
                                        const std::vector<std::string>& machines,
                                        const fs::path& work, unsigned jobs,
                                        RunStatistics& statistics) {
  const std::vector<std::vector<std::string>> cells = list_cells(lessons, work, jobs);
  std::vector<CellRun> runs;
  std::vector<engine::notebook::Command> commands;
  for (std::size_t l = 0; l < lessons.size(); ++l) {
    for (const std::string& machine : machines) {
      const fs::path dir = work / lessons[l].stem / machine;
      fs::create_directories(dir);
      for (const std::string& cell : cells[l]) {
        CellRun run{l,
                    machine,
                    cell,
                    dir / (cell + ".json"),
                    dir / (cell + ".trace.json"),
                    dir / (cell + ".log")};
        fs::remove(run.outputs);  // so that a run that writes nothing is not read as a stale one
        commands.push_back({{lessons[l].program.string(), "--machine", machine, "--cell", cell,
                             "--outputs", run.outputs.string(), "--trace", run.trace.string()},
                            run.log.string(),
                            ""});
        runs.push_back(std::move(run));
      }
    }
  }
  const std::vector<int> statuses = engine::notebook::run_in_parallel(commands, jobs);
  // Reading a long cell's trace takes seconds: the results are read `jobs` at a time too.
  std::vector<CellCapture> results(runs.size());
  std::vector<std::exception_ptr> errors(runs.size());
  std::atomic<std::size_t> next = 0;
  {
    std::vector<std::jthread> readers;
    for (unsigned j = 0; j < std::max(1u, jobs); ++j) {
      readers.emplace_back([&] {
        for (std::size_t i = next++; i < runs.size(); i = next++) {
          try {
            results[i] = read_run(runs[i], lessons[runs[i].lesson], statuses[i]);
          } catch (...) {
            errors[i] = std::current_exception();
          }
        }
      });
    }
  }
  std::vector<LessonCaptures> captures(lessons.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (errors[i]) std::rethrow_exception(errors[i]);
    if (!results[i].passed) {
      statistics.failed_cells.push_back("lesson " + lessons[runs[i].lesson].number + " cell " +
                                        runs[i].cell + " on " + runs[i].machine);
    }
    captures[runs[i].lesson][runs[i].machine][runs[i].cell] = std::move(results[i]);
  }
  statistics.runs = runs.size();
  return captures;
}

}  // namespace site
