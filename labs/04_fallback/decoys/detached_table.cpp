// Decoy: looks the rows up in a detached table, hoping to avoid the backward operator that fell
// back; the table no longer learns.
// Fails: "the embedding table still learns"
// Says: "receives no gradient"

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
  return F::embedding(token_ids, model.bag->weight.detach()).mean({1});
}

}  // namespace lab
