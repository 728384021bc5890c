// The Metal executor against DESIGN.md's budget: a kernel of a million threads, ten operations
// each, runs within 1 s on one core (Note [Lockstep threadgroups] in engine/metal/src/
// executor.h says why it can). Each run compiles the kernel and dispatches it, its race and
// bounds checks included; the counter "budget_s" prints the budget beside the time.
//   build/tests/benchmarks/metal_benchmarks

#include <benchmark/benchmark.h>

#include <cstring>
#include <span>
#include <vector>

#include "engine/metal/dispatch.h"
#include "engine/metal/library.h"

namespace {

constexpr const char* kTenOperations = R"(
kernel void ten(const device float* x, device float* y, uint i [[thread_position_in_grid]]) {
  float v = x[i];
  v = v * 1.5f;
  v = v + 2.0f;
  v = v * v;
  v = v - 1.0f;
  v = fma(v, 0.5f, 0.25f);
  v = max(v, 0.0f);
  v = sqrt(v);
  v = v / 3.0f;
  y[i] = v;
}
)";

void BM_MillionThreadsTenOperations(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  std::vector<float> x(threads, 0.5f), y(threads, 0.0f);
  const std::vector<engine::metal::BufferBinding> bindings = {
      {std::as_writable_bytes(std::span(x)), "x", true},
      {std::as_writable_bytes(std::span(y)), "y", true}};
  for (auto _ : state) {
    const auto library = engine::metal::Library::compile(kTenOperations);
    const auto work = engine::metal::dispatch(*library.find_kernel("ten"), bindings,
                                              {threads, 1, 1}, {256, 1, 1});
    benchmark::DoNotOptimize(work.alu_cycles);
  }
  state.counters["budget_s"] = 1.0;
}
BENCHMARK(BM_MillionThreadsTenOperations)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
