// The LibTorch API the lessons and labs reach through torch::, called once each, printing what it
// returns: built against real LibTorch its output is the reference (tests/data/libtorch-2.11/
// conformance.txt), and built against the course's engine it must print the same lines, but for
// the differences conformance_differences.txt lists with their reasons. Every name this file
// spells under torch:: is one LibTorch has; the lessons and labs may spell no other
// (conformance_test.py). README.md says how to rebuild the reference.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "backend.h"

namespace F = torch::nn::functional;

namespace {

void line(const std::string& label, const std::string& text) {
  std::cout << label << ": " << text << '\n';
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", value);
  return text;
}

std::string values(const torch::Tensor& t) {
  const torch::Tensor flat = t.detach().cpu().to(torch::kFloat).reshape({-1});
  const float* data = flat.data_ptr<float>();
  std::string out = "[";
  for (std::int64_t i = 0; i < flat.numel(); ++i) out += (i > 0 ? ", " : "") + number(data[i]);
  return out + "]";
}

std::string shape(const torch::Tensor& t) {
  std::string out = "(";
  for (std::int64_t d = 0; d < t.dim(); ++d) out += (d > 0 ? ", " : "") + std::to_string(t.size(d));
  return out + ")";
}

std::string yes(bool value) { return value ? "true" : "false"; }

// The first line of an error's text, or "no error".
void error(const std::string& label, const std::function<void()>& run) {
  try {
    run();
    line(label, "no error");
  } catch (const torch::Error& e) {
    const std::string text = error_text(e);
    line(label, text.substr(0, text.find('\n')));
  }
}

void random_numbers() {
  torch::manual_seed(0);
  line("randn 5", values(torch::randn({5})));
  line("randn 20", values(torch::randn({20})));
  line("rand 5", values(torch::rand({5})));
  torch::manual_seed(1);
  const torch::Tensor m = torch::randn({3, 4});
  line("randn 3x4", shape(m) + " " + values(m));
}

void factories() {
  line("zeros", shape(torch::zeros({2, 3})) + " " + values(torch::zeros({2, 3})));
  line("ones", values(torch::ones({3})));
  line("full", values(torch::full({2}, 3.5)));
  line("arange",
       values(torch::arange(5)) + " long " + yes(torch::arange(5).dtype() == torch::kLong));
  line("arange step", values(torch::arange(0, 10, 3)));
  line("tensor float", values(torch::tensor({1.5, 2.5})) + " float " +
                           yes(torch::tensor({1.5, 2.5}).dtype() == torch::kFloat));
  line("tensor long", values(torch::tensor({0, 2, 1}, torch::kLong)));
  line("options", yes(torch::zeros({1}, torch::TensorOptions().dtype(torch::kFloat)).dtype() ==
                      torch::kFloat));
  line("element size", std::to_string(torch::ones({2}).element_size()) + " " +
                           std::to_string(torch::arange(2).element_size()) + " " +
                           std::to_string(torch::elementSize(torch::kFloat32)) + " " +
                           std::to_string(torch::elementSize(torch::kInt64)));
  const torch::ScalarType dtype = torch::randn({1}).scalar_type();
  const torch::Tensor matrix = torch::zeros({2, 3});
  const torch::IntArrayRef sizes = matrix.sizes();  // a view of the tensor's own sizes
  line("types", yes(dtype == torch::kFloat) + " " + std::to_string(sizes.size()) + " " +
                    std::to_string(sizes[1]) + " " +
                    yes(torch::tensor({true, false}).dtype() == torch::kBool));
}

void devices() {
  const torch::Device cpu("cpu"), mps("mps"), mps0("mps:0");
  line("device str", cpu.str() + " " + mps.str() + " " + mps0.str() + " " +
                         torch::DeviceTypeName(mps.type(), /*lower_case=*/true) + " " +
                         torch::DeviceTypeName(cpu.type()));
  line("device equal", yes(mps == mps0) + " types " + yes(mps.type() == mps0.type()));
  line("device parts", yes(mps.is_mps()) + " " + yes(mps.has_index()) + " " +
                           yes(mps0.has_index()) + " " + std::to_string(mps0.index()) + " " +
                           yes(mps.type() == torch::kMPS) + " " + yes(cpu.type() == torch::kCPU));
  line("mps available", yes(torch::mps::is_available()));
  const torch::Tensor t = torch::ones({2});
  line("tensor device", t.device().str() + " " + yes(t.is_mps()) + " " + yes(t.is_cpu()));
}

void linear_layers() {
  torch::manual_seed(0);
  torch::nn::Linear layer(4, 3);
  line("linear weight", shape(layer->weight) + " " + values(layer->weight));
  line("linear bias", values(layer->bias));
  line("linear parameters", std::to_string(layer->parameters().size()));
  const torch::Tensor x = torch::ones({2, 4});
  line("linear forward", values(layer->forward(x)) + " " + values(layer(x)));
  line("functional linear", values(F::linear(x, layer->weight, layer->bias)));
  torch::nn::Sequential mlp(torch::nn::Linear(4, 8), torch::nn::ReLU(), torch::nn::Linear(8, 2));
  line("sequential",
       shape(mlp->forward(x)) + " parameters " + std::to_string(mlp->parameters().size()));
}

// A few steps of the course's classifier, as lessons 3 and 7 train it.
template <typename Optimizer, typename Options>
void training(const std::string& label, Options options) {
  torch::manual_seed(0);
  torch::nn::Linear model(4, 3);
  const torch::Tensor x = torch::randn({8, 4});
  const torch::Tensor y = torch::tensor({0, 2, 1, 0, 1, 2, 2, 0}, torch::kLong);
  Optimizer optimizer(model->parameters(), options);
  std::string losses;
  for (int step = 0; step < 3; ++step) {
    optimizer.zero_grad();
    const torch::Tensor loss = F::cross_entropy(model->forward(x), y);
    loss.backward();
    optimizer.step();
    losses += (step > 0 ? " " : "") + number(loss.item<float>());
  }
  line(label + " losses", losses);
  line(label + " weight", values(model->weight));
  line(label + " bias grad", values(model->bias.grad()));
}

void optimizers() {
  training<torch::optim::SGD>("sgd", torch::optim::SGDOptions(0.1));
  training<torch::optim::SGD>("sgd momentum", torch::optim::SGDOptions(0.1).momentum(0.9));
  training<torch::optim::Adam>("adam", torch::optim::AdamOptions(1e-2));
  training<torch::optim::AdamW>("adamw", torch::optim::AdamWOptions(1e-2).weight_decay(0.1));
  torch::manual_seed(0);
  torch::nn::Linear model(4, 3);
  F::cross_entropy(model->forward(torch::randn({8, 4}) * 10), torch::zeros({8}, torch::kLong))
      .backward();
  const double norm = torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
  line("clip_grad_norm_", number(norm) + " " + values(model->bias.grad()));
}

void functional() {
  torch::manual_seed(2);
  const torch::Tensor x = torch::randn({2, 4});
  line("gelu", values(F::gelu(x)));
  line("relu", values(F::relu(x)) + " " + values(torch::relu(x)));
  line("softmax", values(torch::softmax(x, 1)));
  line("log_softmax", values(torch::log_softmax(x, 1)));
  line("tanh", values(torch::tanh(x)));
  line("pow", values(torch::pow(x, 3)));
  line("layer_norm", values(F::layer_norm(x, F::LayerNormFuncOptions({4}))));
  const torch::Tensor gamma = torch::full({4}, 2.0), beta = torch::full({4}, 0.5);
  line("layer_norm affine",
       values(F::layer_norm(x, F::LayerNormFuncOptions({4}).weight(gamma).bias(beta).eps(1e-5))));
  line("dropout p=0", values(F::dropout(x, F::DropoutFuncOptions().p(0.0).training(true))));
  line("dropout eval", values(F::dropout(x, F::DropoutFuncOptions().p(0.5).training(false))));
  const torch::Tensor table = torch::randn({5, 3}), ids = torch::tensor({4, 0, 2}, torch::kLong);
  line("embedding", values(F::embedding(ids, table)));
  const torch::Tensor bags = torch::tensor({0, 1, 4, 2}, torch::kLong).reshape({2, 2});
  line("embedding_bag mean",
       values(F::embedding_bag(bags, table, F::EmbeddingBagFuncOptions().mode(torch::kMean))));
  torch::manual_seed(4);
  torch::nn::EmbeddingBag bag(5, 3);
  line("EmbeddingBag", shape(bag->weight) + " " + values(bag->forward(bags)));
  line("embedding_bag sum",
       values(F::embedding_bag(bags, table, F::EmbeddingBagFuncOptions().mode(torch::kSum))));
  const torch::Tensor q = torch::randn({1, 2, 3, 4}), k = torch::randn({1, 2, 3, 4}),
                      v = torch::randn({1, 2, 3, 4});
  line("attention", values(torch::scaled_dot_product_attention(q, k, v)));
  line("attention causal", values(torch::scaled_dot_product_attention(q, k, v, {}, 0.0, true)));
  const torch::Tensor logits = torch::randn({4, 3});
  line("cross_entropy",
       number(F::cross_entropy(logits, torch::tensor({0, 1, 2, 1}, torch::kLong)).item<float>()));
  // whole numbers, so that any order of addition gives the same sums
  const torch::Tensor image = torch::arange(32).to(torch::kFloat).reshape({1, 2, 4, 4});
  const torch::Tensor kernel = torch::ones({3, 2, 3, 3});
  line("conv2d padding", values(F::conv2d(image, kernel, F::Conv2dFuncOptions().padding(1))));
  line("conv2d stride", values(F::conv2d(image, kernel, F::Conv2dFuncOptions().stride(2))));
}

void tensors() {
  torch::manual_seed(3);
  const torch::Tensor a = torch::randn({2, 3}), b = torch::randn({3, 2});
  line("matmul", values(a.matmul(b)) + " " + values(torch::matmul(a, b)));
  line("transpose", shape(a.transpose(0, 1)) + " " + values(a.transpose(0, 1)));
  line("reshape", shape(a.reshape({3, 2})) + " " + shape(a.reshape({-1})));
  line("view", shape(a.view({6})));
  line("sum",
       number(a.sum().item<float>()) + " " + values(a.sum({1})) + " " + values(a.sum({0}, true)));
  line("mean", number(a.mean().item<float>()) + " " + values(a.mean({1})));
  line("slice", values(a.slice(0, 1, 2)) + " " + values(a.slice(1, 0, 2)));
  line("sizes", std::to_string(a.numel()) + " " + std::to_string(a.dim()) + " " +
                    std::to_string(a.size(-1)) + " " + std::to_string(a.sizes()[0]));
  line("arithmetic", values(a + 1) + " " + values(a * 2 - a / 2) + " " + values(-a));
  line("clone", values(a.clone()) + " " + yes(torch::equal(a, a.clone())));
  line("allclose", yes(torch::allclose(a, a + 1e-9)) + " " + yes(torch::allclose(a, a + 1e-3)));
  line("cpu", a.cpu().device().str() + " " + a.to(torch::Device("cpu")).device().str());
}

void autograd() {
  const torch::Tensor x = torch::ones({2, 3}).requires_grad_();
  const torch::Tensor y = (x * x * 3).sum();
  line("requires_grad", yes(x.requires_grad()) + " " + yes(y.requires_grad()) + " leaf " +
                            yes(x.is_leaf()) + " " + yes(y.is_leaf()));
  line("grad_fn", y.grad_fn()->name());
  y.backward();
  line("grad", values(x.grad()));
  {
    torch::NoGradGuard no_grad;
    line("no_grad", yes((x * 2).requires_grad()));
  }
  line("detach", yes(x.detach().requires_grad()));
  const torch::Tensor w = torch::ones({3, 4}).requires_grad_();
  line("nodes", (x + 1).grad_fn()->name() + " " + (x * 2).grad_fn()->name() + " " +
                    x.sum().grad_fn()->name() + " " + x.mean().grad_fn()->name() + " " +
                    x.matmul(w).grad_fn()->name() + " " + torch::softmax(x, 1).grad_fn()->name() +
                    " " + F::gelu(x).grad_fn()->name());
}

void errors() {
  error("linear shapes", [] { F::linear(torch::ones({3, 5}), torch::ones({2, 4})); });
  error("matmul shapes", [] { torch::ones({2, 3}).matmul(torch::ones({4, 5})); });
  error("broadcast", [] { torch::ones({3}) + torch::ones({4}); });
  error("reshape", [] { torch::ones({6}).reshape({4, 2}); });
  error("device string", [] { torch::Device("mpss"); });
  error("copy to mps", [] { torch::ones({2}).to(torch::Device("mps")); });
  error("factory on mps", [] { torch::zeros({2}, torch::Device("mps")); });
  error("cross_entropy batch", [] {
    F::cross_entropy(torch::ones({4, 3}), torch::tensor({0, 1}, torch::kLong));
  });
  error("embedding index", [] {
    F::embedding(torch::tensor({3}, torch::kLong), torch::ones({3, 2}));
  });
  error("integer requires_grad", [] { torch::arange(3).requires_grad_(); });
  error("backward twice", [] {
    const torch::Tensor x = torch::ones({2}).requires_grad_();
    const torch::Tensor y = (x * x).sum();
    y.backward();
    y.backward();
  });
  error("item of many", [] { torch::ones({2}).item<float>(); });
  error("negative dimension", [] { torch::zeros({-1}); });
  error("mps synchronize", [] { torch::mps::synchronize(); });
  error("sgd learning rate", [] {
    torch::optim::SGD({torch::ones({1}).requires_grad_()}, torch::optim::SGDOptions(-1.0));
  });
}

}  // namespace

int main() {
  std::cout << "# the LibTorch API of the lessons and labs, as " << kBackend << " runs it\n";
  random_numbers();
  factories();
  devices();
  linear_layers();
  optimizers();
  functional();
  tensors();
  autograd();
  errors();
  return 0;
}
