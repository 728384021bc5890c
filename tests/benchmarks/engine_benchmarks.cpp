// Engine speed, measured against the same work done with Eigen directly in one run, so the
// ratio (engine overhead) stays meaningful on a noisy shared machine.

#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include "engine/factories.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/tensor.h"

namespace {

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
BENCHMARK(BM_EngineMatmul)->Arg(2)->Arg(64)->Arg(256)->Arg(512)->Arg(1024);

void BM_RawEigenMatmul(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, n), b = Eigen::MatrixXf::Random(n, n);
  Eigen::MatrixXf c(n, n);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, n);
}
BENCHMARK(BM_RawEigenMatmul)->Arg(2)->Arg(64)->Arg(256)->Arg(512)->Arg(1024);

void BM_RandnTicketBatch(benchmark::State& state) {
  engine::sim::restart();
  for (auto _ : state) benchmark::DoNotOptimize(engine::randn({32, 128, 768}));
  state.SetItemsProcessed(state.iterations() * 32 * 128 * 768);
}
BENCHMARK(BM_RandnTicketBatch);

void BM_MeanOverTokens(benchmark::State& state) {
  engine::sim::restart();
  const auto batch = engine::randn({32, 128, 768});
  for (auto _ : state) benchmark::DoNotOptimize(batch.mean({1}));
  state.SetBytesProcessed(state.iterations() * batch.numel() * 4);
}
BENCHMARK(BM_MeanOverTokens);

}  // namespace

BENCHMARK_MAIN();
