// The torch family: the learner's own PyTorch model, as their PyTorch traced one training step of
// it (torch_trace.h), replayed on the engine (torch_replay.cpp). It has no config fields: its
// settings are the trace, made by `course plan --torch FILE.py`.

#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "families/torch_replay.h"
#include "family.h"
#include "planner/torch_model.h"

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::torch {

const char* class_name(engine::sim::OperatorClass kind) {
  switch (kind) {
    case engine::sim::OperatorClass::Product:
      return "product";
    case engine::sim::OperatorClass::Convolution:
      return "convolution";
    case engine::sim::OperatorClass::Reduction:
      return "reduction";
    case engine::sim::OperatorClass::Elementwise:
    case engine::sim::OperatorClass::View:
      break;
  }
  return "elementwise";
}

const Trace& trace_of(const ModelConfig& c) { return *c.as<TorchSettings>().trace; }

class TorchFamily final : public Family {
 public:
  std::string_view name() const override { return "torch"; }
  std::vector<std::string> field_names() const override { return {}; }
  bool read_from_configs() const override { return false; }
  std::string unnamed_refusal() const override {
    return "a PyTorch model is traced from its own file: course plan --torch FILE.py";
  }
  ModelConfig read(const ConfigFields& in) const override { in.fail_file(unnamed_refusal()); }

  std::string summary(const ModelConfig& c) const override {
    const Trace& t = trace_of(c);
    return fmt::format(
        "{} traced by PyTorch {} from {}'s training_step(batch_size={}): {} operators forward, "
        "{} backward, {} in the optimizer's step; {}",
        t.model, t.torch, t.file, c.batch_size, t.count("forward"), t.count("backward"),
        t.count("optimizer"), t.optimizer);
  }
  std::vector<std::string> notes(const ModelConfig& c) const override {
    std::string list;
    for (const auto& [op, count] : estimated_operators(c.as<TorchSettings>().trace)) {
      list += fmt::format("{}{} x {} ({})", list.empty() ? "" : ", ", op, count,
                          class_name(operator_class(op)));
    }
    if (list.empty()) return {};
    return {"estimated: operators the engine lacks, priced as the nearest class it has sourced: " +
            list};
  }
  std::int64_t block_count(const ModelConfig&) const override { return 0; }
  std::vector<std::string> defaulted_fields(const ModelConfig&) const override { return {}; }
  // a trace sets no plan field: the shared ones (log_interval) keep the planner's defaults
  std::string defaults_source(const ModelConfig&) const override {
    return "the planner's defaults";
  }
  std::string step_description(const ModelConfig&) const override {
    return "a steady training step as traced (the batch copied in, forward, backward, the "
           "optimizer's step)";
  }
  std::string memory_knobs(const ModelConfig&) const override {
    return "training_step's batch_size";
  }
  nlohmann::json settings_json(const ModelConfig& c) const override;

  bool runs_memory_recipes() const override { return false; }
  std::unique_ptr<TrainingRun::State> make_run(const ModelConfig& c, engine::Device device,
                                               bool /*compiled*/) const override {
    const TorchSettings& s = c.as<TorchSettings>();
    // the batch sweep's other sizes: the step as traced at that size
    if (c.batch_size != s.trace->batch_size)
      return make_torch_run(s.at_batch(c.batch_size), device);
    return make_torch_run(s.trace, device);
  }
};

nlohmann::json TorchFamily::settings_json(const ModelConfig& c) const {
  const Trace& t = trace_of(c);
  nlohmann::json estimated = nlohmann::json::array();
  for (const auto& [op, count] : estimated_operators(c.as<TorchSettings>().trace))
    estimated.push_back({{"op", op}, {"class", class_name(operator_class(op))}, {"count", count}});
  return {{"file", t.file},
          {"model", t.model},
          {"torch", t.torch},
          {"python", t.python},
          {"traced_optimizer", t.optimizer},
          {"operators",
           {{"forward", t.count("forward")},
            {"backward", t.count("backward")},
            {"optimizer", t.count("optimizer")}}},
          {"estimated", estimated}};
}

ModelConfig config_of(std::shared_ptr<const Trace> trace, const std::string& name) {
  ModelConfig c;
  c.name = name;
  c.batch_size = trace->batch_size;
  c.optimizer = trace->optimizer == "SGD"    ? "sgd"
                : trace->optimizer == "Adam" ? "adam"
                                             : "adamw";  // the state of two moments a parameter
  c.settings = TorchSettings{std::move(trace), {}};
  return c;
}

}  // namespace families::torch

std::vector<std::int64_t> sweep_batch_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t b = 1; b <= std::int64_t{1} << 16; b *= 2) sizes.push_back(b);
  return sizes;
}

ModelConfig traced_model_config_of(const std::string& trace_json, const std::string& source) {
  auto trace = std::make_shared<const Trace>(read_trace(trace_json, source));
  const std::string name = std::filesystem::path(trace->file).stem().string();
  return families::torch::config_of(std::move(trace), name);
}

ModelConfig traced_model_config(const std::string& file, const Tracer& tracer) {
  if (!tracer)
    throw ConfigError(
        file, 0,
        "no tracer of PyTorch models was given (course plan --torch runs the course's: python/trace_model.py)");
  const std::vector<std::string> traced = tracer(file, {});
  if (traced.empty()) throw ConfigError(file, 0, "the tracer printed no trace");
  ModelConfig c = traced_model_config_of(traced.at(0), file);
  c.name = std::filesystem::path(file).stem().string();
  // the sweep's traces, made together the first time one is asked for, and each read when its
  // batch is planned (the sweep stops long before its largest batches' tensors outgrow a Mac)
  auto traced_at = std::make_shared<std::map<std::int64_t, std::string>>();
  c.as<TorchSettings>().at_batch = [file, tracer, traced_at](std::int64_t batch_size) {
    if (traced_at->empty()) {
      const std::vector<std::int64_t> sizes = sweep_batch_sizes();
      const std::vector<std::string> traces = tracer(file, sizes);
      for (std::size_t i = 0; i < sizes.size() && i < traces.size(); ++i)
        (*traced_at)[sizes[i]] = traces[i];
    }
    const auto found = traced_at->find(batch_size);
    if (found == traced_at->end())
      throw ConfigError(file, 0, "no trace at batch_size " + std::to_string(batch_size));
    return std::make_shared<const Trace>(read_trace(found->second, file));
  };
  return c;
}

const Family& torch_family() {
  static const families::torch::TorchFamily family;
  return family;
}

}  // namespace planner
