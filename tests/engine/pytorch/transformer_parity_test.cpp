// A tiny GPT block against real PyTorch (tests/data/torch_transformer_step.txt, written by
// tests/tools/make_torch_transformer_reference.py): embeddings, causal attention, layer norm,
// GELU, tied output weights, gradient clipping and three AdamW steps must agree to 1e-6.

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/utils.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Tensor;
namespace F = engine::nn::functional;

namespace {

constexpr std::int64_t V = 11, C = 8, H = 2, T = 6, B = 3;

// Drawn in the reference's order, so the same seed gives the same values.
std::map<std::string, Tensor> make_parameters() {
  std::map<std::string, Tensor> p;
  for (const auto& [name, shape] :
       std::vector<std::pair<std::string, std::vector<std::int64_t>>>{{"wte", {V, C}},
                                                                      {"wpe", {T, C}},
                                                                      {"ln1", {C}},
                                                                      {"attn", {3 * C, C}},
                                                                      {"proj", {C, C}},
                                                                      {"ln2", {C}},
                                                                      {"fc", {4 * C, C}},
                                                                      {"fc2", {C, 4 * C}},
                                                                      {"lnf", {C}}}) {
    p[name] = (engine::randn(shape) * 0.02).requires_grad_();
  }
  return p;
}

Tensor heads(const Tensor& qkv, std::int64_t which) {
  return qkv.slice(2, which * C, (which + 1) * C).reshape({B, T, H, C / H}).transpose(1, 2);
}

Tensor loss_of(std::map<std::string, Tensor>& p, const Tensor& idx, const Tensor& targets) {
  Tensor x = F::embedding(idx, p["wte"]) + p["wpe"].slice(0, 0, T);
  const Tensor qkv =
      F::linear(F::layer_norm(x, F::LayerNormFuncOptions({C}).weight(p["ln1"] + 1.0)), p["attn"]);
  const Tensor att = engine::scaled_dot_product_attention(heads(qkv, 0), heads(qkv, 1),
                                                          heads(qkv, 2), {}, 0.0, true);
  x = x + F::linear(att.transpose(1, 2).reshape({B, T, C}), p["proj"]);
  x = x + F::linear(
              F::gelu(F::linear(
                  F::layer_norm(x, F::LayerNormFuncOptions({C}).weight(p["ln2"] + 1.0)), p["fc"])),
              p["fc2"]);
  const Tensor logits =
      F::linear(F::layer_norm(x, F::LayerNormFuncOptions({C}).weight(p["lnf"] + 1.0)), p["wte"]);
  return F::cross_entropy(logits.reshape({-1, V}), targets.reshape({-1}));
}

Tensor tokens(std::int64_t multiplier, std::int64_t offset) {
  Tensor t = engine::zeros({B, T}, engine::kInt64);
  for (std::int64_t i = 0; i < B * T; ++i)
    t.data_ptr<std::int64_t>()[i] = (i * multiplier + offset) % V;
  return t;
}

}  // namespace

TEST_CASE("a tiny GPT block trained with clipping and AdamW matches PyTorch") {
  const test_support::ReferenceValues reference =
      test_support::load_reference(TUTOR_TEST_DATA_DIR "/torch_transformer_step.txt");
  REQUIRE(reference.size() == 2);
  for (const auto& entry : reference) {
    const int seed = entry.first;
    CAPTURE(seed);
    engine::sim::use_machine("linux-x86_64");
    engine::manual_seed(static_cast<std::uint64_t>(seed));
    std::map<std::string, Tensor> p = make_parameters();
    const Tensor idx = tokens(1, 0), targets = tokens(3, 1);  // idx % V, (idx * 3 + 1) % V
    std::vector<Tensor> params;
    for (auto& [name, tensor] : p) params.push_back(tensor);
    engine::optim::AdamW optimizer(params, engine::optim::AdamWOptions(1e-2).weight_decay(0.1));
    std::vector<double> losses, norms;
    for (int step = 0; step < 3; ++step) {
      optimizer.zero_grad();
      const Tensor loss = loss_of(p, idx, targets);
      loss.backward();
      norms.push_back(engine::py::torch::nn::utils::clip_grad_norm_(params, 0.5).item<double>());
      optimizer.step();
      losses.push_back(loss.item<double>());
    }
    losses.push_back(loss_of(p, idx, targets).item<double>());
    const std::map<std::string, std::vector<double>>& torch = entry.second;
    for (std::size_t i = 0; i < losses.size(); ++i)
      CHECK(losses[i] == doctest::Approx(torch.at("losses")[i]).epsilon(1e-6));
    for (std::size_t i = 0; i < norms.size(); ++i) {
      CHECK(norms[i] == doctest::Approx(torch.at("grad_norms_before_clipping")[i]).epsilon(1e-6));
    }
    CHECK(p["wte"].sum().item<double>() == doctest::Approx(torch.at("wte_sum")[0]).epsilon(1e-5));
  }
}
