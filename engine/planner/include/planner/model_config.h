#pragma once
// A model to plan for: what every family shares (the batch, the optimizer, the blocks that train)
// and one family's own settings (settings.h). Read from a config file by a reader of its format
// (TOML, nanoGPT's config/*.py, a Hugging Face config.json), whose fields the family they name
// checks and applies; what the file leaves out keeps that family's library's defaults.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "planner/config_error.h"
#include "planner/settings.h"

namespace planner {

// How the batches reach the training loop: the samples a dataset reads, with the cpu work each
// costs (engine/simulated_data.h), through a DataLoader of `num_workers` worker processes.
// "tensors", the default: batches made in memory, with no input pipeline to wait for.
struct InputSettings {
  std::string samples = "tensors";  // "tensors", "jpeg" (an ImageFolder of JPEG files) or
      // "images" (decoded in memory, as CIFAR-10's dataset holds them)
  std::int64_t stored_size = 500;    // a JPEG's longer side; its shorter is 4/5 of it (ImageNet's)
  bool augment = true;               // torchvision's training transforms (random crops, flips)
  std::int64_t num_workers = 0;      // DataLoader's default: load in the training process
  std::int64_t num_samples = 50000;  // the dataset's length, which each spawned worker lists
  bool reads_samples() const { return samples != "tensors"; }
};

struct ModelConfig {
  std::string name;  // the file's stem: "train_shakespeare_char"
  // Samples (a GPT's: sequences) per step, or per micro-step where the step accumulates gradients;
  // by default train.py's, as the settings default to nanoGPT's GPT
  std::int64_t batch_size = 12;
  std::string optimizer = "adamw";  // "adamw", "adam" or "sgd" (with momentum)
  // The last blocks trained with the head, the rest frozen; 0: the head alone; -1: everything.
  std::int64_t trainable_layers = -1;
  // "off", "float16" or "bfloat16": the forward pass (and the loss) under `torch.autocast` on the
  // device it runs on, with that dtype; float16's backward through a GradScaler, as mixed
  // precision is written for it
  std::string autocast = "off";
  // The loss read with loss.item() every `log_interval` steps, for a log line: on mps a sync that
  // leaves the GPU idle while the host prepares the next step. 1 by default: the CIFAR-10
  // tutorial's running_loss, the ImageNet example's meters, nanoGPT's train.py (its default) and
  // Trainer (logging_nan_inf_filter tests each step's loss) read it every step.
  std::int64_t log_interval = 1;
  // Micro-batches a step accumulates gradients over: each forward and backward with its loss
  // divided by their number, then one optimizer step. 1: none, as PyTorch's loops and Trainer's
  // default; nanoGPT's train.py defaults to 5 * 8 = 40
  std::int64_t gradient_accumulation_steps = 1;
  // Each block (what trainable_layers counts) run under torch.utils.checkpoint while training:
  // its activations freed after the forward pass and recomputed by the backward, as
  // transformers' gradient_checkpointing does for each layer. Off by default, as everywhere
  bool gradient_checkpointing = false;
  InputSettings input;
  FamilySettings settings;
  std::vector<std::string> set_in_file{};  // the fields the file set; the others are defaults

  template <class Settings>
  const Settings& as() const {
    return std::get<Settings>(settings);
  }
  template <class Settings>
  Settings& as() {
    return std::get<Settings>(settings);
  }
};

// The blocks `trainable_layers` counts: a GPT's or an encoder's layers, an MLP's hidden layers,
// a ResNet's four stages, a VGG's five blocks of convolutions.
std::int64_t block_count(const ModelConfig& config);

// The fields a plan depends on that `config` took from the defaults (a GPT's: train.py's), each
// with its value: "bias False", "vocab_size 65 (shakespeare_char's meta.pkl)".
std::vector<std::string> defaulted_fields(const ModelConfig& config);

// A config file's text, or a ConfigError "cannot read the file: ..." where it is missing, a
// directory, a device or larger than a config can be. A tracer checks `--torch`'s model file so
// before any Python runs it.
std::string config_text(const std::filesystem::path& path);

// `path` ending in .py is read as nanoGPT's config/*.py, .json as a Hugging Face config.json,
// anything else as TOML. A field that cannot be used throws a ConfigError.
ModelConfig read_model_config(const std::filesystem::path& path);
ModelConfig parse_json_config(std::string_view text, const std::string& path);
ModelConfig parse_toml_config(std::string_view text, const std::string& path);
ModelConfig parse_python_config(std::string_view text, const std::string& path);

}  // namespace planner
