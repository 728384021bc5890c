// The lessons' Markdown as the terminal shows it, from cmark-gfm's syntax tree: reflowed to the
// width, tables aligned, emphasis and code without their markers when there is no colour.

#include "engine/notebook/terminal_markdown.h"

#include <doctest/doctest.h>

#include <string>

#include "engine/notebook/terminal_text.h"
#include "engine/notebook/text_diff.h"

using engine::notebook::display_width;
using engine::notebook::render_markdown;
using engine::notebook::split_lines;
using engine::notebook::TerminalLook;

namespace {

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  for (const std::string& line : split_lines(text)) widest = std::max(widest, display_width(line));
  return widest;
}

}  // namespace

TEST_CASE("prose is reflowed to the width, and without colour no Markdown marker is left") {
  const std::string text = render_markdown(
      "The **high watermark** is a *hard* cap: `torch.mps.set_per_process_memory_fraction(f)`\n"
      "sets it from inside the script, and `0.0` removes it.\n",
      TerminalLook{.color = false, .width = 40});
  CHECK(text ==
        "The high watermark is a hard cap:\n"
        "torch.mps.set_per_process_memory_fraction(f)\n"
        "sets it from inside the script, and 0.0\n"
        "removes it.\n");
}

TEST_CASE("with colour, code and emphasis are styled word by word, and widths ignore the codes") {
  const std::string text = render_markdown("Put **the model** on `mps` first.\n",
                                           TerminalLook{.color = true, .width = 80});
  CHECK(text.find("\x1b[") != std::string::npos);
  CHECK(text.find("**") == std::string::npos);
  CHECK(text.find('`') == std::string::npos);
  CHECK(display_width(text) == display_width("Put the model on mps first.\n"));
}

TEST_CASE("headings are underlined, lists hang under their markers") {
  const std::string text = render_markdown(
      "# Lesson 9\n\n## A section\n\n- one item that is long enough to wrap at this width\n- two\n\n1. first\n2. second\n",
      TerminalLook{.color = false, .width = 30});
  CHECK(text ==
        "Lesson 9\n"
        "════════\n"
        "\n"
        "A section\n"
        "─────────\n"
        "\n"
        "- one item that is long enough\n"
        "  to wrap at this width\n"
        "- two\n"
        "\n"
        "1. first\n"
        "2. second\n");
}

TEST_CASE("a GFM table is laid out in aligned columns under an underlined header") {
  const std::string text = render_markdown(
      "| `is_built()` | `is_available()` | state |\n|---|---|---|\n| False | False | not built |\n"
      "| True | True | **available** |\n",
      TerminalLook{.color = false, .width = 80});
  CHECK(text ==
        "is_built()  is_available()  state\n"
        "──────────  ──────────────  ─────────\n"
        "False       False           not built\n"
        "True        True            available\n");
}

TEST_CASE("a table wider than the terminal wraps its widest cells and keeps every line in width") {
  const std::string text = render_markdown(
      "| symptom | first question | first fix |\n|---|---|---|\n"
      "| out of memory on the first real batch | is the batch or the sequence too large? | shrink the batch first |\n"
      "| fast start, then a cliff | is the machine swapping? | lower the batch; flush the cache at epoch boundaries |\n",
      TerminalLook{.color = false, .width = 60});
  CHECK(widest_line(text) <= 60);
  CHECK(text.find("out of memory on\n") == std::string::npos);  // a cell wraps inside its column
  CHECK(text.find("out of memory on") != std::string::npos);
  CHECK(text.find("epoch boundaries") != std::string::npos);
  CHECK(text.find('|') == std::string::npos);
}

TEST_CASE("a table that cannot fit even wrapped is stacked: each row as header: cell lines") {
  const std::string text = render_markdown(
      "| step | host_wait_ms | device_busy_ms | copies_to_cpu | fallbacks_per_step |\n|---|---|---|---|---|\n"
      "| forward | 0.5 | 12.0 | 0 | 0 |\n| logging | 3.5 | 0.0 | 1 | 0 |\n",
      TerminalLook{.color = false, .width = 40});
  CHECK(widest_line(text) <= 40);
  CHECK(
      text ==
      "step: forward\nhost_wait_ms: 0.5\ndevice_busy_ms: 12.0\ncopies_to_cpu: 0\nfallbacks_per_step: 0\n\n"
      "step: logging\nhost_wait_ms: 3.5\ndevice_busy_ms: 0.0\ncopies_to_cpu: 1\nfallbacks_per_step: 0\n");
}

TEST_CASE("raw HTML is left out, and a link shows where it leads") {
  const std::string text = render_markdown("See <b>this</b> [Perfetto](https://ui.perfetto.dev).\n",
                                           TerminalLook{.color = false, .width = 80});
  CHECK(text == "See this Perfetto (https://ui.perfetto.dev).\n");
}

TEST_CASE("a heading longer than the terminal wraps, ruled as wide as its widest line") {
  const std::string text = render_markdown("## 7.2 · The runbook: thresholds and sweeps\n",
                                           TerminalLook{.color = false, .width = 24});
  CHECK(text ==
        "7.2 · The runbook:\n"
        "thresholds and sweeps\n"
        "─────────────────────\n");
}

TEST_CASE(
    "prose nested ten thousand deep is shown, flat below a depth, without exhausting the stack") {
  std::string quotes;
  for (int i = 0; i < 10'000; ++i) quotes += "> ";
  const std::string quoted =
      render_markdown(quotes + "deep words\n", TerminalLook{.color = false, .width = 80});
  CHECK(quoted.find("deep words") != std::string::npos);
  CHECK(widest_line(quoted) <= 80);

  std::string emphasis;
  for (int i = 0; i < 10'000; ++i) emphasis += i % 2 == 0 ? "*a " : "_b ";
  const std::string emphasised =
      render_markdown(emphasis + "core\n", TerminalLook{.color = true, .width = 80});
  CHECK(emphasised.find("core") != std::string::npos);
}
