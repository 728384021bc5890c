// Calibration of the cost model against a real measurement: nanoGPT's shakespeare-char training
// run (config/train_shakespeare_char.py: 6 layers, 6 heads, 384-wide embeddings, 256-token
// blocks, batches of 64, dropout 0.2, no biases, AdamW with weight decay 0.1 on matrices,
// gradients clipped to 1.0), which took ~221 ms per iteration on mps and ~1986 ms on cpu on an
// M3 Max with 64 GB ("State of PyTorch Metal support", 2025: the mean of iterations 10-50).
//
// The same training loop runs here on the m3-max-64gb profile with shape-only tensors, so no
// arithmetic is done: every operation only charges its simulated cost. Like train.py, the loop
// times each iteration with time.perf_counter(), and each iteration's batch is a blocking copy
// to the device, which is what makes the timer honest on mps. Exits non-zero when a prediction
// is more than 15 % away from the measurement.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/device.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/utils.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/sim.h"
#include "engine/time.h"

namespace {

using engine::Device;
using engine::Tensor;
namespace F = engine::nn::functional;

constexpr std::int64_t kLayers = 6, kHeads = 6, kEmbedding = 384, kBlock = 256, kBatch = 64, kVocab = 65;
constexpr double kDropout = 0.2;
constexpr int kWarmupIterations = 3, kTimedIterations = 10;
constexpr double kTolerance = 0.15;

struct Block {
  Tensor ln_1, c_attn, attn_proj, ln_2, c_fc, mlp_proj;
};

struct Gpt {
  Tensor wte, wpe, ln_f;
  std::vector<Block> blocks;

  // nanoGPT's configure_optimizers: matrices decay, vectors (the layer-norm weights) do not.
  std::vector<Tensor> matrices() const {
    std::vector<Tensor> out{wte, wpe};
    for (const Block& b : blocks) out.insert(out.end(), {b.c_attn, b.attn_proj, b.c_fc, b.mlp_proj});
    return out;
  }
  std::vector<Tensor> vectors() const {
    std::vector<Tensor> out{ln_f};
    for (const Block& b : blocks) out.insert(out.end(), {b.ln_1, b.ln_2});
    return out;
  }
};

// Initialised on the cpu and moved, as train.py builds GPT(...) and then calls model.to(device).
Tensor parameter(engine::IntArrayRef shape, Device device) {
  return (engine::randn(shape) * 0.02).to(device).requires_grad_();
}

Gpt make_gpt(Device device) {
  Gpt m{parameter({kVocab, kEmbedding}, device), parameter({kBlock, kEmbedding}, device),
        engine::ones({kEmbedding}).to(device).requires_grad_(), {}};
  for (std::int64_t i = 0; i < kLayers; ++i) {
    m.blocks.push_back({engine::ones({kEmbedding}).to(device).requires_grad_(),
                        parameter({3 * kEmbedding, kEmbedding}, device),
                        parameter({kEmbedding, kEmbedding}, device),
                        engine::ones({kEmbedding}).to(device).requires_grad_(),
                        parameter({4 * kEmbedding, kEmbedding}, device),
                        parameter({kEmbedding, 4 * kEmbedding}, device)});
  }
  return m;
}

// (B, T, C) -> (B, heads, T, C / heads), one of q, k, v from c_attn's output.
Tensor heads(const Tensor& qkv, std::int64_t which) {
  return qkv.slice(2, which * kEmbedding, (which + 1) * kEmbedding)
      .reshape({kBatch, kBlock, kHeads, kEmbedding / kHeads})
      .transpose(1, 2);
}

Tensor attention(const Block& b, const Tensor& x) {
  const Tensor qkv = F::linear(x, b.c_attn);
  const Tensor y = F::scaled_dot_product_attention(heads(qkv, 0), heads(qkv, 1), heads(qkv, 2), kDropout, true);
  return F::dropout(F::linear(y.transpose(1, 2).reshape({kBatch, kBlock, kEmbedding}), b.attn_proj), kDropout);
}

Tensor mlp(const Block& b, const Tensor& x) {
  return F::dropout(F::linear(F::gelu(F::linear(x, b.c_fc)), b.mlp_proj), kDropout);
}

Tensor loss_of(const Gpt& m, const Tensor& idx, const Tensor& targets, const Tensor& positions) {
  Tensor x = F::dropout(F::embedding(idx, m.wte) + F::embedding(positions, m.wpe), kDropout);
  for (const Block& b : m.blocks) {
    x = x + attention(b, F::layer_norm(x, {kEmbedding}, b.ln_1));
    x = x + mlp(b, F::layer_norm(x, {kEmbedding}, b.ln_2));
  }
  const Tensor logits = F::linear(F::layer_norm(x, {kEmbedding}, m.ln_f), m.wte);  // tied weights
  return F::cross_entropy(logits.reshape({-1, kVocab}), targets.reshape({-1}));
}

// get_batch: 64 random 256-token windows assembled on the cpu, then copied to the device
// (blocking on mps: train.py pins memory only for cuda).
std::pair<Tensor, Tensor> get_batch(Device device) {
  Tensor x = engine::zeros({kBatch, kBlock}, engine::kInt64);
  Tensor y = engine::zeros({kBatch, kBlock}, engine::kInt64);
  if (device.is_mps()) return {x.to(device), y.to(device)};
  return {x, y};
}

// The mean of kTimedIterations iterations after warm-up, in ms, as train.py's dt measures it.
double milliseconds_per_iteration(Device device) {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;
  const Gpt model = make_gpt(device);
  const Tensor positions = engine::arange(kBlock).to(device);
  engine::optim::AdamW decay(model.matrices(), engine::optim::AdamWOptions(1e-3).betas({0.9, 0.99}).weight_decay(0.1));
  engine::optim::AdamW no_decay(model.vectors(), engine::optim::AdamWOptions(1e-3).betas({0.9, 0.99}).weight_decay(0));
  std::vector<Tensor> parameters = model.matrices();
  for (const Tensor& v : model.vectors()) parameters.push_back(v);

  auto [x, y] = get_batch(device);
  double started = 0;
  for (int iteration = 0; iteration < kWarmupIterations + kTimedIterations; ++iteration) {
    if (iteration == kWarmupIterations) started = engine::time::perf_counter();
    const Tensor loss = loss_of(model, x, y, positions);
    std::tie(x, y) = get_batch(device);  // fetched while the forward pass runs, as train.py does
    loss.backward();
    engine::nn::utils::clip_grad_norm_(parameters, 1.0);
    decay.step();
    no_decay.step();
    decay.zero_grad();
    no_decay.zero_grad();
  }
  return (engine::time::perf_counter() - started) * 1e3 / kTimedIterations;
}

bool report(const char* device, double predicted, double measured) {
  const double error = predicted / measured - 1;
  const bool ok = std::abs(error) <= kTolerance;
  std::printf("%-4s %12.1f %12.1f %+9.1f %%  %s\n", device, predicted, measured, 100 * error,
              ok ? "ok" : "outside 15 %");
  return ok;
}

}  // namespace

int main() {
  const double mps = milliseconds_per_iteration(Device("mps"));
  const double cpu = milliseconds_per_iteration(Device("cpu"));
  std::printf("nanoGPT shakespeare-char training step on m3-max-64gb (ms per iteration)\n");
  std::printf("%-4s %12s %12s %11s\n", "", "predicted", "measured", "error");
  const bool mps_ok = report("mps", mps, 221.0);
  const bool cpu_ok = report("cpu", cpu, 1986.0);
  return mps_ok && cpu_ok ? 0 : 1;
}
