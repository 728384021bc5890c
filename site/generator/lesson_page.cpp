#include "lesson_page.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "engine/notebook/documented_machines.h"
#include "engine/notebook/prose_values.h"
#include "highlight.h"
#include "quiz_html.h"
#include "text.h"

namespace site {
namespace {

using engine::notebook::Cell;

// Private-use characters around a quoted number's index, which Markdown passes through.
constexpr std::string_view kValueOpen = "\uE000", kValueClose = "\uE001";

// Lines keep their columns and scroll, except a line far wider than any box (an error message
// of a thousand characters), which wraps, so that its end can be read where the prose points.
std::string stream_html(const CellCapture& capture) {
  constexpr std::size_t kWrapsFrom = 160;
  if (capture.output.empty()) return R"(<p class="no-output">(prints nothing)</p>)";
  std::string html = R"(<pre class="stream"><code>)";
  std::istringstream in(capture.output);
  std::size_t index = 0;
  for (std::string line; std::getline(in, line); ++index) {
    const bool from_stderr = index < capture.from_stderr.size() && capture.from_stderr[index];
    const bool long_line = line.size() >= kWrapsFrom;
    if (!from_stderr && !long_line) {
      html += escape(line) + "\n";
      continue;
    }
    html += fmt::format(R"(<span class="{}"{}>{}</span>)"
                        "\n",
                        from_stderr && long_line ? "stderr long"
                        : from_stderr            ? "stderr"
                                                 : "long",
                        from_stderr ? R"( title="printed on stderr")" : "", escape(line));
  }
  return html + "</code></pre>";
}

// A description of several processes has a line for each: lines in the caption, spaces in the
// image's alternative text.
std::string picture_html(const Picture& picture) {
  const std::string description = escape(picture.description);
  std::string alt = description, caption = description;
  std::replace(alt.begin(), alt.end(), '\n', ' ');
  for (std::size_t at = caption.find('\n'); at != std::string::npos; at = caption.find('\n', at))
    caption.replace(at, 1, "<br>");
  return fmt::format(
      R"(<figure class="picture"><a href="{0}"><img src="{0}" alt="{1}: {2}"></a><figcaption>{3} <span class="note">{4}</span></figcaption></figure>)",
      picture.file, escape(picture.title), alt, caption, escape(picture.note));
}

// What one machine's run of a cell shows: its output, what failed, and its pictures.
std::string run_html(const Cell& cell, const CellCapture& capture, const std::string& machine,
                     const std::vector<Picture>* pictures, const Theme& theme) {
  std::string html = stream_html(capture);
  if (!capture.matches) {
    const engine::notebook::OutputBlock* documented =
        engine::notebook::documented_output(cell, machine);
    html += theme.text(
        "mismatch",
        {{"machine", escape(machine)},
         {"documented", escape(documented != nullptr ? documented->text() : "(nothing)")}});
  }
  if (!capture.problems.empty()) {
    html +=
        R"(<div class="problems" role="note"><p><strong>Failed checks:</strong></p><pre><code>)";
    for (const std::string& problem : capture.problems) html += escape(problem) + "\n";
    html += "</code></pre></div>";
  }
  if (pictures != nullptr) {
    for (const Picture& picture : *pictures) html += picture_html(picture);
  }
  return html;
}

class LessonPageWriter {
 public:
  explicit LessonPageWriter(const LessonPageInputs& in) : in_(in) {}

  RenderedPage write() {
    const Lesson& lesson = in_.lesson;
    for (const Cell& cell : lesson.source.cells) {
      if (cell.is_code() && !cell.name.empty())
        ids_.claim(cell.name);  // quizzes link to cells by name
    }
    search_.push_back({lesson.title, lesson.title, lesson.page(), ""});
    bool introduced = false;  // the lesson's tools follow its introduction
    for (const Cell& cell : lesson.source.cells) {
      if (cell.is_code()) {
        if (!introduced && !lesson.target.empty()) body_ += tools();
        introduced = true;
        code_cell(cell);
      } else {
        prose(cell);
      }
    }
    const std::string bank = "lesson" + lesson.number.substr(0, 2);
    const quiz::Bank* b = closes_lesson() ? in_.course.bank(bank) : nullptr;
    if (b != nullptr) {
      body_ += quiz_html(*b, in_.course);
      sections_.push_back({2, "Self-check", "quiz-" + bank});
      search_.push_back({b->title, lesson.title, lesson.page() + "#quiz-" + bank, quiz_text(*b)});
    }
    return {Page{.file = lesson.page(),
                 .body = body_,
                 .sections = sections_,
                 // A shared file prints nothing: no machine to choose.
                 .machines = lesson.target.empty() ? std::vector<const engine::MachineProfile*>{}
                                                   : in_.machines},
            std::move(search_)};
  }

 private:
  // Whether this is the last page of its lesson (of a lesson in sections, its last section's),
  // which the lesson's self-check closes.
  bool closes_lesson() const {
    const std::string lesson = in_.lesson.number.substr(0, 2);
    std::string last;
    for (const Lesson& page : in_.course.lessons) {
      if (page.number.substr(0, 2) == lesson) last = page.stem;
    }
    return last == in_.lesson.stem;
  }

  std::string tools() const {
    return in_.course.theme.text("lesson_tools", {{"program", in_.lesson.target},
                                                  {"notebook", in_.notebook},
                                                  {"machine", escape(in_.notebook_machine)}});
  }

  static std::string quiz_text(const quiz::Bank& bank) {
    std::string text;
    for (const quiz::Question& q : bank.questions) text += q.prompt + " ";
    return text;
  }

  // Prose before the cell's first section heading still belongs to the section above it, in the
  // search index too, so the two parts are rendered one after the other.
  void prose(const Cell& cell) {
    const auto heading =
        std::find_if(cell.lines.begin(), cell.lines.end(), [](const std::string& line) {
          return line.starts_with("## ") || line.starts_with("### ") || line.starts_with("#### ");
        });
    if (heading != cell.lines.begin() && heading != cell.lines.end()) {
      prose_part({cell.lines.begin(), heading});
      prose_part({heading, cell.lines.end()});
    } else {
      prose_part(cell.lines);
    }
  }

  void prose_part(const std::vector<std::string>& lines) {
    std::vector<std::string> values;  // the prose's numbers from outputs, as HTML
    Prose rendered = render_prose(marked_values(joined(lines), values), ids_);
    rendered.html = filled_in(rendered.html, values, true);
    rendered.plain_text = filled_in(rendered.plain_text, values, false);
    body_ += rendered.html;
    for (const Heading& heading : rendered.headings) {
      if (heading.level == 2) sections_.push_back(heading);
    }
    const auto first = std::find_if(rendered.headings.begin(), rendered.headings.end(),
                                    [](const Heading& h) { return h.level >= 2; });
    if (first != rendered.headings.end()) {
      search_.push_back({first->text, in_.lesson.title, in_.lesson.page() + "#" + first->id, ""});
    }
    search_.back().text += rendered.plain_text + " ";
  }

  // A number the prose quotes from an output (prose_values.h), on `machine`: what the site's
  // run of that machine printed.
  std::string value_on(const engine::notebook::ValueReference& reference,
                       const std::string& machine) const {
    const auto runs = in_.captures.find(reference.machine.empty() ? machine : reference.machine);
    if (runs != in_.captures.end()) {
      if (const auto run = runs->second.find(reference.cell); run != runs->second.end()) {
        if (auto value = engine::notebook::value_after(run->second.output, reference.anchor))
          return *value;
      }
    }
    return "?";
  }

  // `markdown` with each quoted number replaced by a marker that Markdown leaves alone, and the
  // number's HTML in `values`: a span that the page's machine switch fills in with the chosen
  // machine's value, or plain text where every machine shows the same.
  std::string marked_values(const std::string& markdown, std::vector<std::string>& values) const {
    return engine::notebook::with_values(
        markdown, [&](const engine::notebook::ValueReference& reference) {
          const std::string shown =
              value_on(reference, std::string(engine::default_machine().name));
          std::string per_machine;
          bool same = true;
          for (const engine::MachineProfile* machine : in_.machines) {
            const std::string value = value_on(reference, std::string(machine->name));
            same = same && value == shown;
            per_machine +=
                (per_machine.empty() ? "" : " ") + std::string(machine->name) + "=" + value;
          }
          values.push_back(
              same ? escape(shown)
                   : fmt::format(R"(<span class="value" data-cell="{}" data-values="{}">{}</span>)",
                                 escape(reference.cell), escape(per_machine), escape(shown)));
          return std::string(kValueOpen) + std::to_string(values.size() - 1) +
                 std::string(kValueClose);
        });
  }

  // `text` with the markers of marked_values replaced: by the HTML, or by the default machine's
  // number for plain text.
  static std::string filled_in(std::string text, const std::vector<std::string>& values,
                               bool html) {
    for (std::size_t at = text.find(kValueOpen); at != std::string::npos;
         at = text.find(kValueOpen, at)) {
      const std::size_t close = text.find(kValueClose, at);
      const std::size_t digits = at + kValueOpen.size();
      const std::size_t index = std::stoul(text.substr(digits, close - digits));
      const std::string& value = values.at(index);
      const std::string replacement = html ? value : plain_value(value);
      text.replace(at, close + kValueClose.size() - at, replacement);
      at += replacement.size();
    }
    return text;
  }

  // The text of a value's HTML: the number its span shows first.
  static std::string plain_value(const std::string& html) {
    if (!html.starts_with("<span")) return html;
    const std::size_t start = html.find('>') + 1;
    return html.substr(start, html.find('<', start) - start);
  }

  void code_cell(const Cell& cell) {
    const std::string code = joined(cell.lines);
    search_.back().text += cell.name + " " + code + " ";
    if (cell.name.empty()) {
      body_ +=
          R"(<section class="cell setup"><p class="cell-head">setup: includes and helpers</p>)";
    } else {
      body_ += fmt::format(
          R"(<section class="cell" id="{0}"><p class="cell-head"><a class="cell-name" href="#{0}">{0}</a>{2} <code class="run">build/lessons/{1} --cell {0}</code></p>)",
          cell.name, in_.lesson.target,
          cell.requires_mps
              ? R"( <span class="requires" title="runs only where MPS is available">requires mps</span>)"
              : "");
    }
    body_ += R"(<pre class="code"><code class="language-cpp">)" + highlight(code, Language::Cpp) +
             "</code></pre>\n";
    if (cell.python) body_ += twin(cell);
    body_ += outputs(cell);
    body_ += "</section>\n";
  }

  std::string twin(const Cell& cell) const {
    const engine::notebook::PythonTwin& twin = *cell.python;
    const Theme& theme = in_.course.theme;
    std::string html = fmt::format(
        R"(<details class="twin"><summary>{}</summary><pre class="code"><code class="language-python">{}</code></pre>)",
        theme.text(cell.name.empty() ? "twin_of_setup" : "twin_of_cell"),
        highlight(twin.code(), Language::Python));
    if (!twin.differs.empty()) {
      html += theme.text("twin_differs",
                         {{"before", twin.before.empty() ? "" : " before " + escape(twin.before)},
                          {"why", escape(twin.differs)}});
    }
    return html + "</details>\n";
  }

  // The outputs documented for the machines a cell's prose compares with (its compare
  // attribute), under the chosen machine's own, as the terminal view shows them.
  std::string compared_html(const Cell& cell, const std::string& machine) const {
    const engine::notebook::OutputBlock* own = engine::notebook::documented_output(cell, machine);
    std::vector<const engine::notebook::OutputBlock*> shown;
    std::string html;
    for (const std::string& other : cell.compare) {
      const engine::notebook::OutputBlock* block = engine::notebook::documented_output(cell, other);
      if (block == nullptr || block == own ||
          std::find(shown.begin(), shown.end(), block) != shown.end())
        continue;
      shown.push_back(block);
      std::string names;
      for (const engine::MachineProfile* profile : in_.machines) {
        if (engine::notebook::documented_output(cell, std::string(profile->name)) == block)
          names += (names.empty() ? "" : ", ") + std::string(profile->name);
      }
      html += fmt::format(
          R"(<div class="compared"><p class="output-label">└▷ documented for {}</p><pre class="stream"><code>{}</code></pre></div>)",
          escape(names), escape(block->text()));
    }
    return html;
  }

  // One block per distinct rendering, listing the machines that show it.
  std::string outputs(const Cell& cell) const {
    std::vector<std::pair<std::string, std::vector<std::string>>> blocks;
    for (const engine::MachineProfile* profile : in_.machines) {
      const std::string machine(profile->name);
      const auto runs = in_.captures.find(machine);
      if (runs == in_.captures.end()) continue;
      const auto capture = runs->second.find(cell.name);
      if (capture == runs->second.end()) continue;
      const auto pictures = in_.pictures.find({in_.lesson.stem, machine, cell.name});
      const std::string html =
          run_html(cell, capture->second, machine,
                   pictures == in_.pictures.end() ? nullptr : &pictures->second, in_.course.theme) +
          compared_html(cell, machine);
      const auto same = std::find_if(blocks.begin(), blocks.end(),
                                     [&](const auto& b) { return b.first == html; });
      if (same == blocks.end()) {
        blocks.push_back({html, {machine}});
      } else {
        same->second.push_back(machine);
      }
    }
    std::string html;
    for (const auto& [content, machines] : blocks) {
      std::string names, label;
      for (const std::string& m : machines) {
        names += (names.empty() ? "" : " ") + m;
        label += (label.empty() ? "" : ", ") + m;
      }
      if (machines.size() == in_.machines.size()) label = "every machine";
      html += fmt::format(
          R"(<div class="output" data-machines="{}"><p class="output-label">Output on {}</p>{}</div>)"
          "\n",
          names, label, content);
    }
    return html;
  }

  const LessonPageInputs& in_;
  PageIds ids_;
  std::string body_;
  std::vector<Heading> sections_;
  std::vector<SearchEntry> search_;
};

}  // namespace

RenderedPage lesson_page(const LessonPageInputs& in) { return LessonPageWriter(in).write(); }

}  // namespace site
