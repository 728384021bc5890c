// The engine's cpu matmul against the system BLAS's sgemm, called directly, in one run. The
// engine adds in an order of its own, the same on every host (Note [Summation order on the
// cpu], engine/pytorch/src/kernels/kernels.h), where a BLAS tunes its order to each CPU: this is the
// price of that. The ratio stays meaningful on a noisy shared machine because both sides are
// measured side by side (each size alternately, several repetitions, median) in CPU time, which
// time spent waiting for a busy machine's cores does not inflate (both sides run on one thread).
// Target: the engine reaches at least half of sgemm's speed for n = 256 to 2048.
//   build/tests/benchmarks/matmul_vs_sgemm [Google Benchmark options]

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#ifdef __APPLE__
#define ACCELERATE_NEW_LAPACK 1
#include <Accelerate/Accelerate.h>
#else
#include <cblas.h>
#endif

#include "engine/factories.h"
#include "engine/sim.h"
#include "engine/tensor.h"

namespace {

constexpr double kTarget = 0.50;

void set_flops(benchmark::State& state, std::int64_t n) {
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * static_cast<double>(n * n * n),
                                                benchmark::Counter::kIsIterationInvariantRate);
}

void BM_EngineMatmul(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  engine::sim::restart();
  const auto a = engine::randn({n, n});
  const auto b = engine::randn({n, n});
  for (auto _ : state) benchmark::DoNotOptimize(a.matmul(b));
  set_flops(state, n);
}

void BM_Sgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  engine::sim::restart();
  const auto a = engine::randn({n, n});
  const auto b = engine::randn({n, n});
  std::vector<float> c(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data_ptr<float>(), n,
                b.data_ptr<float>(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}

// Keeps Google Benchmark's console output and remembers each run's time per iteration.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration) {
        milliseconds_[run.run_name.function_name][std::stoi(run.run_name.args)].push_back(
            run.GetAdjustedCPUTime());
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  // One line per size: both speeds and their ratio.
  void print_ratios() {
    std::printf("\n%6s %16s %16s %14s\n", "n", "engine GFLOP/s", "sgemm GFLOP/s", "engine/sgemm");
    bool all_met = true;
    const auto& sgemm_runs = milliseconds_["BM_Sgemm"];
    for (const auto& [n, engine_times] : milliseconds_["BM_EngineMatmul"]) {
      const auto sgemm_times = sgemm_runs.find(n);
      if (sgemm_times == sgemm_runs.end()) continue;
      const double megaflop = 2.0 * n * n * static_cast<double>(n) / 1e6;
      const double engine = median(engine_times),
                   sgemm = median(sgemm_times->second);  // ms per product
      const double ratio = sgemm / engine;
      all_met = all_met && ratio >= kTarget;
      std::printf("%6d %16.1f %16.1f %13.1f%%%s\n", n, megaflop / engine, megaflop / sgemm,
                  100.0 * ratio, ratio >= kTarget ? "" : "  below the target");
    }
    if (milliseconds_.empty()) return;
    std::printf("target: the engine at %.0f %% of sgemm or more: %s\n", 100.0 * kTarget,
                all_met ? "met" : "NOT met");
  }

 private:
  static double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  }
  std::map<std::string, std::map<int, std::vector<double>>> milliseconds_;  // function -> n -> runs
};

}  // namespace

int main(int argc, char** argv) {
  for (const std::int64_t n :
       {256, 512, 1024, 2048}) {  // alternately, so that both see the same machine
    benchmark::RegisterBenchmark("BM_EngineMatmul", BM_EngineMatmul)
        ->Arg(n)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_Sgemm", BM_Sgemm)->Arg(n)->Unit(benchmark::kMillisecond);
  }
  // Five repetitions unless the command line says otherwise (a later flag wins).
  std::vector<char*> args{argv[0], const_cast<char*>("--benchmark_repetitions=5")};
  args.insert(args.end(), argv + 1, argv + argc);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
