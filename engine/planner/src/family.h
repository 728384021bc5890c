#pragma once
// The one interface behind every model family the planner plans (src/families/): a family owns
// its fields, their defaults and checks, how a plan describes it, its JSON and its training run.
// The registry (family_registry.h) names them all; nothing else asks which family a config is.

#include <engine/engine.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config_fields.h"
#include "planner/model_config.h"
#include "planner/training_step.h"
#include "size_limits.h"

namespace planner {

class Family {
 public:
  virtual ~Family() = default;

  // The name `family = "..."` gives it and --json writes: "gpt", "mlp", "encoder", "cnn".
  virtual std::string_view name() const = 0;
  // Every field a config of this family may set.
  virtual std::vector<std::string> field_names() const = 0;

  // --- reading a config ---
  // Whether a config file may describe this family (the torch family's models come from a trace).
  virtual bool read_from_configs() const { return true; }
  // Whether the file names a model of this family by a field of its own (an encoder's
  // model_type, a CNN's model), so that `family` goes without saying.
  virtual bool names_model(const ConfigFields&) const { return false; }
  // That field, for messages: "model_type".
  virtual std::string_view naming_field() const { return ""; }
  // Why `family` cannot name this family in a file that does not name its model; empty where
  // `family` alone is enough.
  virtual std::string unnamed_refusal() const { return ""; }
  // Why a file that names this family's model cannot say `family = written`; empty: the
  // registry's refusal, which lists the families.
  virtual std::string family_refusal(const std::string& /*written*/) const { return ""; }
  // The config the fields describe, with this family's defaults where they are silent.
  virtual ModelConfig read(const ConfigFields& in) const = 0;

  // --- describing a plan ---
  // The plan's first line between the config's name and its parameters: "6 layers, 6 heads, ..."
  virtual std::string summary(const ModelConfig&) const = 0;
  // What `trainable_layers` counts, one of them ("layer", a ResNet's "stage"), and how many.
  virtual std::string block_name(const ModelConfig&) const { return "layer"; }
  virtual std::int64_t block_count(const ModelConfig&) const = 0;
  virtual std::vector<std::string> defaulted_fields(const ModelConfig&) const = 0;
  // What else a plan must say under its first line (a traced model's estimated operators).
  virtual std::vector<std::string> notes(const ModelConfig&) const { return {}; }
  // Whose defaults those are: "train.py's defaults".
  virtual std::string defaults_source(const ModelConfig&) const = 0;
  // The step a plan times: by default a classifier's.
  virtual std::string step_description(const ModelConfig&) const;
  // The sizes that set the memory a step holds, for advice: "batch_size or block_size".
  virtual std::string memory_knobs(const ModelConfig&) const = 0;
  // The family's settings for --json; the registry adds what every family shares.
  virtual nlohmann::json settings_json(const ModelConfig&) const = 0;

  // --- running it ---
  // Whether its run takes gradient_accumulation_steps and gradient_checkpointing, so that a plan
  // may try them as memory recipes (a traced step replays the one batch it was traced with).
  virtual bool runs_memory_recipes() const { return true; }
  // Whether the config asks for torch.compile, which a plan then times too.
  virtual bool compiles(const ModelConfig&) const { return false; }
  virtual std::unique_ptr<TrainingRun::State> make_run(const ModelConfig&, engine::Device device,
                                                       bool compiled) const = 0;
};

// What every family reads alike.
inline const std::vector<std::string> kOptimizers{"adamw", "adam", "sgd"};
inline const std::vector<std::string> kAutocastDtypes{"off", "float16", "bfloat16"};

// The fields every family shares (batch_size aside, which each lists among its own), and a
// classifier family's field names: its own, then the shared ones, then `more`.
inline const std::vector<std::string> kSharedFields{"optimizer",
                                                    "trainable_layers",
                                                    "autocast",
                                                    "log_interval",
                                                    "gradient_accumulation_steps",
                                                    "gradient_checkpointing"};
std::vector<std::string> with_shared_fields(std::vector<std::string> own,
                                            const std::vector<std::string>& more = {});

// The rules of the fields every family shares: batch_size, optimizer, trainable_layers, autocast,
// gradient_accumulation_steps, gradient_checkpointing, log_interval.
std::vector<FieldRule> shared_rules(const ConfigFields& in, ModelConfig& config);

// The input pipeline's fields (model_config.h's InputSettings), for a family whose samples are
// images; "tensors" is every family's.
inline const std::vector<std::string> kInputFields{"samples", "stored_size", "augment",
                                                   "num_workers", "num_samples"};
std::vector<FieldRule> input_rules(const ConfigFields& in, ModelConfig& config);
// Refuses a pipeline's field in the config of a family without one, saying how its batches come:
// "a GPT's batches are windows of its token file".
void refuse_input_field(const ConfigFields& in, const Field& field, std::string_view batches);
// Refuses a pipeline's field beside samples = "tensors", which has no pipeline for it to set.
void check_input(const ConfigFields& in, const ModelConfig& config);
// The pipeline's fields the config left to their defaults, as defaulted_fields lists them.
std::vector<std::string> input_defaults(const ModelConfig& config);
// The pipeline's fields for --json: samples, and the others where it reads samples.
nlohmann::json input_json(const ModelConfig& config);

// trainable_layers: at most the model's `blocks`.
void check_trainable(const ConfigFields& in, const ModelConfig& config, std::int64_t blocks);

// id2label (a config.json's labels, read as their number): one or more.
void require_labels(const ConfigFields& in, const Field& id2label);

// The labels: PretrainedConfig sets num_labels to len(id2label) where the config has one, and
// the planner refuses a num_labels that disagrees with it. `num_labels` as read or defaulted.
std::int64_t labels_named(const ConfigFields& in, std::int64_t num_labels, ModelConfig& config);

// A tensor the config's sizes multiply into: "the logits", {{"batch_size", 64}, ...}.
struct TensorSize {
  std::string what;
  std::vector<std::pair<std::string, std::int64_t>> sizes;
};

// Refuses, naming its sizes, a config with a tensor of more than limits::kTensorElements: no Mac
// could hold it, and its bytes would crowd 64-bit integers.
void check_tensor_sizes(const ConfigFields& in, const std::vector<TensorSize>& tensors);

// A value as a defaults list shows it: 0.1, 0.0.
std::string number(double x);

}  // namespace planner
