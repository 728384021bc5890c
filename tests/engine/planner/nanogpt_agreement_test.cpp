// The course's nanoGPT is run in three places: lesson 8 teaches it, the planner (`course plan`)
// predicts with it, and the cost model's validation (tests/benchmarks) checks it against seed
// 003's measured run. The last two share the planner's TrainingRun; this test runs it as lesson 8
// times its model and requires the numbers lesson 8 documents, so the three cannot drift apart.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/notebook/lesson_source.h"
#include "planner/model_config.h"
#include "planner/training_step.h"

namespace {

// Lesson 8 is a lesson in sections; each documents some of its cells.
const std::filesystem::path kLesson8 = TUTOR_SOURCE_DIR "/lessons/08_nanogpt_on_the_m3_max";

// train.py's loop as lesson 8 times it: estimate_loss() at iteration 0, dt from the end of one
// iteration to the end of the next, the loss read every 10th; returns every dt.
std::vector<double> train_dts(planner::TrainingRun& run, int iterations) {
  std::vector<double> dts;
  double t0 = engine::py::time::perf_counter();
  for (int iteration = 0; iteration < iterations; ++iteration) {
    if (iteration % 250 == 0) run.estimate_loss(200);
    const engine::Tensor loss = run.iterate();
    const double t1 = engine::py::time::perf_counter();
    dts.push_back(t1 - t0);
    t0 = t1;
    if (iteration % 10 == 0) static_cast<void>(loss.item<float>());
  }
  return dts;
}

double steady_ms(const std::vector<double>& dts) {
  double sum = 0;
  for (std::size_t i = 10; i < 50; ++i) sum += dts[i];
  return sum / 40 * 1e3;
}

std::vector<double> planner_dts(const char* machine, const char* device, bool compiled) {
  const planner::ModelConfig config = planner::read_model_config(
      TUTOR_SOURCE_DIR "/engine/planner/examples/train_shakespeare_char.py");
  engine::sim::use_machine(machine);
  engine::sim::ShapeOnlyGuard shape_only;
  planner::TrainingRun run(config, engine::Device(device), compiled);
  return train_dts(run, 50);
}

// The lines lesson 8 documents for `cell` on `machine`.
std::string documented(const char* cell, const char* machine) {
  std::vector<engine::notebook::LessonSource> sections;
  for (const auto& file : std::filesystem::directory_iterator(kLesson8)) {
    if (file.path().extension() == ".cpp")
      sections.push_back(engine::notebook::load_lesson(file.path().string()));
  }
  const engine::notebook::Cell* found = nullptr;
  for (const engine::notebook::LessonSource& section : sections) {
    if (found == nullptr) found = section.find(cell);
  }
  REQUIRE_MESSAGE(found != nullptr, "lesson 8 has no cell " << cell);
  const engine::notebook::OutputBlock* block = found->output_for(machine);
  REQUIRE(block != nullptr);
  return block->text();
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("the planner's nanoGPT steps as long as lesson 8's, eager on both devices and compiled") {
  for (const char* machine : {"m3-max-64gb", "m1-8gb"}) {
    CAPTURE(machine);
    const std::string steady = documented("steady_step", machine);
    CHECK_MESSAGE(has_line(steady, fmt::format("cpu: {:.0f} ms per iteration",
                                               steady_ms(planner_dts(machine, "cpu", false)))),
                  steady);
    const std::string mps =
        fmt::format("mps: {:.0f} ms per iteration,", steady_ms(planner_dts(machine, "mps", false)));
    CHECK_MESSAGE(steady.find(mps) != std::string::npos, "looked for: " << mps << "\n" << steady);

    const std::vector<double> compiled = planner_dts(machine, "mps", true);
    const std::string compiled_text = documented("compiled_step", machine);
    CHECK_MESSAGE(has_line(compiled_text, fmt::format("iteration 0: {:.1f} s", compiled[0])),
                  compiled_text);
    CHECK_MESSAGE(has_line(compiled_text,
                           fmt::format("steady: {:.0f} ms per iteration", steady_ms(compiled))),
                  compiled_text);
  }
}

TEST_CASE("the planner counts lesson 8's parameters") {
  const planner::ModelConfig config = planner::read_model_config(
      TUTOR_SOURCE_DIR "/engine/planner/examples/train_shakespeare_char.py");
  CHECK(has_line(documented("model_size", "m3-max-64gb"),
                 fmt::format("number of parameters: {:.2f}M",
                             static_cast<double>(planner::parameter_count(config)) / 1e6)));
}
