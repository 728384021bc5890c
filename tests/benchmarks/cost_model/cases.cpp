#include "cases.h"

#include <toml++/toml.h>

#include <algorithm>

#include "engine/machine.h"
#include "planner/model_config.h"

namespace cost_model {
namespace {

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

struct Reader {
  const std::string& path;

  [[noreturn]] void fail(const toml::node& at, const std::string& what) const {
    throw CaseError(path, line_of(at), what);
  }

  std::string text(const toml::table& t, std::string_view key) const {
    const auto* value = t.get_as<std::string>(key);
    if (value == nullptr || value->get().empty())
      fail(t, "'" + std::string(key) + "' must be a non-empty string");
    return value->get();
  }

  std::string one_of(const toml::table& t, std::string_view key,
                     const std::vector<std::string>& allowed) const {
    std::string value = text(t, key);
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + ("\"" + a + "\"");
      fail(t, "'" + std::string(key) + "' is \"" + value + "\"; it must be one of " + list);
    }
    return value;
  }

  std::int64_t count(const toml::node& node, std::string_view what) const {
    const auto* value = node.as_integer();
    if (value == nullptr) fail(node, std::string(what) + " must be whole numbers");
    return value->get();
  }

  int positive(const toml::table& t, std::string_view key, int fallback) const {
    const toml::node* node = t.get(key);
    if (node == nullptr) return fallback;
    const std::int64_t value = count(*node, key);
    if (value < 0) fail(*node, "'" + std::string(key) + "' must not be negative");
    return static_cast<int>(value);
  }

  double number(const toml::node& node, std::string_view what) const {
    if (const auto* f = node.as_floating_point()) return f->get();
    if (const auto* i = node.as_integer()) return static_cast<double>(i->get());
    fail(node, std::string(what) + " must be a number");
  }

  std::vector<std::vector<std::int64_t>> shapes(const toml::table& t) const {
    std::vector<std::vector<std::int64_t>> out;
    const toml::node* node = t.get("shapes");
    if (node == nullptr) return out;
    const auto* list = node->as_array();
    if (list == nullptr)
      fail(*node, "'shapes' must be a list of shapes, such as [[64, 128], [128, 32]]");
    for (const toml::node& shape : *list) {
      const auto* dims = shape.as_array();
      if (dims == nullptr || dims->empty())
        fail(shape, "each shape must be a non-empty list of sizes");
      std::vector<std::int64_t>& sizes = out.emplace_back();
      for (const toml::node& d : *dims) {
        sizes.push_back(count(d, "sizes"));
        if (sizes.back() <= 0) fail(d, "sizes must be positive");
      }
    }
    return out;
  }
};

const std::vector<std::string> kOperators = {"matmul", "linear", "softmax",
                                             "sum",    "relu",   "layer_norm"};

std::vector<std::string> all_ops() {
  std::vector<std::string> ops = kOperators;
  ops.insert(ops.end(), {"nanogpt", "nanogpt_first_iteration", "nanogpt_mfu", "gpt_classifier",
                         "bert", "distilbert", "vit", "mlp"});
  const std::vector<std::string>& cnns = planner::cnn_models();
  ops.insert(ops.end(), cnns.begin(), cnns.end());
  return ops;
}
const std::vector<std::string> kTimings = {"sync_each", "sync_loop", "events", "script"};

// How many shapes each operator takes.
std::size_t shapes_needed(const std::string& op) {
  if (op == "matmul") return 2;
  if (op == "linear") return 3;
  if (op == "softmax" || op == "sum" || op == "relu" || op == "layer_norm") return 1;
  return op == "mlp" ? 1 : 0;  // an MLP's widths
}

Case read_case(const toml::table& t, const Source& source, const Reader& r) {
  Case c;
  c.line = line_of(t);
  c.source = &source;
  c.role = r.one_of(t, "role", {"fit", "check"});
  c.regime = r.one_of(t, "regime", regimes());
  c.device = r.one_of(t, "device", {"mps", "cpu"});
  c.op = r.one_of(t, "op", all_ops());
  c.shapes = r.shapes(t);
  if (c.shapes.size() != shapes_needed(c.op)) {
    r.fail(t, "op \"" + c.op + "\" takes " + std::to_string(shapes_needed(c.op)) +
                  " shapes, the case gives " + std::to_string(c.shapes.size()));
  }
  if (const toml::node* dim = t.get("dim")) c.dims.push_back(r.count(*dim, "'dim'"));
  if (c.op == "softmax" && c.dims.size() != 1) r.fail(t, "softmax needs 'dim'");
  if (const toml::node* model = t.get("model")) {
    const auto* table = model->as_table();
    if (table == nullptr) r.fail(*model, "'model' must be a table of numbers");
    for (const auto& [key, value] : *table)
      c.model[std::string(key.str())] = r.number(value, "model settings");
  }
  const std::vector<std::pair<std::string, std::string>> units = {{"measured_ms", "ms"},
                                                                  {"measured_s", "s"},
                                                                  {"measured_tflops", "TFLOPS"},
                                                                  {"measured_percent", "%"}};
  for (const auto& [key, unit] : units) {
    const toml::node* node = t.get(key);
    if (node == nullptr) continue;
    if (!c.unit.empty()) r.fail(*node, "a case has one measurement; this one has two");
    c.unit = unit;
    c.measured = r.number(*node, "'" + key + "'");
    if (c.measured <= 0) r.fail(*node, "the measurement must be positive");
  }
  if (c.unit.empty())
    r.fail(t,
           "missing the measurement: measured_ms, measured_s, measured_tflops or measured_percent");
  if (c.unit == "TFLOPS" && c.op != "matmul") r.fail(t, "measured_tflops is for matrix products");
  if (const toml::node* within = t.get("within")) c.within = r.number(*within, "'within'");
  const std::string family = family_of(c.op);
  if (family == "encoder" || family == "cnn" || family == "mlp" || c.op == "gpt_classifier")
    c.optimizer = r.one_of(t, "optimizer", {"sgd", "adam", "adamw"});
  else if (t.get("optimizer") != nullptr)
    r.fail(
        t,
        "'optimizer' is for a classifier's training (bert, vit, resnet50, mlp, gpt_classifier, ...)");
  return c;
}

Timing timing_of(const std::string& name) {
  if (name == "sync_loop") return Timing::SyncLoop;
  if (name == "events") return Timing::Events;
  if (name == "script") return Timing::Script;
  return Timing::SyncEach;
}

}  // namespace

std::string family_of(const std::string& op) {
  if (op.starts_with("nanogpt") || op == "gpt_classifier") return "gpt";
  if (op == "bert" || op == "distilbert" || op == "vit") return "encoder";
  if (op == "mlp") return "mlp";
  const std::vector<std::string>& cnns = planner::cnn_models();
  if (std::find(cnns.begin(), cnns.end(), op) != cnns.end()) return "cnn";
  return "operator";
}

const std::vector<std::string>& regimes() {
  static const std::vector<std::string> all = {"matrix products",
                                               "bandwidth-bound kernels",
                                               "weak MPS kernels",
                                               "small synchronized ops",
                                               "cpu",
                                               "whole model steps"};
  return all;
}

std::string Case::label() const {
  std::string text = source->machine + " " + device + " " + op;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    text += i == 0 ? " " : (op == "matmul" ? " @ " : ", ");
    for (std::size_t d = 0; d < shapes[i].size(); ++d)
      text += (d ? "x" : "") + std::to_string(shapes[i][d]);
  }
  if (!dims.empty()) text += " dim " + std::to_string(dims.front());
  for (const auto& [key, value] : model) {
    if (key == "batch" || key == "seq" || key == "image" || key == "compile" || key == "training" ||
        key == "trainable_layers") {
      text += " " + key + "=" + std::to_string(static_cast<long long>(value));
    }
  }
  return text;
}

Cases load_cases(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    throw CaseError(path, static_cast<int>(error.source().begin.line),
                    std::string(error.description()));
  }
  const Reader r{path};
  const auto* sources = root.get_as<toml::array>("source");
  if (sources == nullptr) throw CaseError(path, 1, "no [[source]] tables");
  Cases out;
  out.sources.reserve(sources->size());  // cases point into it
  for (const toml::node& node : *sources) {
    const auto* t = node.as_table();
    if (t == nullptr) r.fail(node, "each source must be a table");
    Source& s = out.sources.emplace_back();
    s.id = r.text(*t, "id");
    s.cite = r.text(*t, "cite");
    s.hardware = r.text(*t, "hardware");
    s.pytorch = r.text(*t, "pytorch");
    s.machine = r.text(*t, "machine");
    if (engine::find_machine(s.machine) == nullptr) {
      r.fail(*t, "no simulated machine is called \"" + s.machine + "\"; the machines are " +
                     engine::machine_names());
    }
    s.timing = timing_of(r.one_of(*t, "timing", kTimings));
    s.warmup = r.positive(*t, "warmup", 1);
    s.repeat = r.positive(*t, "repeat", 9);
    const auto* cases = t->get_as<toml::array>("cases");
    if (cases == nullptr || cases->empty()) r.fail(*t, "source \"" + s.id + "\" has no cases");
    for (const toml::node& c : *cases) {
      const auto* table = c.as_table();
      if (table == nullptr) r.fail(c, "each case must be a table: { role = ..., op = ..., ... }");
      out.cases.push_back(read_case(*table, s, r));
    }
  }
  return out;
}

}  // namespace cost_model
