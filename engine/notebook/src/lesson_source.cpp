#include "engine/notebook/lesson_source.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "engine/notebook/lesson_names.h"
#include "engine/notebook/text_diff.h"
#include "engine/notebook/text_file.h"

namespace engine::notebook {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

// "// %%" alone or followed by a space starts a cell; the text after it describes the cell.
std::optional<std::string_view> marker_body(std::string_view line) {
  constexpr std::string_view kMarker = "// %%";
  if (line.substr(0, kMarker.size()) != kMarker) return std::nullopt;
  if (line.size() > kMarker.size() && line[kMarker.size()] != ' ') return std::nullopt;
  return trim(line.substr(kMarker.size()));
}

// "// text" -> "text", "//" -> "": the comment prefix of prose and output lines.
std::optional<std::string> comment_text(std::string_view line) {
  if (line == "//") return std::string();
  if (line.substr(0, 3) == "// ") return std::string(line.substr(3));
  return std::nullopt;
}

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

struct Marker {
  enum Kind { Code, Markdown, Output, Python } kind = Code;
  std::string name{};
  std::vector<std::string> machines{};  // [output]: documented for; a code cell: compared with
  std::string differs{};
  std::string before{};
  bool requires_mps = false;         // a code cell: requires="mps"
  std::vector<std::string> facts{};  // a Markdown cell: facts="..."
};

struct Attribute {
  std::string key;
  std::string value;
};

// `key="value" key="value"`: the options of a marker. Values cannot contain a double quote.
std::optional<std::vector<Attribute>> parse_attributes(std::string_view text) {
  std::vector<Attribute> attributes;
  text = trim(text);
  while (!text.empty()) {
    const auto equals = text.find("=\"");
    if (equals == std::string_view::npos || equals == 0) return std::nullopt;
    const auto close = text.find('"', equals + 2);
    if (close == std::string_view::npos) return std::nullopt;
    attributes.push_back({std::string(text.substr(0, equals)),
                          std::string(text.substr(equals + 2, close - equals - 2))});
    text = text.substr(close + 1);
    if (!text.empty() && text.front() != ' ') return std::nullopt;
    text = trim(text);
  }
  return attributes;
}

// "2.6", "2.10": what PyTorch's releases are called.
bool valid_release(std::string_view version) {
  const auto dot = version.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot + 1 == version.size()) return false;
  for (std::size_t i = 0; i < version.size(); ++i) {
    if (i != dot && (version[i] < '0' || version[i] > '9')) return false;
  }
  return true;
}

std::vector<std::string> split_commas(std::string_view list) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const auto comma = list.find(',', start);
    items.emplace_back(trim(list.substr(start, comma - start)));
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  LessonSource parse(std::string_view text) {
    const std::vector<std::string> lines = split_lines(text);
    cells_.push_back(Cell{.kind = CellKind::Code, .marker_line = 0, .first_line = 1});
    for (std::size_t i = 0; i < lines.size(); ++i) {
      line_no_ = static_cast<int>(i) + 1;
      std::string_view line = lines[i];
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (auto body = marker_body(line)) {
        start(parse_marker(*body));
      } else {
        add_content(line);
      }
    }
    return finish();
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(path_, line_no_, message);
  }

  Marker parse_marker(std::string_view body) const {
    Marker m;
    if (body.empty()) return m;
    if (body.front() != '[') return parse_code_marker(body);
    const auto close = body.find(']');
    if (close == std::string_view::npos) fail("unclosed '[' in the cell marker");
    const std::string_view type = body.substr(1, close - 1);
    const std::string_view rest = trim(body.substr(close + 1));
    if (type == "markdown" || type == "md") {
      m.kind = Marker::Markdown;
      if (!rest.empty()) m.facts = parse_facts(rest);
      return m;
    }
    if (type == "python") return parse_python_marker(rest);
    if (type != "output") {
      fail("unknown cell type [" + std::string(type) +
           "]; use [markdown], [output], [python], or no type for a code cell");
    }
    m.kind = Marker::Output;
    if (rest.empty()) return m;
    constexpr std::string_view kKey = "machine=\"";
    if (rest.substr(0, kKey.size()) != kKey || rest.back() != '"' ||
        rest.size() <= kKey.size() + 1) {
      fail("expected machine=\"NAME\" or machine=\"NAME,NAME\" after [output], got '" +
           std::string(rest) + "'");
    }
    m.machines = split_commas(rest.substr(kKey.size(), rest.size() - kKey.size() - 1));
    for (const std::string& machine : m.machines) {
      if (machine.empty()) fail("empty machine name in '" + std::string(rest) + "'");
    }
    return m;
  }

  // "name", "name compare=\"m1-8gb,linux-x86_64\"" or "name requires=\"mps\"": a named code
  // cell, the machines whose documented outputs the notebook shows under it, and whether it
  // runs only where MPS is available.
  Marker parse_code_marker(std::string_view body) const {
    Marker m;
    // Options are key="value"; without an '=', the whole text is meant as the name.
    const auto space =
        body.find('=') == std::string_view::npos ? std::string_view::npos : body.find(' ');
    const std::string_view name = body.substr(0, space);
    if (name.find('=') != std::string_view::npos) {
      fail("a code cell's options follow its name: // %% my_cell " + std::string(body));
    }
    if (!valid_name(name)) {
      fail("cell name '" + std::string(name) +
           "' must use lowercase letters, digits and underscores (it names a test)");
    }
    m.name = name;
    if (space == std::string_view::npos) return m;
    const std::string_view rest = body.substr(space + 1);
    const auto attributes = parse_attributes(rest);
    if (!attributes) {
      fail("expected compare=\"NAME,NAME\" or requires=\"mps\" after the cell name, got '" +
           std::string(trim(rest)) + "'");
    }
    for (const Attribute& attribute : *attributes) {
      if (attribute.key == "requires") {
        if (attribute.value != "mps")
          fail("requires=\"" + attribute.value + "\": a cell can only require \"mps\"");
        m.requires_mps = true;
        continue;
      }
      if (attribute.key != "compare") {
        fail("unknown option '" + attribute.key + "' of cell '" + m.name +
             "'; a code cell takes compare and requires");
      }
      if (trim(attribute.value).empty()) {
        fail(
            "compare=\"\" is empty; name the machines whose documented output the prose discusses");
      }
      m.machines = split_commas(attribute.value);
      for (std::size_t i = 0; i < m.machines.size(); ++i) {
        const std::string& machine = m.machines[i];
        if (machine.empty()) fail("empty machine name in compare=\"" + attribute.value + "\"");
        if (std::find(m.machines.begin(), m.machines.begin() + static_cast<std::ptrdiff_t>(i),
                      machine) != m.machines.begin() + static_cast<std::ptrdiff_t>(i)) {
          fail("compare names '" + machine + "' twice");
        }
      }
    }
    return m;
  }

  // facts="221 ms, 64 GB": the numbers with a unit that the prose states as facts rather than
  // quoting an output (prose_values.h). Items are separated by a comma and a space, since a
  // number may hold a comma of its own (1,986 ms).
  std::vector<std::string> parse_facts(std::string_view rest) const {
    constexpr std::string_view kKey = "facts=\"";
    if (rest.substr(0, kKey.size()) != kKey || rest.back() != '"' ||
        rest.size() <= kKey.size() + 1) {
      fail("a [markdown] cell takes only facts=\"...\", the numbers its prose states, got '" +
           std::string(rest) + "'");
    }
    const std::string_view list = rest.substr(kKey.size(), rest.size() - kKey.size() - 1);
    std::vector<std::string> facts;
    for (std::size_t start = 0;;) {
      const std::size_t comma = list.find(", ", start);
      facts.emplace_back(trim(list.substr(start, comma - start)));
      if (facts.back().empty()) fail("empty item in " + std::string(rest));
      if (comma == std::string_view::npos) break;
      start = comma + 2;
    }
    return facts;
  }

  Marker parse_python_marker(std::string_view rest) const {
    Marker m{.kind = Marker::Python};
    const auto attributes = parse_attributes(rest);
    if (!attributes) {
      fail("expected differs=\"WHY\" and optionally before=\"2.6\" after [python], got '" +
           std::string(rest) + "'");
    }
    for (const Attribute& attribute : *attributes) {
      if (attribute.key == "differs") {
        if (trim(attribute.value).empty()) {
          fail("differs=\"\" is empty; say why real PyTorch prints something else");
        }
        m.differs = attribute.value;
      } else if (attribute.key == "before") {
        if (!valid_release(attribute.value)) {
          fail("before=\"" + attribute.value + "\" is not a PyTorch release such as \"2.6\"");
        }
        m.before = attribute.value;
      } else {
        fail("unknown option '" + attribute.key + "' of [python]; it takes differs and before");
      }
    }
    if (!m.before.empty() && m.differs.empty()) {
      fail("before=\"" + m.before + "\" needs differs=\"WHY\": say what older releases print");
    }
    return m;
  }

  void start(const Marker& m) {
    output_ = nullptr;
    twin_ = nullptr;
    switch (m.kind) {
      case Marker::Code:
        if (!m.name.empty()) {
          const auto [it, inserted] = names_.emplace(m.name, line_no_);
          if (!inserted) {
            fail("duplicate cell name '" + m.name + "' (first used at line " +
                 std::to_string(it->second) + ")");
          }
        }
        cells_.push_back(Cell{.kind = CellKind::Code,
                              .name = m.name,
                              .marker_line = line_no_,
                              .first_line = line_no_ + 1,
                              .compare = m.machines,
                              .requires_mps = m.requires_mps});
        break;
      case Marker::Markdown:
        cells_.push_back(Cell{.kind = CellKind::Markdown,
                              .marker_line = line_no_,
                              .first_line = line_no_ + 1,
                              .facts = m.facts});
        break;
      case Marker::Output:
        attach_output(m.machines);
        break;
      case Marker::Python:
        attach_python(m);
        break;
    }
  }

  void attach_python(const Marker& m) {
    Cell& owner = cells_.back();
    const bool header_only = cells_.size() == 1 && owner.lines.empty();
    if (header_only || !owner.is_code()) fail("[python] block has no code cell before it");
    if (owner.python) {
      fail("cell '" + owner.name + "' already has a Python twin (line " +
           std::to_string(owner.python->marker_line) + ")");
    }
    if (owner.name.empty() && !m.differs.empty()) {
      fail("the Python prelude (the twin of an unnamed cell) prints nothing, so it cannot differ");
    }
    owner.python = PythonTwin{.marker_line = line_no_, .differs = m.differs, .before = m.before};
    twin_ = &*owner.python;
    block_closed_ = false;
  }

  void attach_output(const std::vector<std::string>& machines) {
    Cell& owner = cells_.back();
    const bool header_only = cells_.size() == 1 && owner.lines.empty();
    if (header_only || !owner.is_code()) fail("output block has no code cell before it");
    if (owner.name.empty()) {
      fail(
          "output block follows an unnamed code cell; name the cell (// %% my_cell) so its "
          "output can be checked");
    }
    for (const OutputBlock& existing : owner.outputs) {
      const std::string where = " (line " + std::to_string(existing.marker_line) + ")";
      if (machines.empty() && existing.machines.empty()) {
        fail("cell '" + owner.name + "' already has a documented output" + where +
             "; name the machines this one is for: // %% [output] machine=\"NAME\"");
      }
      for (const std::string& machine : machines) {
        if (existing.documents(machine)) {
          fail("cell '" + owner.name + "' already documents machine '" + machine + "'" + where);
        }
      }
    }
    if (owner.python) fail("output block after the Python twin; document outputs before [python]");
    owner.outputs.push_back(OutputBlock{.machines = machines, .marker_line = line_no_});
    output_ = &owner.outputs.back();
    block_closed_ = false;
  }

  void add_content(std::string_view line) {
    if (output_ != nullptr) {
      add_block_line(line, output_->lines, output_->marker_line, "output block",
                     "documented output (// text)");
      return;
    }
    if (twin_ != nullptr) {
      add_block_line(line, twin_->lines, twin_->marker_line, "[python] block", "Python (// code)");
      return;
    }
    Cell& cell = cells_.back();
    if (cell.kind == CellKind::Markdown && !is_blank(line)) {
      auto text = comment_text(line);
      if (!text) {
        fail("code inside the Markdown cell that starts at line " +
             std::to_string(cell.marker_line) + "; start a code cell with // %% before it");
      }
      cell.lines.push_back(*text);
      return;
    }
    cell.lines.emplace_back(cell.kind == CellKind::Markdown ? std::string_view() : line);
  }

  // Output and Python blocks are // lines up to the next marker; blank lines may follow them.
  void add_block_line(std::string_view line, std::vector<std::string>& lines, int marker_line,
                      std::string_view block, std::string_view content) {
    if (is_blank(line)) {
      block_closed_ = true;
      return;
    }
    auto text = comment_text(line);
    if (block_closed_ || !text) {
      fail("unterminated " + std::string(block) + " (started at line " +
           std::to_string(marker_line) + "): this line is neither " + std::string(content) +
           " nor a new // %% cell");
    }
    lines.push_back(*text);
  }

  LessonSource finish() {
    LessonSource lesson{.path = path_};
    for (Cell& cell : cells_) {
      while (!cell.lines.empty() && is_blank(cell.lines.back())) cell.lines.pop_back();
      while (!cell.lines.empty() && is_blank(cell.lines.front())) {
        cell.lines.erase(cell.lines.begin());
        ++cell.first_line;
      }
      const bool empty_header = cell.marker_line == 0 && cell.lines.empty();
      if (!empty_header) lesson.cells.push_back(std::move(cell));
    }
    return lesson;
  }

  std::string path_;
  int line_no_ = 0;
  std::vector<Cell> cells_;
  std::map<std::string, int> names_;
  OutputBlock* output_ = nullptr;  // the output block being read, if any
  PythonTwin* twin_ = nullptr;     // the Python block being read, if any
  bool block_closed_ = false;      // a blank line ended the block being read
};

}  // namespace

std::string OutputBlock::text() const {
  std::string joined;
  for (const std::string& line : lines) {
    joined += line;
    joined += '\n';
  }
  return joined;
}

int OutputBlock::line_of(std::size_t index) const noexcept {
  if (lines.empty()) return marker_line;
  return marker_line + 1 + static_cast<int>(std::min(index, lines.size() - 1));
}

bool OutputBlock::documents(std::string_view machine) const {
  for (const std::string& m : machines) {
    if (m == machine) return true;
  }
  return false;
}

std::string PythonTwin::code() const {
  std::string joined;
  for (const std::string& line : lines) {
    joined += line;
    joined += '\n';
  }
  return joined;
}

std::string LessonSource::python_prelude() const {
  std::string prelude;
  for (const std::vector<Cell>* part : {&shared_cells, &cells}) {
    for (const Cell& cell : *part) {
      if (cell.is_code() && cell.name.empty() && cell.python) prelude += cell.python->code();
    }
  }
  return prelude;
}

std::string LessonSource::twin_script(const Cell& cell) const {
  std::string script = python_prelude();
  if (cell.requires_mps) {
    script += "if not torch.backends.mps.is_available():  # requires=\"mps\"\n    print(\"" +
              std::string(kNeedsMpsLine) + "\")\n    raise SystemExit(0)\n";
  }
  return script + (cell.python ? cell.python->code() : std::string());
}

const OutputBlock* Cell::output_for(std::string_view machine) const {
  const OutputBlock* fallback = nullptr;
  for (const OutputBlock& block : outputs) {
    if (block.documents(machine)) return &block;
    if (block.machines.empty()) fallback = &block;
  }
  return fallback;
}

const Cell* LessonSource::find(std::string_view name) const {
  for (const Cell& cell : cells) {
    if (cell.is_code() && cell.name == name) return &cell;
  }
  return nullptr;
}

const Cell* LessonSource::code_cell_at(int line) const {
  for (const Cell& cell : cells) {
    if (cell.is_code() && line >= cell.first_line && line <= cell.last_line()) return &cell;
  }
  return nullptr;
}

FormatError::FormatError(std::string path, int line, const std::string& message)
    : std::runtime_error(path + (line > 0 ? ":" + std::to_string(line) : std::string()) +
                         ": error: " + message),
      path_(std::move(path)),
      line_(line),
      message_(message) {}

LessonSource parse_lesson(std::string_view text, std::string path) {
  return Parser(std::move(path)).parse(text);
}

namespace {

LessonSource load_one_file(const std::string& path) {
  constexpr std::uintmax_t kLimit = 16u << 20;  // a lesson is a few hundred KiB
  std::string text;
  try {
    text = read_text_file(path, kLimit);
  } catch (const UnreadableFile& e) {
    throw FormatError(path, 0, std::string("cannot read the lesson: ") + e.what());
  }
  return parse_lesson(text, path);
}

}  // namespace

LessonSource load_lesson(const std::string& path) {
  LessonSource lesson = load_one_file(path);
  if (const std::filesystem::path shared = shared_file_of(path); !shared.empty()) {
    lesson.shared_path = shared.string();
    lesson.shared_cells = load_one_file(lesson.shared_path).cells;
  }
  return lesson;
}

}  // namespace engine::notebook
