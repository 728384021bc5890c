// Running a lesson's cells with doctest: the notebook view or, with --verify, doctest's console.

#include <doctest/doctest.h>

#include <string>

#include "cell_outputs.h"
#include "engine/errors.h"
#include "run_config.h"
#include "session.h"

// A cell that raises shows the line Python would print: "RuntimeError: ...".
DOCTEST_REGISTER_EXCEPTION_TRANSLATOR(const engine::Error& error) {
  return doctest::String(engine::py::format_exception_only(error).c_str());
}

namespace engine::notebook {
namespace {

RunConfig g_config;

}  // namespace

const RunConfig& run_config() { return g_config; }

int run_cells(const RunConfig& config) {
  g_config = config;
  doctest::Context context;
  std::string reporters = config.verify ? "console" : config.outputs ? "" : "notebook";
  if (config.outputs) reporters += std::string(reporters.empty() ? "" : ",") + kCellOutputsReporter;
  context.setOption("reporters", reporters.c_str());
  context.setOption("order-by", "file");  // cells run in the order the lesson presents them
  context.setOption("no-breaks", true);
  context.setOption("gnu-file-line", true);  // file:line:, which editors and terminals link
  context.setOption("no-colors", !config.color);
  if (!config.only.empty()) {
    // doctest's filter is a comma-separated list; claims hold no wildcards (the session
    // checks), so each escaped claim selects exactly its own cell.
    std::string filter;
    for (const Cell* cell : config.only) {
      if (!filter.empty()) filter += ',';
      for (char c : Session::active().claim_of(*cell)) {
        if (c == ',' || c == '\\') filter += '\\';
        filter += c;
      }
    }
    context.setOption("test-case", filter.c_str());
  }
  context.setCout(config.out);
  return context.run();
}

}  // namespace engine::notebook
