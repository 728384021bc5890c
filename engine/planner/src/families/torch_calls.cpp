// Torch-level calls the engine runs itself, each with PyTorch's signature (torch/nn/functional.py,
// torch/_tensor.py): its positional arguments in order, or by keyword. A call with an argument
// the engine's operator does not take (a dilation, groups, label smoothing) is left to the
// replay of its ATen operators.

#include "families/torch_calls.h"

#include <functional>
#include <map>
#include <string>

namespace planner {
namespace {

using engine::Tensor;
namespace F = engine::nn::functional;

// A call's arguments, by position or by keyword, as its function's signature names them.
class Arguments {
 public:
  Arguments(const TracedCall& call, TensorTable& tensors) : call_(call), tensors_(tensors) {}

  const nlohmann::json* find(std::size_t position, const char* keyword) const {
    if (position < call_.arguments.size()) return &call_.arguments[position];
    const auto it = call_.keywords.find(keyword);
    return it == call_.keywords.end() ? nullptr : &*it;
  }
  bool given(std::size_t position, const char* keyword) const {
    const nlohmann::json* j = find(position, keyword);
    return j != nullptr && !j->is_null();
  }
  bool is_tensor(std::size_t position, const char* keyword) const {
    const nlohmann::json* j = find(position, keyword);
    return j != nullptr && j->is_object() && j->contains("tensor");
  }
  Tensor tensor(std::size_t position, const char* keyword) const {
    if (!given(position, keyword)) return {};
    const nlohmann::json& j = *find(position, keyword);
    if (!j.is_object() || !j.contains("tensor")) throw Unsupported();
    return tensor_of(j["tensor"]);
  }
  Tensor tensor_of(const nlohmann::json& id) const { return tensors_.get(id.get<std::int64_t>()); }
  double number(std::size_t position, const char* keyword, double fallback) const {
    if (!given(position, keyword)) return fallback;
    const nlohmann::json& j = *find(position, keyword);
    if (!j.is_number()) throw Unsupported();
    return j.get<double>();
  }
  bool boolean(std::size_t position, const char* keyword, bool fallback) const {
    if (!given(position, keyword)) return fallback;
    const nlohmann::json& j = *find(position, keyword);
    if (!j.is_boolean()) throw Unsupported();
    return j.get<bool>();
  }
  // One size or a list of sizes, as an image operator's kernel, stride or padding.
  std::vector<std::int64_t> sizes(std::size_t position, const char* keyword,
                                  std::vector<std::int64_t> fallback) const {
    if (!given(position, keyword)) return fallback;
    const nlohmann::json& j = *find(position, keyword);
    if (j.is_number_integer()) return {j.get<std::int64_t>(), j.get<std::int64_t>()};
    if (!j.is_array() ||
        !std::all_of(j.begin(), j.end(), [](auto& v) { return v.is_number_integer(); }))
      throw Unsupported();
    return j.get<std::vector<std::int64_t>>();
  }
  std::string text(std::size_t position, const char* keyword, std::string fallback) const {
    if (!given(position, keyword)) return fallback;
    const nlohmann::json& j = *find(position, keyword);
    if (!j.is_string()) throw Unsupported();
    return j.get<std::string>();
  }
  // A list of tensors: torch.cat's.
  std::vector<Tensor> tensors(std::size_t position, const char* keyword) const {
    const nlohmann::json* j = find(position, keyword);
    if (j == nullptr || !j->is_array()) throw Unsupported();
    std::vector<Tensor> out;
    for (const nlohmann::json& item : *j) {
      if (!item.is_object() || !item.contains("tensor")) throw Unsupported();
      out.push_back(tensor_of(item["tensor"]));
    }
    return out;
  }
  const std::vector<std::int64_t>& output_shape() const { return call_.outputs.front().shape; }

  struct Unsupported {};  // an argument the engine's operator does not take

 private:
  const TracedCall& call_;
  TensorTable& tensors_;
};

using Handler = std::function<std::vector<Tensor>(const Arguments&)>;

// An image operator's pair of sizes; the engine's take a square or a pair.
engine::ExpandingArray<2> pair(const std::vector<std::int64_t>& sizes) {
  if (sizes.size() == 1) return sizes[0];
  if (sizes.size() != 2) throw Arguments::Unsupported();
  return {sizes[0], sizes[1]};
}

void require(bool supported) {
  if (!supported) throw Arguments::Unsupported();
}

// a (op) b, where b is a tensor or a number: Tensor.__add__(self, other), torch.add(input, other)
Handler binary(Tensor (*tensors)(const Tensor&, const Tensor&),
               Tensor (*number)(const Tensor&, double)) {
  return [tensors, number](const Arguments& a) {
    require(!a.given(2, "alpha") || a.number(2, "alpha", 1) == 1);
    const Tensor self = a.tensor(0, "input");
    if (a.is_tensor(1, "other")) return std::vector<Tensor>{tensors(self, a.tensor(1, "other"))};
    return std::vector<Tensor>{number(self, a.number(1, "other", 0))};
  };
}

std::vector<Tensor> one(Tensor t) { return {std::move(t)}; }

// A negative dim counted from the end.
std::int64_t dimension(std::int64_t dim, std::int64_t dims) {
  require(dim >= -dims && dim < dims);
  return dim < 0 ? dim + dims : dim;
}

std::map<std::string, Handler> functional_handlers() {
  return {
      {"torch.nn.functional.linear",
       [](const Arguments& a) {
         return one(F::linear(a.tensor(0, "input"), a.tensor(1, "weight"), a.tensor(2, "bias")));
       }},
      {"torch.nn.functional.conv2d",
       [](const Arguments& a) {
         require(a.sizes(5, "dilation", {1, 1}) == std::vector<std::int64_t>{1, 1} &&
                 a.number(6, "groups", 1) == 1);
         return one(F::conv2d(a.tensor(0, "input"), a.tensor(1, "weight"),
                              F::Conv2dFuncOptions()
                                  .bias(a.tensor(2, "bias"))
                                  .stride(pair(a.sizes(3, "stride", {1, 1})))
                                  .padding(pair(a.sizes(4, "padding", {0, 0})))));
       }},
      {"torch.nn.functional.dropout",
       [](const Arguments& a) {
         return one(
             F::dropout(a.tensor(0, "input"), F::DropoutFuncOptions()
                                                  .p(a.number(1, "p", 0.5))
                                                  .training(a.boolean(2, "training", true))));
       }},
      {"torch.nn.functional.layer_norm",
       [](const Arguments& a) {
         return one(F::layer_norm(a.tensor(0, "input"),
                                  F::LayerNormFuncOptions(a.sizes(1, "normalized_shape", {}))
                                      .weight(a.tensor(2, "weight"))
                                      .bias(a.tensor(3, "bias"))
                                      .eps(a.number(4, "eps", 1e-5))));
       }},
      {"torch.nn.functional.batch_norm",
       [](const Arguments& a) {
         return one(F::batch_norm(a.tensor(0, "input"), a.tensor(1, "running_mean"),
                                  a.tensor(2, "running_var"),
                                  F::BatchNormFuncOptions()
                                      .weight(a.tensor(3, "weight"))
                                      .bias(a.tensor(4, "bias"))
                                      .training(a.boolean(5, "training", false))
                                      .momentum(a.number(6, "momentum", 0.1))
                                      .eps(a.number(7, "eps", 1e-5))));
       }},
      {"torch.nn.functional.max_pool2d",
       [](const Arguments& a) {
         const auto kernel = a.sizes(1, "kernel_size", {});
         require(a.sizes(4, "dilation", {1, 1}) == std::vector<std::int64_t>{1, 1} &&
                 !a.boolean(5, "ceil_mode", false) && !a.boolean(6, "return_indices", false));
         return one(F::max_pool2d(a.tensor(0, "input"),
                                  F::MaxPool2dFuncOptions(pair(kernel))
                                      .stride(pair(a.sizes(2, "stride", kernel)))
                                      .padding(pair(a.sizes(3, "padding", {0, 0})))));
       }},
      {"torch.nn.functional.adaptive_avg_pool2d",
       [](const Arguments& a) {
         return one(F::adaptive_avg_pool2d(
             a.tensor(0, "input"),
             F::AdaptiveAvgPool2dFuncOptions(pair(a.sizes(1, "output_size", {})))));
       }},
      {"torch.nn.functional.embedding",
       [](const Arguments& a) {
         require(!a.given(3, "max_norm") && !a.boolean(5, "scale_grad_by_freq", false) &&
                 !a.boolean(6, "sparse", false));
         return one(F::embedding(a.tensor(0, "input"), a.tensor(1, "weight")));
       }},
      {"torch.nn.functional.cross_entropy",
       [](const Arguments& a) {
         require(!a.given(2, "weight") && a.text(6, "reduction", "mean") == "mean" &&
                 a.number(7, "label_smoothing", 0) == 0);
         const Tensor input = a.tensor(0, "input"), target = a.tensor(1, "target");
         require(input.dim() == 2 && target.dim() == 1);
         return one(F::cross_entropy(input, target));
       }},
      {"torch.nn.functional.scaled_dot_product_attention",
       [](const Arguments& a) {
         require(!a.given(3, "attn_mask"));
         return one(engine::scaled_dot_product_attention(
             a.tensor(0, "query"), a.tensor(1, "key"), a.tensor(2, "value"), {},
             a.number(4, "dropout_p", 0), a.boolean(5, "is_causal", false)));
       }},
  };
}

// Functions that take one tensor and an optional dim.
std::map<std::string, Handler> unary_handlers() {
  const auto softmax = [](const Arguments& a) {
    require(!a.given(3, "dtype"));
    return one(
        engine::softmax(a.tensor(0, "input"), static_cast<std::int64_t>(a.number(1, "dim", -1))));
  };
  const auto log_softmax = [](const Arguments& a) {
    require(!a.given(3, "dtype"));
    return one(engine::log_softmax(a.tensor(0, "input"),
                                   static_cast<std::int64_t>(a.number(1, "dim", -1))));
  };
  const auto relu = [](const Arguments& a) { return one(engine::relu(a.tensor(0, "input"))); };
  const auto tanh = [](const Arguments& a) { return one(engine::tanh(a.tensor(0, "input"))); };
  const auto gelu = [](const Arguments& a) {
    require(a.text(1, "approximate", "none") == "none");
    return one(F::gelu(a.tensor(0, "input")));
  };
  return {{"torch.nn.functional.softmax", softmax},
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
          {"torch.nn.functional.gelu", gelu}};
}

// Arithmetic, products and shapes: Tensor's methods and operators, and torch's functions.
std::map<std::string, Handler> tensor_handlers() {
  const auto add = binary([](const Tensor& x, const Tensor& y) { return x + y; },
                          [](const Tensor& x, double y) { return x + y; });
  const auto sub = binary([](const Tensor& x, const Tensor& y) { return x - y; },
                          [](const Tensor& x, double y) { return x - y; });
  const auto mul = binary([](const Tensor& x, const Tensor& y) { return x * y; },
                          [](const Tensor& x, double y) { return x * y; });
  const auto div = binary([](const Tensor& x, const Tensor& y) { return x / y; },
                          [](const Tensor& x, double y) { return x / y; });
  const auto matmul = [](const Arguments& a) {
    return one(a.tensor(0, "input").matmul(a.tensor(1, "other")));
  };
  // the traced result's shape: view(-1, n), flatten(1) and reshape all end there
  const auto reshape = [](const Arguments& a) {
    return one(a.tensor(0, "input").reshape(a.output_shape()));
  };
  const auto transpose = [](const Arguments& a) {
    return one(a.tensor(0, "input")
                   .transpose(static_cast<std::int64_t>(a.number(1, "dim0", 0)),
                              static_cast<std::int64_t>(a.number(2, "dim1", 1))));
  };
  // torch.cat(tensors, dim=0)
  const auto cat = [](const Arguments& a) {
    return one(
        engine::cat(a.tensors(0, "tensors"), static_cast<std::int64_t>(a.number(1, "dim", 0))));
  };
  // Tensor.split(split_size, dim=0): views of equal parts, the last one shorter
  const auto split = [](const Arguments& a) {
    const Tensor self = a.tensor(0, "self");
    const auto size = static_cast<std::int64_t>(a.number(1, "split_size", 0));
    const std::int64_t dim =
        dimension(static_cast<std::int64_t>(a.number(2, "dim", 0)), self.dim());
    require(size > 0);
    std::vector<Tensor> parts;
    for (std::int64_t start = 0; start < self.size(dim); start += size)
      parts.push_back(self.slice(dim, start, std::min(start + size, self.size(dim))));
    return parts;
  };
  return {{"torch.cat", cat},
          {"torch.Tensor.split", split},
          {"torch.Tensor.__add__", add},
          {"torch.Tensor.add", add},
          {"torch.add", add},
          {"torch.Tensor.__radd__", add},
          {"torch.Tensor.__sub__", sub},
          {"torch.Tensor.sub", sub},
          {"torch.sub", sub},
          {"torch.Tensor.__mul__", mul},
          {"torch.Tensor.mul", mul},
          {"torch.mul", mul},
          {"torch.Tensor.__rmul__", mul},
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
          {"torch.transpose", transpose}};
}

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> all = [] {
    std::map<std::string, Handler> table = functional_handlers();
    table.merge(unary_handlers());
    table.merge(tensor_handlers());
    return table;
  }();
  return all;
}

bool same_shapes(const std::vector<Tensor>& results, const std::vector<TracedTensor>& traced) {
  if (results.size() != traced.size()) return false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].sizes().vec() != traced[i].shape) return false;
  }
  return true;
}

}  // namespace

Tensor TensorTable::get(std::int64_t id) {
  const auto it = tensors_.find(id);
  if (it != tensors_.end()) return it->second;
  const TracedTensor& traced = trace_.tensor(id);
  Tensor made = engine::zeros(traced.shape, engine_dtype(traced.dtype)).to(device_);
  tensors_.emplace(id, made);
  return made;
}

void TensorTable::bind(const TracedTensor& traced, Tensor tensor) {
  tensors_[traced.id] = std::move(tensor);
}

engine::ScalarType engine_dtype(const std::string& dtype) {
  if (dtype == "bool") return engine::kBool;
  if (dtype.starts_with("int") || dtype.starts_with("uint")) return engine::kInt64;
  return engine::kFloat;
}

std::optional<std::vector<Tensor>> run_on_engine(const TracedCall& call, TensorTable& tensors) {
  const auto handler = handlers().find(call.function);
  if (handler == handlers().end() || call.outputs.empty()) return std::nullopt;
  try {
    std::vector<Tensor> results = handler->second(Arguments(call, tensors));
    if (!same_shapes(results, call.outputs)) return std::nullopt;
    return results;
  } catch (const Arguments::Unsupported&) {
    return std::nullopt;
  }
}

}  // namespace planner
