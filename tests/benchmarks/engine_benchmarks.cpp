// Engine speed: random numbers and reductions at the size of a lesson's batch. The matrix
// product has its own benchmark against sgemm (matmul_vs_sgemm.cpp).

#include <benchmark/benchmark.h>

#include "engine/factories.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/tensor.h"

namespace {

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
