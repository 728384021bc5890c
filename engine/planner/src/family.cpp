#include "family.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "size_limits.h"

namespace planner {

std::string Family::step_description(const ModelConfig& c) const {
  const std::int64_t k = c.gradient_accumulation_steps;
  if (k == 1)
    return "a steady training step (the batch copied in, forward, backward, the optimizer's step)";
  return fmt::format(
      "a steady training step ({} micro-batches, each copied in, forward and backward with its "
      "loss divided by {}; then the optimizer's step)",
      k, k);
}

std::vector<FieldRule> shared_rules(const ConfigFields& in, ModelConfig& c) {
  return {
      size_rule(in, "batch_size", c.batch_size, limits::kBatch),
      {"optimizer", [&](const Field& f) { c.optimizer = in.choice(f, kOptimizers); }},
      {"trainable_layers", [&](const Field& f) { c.trainable_layers = in.count(f); }},
      {"autocast",
       [&](const Field& f) {
         c.autocast = in.choice(f, kAutocastDtypes, "torch.autocast's dtype, or off");
       }},
      size_rule(in, "gradient_accumulation_steps", c.gradient_accumulation_steps,
                limits::kMicroSteps),
      yes_no_rule(in, "gradient_checkpointing", c.gradient_checkpointing),
      {"log_interval",
       [&](const Field& f) { c.log_interval = in.integer(f, 1, limits::kLogInterval); }},
  };
}

std::vector<std::string> with_shared_fields(std::vector<std::string> own,
                                            const std::vector<std::string>& more) {
  own.insert(own.end(), kSharedFields.begin(), kSharedFields.end());
  own.insert(own.end(), more.begin(), more.end());
  return own;
}

std::vector<FieldRule> input_rules(const ConfigFields& in, ModelConfig& c) {
  InputSettings& s = c.input;
  return {
      {"samples",
       [&](const Field& f) {
         s.samples = in.choice(f, {"tensors", "jpeg", "images"},
                               "batches made in memory, JPEG files, or images decoded in memory");
       }},
      size_rule(in, "stored_size", s.stored_size, limits::kImageSide),
      yes_no_rule(in, "augment", s.augment),
      {"num_workers", [&](const Field& f) { s.num_workers = in.integer(f, 0, limits::kWorkers); }},
      size_rule(in, "num_samples", s.num_samples, limits::kSamples),
  };
}

void refuse_input_field(const ConfigFields& in, const Field& f, std::string_view batches) {
  if (std::find(kInputFields.begin(), kInputFields.end(), f.name) == kInputFields.end()) return;
  in.fail(f, "sets the input pipeline, which the planner runs for a CNN's or an MLP's images; " +
                 std::string(batches));
}

void check_input(const ConfigFields& in, const ModelConfig& c) {
  if (c.input.reads_samples()) {
    if (c.input.samples != "jpeg" && in.has("stored_size"))
      in.fail(*in.last("stored_size"),
              "sizes the JPEG files samples = \"jpeg\" reads; images "
              "decoded in memory are image_size a side");
    return;
  }
  for (const std::string& name : kInputFields) {
    if (name != "samples" && in.has(name))
      in.fail(*in.last(name),
              "sets the input pipeline, which samples = \"tensors\" (batches made "
              "in memory) does not have; set samples = \"jpeg\" or \"images\"");
  }
}

std::vector<std::string> input_defaults(const ModelConfig& c) {
  const InputSettings& s = c.input;
  std::vector<std::string> out;
  const auto add = [&](std::string_view field, const std::string& value) {
    if (std::find(c.set_in_file.begin(), c.set_in_file.end(), field) == c.set_in_file.end())
      out.push_back(std::string(field) + " " + value);
  };
  add("samples", "\"" + s.samples + "\" (batches made in memory, no input pipeline)");
  if (!s.reads_samples()) return out;
  if (s.samples == "jpeg") add("stored_size", std::to_string(s.stored_size) + " (ImageNet's)");
  add("augment", s.augment ? "true" : "false");
  add("num_workers", std::to_string(s.num_workers) + " (the DataLoader's)");
  add("num_samples", std::to_string(s.num_samples));
  return out;
}

nlohmann::json input_json(const ModelConfig& c) {
  const InputSettings& s = c.input;
  nlohmann::json j{{"samples", s.samples}};
  if (!s.reads_samples()) return j;
  if (s.samples == "jpeg") j["stored_size"] = s.stored_size;
  j.update(
      {{"augment", s.augment}, {"num_workers", s.num_workers}, {"num_samples", s.num_samples}});
  return j;
}

void check_trainable(const ConfigFields& in, const ModelConfig& c, std::int64_t blocks) {
  if (c.trainable_layers <= blocks) return;
  in.fail(*in.last("trainable_layers"),
          "the model has " + std::to_string(blocks) +
              " blocks to train; trainable_layers counts them from the last (0: the head alone)");
}

void require_labels(const ConfigFields& in, const Field& id2label) {
  const FieldValue& v = in.value(id2label);
  const auto* n = std::get_if<std::int64_t>(&v);
  if (n == nullptr || *n < 1) in.fail(id2label, "names no labels; a classifier needs one or more");
  if (*n > limits::kClasses) {
    in.fail(id2label, "names " + std::to_string(*n) + " labels; the planner takes up to " +
                          std::to_string(limits::kClasses));
  }
}

namespace {

// 3.0 PiB, 12.3 TiB, 640.0 GiB
std::string binary_size(double bytes) {
  const char* units[] = {"GiB", "TiB", "PiB", "EiB"};
  double size = bytes / (1LL << 30);
  std::size_t unit = 0;
  for (; size >= 1024 && unit + 1 < std::size(units); ++unit) size /= 1024;
  return fmt::format("{:.1f} {}", size, units[unit]);
}

}  // namespace

void check_tensor_sizes(const ConfigFields& in, const std::vector<TensorSize>& tensors) {
  for (const TensorSize& tensor : tensors) {
    double elements = 1;
    std::string names, values;
    for (const auto& [name, size] : tensor.sizes) {
      elements *= static_cast<double>(size);
      names += (names.empty() ? "" : " x ") + name;
      values += (values.empty() ? "" : " x ") + std::to_string(size);
    }
    if (elements <= limits::kTensorElements) continue;
    in.fail_file(fmt::format(
        "{}, {} = {}, would hold {:.3g} elements ({} in float32); the planner takes tensors of up "
        "to {}, the memory of the largest Mac",
        tensor.what, names, values, elements, binary_size(4 * elements),
        binary_size(4 * limits::kTensorElements)));
  }
}

std::int64_t labels_named(const ConfigFields& in, std::int64_t num_labels, ModelConfig& c) {
  const Field* id2label = in.last("id2label");
  if (id2label == nullptr) return num_labels;
  const std::int64_t named = std::get<std::int64_t>(*id2label->value);
  const Field* given = in.last("num_labels");
  if (given != nullptr && num_labels != named) {
    in.fail(*given, "num_labels (" + std::to_string(num_labels) + ") and id2label (" +
                        std::to_string(named) + " labels) disagree; transformers takes id2label's");
  }
  if (given == nullptr) c.set_in_file.emplace_back("num_labels");
  return named;
}

std::string number(double x) {
  std::ostringstream out;
  out << x;
  const std::string text = out.str();
  return text.find_first_of(".e") == std::string::npos ? text + ".0" : text;
}

}  // namespace planner
