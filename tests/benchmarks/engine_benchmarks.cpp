// Engine speed: random numbers and reductions at the size of a lesson's batch, and the per-op
// overhead of a tiny op that records an autograd node and runs it in backward (PyTorch 2.11
// takes about 1.6 + 1.1 + 2.8 us for the op, its node and one backward node on one thread of
// the machine in tests/data/pytorch-2.11/framework_overhead.json). The matrix product has its
// own benchmark against sgemm (matmul_vs_sgemm.cpp).

#include <benchmark/benchmark.h>

#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/ops.h"
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

void BM_RecordedOpsAndBackward(benchmark::State& state) {
  engine::sim::restart();
  const auto leaf = engine::randn({4, 4}).requires_grad_(true);
  const auto factor = engine::randn({4, 4});
  constexpr int kOps = 20;
  for (auto _ : state) {
    engine::Tensor x = leaf;
    for (int i = 0; i < kOps; ++i) x = x * factor;
    x.sum().backward();
  }
  state.SetItemsProcessed(state.iterations() * (kOps + 1));  // the products and the sum
}
BENCHMARK(BM_RecordedOpsAndBackward);

}  // namespace

BENCHMARK_MAIN();
