// The site generator's parts, on small inputs written here: the highlighter, Markdown with
// heading ids and rewritten links, a lesson page with outputs per machine and a Python twin,
// the notebook export, the trace reader and its timeline, lesson 6's chart, the quiz's pass
// rule against the terminal's, and a lesson program's --outputs read back.

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "course.h"
#include "engine/notebook/child_process.h"
#include "engine/notebook/lesson_source.h"
#include "highlight.h"
#include "launch_svg.h"
#include "lesson_page.h"
#include "lesson_runs.h"
#include "memory_chart.h"
#include "notebook_export.h"
#include "prose.h"
#include "quiz/grading.h"
#include "quiz_html.h"
#include "scratch_directory.h"
#include "text.h"
#include "theme.h"
#include "timeline_svg.h"
#include "trace_reader.h"

namespace fs = std::filesystem;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A course with the site's own theme, as course_site loads it.
site::Course themed_course() {
  site::Course course;
  course.theme = site::Theme::load(TUTOR_SOURCE_DIR "/site/theme");
  return course;
}

fs::path scratch(const std::string& name) { return scratch_directory("site_test_" + name); }

constexpr const char* kLesson = R"(// %% [markdown]
// # Lesson 9 · A small lesson
//
// | machine | device |
// |---|---|
// | m1-8gb | `mps` |

// %%
#include <engine/notebook/lesson.h>
// %% [python]
// import torch

// %% [markdown]
// ## The greeting

// %% greeting compare="linux-x86_64"
TUTOR_CELL("a cell greets") { print("hello"); }
// %% [output]
// hello
// %% [output] machine="linux-x86_64"
// hello from linux
// %% [python] differs="Python spells it differently"
// print("hello")

// %% silent
TUTOR_CELL("a cell says nothing") {}
)";

site::Lesson fixture_lesson() {
  return site::Lesson{.stem = "09_small",
                      .number = "09",
                      .title = "Lesson 9 · A small lesson",
                      .file = "09_small.cpp",
                      .source = engine::notebook::parse_lesson(kLesson, "09_small.cpp"),
                      .target = "lesson09",
                      .program = "lesson09"};
}

site::CellCapture printed(const std::string& output, std::vector<bool> from_stderr = {}) {
  site::CellCapture capture;
  capture.output = output;
  capture.from_stderr = std::move(from_stderr);
  return capture;
}

}  // namespace

TEST_CASE("the highlighter marks C++ and Python tokens and escapes everything else") {
  const std::string cpp = site::highlight("#include <x>\nint n = 42;  // <why>\nprint(\"a<b\");\n",
                                          site::Language::Cpp);
  CHECK(contains(cpp, R"(<span class="p">#include &lt;x&gt;</span>)"));
  CHECK(contains(cpp, R"(<span class="k">int</span> n = <span class="n">42</span>;)"));
  CHECK(contains(cpp, R"(<span class="c">// &lt;why&gt;</span>)"));
  CHECK(contains(cpp, R"(<span class="s">&quot;a&lt;b&quot;</span>)"));
  const std::string python =
      site::highlight("x = f'{a}'  # note\nif x is None:\n", site::Language::Python);
  CHECK(contains(python, R"(<span class="s">f&#39;{a}&#39;</span>)"));
  CHECK(contains(python, R"(<span class="c"># note</span>)"));
  CHECK(contains(python, R"(<span class="k">if</span>)"));
  CHECK(contains(python, R"(<span class="b">None</span>)"));
}

TEST_CASE("prose gets unique heading ids, GFM tables and the site's links") {
  site::PageIds ids;
  CHECK(ids.claim("greeting") == "greeting");
  const site::Prose prose = site::render_prose(
      "## Greeting\n\nSee [lab 1](../labs/01_x/README.md#start) and [Perfetto](https://ui.perfetto.dev).\n\n## Greeting\n\n|a|b|\n|-|-|\n|1|2|\n",
      ids, [](const std::string& url) {
        return url.rfind("../labs/", 0) == 0 ? std::string("lab-01_x.html#start") : "";
      });
  REQUIRE(prose.headings.size() == 2);
  CHECK(prose.headings[0].id == "greeting-2");  // "greeting" is a cell's id already
  CHECK(prose.headings[1].id == "greeting-3");
  CHECK(contains(prose.html, R"(<h2 id="greeting-2">Greeting</h2>)"));
  CHECK(contains(prose.html, R"(href="lab-01_x.html#start")"));
  CHECK(contains(prose.html, R"(href="https://ui.perfetto.dev")"));
  CHECK(contains(prose.html, "<table>"));
  CHECK(site::inline_html("use `mps`") == "use <code>mps</code>");
}

TEST_CASE(
    "a lesson page shows each machine's output once, the Python twin and the difference note") {
  const site::Lesson lesson = fixture_lesson();
  site::LessonCaptures captures;
  captures["m1-8gb"]["greeting"] = printed("hello\n");
  captures["m3-max-64gb"]["greeting"] = printed("hello\n");
  captures["linux-x86_64"]["greeting"] =
      printed("hello from linux\nUserWarning: careful\n", {false, true});
  captures["m1-8gb"]["silent"] = captures["m3-max-64gb"]["silent"] =
      captures["linux-x86_64"]["silent"] = printed("");
  const std::vector<const engine::MachineProfile*> machines = {
      engine::find_machine("m3-max-64gb"), engine::find_machine("m1-8gb"),
      engine::find_machine("linux-x86_64")};
  const site::Course course = themed_course();
  const site::Pictures pictures;
  const site::RenderedPage page = site::lesson_page(
      {lesson, captures, pictures, machines, course, "notebooks/09_small.ipynb", "m3-max-64gb"});
  const std::string& html = page.page.body;
  CHECK(contains(html, R"(<div class="output" data-machines="m3-max-64gb m1-8gb">)"));
  CHECK(contains(html, R"(<div class="output" data-machines="linux-x86_64">)"));
  // The machine the prose compares with, under the others' output: documented, as in the terminal.
  const std::string compared =
      R"(<p class="output-label">└▷ documented for linux-x86_64</p><pre class="stream"><code>hello from linux
</code></pre>)";
  CHECK(contains(html, compared));
  CHECK(html.find(compared) == html.rfind(compared));  // not under linux-x86_64's own output
  CHECK(contains(html,
                 R"(<span class="stderr" title="printed on stderr">UserWarning: careful</span>)"));
  CHECK(contains(
      html,
      R"(<p class="output-label">Output on every machine</p><p class="no-output">(prints nothing)</p>)"));
  CHECK(contains(html, R"(<section class="cell" id="greeting">)"));
  CHECK(contains(html, R"(In Python: every twin of the lesson runs this first)"));
  CHECK(contains(
      html,
      R"(<code class="language-python"><span class="b">print</span>(<span class="s">&quot;hello&quot;</span>))"));
  CHECK(contains(html, "Real PyTorch prints something else here: Python spells it differently"));
  CHECK(contains(html, R"(<a href="notebooks/09_small.ipynb" download>)"));
  REQUIRE(page.page.sections.size() == 1);
  CHECK(page.page.sections[0].text == "The greeting");
  CHECK(page.search.size() == 2);
}

TEST_CASE("a run that differs from the documentation is flagged with the documented text") {
  const site::Lesson lesson = fixture_lesson();
  site::LessonCaptures captures;
  captures["m1-8gb"]["greeting"] = printed("bonjour\n");
  captures["m1-8gb"]["greeting"].matches = false;
  captures["m1-8gb"]["greeting"].passed = false;
  const std::vector<const engine::MachineProfile*> machines = {engine::find_machine("m1-8gb")};
  const site::Course course = themed_course();
  const site::Pictures pictures;
  const std::string html =
      site::lesson_page({lesson, captures, pictures, machines, course, "n.ipynb", "m1-8gb"})
          .page.body;
  CHECK(contains(html, "This run differs from the lesson."));
  CHECK(contains(
      html, "The lesson documents this output for m1-8gb:</p><pre><code>hello\n</code></pre>"));
}

TEST_CASE("the notebook export keeps Markdown, code, stream outputs in order and the twin") {
  const site::Lesson lesson = fixture_lesson();
  std::map<std::string, site::CellCapture> outputs;
  outputs["greeting"] = printed("hello\nUserWarning: careful\nbye\n", {false, true, false});
  const nlohmann::json notebook =
      nlohmann::json::parse(site::lesson_notebook(lesson, outputs, "m1-8gb"));
  CHECK(notebook["nbformat"] == 4);
  CHECK(notebook["nbformat_minor"] == 5);
  CHECK(notebook["metadata"]["language_info"]["name"] == "c++");
  CHECK(notebook["metadata"]["mps_course"]["machine"] == "m1-8gb");
  std::vector<std::string> ids;
  const nlohmann::json* greeting = nullptr;
  for (const nlohmann::json& cell : notebook["cells"]) {
    ids.push_back(cell["id"]);
    if (cell["id"] == "greeting") greeting = &cell;
  }
  CHECK(ids == std::vector<std::string>{"about", "markdown-1", "setup-1", "setup-1-python",
                                        "markdown-2", "greeting", "greeting-python", "silent"});
  REQUIRE(greeting != nullptr);
  CHECK((*greeting)["execution_count"] == 1);
  const nlohmann::json& streams = (*greeting)["outputs"];
  REQUIRE(streams.size() == 3);
  CHECK(streams[0]["name"] == "stdout");
  CHECK(streams[0]["text"] == nlohmann::json::array({"hello"}));
  CHECK(streams[1]["name"] == "stderr");
  CHECK(streams[2]["text"] == nlohmann::json::array({"bye"}));
  const std::string twin = notebook["cells"][6]["source"].dump();
  CHECK(contains(twin, R"(```python\n)"));
  CHECK(contains(twin, "Python spells it differently"));
}

TEST_CASE(
    "a trace is read as processes with host and device spans, and drawn with words for each") {
  const fs::path dir = scratch("trace");
  site::write_text((dir / "t.json").string(), R"({"displayTimeUnit": "ms", "traceEvents": [
{"name":"process_name","ph":"M","pid":2,"args":{"name":"05_timing/warm_up"}},
{"name":"aten::mm","cat":"dispatch","ph":"X","pid":2,"tid":1,"ts":0,"dur":20,"args":{}},
{"name":"aten::mm","cat":"kernel","ph":"X","pid":2,"tid":2,"ts":20,"dur":500,"args":{"flops":1}},
{"name":"synchronize","cat":"wait","ph":"X","pid":2,"tid":1,"ts":20,"dur":500,"args":{}},
{"name":"time.sleep","cat":"host","ph":"X","pid":3,"tid":1,"ts":0,"dur":100,"args":{}}
]}
)");
  const std::vector<site::TracedProcess> processes = site::read_trace((dir / "t.json").string());
  REQUIRE(processes.size() == 2);
  CHECK(processes[0].label == "05_timing/warm_up");
  CHECK(processes[0].has_device_work());
  CHECK_FALSE(processes[1].has_device_work());
  CHECK(processes[1].label == "simulated process 3");
  REQUIRE(processes[0].spans.size() == 3);
  CHECK(processes[0].spans[1].track == site::Track::Device);
  CHECK(processes[0].spans[1].duration_ms == doctest::Approx(0.5));
  const site::Drawing drawing = site::draw_timeline(processes, "warm_up", "m1-8gb");
  CHECK(drawing.title == "warm_up on m1-8gb: the host and MPS device timelines");
  CHECK(contains(
      drawing.description,
      "the host ran 1 dispatch (0.02 ms), 1 wait (0.5 ms); the MPS device ran 1 kernel (0.5 ms)"));
  CHECK(contains(drawing.svg, R"(role="img" aria-labelledby="title desc")"));
  CHECK(contains(drawing.svg, R"(<pattern id="p-wait")"));
  CHECK(contains(drawing.svg, ">waits</text>"));  // the legend names each pattern
  CHECK(contains(drawing.svg, "1 kernel (0.5 ms busy)"));
}

TEST_CASE("a DataLoader's workers are drawn as lanes of their own, under the host and the device") {
  const fs::path dir = scratch("trace");
  site::write_text((dir / "t.json").string(), R"({"displayTimeUnit": "ms", "traceEvents": [
{"name":"process_name","ph":"M","pid":2,"args":{"name":"09_the_whole_step/input_bound"}},
{"name":"import torch, unpickle the dataset","cat":"startup","ph":"X","pid":2,"tid":3,"ts":0,"dur":900,"args":{}},
{"name":"batch 0","cat":"data","ph":"X","pid":2,"tid":3,"ts":900,"dur":300,"args":{}},
{"name":"batch 1","cat":"data","ph":"X","pid":2,"tid":4,"ts":900,"dur":300,"args":{}},
{"name":"wait: DataLoader","cat":"wait","ph":"X","pid":2,"tid":1,"ts":0,"dur":1200,"args":{}},
{"name":"aten::mm","cat":"kernel","ph":"X","pid":2,"tid":2,"ts":1200,"dur":100,"args":{}}
]}
)");
  const std::vector<site::TracedProcess> processes = site::read_trace((dir / "t.json").string());
  REQUIRE(processes.size() == 1);
  CHECK(site::worker_of(processes[0].spans[0].track) == 0);
  CHECK(site::worker_of(processes[0].spans[2].track) == 1);
  CHECK(processes[0].spans[3].track == site::Track::Host);
  const site::Drawing drawing = site::draw_timeline(processes, "input_bound", "m3-max-64gb");
  CHECK(contains(drawing.svg, R"(class="lane">worker 0</text>)"));
  CHECK(contains(drawing.svg, R"(class="lane">worker 1</text>)"));
  CHECK(contains(drawing.description,
                 "; worker 0 ran 1 batch loaded (0.3 ms), 1 process start (0.9 ms); worker 1 ran 1 "
                 "batch loaded (0.3 ms)."));
  CHECK(contains(drawing.svg, ">batches loaded</text>"));
}

// A process of `steps` model steps, each a graph build (in the first `building` steps only), a
// dispatch and a 1 ms kernel; `summarised` adds the span a long trace ends with.
site::TracedProcess training_loop(int steps, int building, bool summarised) {
  site::TracedProcess process;
  process.names = {"step", "compile", "dispatch", "kernel", "summary"};
  double t = 0;
  for (int step = 0; step < steps; ++step) {
    if (step < building) {
      process.spans.push_back({site::Track::Host, 0, 1, t, 5});
      t += 5;
    }
    process.spans.push_back({site::Track::Host, 0, 2, t, 0.01});
    process.spans.push_back({site::Track::Device, 0, 3, t + 0.01, 1});
    t += 1.01;
  }
  if (summarised) process.spans.push_back({site::Track::Host, 0, 4, t, 1000});
  return process;
}

TEST_CASE(
    "a dense timeline gets a closer view of its start, or of its steady steps once summarised") {
  // 3,500 spans: far more than the picture's 826 pixel columns can show one by one.
  const site::Drawing start =
      site::draw_timeline({training_loop(1700, 50, false)}, "loop", "m1-8gb");
  CHECK(contains(start.svg, "The first "));
  CHECK_FALSE(contains(start.svg, "after the last graph build"));
  // The last of 50 graph builds (5 ms each, one per step) ends at 299.49 ms; the closer view
  // starts there and shows 1,000 spans: 500 steps of 1.01 ms.
  const site::Drawing steady =
      site::draw_timeline({training_loop(1700, 50, true)}, "loop", "m1-8gb");
  CHECK(contains(steady.svg, "505 ms from 299 ms, after the last graph build, closer:"));
  CHECK_FALSE(contains(steady.svg, "The first "));
  CHECK(contains(steady.svg, ">400</text>"));  // the closer view's axis counts from where it starts
  CHECK_FALSE(contains(steady.svg, ">-0</text>"));
}

TEST_CASE(
    "a run whose set-up takes most of its time gets a closer view from its first GPU operation") {
  site::TracedProcess process;
  process.names = {"aten::normal_", "cpu",      "copy cpu -> mps", "dispatch",
                   "copy",          "aten::mm", "kernel"};
  process.spans = {{site::Track::Host, 0, 1, 0, 80},     // weights made on the cpu: 80 ms
                   {site::Track::Host, 2, 3, 80, 0.01},  // moved over: a copy is not GPU work
                   {site::Track::Device, 2, 4, 80, 1},
                   {site::Track::Host, 5, 3, 81, 0.01},  // the first operation on the GPU
                   {site::Track::Device, 5, 6, 81.01, 19}};
  const site::Drawing drawing = site::draw_timeline({process}, "step", "m1-8gb");
  CHECK(
      contains(drawing.svg, "19.0 ms from 81.0 ms, from the first operation on the GPU, closer:"));
  process.spans[0].duration_ms =
      5;  // a short set-up (a fifth of the run), and few spans: no closer view
  for (std::size_t i = 1; i < process.spans.size(); ++i) process.spans[i].start_ms -= 75;
  CHECK_FALSE(contains(site::draw_timeline({process}, "step", "m1-8gb").svg, "closer:"));
}

TEST_CASE("a file that is not a trace is refused with its name") {
  const fs::path dir = scratch("bad_trace");
  site::write_text((dir / "t.json").string(), R"({"traceEvents": [{"ph": "X"}]})");
  CHECK_THROWS_WITH_AS(site::read_trace((dir / "t.json").string()),
                       doctest::Contains("is not a Chrome trace"), std::runtime_error);
  site::write_text((dir / "u.json").string(), "{}");
  CHECK_THROWS_WITH_AS(site::read_trace((dir / "u.json").string()),
                       doctest::Contains("has no traceEvents"), std::runtime_error);
}

TEST_CASE("lesson 6's sweep is read from its output and charted with the machine's limits") {
  const std::string output =
      "recommended working set: 5.33 GiB\n"
      "   256 reports: 390.80 MiB live,  1.01 GiB held, 296.67 µs per report\n"
      "  2048 reports:  3.01 GiB live,  3.79 GiB held, 317.77 µs per report\n"
      "  4096 reports:  6.01 GiB live,  7.54 GiB held, 522.25 µs per report\n"
      "  8192 reports: RuntimeError: MPS backend out of memory (MPS allocated: 9.04 GiB, other allocations: 384.00 KiB, "
      "max allowed: 9.07 GiB). Tried to allocate 3.00 GiB on private pool. Use ...\n";
  const std::optional<site::BatchSweep> sweep = site::parse_batch_sweep(output);
  REQUIRE(sweep.has_value());
  CHECK(sweep->recommended_gib == doctest::Approx(5.33));
  REQUIRE(sweep->points.size() == 3);
  CHECK(sweep->points[0].gib == doctest::Approx(1.01));  // what is held, not what is live
  CHECK(sweep->points[2].us_per_report == doctest::Approx(522.25));
  REQUIRE(sweep->refusal.has_value());
  CHECK(sweep->refusal->reports == 8192);
  CHECK(sweep->refusal->needed_gib == doctest::Approx(12.04));
  CHECK(sweep->refusal->max_allowed_gib == doctest::Approx(9.07));

  const site::Drawing chart = site::draw_memory_chart(*sweep, *engine::find_machine("m1-8gb"));
  CHECK(contains(chart.description,
                 "macOS swaps once the process holds more than 5.00 GiB, from 4096 reports on"));
  CHECK(contains(chart.description,
                 "8192 reports needed more than 12.04 GiB, above the high watermark of 9.07 GiB"));
  CHECK(contains(chart.svg, "unified memory 8.00 GiB"));
  CHECK(contains(chart.svg, R"svg(fill="url(#swapping)")svg"));

  const auto too_long = site::parse_batch_sweep(
      "recommended working set: 96.00 GiB\n  256 reports: 390.80 MiB live,  1.01 GiB held,  20.00 µs per report\n"
      "131072 reports: RuntimeError: Invalid buffer size: 48.00 GiB\n");
  REQUIRE(too_long.has_value());
  REQUIRE(too_long->refusal.has_value());
  CHECK(too_long->refusal->needed_gib == doctest::Approx(48));
  CHECK(too_long->refusal->max_allowed_gib == 0);
  CHECK(contains(
      site::draw_memory_chart(*too_long, *engine::find_machine("m4-max-128gb")).description,
      "131072 reports needed one buffer of 48.00 GiB, longer than Metal allows"));

  CHECK_FALSE(site::parse_batch_sweep(
      "no mps device here: the allocator's limits need an available mps device\n"));
  CHECK_THROWS_WITH_AS(
      site::parse_batch_sweep("recommended working set: 5.33 GiB\n   1024 reports: 1 GB\n"),
      doctest::Contains("cannot read this line"), std::runtime_error);
}

TEST_CASE("a quiz in the page carries every option's why and the cell to see again") {
  site::Course course = themed_course();
  course.lessons.push_back(fixture_lesson());
  quiz::Bank bank{
      .name = "lesson09", .title = "Lesson 9 self-check", .path = "lesson09.toml", .questions = {}};
  bank.questions.push_back(
      quiz::Question{.id = "hello",
                     .prompt = "What does `greeting` print?",
                     .answer = "hello",
                     .distractors = {"nothing", "bye"},
                     .why = {"It prints a line.", "It greets, it does not leave."},
                     .context = "It prints hello.",
                     .lesson = "09_small#greeting"});
  const std::string html = site::quiz_html(bank, course);
  CHECK(contains(html, R"(<form class="quiz-form" data-total="1" data-needed="1">)"));
  CHECK(contains(
      html,
      R"(<legend><span class="number">1.</span> What does <code>greeting</code> print?</legend>)"));
  CHECK(contains(html,
                 R"(<li data-correct="true"><label><input type="radio" name="lesson09-hello")"));
  CHECK(contains(
      html,
      R"(<p class="why" hidden><strong>Why not:</strong> It greets, it does not leave.</p>)"));
  CHECK(contains(html, R"(<a href="09_small.html#greeting">)"));
  CHECK(contains(html, "build/lessons/lesson09 --cell greeting"));
}

TEST_CASE("--outputs records what each cell printed, whether it matched, and what failed") {
  const fs::path dir = scratch("outputs");
  const std::string outputs = (dir / "cells.json").string();
  const std::vector<int> status = engine::notebook::run_in_parallel(
      {{{TUTOR_WRONG_OUTPUT_LESSON, "--outputs", outputs}, (dir / "log.txt").string(), ""}}, 1);
  CHECK(status.at(0) != 0);  // three of its cells fail, and the program says so
  const auto cells = site::read_cell_outputs(outputs);
  REQUIRE(cells.size() == 4);
  CHECK(cells.at("arithmetic").output == "checked: True\n2 + 2 = 4\n");
  CHECK_FALSE(cells.at("arithmetic").matches);
  CHECK_FALSE(cells.at("arithmetic").passed);
  CHECK(cells.at("fine").passed);
  CHECK(cells.at("fine").matches);
  REQUIRE_FALSE(cells.at("raises").problems.empty());
  CHECK(contains(cells.at("raises").problems.back(),
                 "raised AssertionError: Torch not compiled with CUDA enabled"));
  REQUIRE_FALSE(cells.at("wrong_device").problems.empty());
  CHECK(contains(cells.at("wrong_device").problems.front(),
                 "CHECK( moved.device() == engine::Device(\"cpu\") ) failed"));
  CHECK(site::read_text((dir / "log.txt").string()).empty());  // the notebook view stays off
  // Where the block it was compared with sits, for tests/tools/update_documented_outputs.py
  const nlohmann::json raw = nlohmann::json::parse(site::read_text(outputs));
  CHECK(fs::path(raw["source"].get<std::string>()).filename() == "wrong_output_lesson.cpp");
  const nlohmann::json& arithmetic = raw["cells"].at(0);
  REQUIRE(arithmetic["name"] == "arithmetic");
  CHECK(arithmetic["documented_block"] == nlohmann::json{{"marker_line", 14}, {"lines", 2}});
}

TEST_CASE(
    "the pages' frame and words come from the theme, and a theme that lacks one is refused by name") {
  const fs::path dir = scratch("theme");
  for (const char* file : {"page.html", "home.html", "texts.toml"}) {
    fs::copy_file(fs::path(TUTOR_SOURCE_DIR "/site/theme") / file, dir / file);
  }
  const site::Theme theme = site::Theme::load(dir);
  CHECK(contains(
      theme.text("lesson_tools",
                 {{"program", "lesson05"}, {"notebook", "n.ipynb"}, {"machine", "m1-8gb"}}),
      "<code>build/lessons/lesson05</code>"));
  CHECK_THROWS_WITH_AS(theme.text("no_such_text"),
                       doctest::Contains("texts.toml: the text no_such_text is missing"),
                       site::ThemeError);
  CHECK_THROWS_WITH_AS(theme.text("lesson_tools", {{"number", "05"}}),
                       doctest::Contains("texts.toml, text lesson_tools: argument not found"),
                       site::ThemeError);

  site::write_text((dir / "texts.toml").string(), "course = 'MPS'\nlabs = 3\n");
  CHECK_THROWS_WITH_AS(site::Theme::load(dir),
                       doctest::Contains("texts.toml: labs must be a string"), site::ThemeError);
  fs::remove(dir / "page.html");
  CHECK_THROWS_WITH_AS(site::Theme::load(dir),
                       doctest::Contains("page.html: the theme has no such file"),
                       site::ThemeError);
}

TEST_CASE("a kernel launch is drawn with its threadgroups, SIMD groups and idle tail") {
  // Lesson 10.1's guarded scale: 1,024 threads in threadgroups of 256 over 1,000 elements.
  const site::LaunchShape tail{.kernel = "scale_guarded",
                               .grid = {1024, 1, 1},
                               .group = {256, 1, 1},
                               .calls = 1,
                               .idle = {{1000, 1024}}};
  const site::Drawing drawing = site::draw_launch(tail, "the_grids_tail", "m3-max-64gb");
  CHECK(drawing.title ==
        "the_grids_tail on m3-max-64gb: scale_guarded launched as 1024 threads in threadgroups of "
        "256");
  CHECK(contains(drawing.description,
                 "4 threadgroups of up to 256 threads, each 8 SIMD groups of 32 (alternately "
                 "shaded); 24 of the 1024 threads touched no device memory (hatched)"));
  CHECK(contains(drawing.svg, R"(role="img" aria-labelledby="title desc")"));
  CHECK(contains(drawing.svg, "threadgroup (3, 0): 256 threads in 8 SIMD groups, 24 idle"));
  CHECK(contains(drawing.svg, R"x(fill="url(#idle)")x"));

  // Lesson 10.1's 8 x 4 grid in threadgroups of 4 x 2, every thread busy: drawn thread by thread.
  const site::LaunchShape small{
      .kernel = "which_group", .grid = {8, 4, 1}, .group = {4, 2, 1}, .calls = 1, .idle = {}};
  const site::Drawing grid = site::draw_launch(small, "threadgroups_in_two_dimensions", "m1-8gb");
  CHECK(contains(grid.title, "a grid of 8 x 4 threads in threadgroups of 4 x 2"));
  CHECK(contains(grid.description, "0 of the 32 threads touched no device memory."));
  CHECK(contains(grid.svg, "thread (5, 3): lane 5 of SIMD group 0"));  // x 1 + 4 x y 1
  CHECK_FALSE(contains(grid.svg, R"x(fill="url(#idle)")x"));
}

TEST_CASE("a cell's kernel launches are read from its outputs") {
  const fs::path dir = scratch("launch_outputs");
  site::write_text((dir / "cells.json").string(), R"({"cells": [{"name": "the_grids_tail",
    "passed": true, "problems": [], "output": "", "launches": [{"kernel": "scale_guarded",
    "grid": [1024, 1, 1], "group": [256, 1, 1], "threadgroups": 4, "calls": 2,
    "idle": [[1000, 1024]]}]}]})");
  const auto cells = site::read_cell_outputs((dir / "cells.json").string());
  const auto& launches = cells.at("the_grids_tail").launches;
  REQUIRE(launches.size() == 1);
  CHECK(launches[0].kernel == "scale_guarded");
  CHECK(launches[0].grid == std::array<std::uint64_t, 3>{1024, 1, 1});
  CHECK(launches[0].calls == 2);
  REQUIRE(launches[0].idle.size() == 1);
  CHECK(launches[0].idle[0] == std::pair<std::uint64_t, std::uint64_t>{1000, 1024});
}
