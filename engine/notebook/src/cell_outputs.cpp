// --outputs: a doctest reporter that collects each cell's run instead of showing it, and the
// writer of the JSON file it becomes.

#include "cell_outputs.h"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/version.h"
#include "session.h"

namespace engine::notebook {
namespace {

nlohmann::json& collected_cells() {
  static nlohmann::json cells = nlohmann::json::array();
  return cells;
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
