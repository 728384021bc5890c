#include "precision_probes.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "engine/autocast.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "engine/random.h"
#include "engine/type_promotion.h"
#include "tensor/dtype_dispatch.h"
#include "test_support.h"

namespace F = engine::nn::functional;
using engine::Scalar;
using engine::ScalarType;
using engine::Tensor;
using nlohmann::json;

namespace precision_probes {
namespace {

const std::vector<std::string> kDtypes = {"uint8",   "int8",     "int16",   "int32",   "int64",
                                          "float16", "bfloat16", "float32", "float64", "bool"};

ScalarType dtype_named(const std::string& name) {
  static const std::map<std::string, ScalarType> kByName = {
      {"uint8", engine::kUInt8},       {"int8", engine::kInt8},       {"int16", engine::kInt16},
      {"int32", engine::kInt32},       {"int64", engine::kInt64},     {"float16", engine::kFloat16},
      {"bfloat16", engine::kBFloat16}, {"float32", engine::kFloat32}, {"float64", engine::kFloat64},
      {"bool", engine::kBool}};
  return kByName.at(name);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

// capture_precision.py's bits(): hexadecimal bits of floating-point elements, numbers otherwise.
json bits(const Tensor& t) {
  json out = json::array();
  const Tensor flat = t.detach().cpu().reshape({-1});
  engine::detail::visit_dtype(flat.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    for (const T& v : flat.to_vector<T>()) {
      if constexpr (std::is_integral_v<T>) {
        out.push_back(static_cast<std::int64_t>(v));
      } else {
        char text[20];
        if constexpr (sizeof(T) == 2) {
          std::snprintf(text, sizeof text, "%04x", static_cast<unsigned>(v.x));
        } else if constexpr (sizeof(T) == 4) {
          std::snprintf(text, sizeof text, "%08x", std::bit_cast<std::uint32_t>(v));
        } else {
          std::snprintf(text, sizeof text, "%016llx",
                        static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(v)));
        }
        out.push_back(text);
      }
    }
  });
  return out;
}

// capture_precision.py's outcome(): the result (with or without its values), or the error, and
// the warnings the engine printed meanwhile.
template <typename Run>
Outcome outcome(const Run& run, bool values = true) {
  Outcome shown;
  test_support::CaptureStderr warnings;
  try {
    const Tensor result = run();
    shown["dtype"] = engine::py::str(result.scalar_type());
    if (values) shown["bits"] = bits(result);
  } catch (const engine::Error& e) {
    shown = {{"error", engine::py::format_exception_only(e)}};
  }
  std::string printed = warnings.text();
  if (!printed.empty()) {
    if (printed.back() == '\n') printed.pop_back();
    shown["warnings"] = json::array({printed});
  }
  return shown;
}

// capture_precision.py's seeded(n, seed): standard normals from a generator seeded with `seed`.
Tensor seeded(std::int64_t n, std::uint64_t seed = 0) {
  engine::manual_seed(seed);
  return engine::randn({n});
}

}  // namespace

Outcome promote_types(const std::string& key) {
  const std::vector<std::string> pair = split(key, ',');
  return engine::py::str(engine::promote_types(dtype_named(pair[0]), dtype_named(pair[1])));
}

namespace {

// An operand of capture_precision.py's operand(kind, name).
struct Operand {
  std::optional<Tensor> tensor;
  std::optional<Scalar> number;
};

Operand operand(const std::string& kind, const std::string& name) {
  if (kind == "tensor") return {engine::ones({2}, dtype_named(name)), std::nullopt};
  if (kind == "zerodim") return {engine::ones({}, dtype_named(name)), std::nullopt};
  if (name == "int") return {std::nullopt, Scalar(2)};
  return {std::nullopt, name == "float" ? Scalar(2.5) : Scalar(true)};
}

Tensor apply(const std::string& op, const Tensor& a, const Operand& b) {
  if (op == "add") return b.tensor ? a + *b.tensor : a + *b.number;
  if (op == "truediv") return b.tensor ? a / *b.tensor : a / *b.number;
  return b.tensor ? engine::lt(a, *b.tensor) : engine::lt(a, *b.number);
}

}  // namespace

Outcome result_type(const std::string& key) {
  const std::vector<std::string> parts = split(key, '|');
  const std::string a_name = split(parts[0], ':')[1];
  const std::vector<std::string> b = split(parts[1], ':');
  const Operand other = operand(b[0], b[1]);
  const Tensor a = engine::ones({2}, dtype_named(a_name));
  if (parts.size() == 2) {
    const ScalarType type = other.tensor ? engine::result_type(a, *other.tensor)
                                         : engine::result_type(a, *other.number);
    return {{"value", engine::py::str(type)}};
  }
  return outcome([&] { return apply(parts[2], a, other); });
}

Probe rounding(const json& captured) {
  std::vector<float> values;
  for (const json& hex : captured["float32"]) {
    values.push_back(std::bit_cast<float>(
        static_cast<std::uint32_t>(std::stoul(hex.get<std::string>(), nullptr, 16))));
  }
  return [values](const std::string& key) -> Outcome {
    Tensor t = engine::zeros({static_cast<std::int64_t>(values.size())});
    std::copy(values.begin(), values.end(), t.data_ptr<float>());
    if (key == "float32") return bits(t);
    if (key == "float16") return bits(t.to(engine::kHalf));
    if (key == "bfloat16") return bits(t.to(engine::kBFloat16));
    if (key == "float16_to_float32") return bits(t.to(engine::kHalf).to(engine::kFloat));
    if (key == "bfloat16_to_float32") return bits(t.to(engine::kBFloat16).to(engine::kFloat));
    return bits((t.to(engine::kDouble) * (1 + 0x1p-30)).to(engine::kHalf));
  };
}

Probe sampler(bool capture_without_mkl) {
  return [capture_without_mkl](const std::string& key) -> Outcome {
    const std::vector<std::string> parts = split(key, ':');
    engine::manual_seed(0);
    if (parts[0] == "dropout") {
      if (!capture_without_mkl) return nullptr;
      const double p = parts.size() == 4 ? std::stod(parts[2]) : 0.5;
      return outcome([&] { return F::dropout(engine::ones({64}), F::DropoutFuncOptions().p(p)); });
    }
    const ScalarType dtype = dtype_named(parts[1]);
    const std::int64_t n = std::stoll(parts[2]);
    return outcome(
        [&] { return parts[0] == "randn" ? engine::randn({n}, dtype) : engine::rand({n}, dtype); });
  };
}

namespace {

// capture_precision.py's kernels(): x (4, 64) and w (64, 8) from seeds 0 and 1, made in float32
// and then rounded to the dtype.
Tensor run_kernel(const std::string& op, ScalarType t) {
  const Tensor x = seeded(4 * 64).reshape({4, 64}).to(t);
  const Tensor w = seeded(64 * 8, 1).reshape({64, 8});
  if (op == "sum") return (x * 8).sum();
  if (op == "sum_dim") return x.sum({1});
  if (op == "mean") return x.mean();
  if (op == "matmul") return x.matmul(w.to(t));
  if (op == "linear") return F::linear(x, w.transpose(0, 1).to(t), seeded(8, 2).to(t));
  if (op == "softmax") return engine::softmax(x, 1);
  if (op == "log_softmax") return engine::log_softmax(x, 1);
  if (op == "layer_norm") return F::layer_norm(x, F::LayerNormFuncOptions({64}));
  if (op == "gelu") return F::gelu(x);
  if (op == "relu") return F::relu(x);
  if (op == "tanh") return engine::tanh(x);
  if (op == "add") return x + seeded(64, 3).to(t);
  if (op == "mul_scalar") return x * 0.1;
  return x / 3;  // div_scalar
}

}  // namespace

Outcome kernel(const std::string& key) {
  const std::vector<std::string> parts = split(key, ':');
  return outcome([&] { return run_kernel(parts[0], dtype_named(parts[1])); });
}

namespace {

// capture_precision.py's autocast_cpu(): x (4, 8), w (8, 8), an image (2, 3, 8, 8) and a kernel
// (3, 3, 3, 3) from seeds 0 and 1; each op on float32 inputs, or on a product's output.
Tensor run_under_autocast(const std::string& op, const std::string& inputs) {
  const Tensor x = seeded(32).reshape({4, 8}), w = seeded(64, 1).reshape({8, 8});
  const Tensor image = seeded(384).reshape({2, 3, 8, 8}),
               kernel = seeded(81, 1).reshape({3, 3, 3, 3});
  const Tensor labels = engine::tensor({0, 1, 2, 3});
  const bool lower = inputs == "lower";
  if (op == "conv2d" || op == "batch_norm" || op == "max_pool2d") {
    const Tensor a = lower ? F::conv2d(image, kernel, F::Conv2dFuncOptions().padding(1)) : image;
    if (op == "conv2d") return F::conv2d(a, kernel);
    if (op == "max_pool2d") return F::max_pool2d(a, F::MaxPool2dFuncOptions(2));
    return F::batch_norm(a, engine::zeros({3}), engine::ones({3}),
                         F::BatchNormFuncOptions().training(true));
  }
  const Tensor a = lower ? x.matmul(w) : x;
  if (op == "matmul") return a.matmul(w);
  if (op == "bmm") return a.reshape({1, 4, 8}).matmul(w.reshape({1, 8, 8}));
  if (op == "linear") return F::linear(a, w, seeded(8, 2));
  if (op == "softmax") return engine::softmax(a, 1);
  if (op == "log_softmax") return engine::log_softmax(a, 1);
  if (op == "layer_norm") return F::layer_norm(a, F::LayerNormFuncOptions({8}));
  if (op == "gelu") return F::gelu(a);
  if (op == "relu") return F::relu(a);
  if (op == "add") return a + a;
  if (op == "sum") return a.sum();
  if (op == "mean") return a.mean();
  if (op == "cross_entropy") return F::cross_entropy(a, labels);
  if (op == "nll_loss") return F::nll_loss(a, labels);
  if (op == "cat_with_float32") return engine::cat({a, x});
  return a + x;  // add_float32
}

std::optional<ScalarType> fast_dtype(const std::string& name) {
  if (name == "default") return std::nullopt;
  return dtype_named(name);
}

}  // namespace

Outcome autocast_cpu(const std::string& key) {
  if (key == "default_dtype") {
    return {{"value", engine::py::str(engine::autocast::get_autocast_dtype(engine::kCPU))}};
  }
  if (key == "nested:enabled_false") {
    return outcome(
        [] {
          const engine::py::torch::autocast outer("cpu", engine::kBFloat16);
          const engine::py::torch::autocast inner("cpu", std::nullopt, false);
          return seeded(32).reshape({4, 8}).matmul(seeded(64, 1).reshape({8, 8}));
        },
        false);
  }
  const std::vector<std::string> parts = split(key, ':');
  return outcome(
      [&] {
        const engine::py::torch::autocast region("cpu", fast_dtype(parts[0]));
        return run_under_autocast(parts[2], parts[1]);
      },
      false);
}

namespace {

Tensor run_text_case(const std::string& name) {
  const Tensor i = engine::arange(3), b = engine::tensor({true, false});
  if (name == "softmax_long") return engine::softmax(i, 0);
  if (name == "softmax_inner_long") return engine::softmax(i.reshape({3, 1}), 0);
  if (name == "log_softmax_long") return engine::log_softmax(i, 0);
  if (name == "gelu_long") return F::gelu(i);
  if (name == "layer_norm_long") return F::layer_norm(i, F::LayerNormFuncOptions({3}));
  if (name == "mean_long") return i.mean();
  if (name == "relu_bool") return engine::relu(b);
  if (name == "sub_bools") return b - b;
  if (name == "sub_bool_int") return b - 1;
  if (name == "neg_bool") return -b;
  if (name == "floor_divide_by_zero") return engine::floor_divide(i, 0);
  if (name == "div_bad_mode") return engine::div(i, 2, "round");
  if (name == "inplace_float_into_long") return i.clone().add_(engine::ones({3}));
  if (name == "matmul_mixed")
    return engine::ones({2, 2}).matmul(engine::ones({2, 2}, engine::kFloat64));
  if (name == "dot_mixed") return engine::ones({2}).matmul(engine::ones({2}, engine::kInt64));
  if (name == "requires_grad_long") return engine::ones({2}, engine::kInt64).requires_grad_();
  if (name == "randn_long") return engine::randn({2}, engine::kInt64);
  if (name == "nll_loss_long")
    return F::nll_loss(engine::zeros({2, 3}, engine::kInt64), engine::tensor({0, 1}));
  const engine::py::torch::autocast region("cpu", engine::kFloat64);  // autocast_cpu_float64
  return engine::ones({2, 2}).matmul(engine::ones({2, 2}));
}

}  // namespace

Outcome text(const std::string& key) {
  return outcome([&] { return run_text_case(key); });
}

Outcome printing(const std::string& key) {
  if (key == "element_size") {
    std::string sizes;
    for (const std::string& name : kDtypes)
      sizes += (sizes.empty() ? "" : " ") +
               std::to_string(engine::ones({1}, dtype_named(name)).element_size());
    return sizes;
  }
  if (key == "float16_sci")
    return engine::py::repr(engine::tensor({1e-3, 60000.0}).to(engine::kHalf));
  if (key == "int8_wraps")
    return engine::py::repr(engine::tensor({100, 120}).to(engine::kInt8) * 2);
  if (key == "uint8_negative") {
    return engine::py::repr(engine::tensor({-1.0, 256.0, 3.7}).to(engine::kUInt8));
  }
  if (key == "empty_float16") return engine::py::repr(engine::ones({0}, engine::kHalf));
  return engine::py::repr(engine::tensor({1.0, 2.5, -3.25, 0.1}).to(dtype_named(key)));
}

bool within_one_unit(const Outcome& ours, const Outcome& theirs) {
  if (!ours.contains("bits") || !theirs.contains("bits") || ours["dtype"] != theirs["dtype"] ||
      ours["bits"].size() != theirs["bits"].size())
    return ours == theirs;
  for (std::size_t i = 0; i < ours["bits"].size(); ++i) {
    // Bits of same-signed floats are ordered as the values are: one unit apart is one apart.
    const auto a = std::stoull(ours["bits"][i].get<std::string>(), nullptr, 16);
    const auto b = std::stoull(theirs["bits"][i].get<std::string>(), nullptr, 16);
    if ((a > b ? a - b : b - a) > 1) return false;
  }
  return true;
}

}  // namespace precision_probes
