// Torch-level calls the engine runs itself, each with PyTorch's signature (torch/nn/functional.py,
// torch/_tensor.py): its positional arguments in order, or by keyword. A call with an argument
// the engine's operator does not take (a dilation, groups, label smoothing) is left to the
// replay of its ATen operators.

#include "families/torch_calls.h"

#include <functional>
#include <map>
#include <string>

#include "families/torch_arguments.h"

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace torch_calls {

using engine::Tensor;
using Results = std::vector<Tensor>;
namespace F = engine::nn::functional;

Results one(Tensor t) { return {std::move(t)}; }

// --- torch.nn.functional ---

Results linear(const Arguments& a) {
  return one(F::linear(a.tensor(0, "input"), a.tensor(1, "weight"), a.tensor(2, "bias")));
}

Results conv2d(const Arguments& a) {
  require(a.sizes(5, "dilation", {1, 1}) == std::vector<std::int64_t>{1, 1} &&
          a.number(6, "groups", 1) == 1);
  return one(F::conv2d(a.tensor(0, "input"), a.tensor(1, "weight"),
                       F::Conv2dFuncOptions()
                           .bias(a.tensor(2, "bias"))
                           .stride(pair(a.sizes(3, "stride", {1, 1})))
                           .padding(pair(a.sizes(4, "padding", {0, 0})))));
}

Results dropout(const Arguments& a) {
  return one(F::dropout(
      a.tensor(0, "input"),
      F::DropoutFuncOptions().p(a.number(1, "p", 0.5)).training(a.boolean(2, "training", true))));
}

Results layer_norm(const Arguments& a) {
  return one(F::layer_norm(a.tensor(0, "input"),
                           F::LayerNormFuncOptions(a.sizes(1, "normalized_shape", {}))
                               .weight(a.tensor(2, "weight"))
                               .bias(a.tensor(3, "bias"))
                               .eps(a.number(4, "eps", 1e-5))));
}

Results batch_norm(const Arguments& a) {
  return one(F::batch_norm(a.tensor(0, "input"), a.tensor(1, "running_mean"),
                           a.tensor(2, "running_var"),
                           F::BatchNormFuncOptions()
                               .weight(a.tensor(3, "weight"))
                               .bias(a.tensor(4, "bias"))
                               .training(a.boolean(5, "training", false))
                               .momentum(a.number(6, "momentum", 0.1))
                               .eps(a.number(7, "eps", 1e-5))));
}

Results max_pool2d(const Arguments& a) {
  const auto kernel = a.sizes(1, "kernel_size", {});
  require(a.sizes(4, "dilation", {1, 1}) == std::vector<std::int64_t>{1, 1} &&
          !a.boolean(5, "ceil_mode", false) && !a.boolean(6, "return_indices", false));
  return one(
      F::max_pool2d(a.tensor(0, "input"), F::MaxPool2dFuncOptions(pair(kernel))
                                              .stride(pair(a.sizes(2, "stride", kernel)))
                                              .padding(pair(a.sizes(3, "padding", {0, 0})))));
}

Results adaptive_avg_pool2d(const Arguments& a) {
  return one(F::adaptive_avg_pool2d(
      a.tensor(0, "input"), F::AdaptiveAvgPool2dFuncOptions(pair(a.sizes(1, "output_size", {})))));
}

Results embedding(const Arguments& a) {
  require(!a.given(3, "max_norm") && !a.boolean(5, "scale_grad_by_freq", false) &&
          !a.boolean(6, "sparse", false));
  return one(F::embedding(a.tensor(0, "input"), a.tensor(1, "weight")));
}

Results cross_entropy(const Arguments& a) {
  require(!a.given(2, "weight") && a.text(6, "reduction", "mean") == "mean" &&
          a.number(7, "label_smoothing", 0) == 0);
  const Tensor input = a.tensor(0, "input"), target = a.tensor(1, "target");
  require(input.dim() == 2 && target.dim() == 1);  // the engine's: a batch of class indices
  return one(F::cross_entropy(input, target));
}

Results attention(const Arguments& a) {
  require(!a.given(3, "attn_mask"));
  return one(engine::scaled_dot_product_attention(
      a.tensor(0, "query"), a.tensor(1, "key"), a.tensor(2, "value"), {},
      a.number(4, "dropout_p", 0), a.boolean(5, "is_causal", false)));
}

// --- one tensor, and a dim ---

Results softmax(const Arguments& a) {
  require(!a.given(3, "dtype"));
  return one(
      engine::softmax(a.tensor(0, "input"), static_cast<std::int64_t>(a.number(1, "dim", -1))));
}

Results log_softmax(const Arguments& a) {
  require(!a.given(3, "dtype"));
  return one(
      engine::log_softmax(a.tensor(0, "input"), static_cast<std::int64_t>(a.number(1, "dim", -1))));
}

Results relu(const Arguments& a) { return one(engine::relu(a.tensor(0, "input"))); }
Results tanh(const Arguments& a) { return one(engine::tanh(a.tensor(0, "input"))); }

Results gelu(const Arguments& a) {
  require(a.text(1, "approximate", "none") == "none");
  return one(F::gelu(a.tensor(0, "input")));
}

// --- arithmetic, products and shapes ---

// a (op) b, where b is a tensor or a number: Tensor.__add__(self, other), torch.add(input, other)
Results binary(const Arguments& a, Tensor (*tensors)(const Tensor&, const Tensor&),
               Tensor (*number)(const Tensor&, double)) {
  require(!a.given(2, "alpha") || a.number(2, "alpha", 1) == 1);
  const Tensor self = a.tensor(0, "input");
  if (a.is_tensor(1, "other")) return one(tensors(self, a.tensor(1, "other")));
  return one(number(self, a.number(1, "other", 0)));
}

Results add(const Arguments& a) {
  return binary(
      a, [](const Tensor& x, const Tensor& y) { return x + y; },
      [](const Tensor& x, double y) { return x + y; });
}
Results sub(const Arguments& a) {
  return binary(
      a, [](const Tensor& x, const Tensor& y) { return x - y; },
      [](const Tensor& x, double y) { return x - y; });
}
Results mul(const Arguments& a) {
  return binary(
      a, [](const Tensor& x, const Tensor& y) { return x * y; },
      [](const Tensor& x, double y) { return x * y; });
}
Results div(const Arguments& a) {
  return binary(
      a, [](const Tensor& x, const Tensor& y) { return x / y; },
      [](const Tensor& x, double y) { return x / y; });
}

Results matmul(const Arguments& a) {
  return one(a.tensor(0, "input").matmul(a.tensor(1, "other")));
}

// view(-1, n), flatten(1) and reshape all end at the traced result's shape
Results reshape(const Arguments& a) { return one(a.tensor(0, "input").reshape(a.output_shape())); }

Results transpose(const Arguments& a) {
  return one(a.tensor(0, "input")
                 .transpose(static_cast<std::int64_t>(a.number(1, "dim0", 0)),
                            static_cast<std::int64_t>(a.number(2, "dim1", 1))));
}

Results cat(const Arguments& a) {
  return one(
      engine::cat(a.tensors(0, "tensors"), static_cast<std::int64_t>(a.number(1, "dim", 0))));
}

// Tensor.split(split_size, dim=0): views of equal parts, the last one shorter
Results split(const Arguments& a) {
  const Tensor self = a.tensor(0, "self");
  const auto size = static_cast<std::int64_t>(a.number(1, "split_size", 0));
  const std::int64_t dim = dimension(static_cast<std::int64_t>(a.number(2, "dim", 0)), self.dim());
  require(size > 0);
  Results parts;
  for (std::int64_t start = 0; start < self.size(dim); start += size)
    parts.push_back(self.slice(dim, start, std::min(start + size, self.size(dim))));
  return parts;
}

// Every function the engine runs itself, by the name the tracer records (resolve_name's).
const std::pair<const char*, Results (*)(const Arguments&)> kHandlers[] = {
    {"torch.nn.functional.linear", linear},
    {"torch.nn.functional.conv2d", conv2d},
    {"torch.nn.functional.dropout", dropout},
    {"torch.nn.functional.layer_norm", layer_norm},
    {"torch.nn.functional.batch_norm", batch_norm},
    {"torch.nn.functional.max_pool2d", max_pool2d},
    {"torch.nn.functional.adaptive_avg_pool2d", adaptive_avg_pool2d},
    {"torch.nn.functional.embedding", embedding},
    {"torch.nn.functional.cross_entropy", cross_entropy},
    {"torch.nn.functional.scaled_dot_product_attention", attention},
    {"torch.nn.functional.softmax", softmax},
    {"torch.softmax", softmax},
    {"torch.Tensor.softmax", softmax},
    {"torch.nn.functional.log_softmax", log_softmax},
    {"torch.log_softmax", log_softmax},
    {"torch.Tensor.log_softmax", log_softmax},
    {"torch.nn.functional.relu", relu},
    {"torch.relu", relu},
    {"torch.Tensor.relu", relu},
    {"torch.tanh", tanh},
    {"torch.Tensor.tanh", tanh},
    {"torch.nn.functional.tanh", tanh},
    {"torch.nn.functional.gelu", gelu},
    {"torch.Tensor.__add__", add},
    {"torch.Tensor.__radd__", add},
    {"torch.Tensor.add", add},
    {"torch.add", add},
    {"torch.Tensor.__sub__", sub},
    {"torch.Tensor.sub", sub},
    {"torch.sub", sub},
    {"torch.Tensor.__mul__", mul},
    {"torch.Tensor.__rmul__", mul},
    {"torch.Tensor.mul", mul},
    {"torch.mul", mul},
    {"torch.Tensor.__truediv__", div},
    {"torch.Tensor.div", div},
    {"torch.div", div},
    {"torch.Tensor.__matmul__", matmul},
    {"torch.Tensor.matmul", matmul},
    {"torch.matmul", matmul},
    {"torch.Tensor.view", reshape},
    {"torch.Tensor.reshape", reshape},
    {"torch.reshape", reshape},
    {"torch.Tensor.flatten", reshape},
    {"torch.flatten", reshape},
    {"torch.Tensor.transpose", transpose},
    {"torch.transpose", transpose},
    {"torch.cat", cat},
    {"torch.Tensor.split", split},
};

bool same_shapes(const Results& results, const std::vector<TracedTensor>& traced) {
  if (results.size() != traced.size()) return false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].sizes().vec() != traced[i].shape) return false;
  }
  return true;
}

}  // namespace torch_calls

engine::Tensor TensorTable::get(std::int64_t id) {
  const auto it = tensors_.find(id);
  if (it != tensors_.end()) return it->second;
  const TracedTensor& traced = trace_.tensor(id);
  engine::Tensor made = engine::zeros(traced.shape, engine_dtype(traced.dtype)).to(device_);
  tensors_.emplace(id, made);
  return made;
}

void TensorTable::bind(const TracedTensor& traced, engine::Tensor tensor) {
  tensors_[traced.id] = std::move(tensor);
}

engine::ScalarType engine_dtype(const std::string& dtype) {
  if (dtype == "bool") return engine::kBool;
  if (dtype.starts_with("int") || dtype.starts_with("uint")) return engine::kInt64;
  return engine::kFloat;
}

std::optional<std::vector<engine::Tensor>> run_on_engine(const TracedCall& call,
                                                         TensorTable& tensors) {
  static const std::map<std::string, torch_calls::Results (*)(const Arguments&)> handlers(
      std::begin(torch_calls::kHandlers), std::end(torch_calls::kHandlers));
  const auto handler = handlers.find(call.function);
  if (handler == handlers.end() || call.outputs.empty()) return std::nullopt;
  try {
    std::vector<engine::Tensor> results = handler->second(Arguments(call, tensors));
    if (!torch_calls::same_shapes(results, call.outputs)) return std::nullopt;
    return results;
  } catch (const Unsupported&) {
    return std::nullopt;
  }
}

}  // namespace planner
