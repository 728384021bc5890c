// Decoy: sets PYTORCH_ENABLE_MPS_FALLBACK inside the running process, as os.environ[...] = "1"
// after `import torch` would; PyTorch has read it already.
// Fails: "the hunt finds every operator that falls back, forward and backward"
// Says: "reads PYTORCH_ENABLE_MPS_FALLBACK once"

#include "04_fallback/lab.h"

namespace lab {

namespace F = torch::nn::functional;

std::vector<std::string> operators_that_fall_back(const std::function<void()>& one_step) {
  torch::os::setenv("PYTORCH_ENABLE_MPS_FALLBACK", "1");
  one_step();
  std::vector<std::string> names;
  for (const auto& [name, count] : torch::sim::fallback_counts()) names.push_back(name);
  return names;
}

torch::Tensor report_vectors(const BagClassifier& model, const torch::Tensor& token_ids) {
  return F::embedding(token_ids, model.bag->weight).mean({1});  // embedding and mean have MPS kernels
}

}  // namespace lab
