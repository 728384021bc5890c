// Decoy: no operator falls back any more, because the lookup is sent to the cpu by hand.
// Fails: "one training step changes backend only at its two chosen boundaries"
// Says: "a detour you wrote yourself"

#include "04_fallback/lab.h"

namespace lab {

namespace F = torch::nn::functional;

std::vector<std::string> operators_that_fall_back(const std::function<void()>& one_step) {
  torch::sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});  // read at start-up
  one_step();
  std::vector<std::string> names;
  for (const auto& [name, count] : torch::sim::fallback_counts()) names.push_back(name);
  return names;
}

torch::Tensor report_vectors(const BagClassifier& model, const torch::Tensor& token_ids) {
  const torch::Device device = token_ids.device();
  // EmbeddingBag runs fine on the cpu, and no operator falls back.
  return F::embedding_bag(token_ids.cpu(), model.bag->weight.cpu()).to(device);
}

}  // namespace lab
