#include "harness/lab_source.h"

#include <optional>

#include "engine/notebook/text_file.h"

namespace harness {
namespace {

// The text of a C++ string literal that starts at `at` (a quote), escapes kept as written, and
// where it ends; nullopt if it does not close on this line.
std::optional<std::string> string_literal(std::string_view line, std::size_t& at) {
  if (at >= line.size() || line[at] != '"') return std::nullopt;
  std::string text;
  for (++at; at < line.size() && line[at] != '"'; ++at) {
    if (line[at] == '\\' && at + 1 < line.size()) text += line[at++];
    text += line[at];
  }
  if (at >= line.size()) return std::nullopt;
  ++at;
  return text;
}

std::optional<TodoLine> todo_line(std::string_view line) {
  std::size_t at = line.find_first_not_of(" \t");
  if (at == std::string_view::npos || line.compare(at, 5, "TODO(") != 0) return std::nullopt;
  at += 5;
  const auto id = string_literal(line, at);
  if (!id || line.compare(at, 1, ",") != 0) return std::nullopt;
  at = line.find_first_not_of(" \t", at + 1);
  const auto what = string_literal(line, at);
  if (!what) return std::nullopt;
  return TodoLine{0, *id, *what};
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return lines;
}

// A decoy's fence: "~~~cpp solution", or in a lab of Metal kernels "~~~metal decoy".
bool is_fence(std::string_view line, std::string_view which) {
  for (const std::string_view language : {"~~~cpp ", "~~~metal "}) {
    if (line.starts_with(language) && line.substr(language.size()) == which) return true;
  }
  return false;
}

// `line` is `key: "value"`: the value.
std::optional<std::string> quoted_field(std::string_view line, std::string_view key) {
  const std::string opening = std::string(key) + ": \"";
  if (!line.starts_with(opening) || !line.ends_with('"') || line.size() < opening.size() + 2)
    return std::nullopt;
  return std::string(line.substr(opening.size(), line.size() - opening.size() - 1));
}

}  // namespace

std::vector<TodoLine> todo_lines(std::string_view code) {
  std::vector<TodoLine> todos;
  int number = 0;
  for (std::string_view line : lines_of(code)) {
    ++number;
    if (auto todo = todo_line(line)) {
      todo->line = number;
      todos.push_back(*todo);
    }
  }
  return todos;
}

DecoySpec parse_decoy(std::string_view text, const std::string& path) {
  const auto fail = [&](const std::string& message) { throw DecoyError(path + ": " + message); };
  DecoySpec spec;
  const std::vector<std::string_view> lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (auto fails = quoted_field(line, "Fails")) spec.fails = *fails;
    if (auto says = quoted_field(line, "Says")) spec.says = *says;
    if (auto also = quoted_field(line, "Also fails")) spec.also_fails.push_back(*also);
    if (!is_fence(line, "solution")) continue;
    DecoySpec::Change change;
    std::size_t j = i + 1;
    for (; j < lines.size() && lines[j] != "~~~"; ++j)
      change.solution += std::string(lines[j]) + "\n";
    if (j == lines.size()) fail("a ~~~cpp block without its closing ~~~");
    for (++j; j < lines.size() && !is_fence(lines[j], "decoy"); ++j) {
      if (is_fence(lines[j], "solution")) break;
    }
    if (j == lines.size() || !is_fence(lines[j], "decoy"))
      fail("each ~~~cpp solution block needs a ~~~cpp decoy block after it");
    for (++j; j < lines.size() && lines[j] != "~~~"; ++j)
      change.decoy += std::string(lines[j]) + "\n";
    if (j == lines.size()) fail("a ~~~cpp block without its closing ~~~");
    spec.changes.push_back(std::move(change));
    i = j;
  }
  if (spec.fails.empty() || spec.says.empty())
    fail("a decoy needs the lines Fails: \"test name\" and Says: \"text\"");
  std::vector<std::string> named = spec.also_fails;
  named.push_back(spec.fails);
  for (const std::string& name : named) {
    if (name.find_first_of("*?\\") != std::string::npos) {
      fail("a test name used by a decoy cannot contain * ? or \\ (doctest's wildcards): " + name);
    }
  }
  if (spec.changes.empty())
    fail("no change; a decoy is the solution with ~~~cpp solution and ~~~cpp decoy blocks");
  return spec;
}

std::string apply_decoy(const DecoySpec& spec, std::string_view solution, const std::string& path) {
  std::string code(solution);
  for (const DecoySpec::Change& change : spec.changes) {
    const std::size_t first = code.find(change.solution);
    if (first == std::string::npos || code.find(change.solution, first + 1) != std::string::npos) {
      throw DecoyError(
          path + ": each ~~~cpp solution block must appear exactly once in solution/lab.cpp:\n" +
          change.solution);
    }
    code.replace(first, change.solution.size(), change.decoy);
  }
  return code;
}

std::map<std::string, std::string> apply_decoy_to_files(const DecoySpec& spec,
                                                        std::map<std::string, std::string> files,
                                                        const std::string& path) {
  for (const DecoySpec::Change& change : spec.changes) {
    std::string* found = nullptr;
    int count = 0;
    for (auto& [name, text] : files) {
      for (std::size_t at = 0; (at = text.find(change.solution, at)) != std::string::npos; ++at) {
        found = &text;
        ++count;
      }
    }
    if (count != 1) {
      throw DecoyError(path +
                       ": each ~~~metal solution block must appear exactly once in the solution's "
                       "files:\n" +
                       change.solution);
    }
    found->replace(found->find(change.solution), change.solution.size(), change.decoy);
  }
  return files;
}

std::vector<HintCode> parse_hint_code(std::string_view text, const std::string& path,
                                      std::string_view language) {
  const auto fail = [&](const std::string& message) { throw DecoyError(path + ": " + message); };
  const std::string backticks = "```" + std::string(language),
                    tildes = "~~~" + std::string(language);
  std::vector<HintCode> blocks;
  const std::vector<std::string_view> lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view fence = lines[i];
    if (!fence.starts_with(backticks) && !fence.starts_with(tildes)) continue;
    const std::string_view closing = fence.substr(0, 3);
    fence.remove_prefix(backticks.size());
    if (!fence.empty() && fence.front() != ' ') continue;  // ```cppx: another language
    const std::size_t start = fence.find_first_not_of(' ');
    fence = start == std::string_view::npos ? std::string_view() : fence.substr(start);
    if (!fence.starts_with("TODO ") || fence.size() == 5) {
      fail("line " + std::to_string(i + 1) + ": a hint's " + backticks +
           " block says which TODO lines of the starter it replaces: " + backticks +
           " TODO 1.2, or " + backticks + " TODO 5.1-5.4 for the lines from the first to the last");
    }
    fence.remove_prefix(5);
    const std::size_t dash = fence.find('-');
    HintCode block{std::string(fence.substr(0, dash)),
                   std::string(dash == std::string_view::npos ? fence : fence.substr(dash + 1)),
                   ""};
    std::size_t j = i + 1;
    for (; j < lines.size() && lines[j] != closing; ++j) block.code += std::string(lines[j]) + "\n";
    if (j == lines.size())
      fail("a " + backticks + " block without its closing " + std::string(closing));
    blocks.push_back(std::move(block));
    i = j;
  }
  return blocks;
}

std::string apply_hint_code(const std::vector<HintCode>& blocks, std::string_view starter,
                            const std::string& path) {
  const auto fail = [&](const std::string& message) { throw DecoyError(path + ": " + message); };
  const std::vector<TodoLine> todos = todo_lines(starter);
  const auto line_of = [&](const std::string& id) {
    for (const TodoLine& todo : todos) {
      if (todo.id == id) return todo.line;
    }
    fail("a hint's code replaces TODO " + id + ", which the starter does not have");
    return 0;
  };
  std::vector<std::string> lines;
  for (std::string_view line : lines_of(starter)) lines.emplace_back(line);
  std::vector<bool> replaced(lines.size(), false);
  std::vector<std::string> placed(lines.size());  // the code that goes before each line
  for (const HintCode& block : blocks) {
    const int first = line_of(block.first), last = line_of(block.last);
    if (last < first)
      fail("a hint's code replaces TODO " + block.first + "-" + block.last + ", but TODO " +
           block.last + " comes first");
    const std::string& line = lines[static_cast<std::size_t>(first - 1)];
    const std::string indent = line.substr(0, line.find_first_not_of(" \t"));
    for (int n = first; n <= last; ++n) {
      if (replaced[static_cast<std::size_t>(n - 1)])
        fail("two hints' code replaces line " + std::to_string(n) + " of the starter");
      replaced[static_cast<std::size_t>(n - 1)] = true;
    }
    for (std::string_view code_line : lines_of(block.code)) {
      placed[static_cast<std::size_t>(first - 1)] +=
          (code_line.empty() ? "" : indent) + std::string(code_line) + "\n";
    }
  }
  std::string code;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    code += placed[i];
    if (!replaced[i]) code += lines[i] + "\n";
  }
  return code;
}

std::string read_lab_file(const std::filesystem::path& path) {
  try {
    return engine::notebook::read_text_file(path.string(), 1 << 20);  // a lab file is a page or two
  } catch (const engine::notebook::UnreadableFile& e) {
    throw DecoyError(path.string() + ": cannot be read: " + e.what());
  }
}

}  // namespace harness
