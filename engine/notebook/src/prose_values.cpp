#include "engine/notebook/prose_values.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "engine/notebook/documented_machines.h"

namespace engine::notebook {
namespace {

constexpr std::string_view kOpen = "{{", kClose = "}}";

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool valid_cell_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
  });
}

// The length of the number at `at` ("1,986", "4.71", "-3"), 0 if none starts there. A number
// starts at a digit (or a minus before one) that does not continue a word or another number.
std::size_t number_length(std::string_view text, std::size_t at) {
  std::size_t i = at;
  if (i < text.size() && text[i] == '-') ++i;
  if (i >= text.size() || !is_digit(text[i])) return 0;
  if (at > 0) {
    const char before = text[at - 1];
    if (is_letter(before) || is_digit(before) || before == '.' || before == '_') return 0;
  }
  while (i < text.size() && (is_digit(text[i]) || ((text[i] == ',' || text[i] == '.') &&
                                                   i + 1 < text.size() && is_digit(text[i + 1])))) {
    ++i;
  }
  return i - at;
}

// The units whose numbers an output prints and prose must therefore not restate: times, rates,
// sizes, shares and ratios. "x" counts only written against its number (2.1x: "256 x 384" is a
// shape).
std::size_t unit_length(std::string_view text, std::size_t at) {
  static constexpr std::array<std::string_view, 15> kSpaced = {
      "ms",  "µs",  "us",  "ns", "s",  "%",  "TFLOPS", "GFLOPS",
      "GiB", "MiB", "KiB", "GB", "MB", "KB", "GB/s"};
  std::size_t i = at;
  if (i < text.size() && (text[i] == 'x' || text[i] == 'X')) {
    const bool alone = i + 1 >= text.size() || !is_letter(text[i + 1]);
    if (alone) return 1;
  }
  if (i < text.size() && (text[i] == ' ' || text[i] == '\n')) ++i;  // prose wraps anywhere
  std::size_t best = 0;
  for (std::string_view unit : kSpaced) {
    if (text.substr(i, unit.size()) != unit) continue;
    const std::size_t after = i + unit.size();
    const bool whole = after >= text.size() || !(is_letter(text[after]) || is_digit(text[after]));
    if (whole && unit.size() > best) best = unit.size();
  }
  return best == 0 ? 0 : i - at + best;
}

// `prose` with references, `code` spans and fenced code blocks blanked out: what prose states.
std::string stated_text(std::string_view prose) {
  std::string text(prose);
  for (const ValueReference& reference : references_in(prose)) {
    std::fill(text.begin() + static_cast<std::ptrdiff_t>(reference.begin),
              text.begin() + static_cast<std::ptrdiff_t>(reference.end), ' ');
  }
  bool in_fence = false, in_span = false;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == line_start && text.compare(i, 3, "```") == 0) in_fence = !in_fence;
    if (text[i] == '\n') {
      line_start = i + 1;
      in_span = false;  // a code span never crosses a line in the lessons' prose
      if (in_fence) continue;
    }
    if (in_fence && text[i] != '\n') {
      text[i] = ' ';
      continue;
    }
    if (text[i] == '`') in_span = !in_span;
    if (in_span) text[i] = ' ';
  }
  return text;
}

// "16    256#2" -> the anchor's text and which number after it is meant (the 2nd); plain text
// means the first.
std::pair<std::string_view, int> split_position(std::string_view anchor) {
  const std::size_t hash = anchor.rfind('#');
  if (hash == std::string_view::npos || hash + 1 == anchor.size()) return {anchor, 1};
  int nth = 0;
  for (const char c : anchor.substr(hash + 1)) {
    if (!is_digit(c) || nth > 99) return {anchor, 1};
    nth = nth * 10 + (c - '0');
  }
  return {anchor.substr(0, hash), std::max(nth, 1)};
}

// Where `anchor` ends in `text`: its parts, separated by "...", found in order (the gaps may
// span lines).
std::optional<std::size_t> end_of_anchor(std::string_view text, std::string_view anchor) {
  constexpr std::string_view kGap = "...";
  std::size_t at = 0;
  for (std::size_t start = 0;;) {
    const std::size_t gap = anchor.find(kGap, start);
    const std::string_view part = anchor.substr(start, gap - start);
    const std::size_t found = text.find(part, at);
    if (found == std::string_view::npos) return std::nullopt;
    at = found + part.size();
    if (gap == std::string_view::npos) return at;
    start = gap + kGap.size();
  }
}

struct StatedNumber {
  std::size_t at;
  std::string text;
};

std::vector<StatedNumber> stated_number_spans(std::string_view prose) {
  const std::string text = stated_text(prose);
  std::vector<StatedNumber> numbers;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t n = number_length(text, i);
    if (n == 0) continue;
    if (const std::size_t unit = unit_length(text, i + n); unit > 0) {
      std::string written = text.substr(i, n + unit);
      std::replace(written.begin(), written.end(), '\n', ' ');
      numbers.push_back({i, std::move(written)});
    }
    i += n - 1;
  }
  return numbers;
}

std::string markdown_of(const Cell& cell) {
  std::string markdown;
  for (const std::string& line : cell.lines) markdown += line + '\n';
  return markdown;
}

// The source line of offset `at` in a Markdown cell's text.
int line_at(const Cell& cell, const std::string& markdown, std::size_t at) {
  return cell.first_line +
         static_cast<int>(std::count(markdown.begin(),
                                     markdown.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

const Cell* earlier_code_cell(const std::vector<Cell>& cells, const Cell& prose,
                              std::string_view name) {
  for (const Cell& cell : cells) {
    if (&cell == &prose) return nullptr;
    if (cell.is_code() && cell.name == name) return &cell;
  }
  return nullptr;
}

// Checks the prose of one file, a section's own or the shared file its lesson's sections
// include, and throws FormatError at the first problem.
class ProseCheck {
 public:
  ProseCheck(const std::string& path, const std::vector<Cell>& cells, const LessonSource& lesson,
             std::span<const MachineProfile* const> documented)
      : path_(path), cells_(cells), lesson_(lesson), documented_(documented) {}

  void run() {
    for (const Cell& prose : cells_) {
      if (prose.is_code()) continue;
      prose_ = &prose;
      markdown_ = markdown_of(prose);
      std::vector<ValueReference> references;
      try {
        references = references_in(markdown_);
      } catch (const std::invalid_argument& e) {
        fail(0, e.what());
      }
      for (const ValueReference& reference : references) check(reference);
      check_stated_numbers();
    }
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& message) const {
    throw FormatError(path_, line_at(*prose_, markdown_, at), message);
  }

  // The reference names a cell above, shown on screen, whose output holds the number on every
  // documented machine.
  void check(const ValueReference& reference) const {
    const std::string shown = markdown_.substr(reference.begin, reference.end - reference.begin);
    const Cell* cell = earlier_code_cell(cells_, *prose_, reference.cell);
    if (cell == nullptr) fail(reference.begin, shown + " names no code cell above this prose");
    if (!reference.machine.empty() &&
        std::count(cell->compare.begin(), cell->compare.end(), reference.machine) == 0) {
      fail(reference.begin, shown + ": the notebook shows " + reference.machine +
                                "'s output under '" + cell->name +
                                "' only where its compare=\"...\" names it");
    }
    for (const MachineProfile* machine : documented_) {
      if (documented_value(lesson_, reference, machine->name)) continue;
      fail(reference.begin,
           shown + ": no number follows '" + reference.anchor + "' in the output of '" +
               cell->name + "' documented for " +
               (reference.machine.empty() ? std::string(machine->name) : reference.machine));
    }
  }

  void check_stated_numbers() const {
    const std::vector<std::string>& facts = prose_->facts;
    for (const StatedNumber& number : stated_number_spans(markdown_)) {
      if (std::count(facts.begin(), facts.end(), number.text) > 0) continue;
      fail(number.at, "the prose states " + number.text +
                          ", which an output may print otherwise on another machine: quote the "
                          "output ({{cell:text before the number}}) or, for a fact, list it in "
                          "the cell's facts=\"...\"");
    }
    std::string flowing = markdown_;  // as the prose reads, its line breaks being spaces
    std::replace(flowing.begin(), flowing.end(), '\n', ' ');
    for (const std::string& fact : facts) {
      if (flowing.find(fact) == std::string::npos)
        fail(0, "facts=\"...\" lists '" + fact + "', which this prose does not state");
    }
  }

  const std::string& path_;
  const std::vector<Cell>& cells_;
  const LessonSource& lesson_;
  std::span<const MachineProfile* const> documented_;
  const Cell* prose_ = nullptr;
  std::string markdown_;
};

}  // namespace

std::vector<ValueReference> references_in(std::string_view prose) {
  std::vector<ValueReference> references;
  for (std::size_t open = prose.find(kOpen); open != std::string_view::npos;
       open = prose.find(kOpen, open)) {
    const std::size_t close = prose.find(kClose, open + kOpen.size());
    const std::size_t newline = prose.find('\n', open);
    if (close == std::string_view::npos || close > newline) {
      throw std::invalid_argument("'{{' without '}}' on the same line");
    }
    const std::string_view body = prose.substr(open + kOpen.size(), close - open - kOpen.size());
    const std::size_t colon = body.find(':');
    if (colon == std::string_view::npos || colon + 1 == body.size()) {
      throw std::invalid_argument("'{{" + std::string(body) +
                                  "}}' needs an anchor: {{cell:text before the number}}");
    }
    const std::string_view target = body.substr(0, colon);
    const std::size_t at = target.find('@');
    ValueReference reference{.cell = std::string(target.substr(0, at)),
                             .machine = at == std::string_view::npos
                                            ? std::string()
                                            : std::string(target.substr(at + 1)),
                             .anchor = std::string(body.substr(colon + 1)),
                             .begin = open,
                             .end = close + kClose.size()};
    if (!valid_cell_name(reference.cell)) {
      throw std::invalid_argument("'" + reference.cell + "' in '{{" + std::string(body) +
                                  "}}' is not a cell name");
    }
    references.push_back(std::move(reference));
    open = close + kClose.size();
  }
  return references;
}

std::optional<std::string> value_after(std::string_view output, std::string_view anchor) {
  const auto [text, nth] = split_position(anchor);
  const std::optional<std::size_t> after = end_of_anchor(output, text);
  if (!after) return std::nullopt;
  const std::string_view line = output.substr(*after, output.find('\n', *after) - *after);
  int seen = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const std::size_t n = number_length(line, i);
    if (n == 0) continue;
    if (++seen == nth) return std::string(line.substr(i, n));
    i += n - 1;
  }
  return std::nullopt;
}

std::string with_values(std::string_view prose,
                        const std::function<std::string(const ValueReference&)>& value) {
  std::string result;
  std::size_t copied = 0;
  for (const ValueReference& reference : references_in(prose)) {
    result += prose.substr(copied, reference.begin - copied);
    result += value(reference);
    copied = reference.end;
  }
  return result + std::string(prose.substr(copied));
}

std::vector<std::string> stated_numbers(std::string_view prose) {
  std::vector<std::string> numbers;
  for (const StatedNumber& number : stated_number_spans(prose)) numbers.push_back(number.text);
  return numbers;
}

std::optional<std::string> documented_value(const LessonSource& lesson,
                                            const ValueReference& reference,
                                            std::string_view machine) {
  const Cell* cell = lesson.find(reference.cell);
  if (cell == nullptr) return std::nullopt;
  const OutputBlock* block =
      documented_output(*cell, reference.machine.empty() ? machine : reference.machine);
  if (block == nullptr) return std::nullopt;
  return value_after(block->text(), reference.anchor);
}

void check_prose_values(const LessonSource& lesson,
                        std::span<const MachineProfile* const> documented) {
  ProseCheck(lesson.shared_path, lesson.shared_cells, lesson, documented).run();
  ProseCheck(lesson.path, lesson.cells, lesson, documented).run();
}
}  // namespace engine::notebook
