#include "engine/notebook/terminal_text.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/notebook/spelling.h"

using engine::notebook::display_width;
using engine::notebook::printed_line_parts;
using engine::notebook::wrap;

TEST_CASE("text wraps at word boundaries, never inside a word") {
  CHECK(wrap("one two three four", 9) == "one two\nthree\nfour\n");
  CHECK(wrap("a reallylongword b", 5) == "a\nreallylongword\nb\n");  // a long word stays whole
  CHECK(wrap("", 10).empty());
}

TEST_CASE("a number keeps its unit on its line") {
  CHECK(wrap("within the lesson's 10 %.", 22) == "within the lesson's\n10 %.\n");
  CHECK(wrap("the run took 39040 s, more", 17) == "the run took\n39040 s, more\n");
  CHECK(wrap("a 256 x 256 matrix", 9) == "a 256 x\n256\nmatrix\n");
  CHECK(wrap("\x1b[1m12\x1b[0m \x1b[1mGiB\x1b[0m held", 8) ==
        "\x1b[1m12\x1b[0m \x1b[1mGiB\x1b[0m\nheld\n");
  CHECK(wrap("seed s was used", 7) ==
        "seed s\nwas\nused\n");  // a unit's letters after a word are a word
}

TEST_CASE("wrapped text keeps a hanging indent and its paragraphs") {
  CHECK(wrap("alpha beta gamma", 12, "  a) ", "     ") == "  a) alpha\n     beta\n     gamma\n");
  CHECK(wrap("one\ntwo three", 40) == "one\ntwo three\n");
}

TEST_CASE("a column is a character, and colour codes take none") {
  CHECK(display_width("µs per report") == 13);
  CHECK(display_width("\x1b[1mbold\x1b[0m") == 4);
  CHECK(wrap("\x1b[1mbold\x1b[0m words here", 10) == "\x1b[1mbold\x1b[0m words\nhere\n");
}

TEST_CASE("the width is COLUMNS when set, else 80 when the output is no terminal") {
  setenv("COLUMNS", "60", 1);
  CHECK(engine::notebook::terminal_width(-1) == 60);
  setenv("COLUMNS", "wide", 1);
  CHECK(engine::notebook::terminal_width(-1) == 80);
  unsetenv("COLUMNS");
  CHECK(engine::notebook::terminal_width(-1) == 80);
}

TEST_CASE("a printed line or a line of code longer than the width goes on in marked parts") {
  using Parts = std::vector<std::string>;
  CHECK(printed_line_parts("fits", 10) == Parts{"fits"});
  CHECK(printed_line_parts("mps built: True   cpu: 12.5 ms", 16) ==
        Parts{"mps built: True", "↪ cpu: 12.5 ms"});
  // Code keeps its indentation in the continuation; the spaces inside a part stay as printed.
  CHECK(printed_line_parts("    return alpha + beta;", 16, 4) ==
        Parts{"    return alpha", "    ↪ + beta;"});
  // A word longer than a part breaks after a "(" or "," where it can, else stays whole.
  CHECK(printed_line_parts("  size_text(memory_now(),driver())", 18, 2) ==
        Parts{"  size_text(", "  ↪ memory_now(),", "  ↪ driver())"});
  CHECK(printed_line_parts("a_very_long_identifier", 8) == Parts{"a_very_long_identifier"});
}

TEST_CASE("deep indentation gives way where the next word would overflow the width") {
  const auto joined = [](const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& part : parts) out += part + "|";
    return out;
  };
  // The continuation's indent shrinks so that its long first word fits in 24 columns.
  CHECK(joined(printed_line_parts("            f(x, py::mps::memory());", 24, 12)) ==
        "            f(x,|   ↪ py::mps::memory());|");
  // A line indented deeper than its first word leaves room for loses the spaces too many.
  CHECK(joined(printed_line_parts("                    {\"half length\", 32}", 24, 20)) ==
        "                  {\"half|            ↪ length\",|            ↪ 32}|");
  for (const std::string& part : printed_line_parts(
           "                                       std::tuple{\"half length\", 32, 64}}) {", 40,
           39)) {
    CHECK(display_width(part) <= 40);
  }
}

TEST_CASE("a slip is counted in edits, a swap of two neighbouring letters as one") {
  using engine::notebook::spelling_distance;
  CHECK(spelling_distance("watch", "watch") == 0);
  CHECK(spelling_distance("verfy", "verify") == 1);  // a letter dropped
  CHECK(spelling_distance("wacth", "watch") == 1);   // two swapped
  CHECK(spelling_distance("n_embed", "n_embd") == 1);
  CHECK(spelling_distance("test", "reset") == 2);
  CHECK(spelling_distance("", "plan") == 4);
}

TEST_CASE("a name is a slip of the nearest known one within one edit, or two for long names") {
  using engine::notebook::nearest_name;
  const std::vector<std::string> known = {"watch", "reset", "verify", "n_embd", "bias"};
  CHECK(nearest_name("verfy", known) == "verify");
  CHECK(nearest_name("n_embed", known) == "n_embd");
  CHECK(nearest_name("bais", known) == "bias");
  CHECK(nearest_name("test", known) == std::nullopt);  // two edits from reset, both short
  CHECK(nearest_name("verifyy", known) == "verify");
  CHECK(nearest_name("vrfy", known) == std::nullopt);
}
