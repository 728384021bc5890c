// The CNN family (`model = "resnet50"`): torchvision's classification models, with the images,
// the classes and the training of torchvision's reference script (references/classification/
// train.py: batch 32, SGD with momentum).

#include "families/cnn.h"

#include <fmt/format.h>

#include <algorithm>

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::cnn {

// torchvision's names (the model's, its num_classes), the input and the training.
const std::vector<std::string> kFields =
    with_shared_fields({"model", "image_size", "num_classes", "batch_size"}, kInputFields);

std::string known_model(const ConfigFields& in, const Field& f) {
  const std::string model = in.text(f);
  const std::vector<std::string>& known = cnn_models();
  if (std::find(known.begin(), known.end(), model) == known.end())
    in.fail(f, "the planner builds torchvision's " + listed(known) + ", not \"" + shortened(model) +
                   "\"");
  return model;
}

std::int64_t image_size(const ConfigFields& in, const Field& f) {
  const std::int64_t size = in.positive_integer(f, limits::kImageSide);
  if (size < 32)
    in.fail(f, "images of at least 32 pixels a side pass the five halvings of these models");
  return size;
}

void other_field(const ConfigFields& in, const Field& f) {
  if (f.name == "num_labels" || f.name == "classes") in.fail(f, "torchvision calls it num_classes");
  if (const auto near = near_name(f.name, kFields))
    in.fail(f, "not a field the planner knows; did you mean " + *near + "?");
  in.fail(f, "not a field of a CNN (its fields: " + listed(kFields) + ")");
}

bool resnet(const ModelConfig& c) { return c.as<CnnSettings>().model.starts_with("resnet"); }

class CnnFamily final : public Family {
 public:
  std::string_view name() const override { return "cnn"; }
  std::vector<std::string> field_names() const override { return kFields; }
  // nanoGPT's Python files may assign any global, `model` among them
  bool names_model(const ConfigFields& in) const override { return in.has("model") && !in.open(); }
  std::string_view naming_field() const override { return "model"; }
  std::string unnamed_refusal() const override {
    return "a CNN names torchvision's model: model = \"resnet50\"";
  }

  ModelConfig read(const ConfigFields& in) const override {
    ModelConfig c;
    c.name = in.stem();
    c.batch_size = 32;    // torchvision's references/classification/train.py
    c.optimizer = "sgd";  // the same script's --opt
    CnnSettings& s = c.settings.emplace<CnnSettings>();
    std::vector<FieldRule> rules{
        choosing_rule("family"),  // "cnn", checked by the registry
        {"model", [&](const Field& f) { s.model = known_model(in, f); }},
        {"image_size", [&](const Field& f) { s.image_size = image_size(in, f); }},
        size_rule(in, "num_classes", s.num_classes, limits::kClasses),
    };
    for (FieldRule& rule : shared_rules(in, c)) rules.push_back(std::move(rule));
    for (FieldRule& rule : input_rules(in, c)) rules.push_back(std::move(rule));
    c.set_in_file = in.apply(rules, [&](const Field& f) { other_field(in, f); });
    check_trainable(in, c, block_count(c));
    check_input(in, c);
    // the stem's output: a ResNet's, its stride-2 convolution's; a VGG's, its first block's
    const bool halved = resnet(c);
    const std::pair<std::string, std::int64_t> side{halved ? "image_size / 2" : "image_size",
                                                    halved ? s.image_size / 2 : s.image_size};
    check_tensor_sizes(in, {{"the first convolution's output",
                             {{"batch_size", c.batch_size}, {"64 channels", 64}, side, side}}});
    return c;
  }

  std::string summary(const ModelConfig& c) const override {
    const CnnSettings& s = c.as<CnnSettings>();
    return fmt::format("torchvision's {}, {}x{} images, batch {}, {} classes, {}", s.model,
                       s.image_size, s.image_size, c.batch_size, s.num_classes, c.optimizer);
  }
  std::string block_name(const ModelConfig& c) const override {
    return resnet(c) ? "stage" : "block";
  }
  // a ResNet's four stages, a VGG's five blocks of convolutions
  std::int64_t block_count(const ModelConfig& c) const override { return resnet(c) ? 4 : 5; }
  std::vector<std::string> defaulted_fields(const ModelConfig& c) const override {
    const CnnSettings& s = c.as<CnnSettings>();
    std::vector<std::string> out;
    const auto add = [&](std::string_view field, const std::string& value) {
      if (std::find(c.set_in_file.begin(), c.set_in_file.end(), field) == c.set_in_file.end())
        out.push_back(std::string(field) + " " + value);
    };
    add("image_size", std::to_string(s.image_size));
    add("num_classes", std::to_string(s.num_classes));
    add("batch_size", std::to_string(c.batch_size));
    add("optimizer", "\"" + c.optimizer + "\"");
    for (std::string& field : input_defaults(c)) out.push_back(std::move(field));
    return out;
  }
  std::string defaults_source(const ModelConfig&) const override {
    return "the defaults of torchvision and its reference training script";
  }
  std::string memory_knobs(const ModelConfig&) const override { return "batch_size or image_size"; }
  nlohmann::json settings_json(const ModelConfig& c) const override {
    const CnnSettings& s = c.as<CnnSettings>();
    nlohmann::json j{
        {"model", s.model}, {"image_size", s.image_size}, {"num_classes", s.num_classes}};
    j.update(input_json(c));
    return j;
  }
  std::unique_ptr<TrainingRun::State> make_run(const ModelConfig& c, engine::Device device,
                                               bool /*compiled*/) const override {
    return make_cnn_run(c, device, block_count(c));
  }
};

}  // namespace families::cnn

const std::vector<std::string>& cnn_models() {
  static const std::vector<std::string> names{
      "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "vgg11",   "vgg11_bn",
      "vgg13",    "vgg13_bn", "vgg16",    "vgg16_bn",  "vgg19",     "vgg19_bn"};
  return names;
}

const Family& cnn_family() {
  static const families::cnn::CnnFamily family;
  return family;
}

}  // namespace planner
