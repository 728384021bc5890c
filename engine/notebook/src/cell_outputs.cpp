// --outputs: a doctest reporter that collects each cell's run instead of showing it, and the
// writer of the JSON file it becomes.

#include "cell_outputs.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/kernel_launches.h"
#include "engine/version.h"
#include "session.h"

namespace engine::notebook {
namespace {

nlohmann::json& collected_cells() {
  static nlohmann::json cells = nlohmann::json::array();
  return cells;
}

// The ranges [first, end) of the threads that touched no device memory.
nlohmann::json idle_ranges(const std::vector<bool>& idle) {
  nlohmann::json ranges = nlohmann::json::array();
  for (std::size_t i = 0; i < idle.size();) {
    if (!idle[i]) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < idle.size() && idle[end]) ++end;
    ranges.push_back({i, end});
    i = end;
  }
  return ranges;
}

// Each distinct launch (kernel, grid and threadgroup size) once, with how many calls made it.
nlohmann::json launches_json(const std::vector<sim::KernelLaunch>& launches) {
  nlohmann::json distinct = nlohmann::json::array();
  for (const sim::KernelLaunch& launch : launches) {
    const auto same = std::find_if(distinct.begin(), distinct.end(), [&](const nlohmann::json& j) {
      return j["kernel"] == launch.kernel && j["grid"] == launch.grid && j["group"] == launch.group;
    });
    if (same != distinct.end()) {
      (*same)["calls"] = (*same)["calls"].get<int>() + 1;
      continue;
    }
    distinct.push_back({{"kernel", launch.kernel},
                        {"grid", launch.grid},
                        {"group", launch.group},
                        {"threadgroups", launch.threadgroups},
                        {"calls", 1},
                        {"idle", idle_ranges(launch.idle_threads)}});
  }
  return distinct;
}

class CellOutputsReporter : public doctest::IReporter {
 public:
  explicit CellOutputsReporter(const doctest::ContextOptions&) : session_(Session::active()) {}

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

  void test_case_start(const doctest::TestCaseData& test) override {
    cell_ = &session_.cell_registered_at(static_cast<int>(test.m_line));
    problems_.clear();
    launches_.emplace();
  }

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    nlohmann::json entry = {
        {"name", cell_->name}, {"passed", stats.testCaseSuccess}, {"problems", problems_}};
    if (std::optional<CellRun> run = session_.take_last()) {
      entry["output"] = run->output;
      entry["from_stderr"] = run->from_stderr;
      entry["documented"] = run->documented != nullptr;
      if (run->documented != nullptr && run->documented->marker_line > 0) {
        // Where the block compared with sits in the source: what a tool rewriting it needs.
        entry["documented_block"] = {{"marker_line", run->documented->marker_line},
                                     {"lines", run->documented->lines.size()}};
      }
      entry["matches"] = run->matches;
      if (!run->difference.empty()) entry["difference"] = run->difference;
    }
    if (!launches_->launches().empty()) entry["launches"] = launches_json(launches_->launches());
    launches_.reset();
    collected_cells().push_back(std::move(entry));
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    problems_.push_back(std::string(e.is_crash ? "crashed: " : "raised ") + e.error_string.c_str());
  }

  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    problems_.push_back("line " + std::to_string(a.m_line) + ": " + doctest::assertString(a.m_at) +
                        "( " + a.m_expr + " ) failed");
  }

  void log_message(const doctest::MessageData& m) override {
    problems_.push_back(m.m_string.c_str());
  }

 private:
  Session& session_;
  const Cell* cell_ = nullptr;
  std::optional<sim::KernelLaunchRecording> launches_;  // the cell's compile_shader launches
  std::vector<std::string> problems_;
};

}  // namespace

void write_cell_outputs(const std::string& path) {
  const Session& session = Session::active();
  const nlohmann::json document = {{"lesson", session.lesson_name()},
                                   {"source", session.lesson().path},
                                   {"machine", session.machine().name},
                                   {"pytorch", kEmulatedPyTorchVersion},
                                   {"cells", collected_cells()}};
  std::ofstream out(path);
  out << document.dump(1) << '\n';
  if (!out) throw Error("cannot write the cells' outputs to " + path);
}

}  // namespace engine::notebook

DOCTEST_REGISTER_REPORTER(engine::notebook::kCellOutputsReporter, 1,
                          engine::notebook::CellOutputsReporter);
