// The MLP family (`family = "mlp"`): a classifier of linear layers with ReLU (and dropout) between
// them and cross-entropy on the last, as the course's own; its fields, their defaults and checks,
// its description and its training run, the usual loop of a classifier (run_state.h).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "family.h"
#include "family_registry.h"
#include "input_pipeline.h"
#include "run_state.h"

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::mlp {

using engine::Tensor;
namespace F = engine::nn::functional;

// An MLP's fields, beside `family`.
const std::vector<std::string> kFields =
    with_shared_fields({"widths", "batch_size", "dropout"}, kInputFields);

// The side of the grayscale images an MLP's inputs flatten (MNIST's 28 for 784), where its
// samples are images; 0 where the inputs are no square.
std::int64_t image_side(const MlpSettings& m) {
  const std::int64_t inputs = m.widths.front();
  auto side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(inputs)));
  while (side * side > inputs) --side;
  while ((side + 1) * (side + 1) <= inputs) ++side;
  return side * side == inputs ? side : 0;
}

// An MLP reads its images decoded in memory, one channel, as torchvision's MNIST holds them.
void check_samples(const ConfigFields& in, const ModelConfig& c) {
  if (!in.has("samples")) return;
  const Field& f = *in.last("samples");
  if (c.input.samples == "jpeg")
    in.fail(f,
            "an MLP reads grayscale images decoded in memory, as torchvision's MNIST holds "
            "them: samples = \"images\"");
  if (c.input.samples == "images" && image_side(c.as<MlpSettings>()) == 0) {
    in.fail(f,
            "images of one channel flatten into a square number of inputs (28 x 28 = 784); "
            "widths[0] is " +
                std::to_string(c.as<MlpSettings>().widths.front()));
  }
}

// The inputs, up to limits::kLayers hidden layers and the classes.
std::vector<std::int64_t> widths(const ConfigFields& in, const Field& f) {
  const FieldValue& v = in.value(f);
  const auto* list = std::get_if<std::vector<std::int64_t>>(&v);
  const std::size_t longest = limits::kLayers + 2;
  const bool in_range = list != nullptr && std::all_of(list->begin(), list->end(), [](auto w) {
                          return w > 0 && w <= limits::kClasses;
                        });
  if (!in_range || list->size() < 2 || list->size() > longest) {
    in.fail(f, "expected a list of 2 to " + std::to_string(longest) + " integers from 1 to " +
                   std::to_string(limits::kClasses) +
                   ", the inputs first and the classes last: widths = [784, 256, 10]");
  }
  return *list;
}

// Each layer's weight, and the activations of the widest.
void check_tensors(const ConfigFields& in, const ModelConfig& c) {
  const std::vector<std::int64_t>& w = c.as<MlpSettings>().widths;
  std::vector<TensorSize> tensors{
      {"the widest layer's activations",
       {{"batch_size", c.batch_size}, {"its width", *std::max_element(w.begin(), w.end())}}}};
  const auto width = [&](std::size_t i) {
    return std::pair{"widths[" + std::to_string(i) + "]", w[i]};
  };
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    tensors.push_back({"layer " + std::to_string(i + 1) + "'s weight", {width(i), width(i + 1)}});
  check_tensor_sizes(in, tensors);
}

// A field an MLP does not have: a GPT's is named as one; a near miss of an MLP's is asked about.
void other_field(const ConfigFields& in, const Field& f, const std::vector<std::string>& gpt) {
  if (std::find(gpt.begin(), gpt.end(), f.name) != gpt.end())
    in.fail(f, "a GPT's field, not an MLP's (an MLP's fields: " + listed(kFields) + ")");
  if (const auto near = near_name(f.name, kFields))
    in.fail(f, "not a field the planner knows; did you mean " + *near + "?");
  in.fail(f, "not a field of an MLP (its fields: " + listed(kFields) + ")");
}

// Linear layers with ReLU (and dropout) between them, features made on the cpu and copied to the
// device.
struct MlpRun final : runs::ClassifierRun {
  MlpRun(const ModelConfig& c, engine::Device d, std::int64_t blocks)
      : ClassifierRun(runs::ParameterMaker(d, blocks, c.trainable_layers), c),
        batch_size(c.batch_size),
        cfg(c.as<MlpSettings>()),
        checkpointed(c.gradient_checkpointing) {
    for (std::size_t i = 0; i + 1 < cfg.widths.size(); ++i) {
      // layer i is hidden block i; the last one is the head
      maker.enter_block(static_cast<std::int64_t>(i));
      const std::int64_t in = cfg.widths[i], out = cfg.widths[i + 1];
      weights.push_back(maker.weight({out, in}));
      biases.push_back(maker.zeros({out}));
    }
    optimizer = runs::make_optimizer(c.optimizer, maker.trained(), 0.01);
    if (c.input.reads_samples()) {
      const std::int64_t classes = cfg.widths.back();
      input = std::make_unique<InputPipeline>(c.input, batch_size, image_side(cfg), classes, 1);
    }
  }

  // The next batch of the input pipeline, its images flattened on the device
  // (images.view(-1, 784), as the MNIST tutorials write it), or features made in memory.
  std::vector<Tensor> batch() const override {
    const engine::Device d = maker.device();
    if (input) {
      const std::vector<Tensor> b = input->next();
      return {b[0].to(d).view({batch_size, cfg.widths.front()}), b[1].to(d)};
    }
    return {engine::zeros({batch_size, cfg.widths.front()}).to(d),
            engine::zeros({batch_size}, engine::kInt64).to(d)};
  }
  Tensor loss(const std::vector<Tensor>& b) override {
    Tensor h = b[0];
    const std::size_t head = weights.size() - 1;
    for (std::size_t i = 0; i < head; ++i) {
      h = runs::run_block(
          checkpointed, weights[i].requires_grad(),
          [this, i](const Tensor& in) {
            const Tensor z = F::relu(F::linear(in, weights[i], biases[i]));
            return F::dropout(z, F::DropoutFuncOptions().p(cfg.dropout).training(training));
          },
          h);
    }
    return F::cross_entropy(F::linear(h, weights[head], biases[head]), b[1]);
  }
  void set_training(bool on) override { training = on; }

  std::int64_t batch_size;
  MlpSettings cfg;
  std::vector<Tensor> weights, biases;
  bool checkpointed;  // each hidden layer under torch.utils.checkpoint while training
  bool training = true;
  std::unique_ptr<InputPipeline> input;  // none: features made in memory
};

class MlpFamily final : public Family {
 public:
  std::string_view name() const override { return "mlp"; }
  std::vector<std::string> field_names() const override { return kFields; }

  ModelConfig read(const ConfigFields& in) const override {
    ModelConfig c;
    c.name = in.stem();
    c.batch_size = 64;
    MlpSettings& m = c.settings.emplace<MlpSettings>();
    std::vector<FieldRule> rules{
        choosing_rule("family"),  // "mlp"
        {"widths", [&](const Field& f) { m.widths = widths(in, f); }},
        probability_rule(in, "dropout", m.dropout),
    };
    for (FieldRule& rule : shared_rules(in, c)) rules.push_back(std::move(rule));
    for (FieldRule& rule : input_rules(in, c)) rules.push_back(std::move(rule));
    const std::vector<std::string> gpt = family_named("gpt")->field_names();
    c.set_in_file = in.apply(rules, [&](const Field& f) { other_field(in, f, gpt); });
    if (m.widths.empty()) {
      in.fail_file(
          "an MLP needs its widths, the inputs first and the classes last: widths = [784, 256, "
          "10]");
    }
    check_trainable(in, c, block_count(c));
    check_tensors(in, c);
    check_input(in, c);
    check_samples(in, c);
    return c;
  }

  std::string summary(const ModelConfig& c) const override {
    const MlpSettings& m = c.as<MlpSettings>();
    std::string widths;
    for (const std::int64_t w : m.widths) widths += (widths.empty() ? "" : "-") + std::to_string(w);
    return fmt::format("an MLP classifier {}, batch {}, dropout {}, {}", widths, c.batch_size,
                       m.dropout, c.optimizer);
  }
  // the hidden layers
  std::int64_t block_count(const ModelConfig& c) const override {
    return std::max<std::int64_t>(static_cast<std::int64_t>(c.as<MlpSettings>().widths.size()) - 2,
                                  0);
  }
  std::vector<std::string> defaulted_fields(const ModelConfig& c) const override {
    std::vector<std::string> out;
    const auto add = [&](std::string_view field, const std::string& value) {
      if (std::find(c.set_in_file.begin(), c.set_in_file.end(), field) == c.set_in_file.end())
        out.push_back(std::string(field) + " " + value);
    };
    add("batch_size", std::to_string(c.batch_size));
    add("dropout", number(c.as<MlpSettings>().dropout));
    add("optimizer", "\"" + c.optimizer + "\"");
    for (std::string& field : input_defaults(c)) out.push_back(std::move(field));
    return out;
  }
  std::string defaults_source(const ModelConfig&) const override {
    return "the planner's defaults";
  }
  std::string memory_knobs(const ModelConfig&) const override { return "batch_size"; }
  nlohmann::json settings_json(const ModelConfig& c) const override {
    const MlpSettings& m = c.as<MlpSettings>();
    nlohmann::json j{{"widths", m.widths}, {"dropout", m.dropout}};
    j.update(input_json(c));
    return j;
  }

  std::unique_ptr<TrainingRun::State> make_run(const ModelConfig& c, engine::Device device,
                                               bool /*compiled*/) const override {
    return std::make_unique<MlpRun>(c, device, block_count(c));
  }
};

}  // namespace families::mlp

const Family& mlp_family() {
  static const families::mlp::MlpFamily family;
  return family;
}

}  // namespace planner
