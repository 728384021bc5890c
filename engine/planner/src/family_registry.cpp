#include "family_registry.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace planner {

// Each family's one instance, in its file under families/.
const Family& gpt_family();
const Family& mlp_family();
const Family& encoder_family();
const Family& cnn_family();
const Family& torch_family();

const std::vector<const Family*>& all_families() {
  // One row per alternative of FamilySettings, in its order.
  static const std::array<const Family*, std::variant_size_v<FamilySettings>> rows{
      &gpt_family(),      // GptSettings; also what a file that names no family describes
      &mlp_family(),      // MlpSettings
      &encoder_family(),  // EncoderSettings
      &cnn_family(),      // CnnSettings
      &torch_family(),    // TorchSettings: a PyTorch model traced by course plan --torch
  };
  static const std::vector<const Family*> all = [] {
    if (std::find(rows.begin(), rows.end(), nullptr) != rows.end())
      throw std::logic_error("a FamilySettings alternative has no row in the family registry");
    return std::vector<const Family*>(rows.begin(), rows.end());
  }();
  return all;
}

const Family& family_of(const ModelConfig& config) {
  return *all_families()[config.settings.index()];
}

const Family* family_named(std::string_view name) {
  for (const Family* family : all_families()) {
    if (family->name() == name) return family;
  }
  return nullptr;
}

namespace {

// The family a field of the file names by naming its model, if any; the first in the registry's
// order (a GPT-2's model_type is a GPT's, not an encoder's).
const Family* named_by_model(const ConfigFields& in) {
  for (const Family* family : all_families()) {
    if (family->names_model(in)) return family;
  }
  return nullptr;
}

// "a", "b" or "c"
std::string choices(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

// `family = written`, in a file whose model `by_model` names (if any): the family it picks.
const Family& checked_family(const ConfigFields& in, const Field& field, const Family* by_model) {
  const std::string written = in.text(field);
  if (by_model != nullptr && written != by_model->name()) {
    const std::string own = by_model->family_refusal(written);
    if (!own.empty()) in.fail(field, own);
  }
  const Family* named = family_named(written);
  if (named == nullptr || (by_model != nullptr && named != by_model)) {
    std::vector<std::string> names;
    for (const Family* family : all_families()) {
      if (family->read_from_configs()) names.push_back("\"" + std::string(family->name()) + "\"");
    }
    in.fail(field,
            "expected " + choices(names) +
                " (an encoder names its model_type, a CNN its torchvision model), got \"" +
                written + "\"" +
                (by_model != nullptr ? " beside " + std::string(by_model->naming_field()) : ""));
  }
  if (by_model == nullptr && !named->unnamed_refusal().empty())
    in.fail(field, named->unnamed_refusal());
  return *named;
}

}  // namespace

ModelConfig read_config(const ConfigFields& in) {
  const Family* by_model = named_by_model(in);
  for (const Field& field : in.fields()) {
    if (field.name != "family") continue;
    const Family& named = checked_family(in, field, by_model);
    // `family` alone names an MLP; the others go on to the file's other fields
    if (by_model == nullptr && &named != all_families().front()) return named.read(in);
  }
  return (by_model != nullptr ? *by_model : *all_families().front()).read(in);
}

}  // namespace planner
