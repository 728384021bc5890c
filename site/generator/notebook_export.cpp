#include "notebook_export.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "engine/notebook/prose_values.h"
#include "engine/version.h"
#include "text.h"

namespace site {
namespace {

using engine::notebook::Cell;
using nlohmann::json;

// nbformat's multiline strings: a list of lines, each but the last ending in a newline.
json multiline(const std::string& text) {
  json lines = json::array();
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  if (!lines.empty()) {
    std::string& last = lines.back().get_ref<std::string&>();
    if (!last.empty() && last.back() == '\n') last.pop_back();
  }
  return lines;
}

json markdown_cell(const std::string& id, const std::string& text) {
  return {{"cell_type", "markdown"},
          {"id", id},
          {"metadata", json::object()},
          {"source", multiline(text)}};
}

// The cell's output as stream outputs: consecutive lines from one stream become one output.
json stream_outputs(const CellCapture& capture) {
  json outputs = json::array();
  std::istringstream in(capture.output);
  std::size_t index = 0;
  for (std::string line; std::getline(in, line); ++index) {
    const bool from_stderr = index < capture.from_stderr.size() && capture.from_stderr[index];
    const std::string stream = from_stderr ? "stderr" : "stdout";
    if (outputs.empty() || outputs.back()["name"] != stream) {
      outputs.push_back({{"output_type", "stream"}, {"name", stream}, {"text", ""}});
    }
    outputs.back()["text"] = outputs.back()["text"].get<std::string>() + line + "\n";
  }
  for (const std::string& problem : capture.problems) {
    outputs.push_back(
        {{"output_type", "stream"}, {"name", "stderr"}, {"text", "failed: " + problem + "\n"}});
  }
  for (json& output : outputs) output["text"] = multiline(output["text"].get<std::string>());
  return outputs;
}

// The prose with the numbers it quotes from outputs (prose_values.h): this notebook's own
// outputs, or another machine's documented ones where the prose names that machine.
std::string with_output_values(const std::string& prose, const Lesson& lesson,
                               const std::map<std::string, CellCapture>& outputs) {
  return engine::notebook::with_values(
      prose, [&](const engine::notebook::ValueReference& reference) {
        std::optional<std::string> value;
        if (!reference.machine.empty()) {
          value = engine::notebook::documented_value(lesson.source, reference, reference.machine);
        } else if (const auto found = outputs.find(reference.cell); found != outputs.end()) {
          value = engine::notebook::value_after(found->second.output, reference.anchor);
        }
        return value.value_or("?");
      });
}

}  // namespace

std::string lesson_notebook(const Lesson& lesson, const std::map<std::string, CellCapture>& outputs,
                            const std::string& machine) {
  json cells = json::array();
  const bool section = !lesson.source.shared_cells.empty();
  cells.push_back(markdown_cell(
      "about",
      "*Exported from `lessons/" + lesson.file + "` with the outputs of the simulated machine `" +
          machine + "`" +
          (section ? ", after the file its lesson's sections share, which it includes" : "") +
          ". Each code cell is part of the lesson's C++ program: run it with "
          "`build/lessons/" +
          lesson.target + " --cell NAME` (add `--machine NAME` for another computer).*"));
  int markdown = 0, setup = 0, executed = 0;
  // A section's notebook stands alone: the shared file's prose and code come first.
  for (const std::vector<Cell>* part : {&lesson.source.shared_cells, &lesson.source.cells}) {
    for (const Cell& cell : *part) {
      if (!cell.is_code()) {
        cells.push_back(markdown_cell("markdown-" + std::to_string(++markdown),
                                      with_output_values(joined(cell.lines), lesson, outputs)));
        continue;
      }
      const std::string id = cell.name.empty() ? "setup-" + std::to_string(++setup) : cell.name;
      json code = {{"cell_type", "code"},        {"id", id},
                   {"metadata", json::object()}, {"source", multiline(joined(cell.lines))},
                   {"execution_count", nullptr}, {"outputs", json::array()}};
      if (!cell.name.empty()) code["metadata"]["name"] = cell.name;
      if (const auto found = outputs.find(cell.name);
          !cell.name.empty() && found != outputs.end()) {
        code["execution_count"] = ++executed;
        code["outputs"] = stream_outputs(found->second);
      }
      cells.push_back(std::move(code));
      if (cell.python) {
        std::string text =
            (cell.name.empty() ? "In Python, every twin of the lesson runs this first:\n"
                               : "The same cell in Python:\n");
        text += "```python\n" + cell.python->code() + "```\n";
        if (!cell.python->differs.empty()) {
          text += "\nReal PyTorch" +
                  (cell.python->before.empty() ? "" : " before " + cell.python->before) +
                  " prints something else here: " + cell.python->differs + "\n";
        }
        cells.push_back(markdown_cell(id + "-python", text));
      }
    }
  }
  const json notebook = {
      {"nbformat", 4},
      {"nbformat_minor", 5},
      {"metadata",
       {{"language_info",
         {{"name", "c++"}, {"file_extension", ".cpp"}, {"mimetype", "text/x-c++src"}}},
        {"mps_course",
         {{"lesson", lesson.stem},
          {"machine", machine},
          {"pytorch", engine::kEmulatedPyTorchVersion}}}}},
      {"cells", cells}};
  return notebook.dump(1) + "\n";
}

}  // namespace site
