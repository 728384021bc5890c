// torch.mps.compile_shader as PyTorch 2.9 spells and checks it: the seed's kernel, compile
// errors as SyntaxError with Metal's diagnostics, PyTorch's threads and group_size defaults and
// texts, arg_casts, and the calls the emulator refuses where PyTorch would let Metal read the
// wrong bytes.

#include "engine/compile_shader.h"

#include <doctest/doctest.h>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "engine/timeline.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;
using engine::py::arg;
using engine::py::torch::mps::compile_shader;
using test_support::error_of;

namespace {

// Seed 002's kernel, verbatim.
constexpr std::string_view kFull = R"(
kernel void full(
    device float* out,
    constant float& val,
    uint idx [[thread_position_in_grid]]
) {
    out[idx] = val;
}
)";

constexpr std::string_view kIndex = R"(
kernel void index(device float* out, uint2 p [[thread_position_in_grid]],
                  uint2 size [[threads_per_threadgroup]]) {
  out[p.y * 8 + p.x] = float(size.x * 100 + size.y);
}
)";

template <typename Action>
std::string python_error_of(const Action& action) {
  try {
    action();
  } catch (const engine::Error& e) {
    return engine::py::format_exception_only(e);
  }
  return "no error";
}

}  // namespace

TEST_CASE("the seed's kernel fills a tensor with 3.14 on the simulated Mac") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({16}, Device("mps"));
  lib.attr("full")(x, 3.14);
  engine::mps::synchronize();
  CHECK(test_support::values(x) == std::vector<float>(16, 3.14f));
  CHECK(lib.dir() == std::vector<std::string>{"full"});
}

TEST_CASE("source Metal cannot compile raises SyntaxError with Metal's diagnostics") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(python_error_of([] { compile_shader("What"); }) ==
        "SyntaxError: program_source:1:1: error: unknown type name 'What'\nWhat\n^\n");
}

TEST_CASE("a name the library has no kernel of gets PyTorch's RuntimeError") {
  engine::sim::use_machine("m3-max-64gb");
  const auto lib = compile_shader(kFull);
  CHECK(python_error_of([&] { lib.attr("fill"); }) ==
        "RuntimeError: Failed to create function state object for: fill");
}

TEST_CASE("without MPS in the build, compile_shader is unavailable, as torch/mps says") {
  engine::sim::use_machine("linux-x86_64");
  CHECK(python_error_of([] { compile_shader(kFull); }) == "RuntimeError: MPS is not available");
  engine::sim::use_machine("m3-max-64gb");
}

TEST_CASE("threads default to the first tensor's numel; group_size to as many as fit") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({8}, Device("mps"));
  lib.attr("full")(x, 2.0, arg("threads") = 4);
  CHECK(test_support::values(x) == std::vector<float>{2, 2, 2, 2, 0, 0, 0, 0});
  // Two dimensions: the default threadgroup is 1,024 threads along x, cut to the grid at its edge.
  auto index = compile_shader(kIndex);
  Tensor y = engine::zeros({16}, Device("mps"));
  index.attr("index")(y, arg("threads") = {8, 2});
  CHECK(test_support::values(y)[9] == 801);
  index.attr("index")(y, arg("threads") = {8, 2}, arg("group_size") = {4, 2});
  CHECK(test_support::values(y)[9] == 402);
}

TEST_CASE("threads and group_size are checked with PyTorch's texts") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({8}, Device("mps"));
  const auto full = lib.attr("full");
  CHECK(error_of([&] { full(x, 1.0, arg("group_size") = 2048); }) ==
        "Threadgroup size exceeds 1024 limit");
  CHECK(
      python_error_of([&] { full(x, 1.0, arg("group_size") = 2048); }).starts_with("ValueError: "));
  CHECK(error_of([&] {
          full(x, 1.0, arg("threads") = {8, 1}, arg("group_size") = 8);
        }) ==
        "Expected !group_size.has_value() || threads->size() == group_size->size() to be true, but "
        "got false.  (Could this error message be improved?  If so, please report an enhancement "
        "request to PyTorch.)");
  CHECK(error_of([&] {
          full(x, 1.0, arg("threads") = {1, 2, 3, 4});
        }) ==
        "Expected vec.size() > 0 && vec.size() < 4 to be true, but got false.  (Could this error "
        "message be improved?  If so, please report an enhancement request to PyTorch.)");
  auto scalars_only = compile_shader("kernel void k(device float* out) {}");
  CHECK(error_of([&] { scalars_only.attr("k")(1.0); }) ==
        "Number of threads is undefined or has wrong dimention");
  CHECK(error_of([&] { full(engine::zeros({8}), 1.0); }) == "Passed CPU tensor to MPS op");
  CHECK(error_of([&] {
          full(x, 1.0, arg("thread") = 8);
        }).starts_with("__call__(): incompatible function arguments."));
}

TEST_CASE("arg_casts converts scalars before they are bound, as PyTorch's caster does") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(R"(
    kernel void k(device float* out, constant half& h, constant int& i, constant float* list,
                  uint idx [[thread_position_in_grid]]) {
      out[idx] = float(h) + float(i) + list[idx];
    })");
  Tensor x = engine::zeros({2}, Device("mps"));
  lib.attr("k")(x, 0.1, 3, std::vector<double>{10, 20},
                arg("arg_casts") = {{1, "fp16"}, {2, "int32"}});
  CHECK(test_support::values(x) == std::vector<float>{13.0999755859375f, 23.0999755859375f});
  CHECK(error_of([&] {
          lib.attr("k")(x, 0.1, 3, std::vector<double>{1, 2}, arg("arg_casts") = "fp8");
        }) == "Unsupported cast instruction fp8");
}

TEST_CASE("the emulator refuses what PyTorch would let Metal read as the wrong bytes") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({4}, Device("mps"));
  CHECK(error_of([&] { lib.attr("full")(x); }) ==
        "kernel 'full' reads buffer(1) (constant float &val), but the call binds 1 argument: "
        "PyTorch 2.9 does not check this, and Metal would read whatever was bound there before "
        "(the emulator stops instead)");
  CHECK(error_of([&] { lib.attr("full")(x, 3); }) ==
        "argument 1 is the Python int 3, and kernel 'full' reads buffer(1) (constant float &val): "
        "PyTorch 2.9 passes its bytes (long) as they are, and Metal would read them as float (the "
        "emulator stops instead)");
  Tensor labels =
      engine::zeros({4}, engine::TensorOptions().dtype(engine::kLong).device(Device("mps")));
  CHECK(error_of([&] { lib.attr("full")(labels, 1.0); }) ==
        "argument 0 is a torch.int64 tensor of 4 values, and kernel 'full' reads buffer(0) (device "
        "float *out): PyTorch 2.9 passes the tensor's bytes as they are, and Metal would read them "
        "as float (the emulator stops instead)");
  auto ints = compile_shader("kernel void k(device float* out, constant uint& n) { out[0] = n; }");
  ints.attr("k")(x, 7, arg("threads") = 1);  // an int64 read as a uint: its low bytes, 7
  CHECK(test_support::values(x)[0] == 7);
}

TEST_CASE("a kernel that writes past its tensor stops with the thread and the line") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({16}, Device("mps"));
  CHECK(
      error_of([&] { lib.attr("full")(x, 1.0, arg("threads") = 20); }) ==
      "program_source:7:5: error: thread 16 of the grid (thread 16 of threadgroup 0): "
      "out-of-bounds write of out[16] (buffer(0): a torch.float32 tensor of 16 values), past its end\n"
      "    out[idx] = val;\n"
      "    ^\n");
}

TEST_CASE("a kernel runs on the MPS stream: encoded on the host, timed on the device") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({1 << 20}, Device("mps"));
  const auto full = lib.attr("full");
  full(x, 1.0);  // the first call prepares the pipeline
  engine::mps::synchronize();
  const double start = engine::py::time::perf_counter();
  full(x, 1.0);
  const double launched = engine::py::time::perf_counter() - start;
  CHECK(launched == doctest::Approx(engine::sim::machine().metal_dispatch_seconds));
  engine::mps::synchronize();
  const double custom = engine::py::time::perf_counter() - start;
  const double mps_start = engine::py::time::perf_counter();
  x.zero_();  // MPS's own fill kernel
  engine::mps::synchronize();
  const double mps = engine::py::time::perf_counter() - mps_start;
  // Writing 4 MiB: the custom kernel costs what MPS's own fill costs, within a factor of two.
  CHECK(custom < 2 * mps);
  CHECK(mps < 2 * custom);
}

TEST_CASE("compiling and dispatching show on the timelines, beside MPS's own kernels") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::TimelineRecording recording;
  auto lib = compile_shader(kFull);
  Tensor x = engine::zeros({16}, Device("mps"));
  lib.attr("full")(x, 3.14);
  std::vector<std::string> spans;
  for (const engine::sim::Span& s : recording.spans())
    spans.push_back(s.track + " " + s.category + " " + s.name);
  // Each kernel's first dispatch prepares its pipeline on the host, as MPS's own kernels do.
  CHECK(spans == std::vector<std::string>{"host compile compile_shader",
                                          "host dispatch aten::zeros", "host compile aten::zeros",
                                          "mps device kernel aten::zeros", "host dispatch full",
                                          "host compile full", "mps device kernel full"});
}
