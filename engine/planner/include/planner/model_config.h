#pragma once
// A model to plan for, of one of the families the planner knows:
// - a GPT, in nanoGPT's own names: train.py's globals that decide what one training iteration
//   computes. Read from a TOML file, or from one of nanoGPT's config/*.py files, which assign
//   train.py's globals one per line; what the file leaves out keeps train.py's default.
// - an MLP classifier (`family = "mlp"` in TOML): its layer widths, from the inputs to the
//   classes, with ReLU between the layers, trained with cross-entropy.
// - a Transformer encoder for classification, in Hugging Face's names: a model's config.json
//   (`model_type` "bert", "distilbert" or "vit"), or TOML with the same fields.
// - a torchvision CNN (`model = "resnet50"` in TOML): resnet18/34/50, vgg11/16 and their _bn
//   variants, with the image size, the batch and the classes.
// Any family may train only its last `trainable_layers` blocks and its head, the rest frozen.

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace planner {

enum class Family { Gpt, Mlp, Encoder, Cnn };

struct ModelConfig {
  std::string name;                    // the file's stem: "train_shakespeare_char"
  Family family = Family::Gpt;         // `family = "mlp"`; nanoGPT's files are GPTs
  std::vector<std::int64_t> widths{};  // an MLP's: inputs, hidden layers, classes
  std::int64_t n_layer = 12;           // train.py's defaults: GPT-2 small on OpenWebText
  std::int64_t n_head = 12;
  std::int64_t n_embd = 768;
  std::int64_t block_size = 1024;
  std::int64_t batch_size = 12;
  std::int64_t vocab_size = 50304;  // meta.pkl's, when the dataset has one; else GPT-2's, padded
  std::int64_t gradient_accumulation_steps = 40;  // 5 * 8 (an MLP's: 1)
  double dropout = 0.0;
  bool bias = false;
  // A GPT's `num_labels`: 0, a language model (model.py's output layer, tied to the token
  // embedding); more, a classifier of that many labels on the last token instead, as transformers'
  // GPT2ForSequenceClassification has (a `score` layer of its own, untied)
  std::int64_t sequence_labels = 0;
  // A GPT's MLP activation: "gelu", nanoGPT's nn.GELU(); "gelu_new", GPT-2's tanh approximation
  // written out op by op, as transformers' NewGELUActivation (GPT-2's default) and
  // LLMs-from-scratch compute it
  std::string activation_function = "gelu";
  bool compile = true;              // an MLP's: false (the planner compiles GPTs only)
  std::string optimizer = "adamw";  // not nanoGPT's (it always uses AdamW): "adamw", "adam", "sgd"
  std::string dataset = "openwebtext";
  std::string init_from = "scratch";
  // An encoder's, with Hugging Face's names (DistilBERT's dim, n_layers, n_heads and hidden_dim
  // are read into the same fields), and its batches:
  std::string model_type;  // "bert", "distilbert", "vit"; a CNN's torchvision name: "resnet50"
  std::int64_t hidden_size = 768, num_hidden_layers = 12, num_attention_heads = 12,
               intermediate_size = 3072, max_position_embeddings = 512, type_vocab_size = 2;
  std::int64_t seq_length = 128;  // tokens per sample (run_glue.py's max_seq_length)
  std::int64_t image_size = 224, patch_size = 16, num_channels = 3;  // ViT's and a CNN's input
  std::int64_t num_labels = 2;                                       // a CNN's num_classes
  double attention_dropout = 0.0;            // on the attention weights (a GPT's: `dropout`)
  std::string attn_implementation = "sdpa";  // "eager": scores, mask and softmax op by op
  // The last blocks trained with the head, the rest frozen; 0: the head alone; -1: everything.
  std::int64_t trainable_layers = -1;
  std::vector<std::string> set_in_file{};  // the fields the file set; the others are defaults
};

// The blocks `trainable_layers` counts: a GPT's or an encoder's layers, an MLP's hidden layers,
// a ResNet's four stages, a VGG's five blocks of convolutions.
std::int64_t block_count(const ModelConfig& config);

// The fields a plan depends on that `config` took from the defaults (a GPT's: train.py's), each
// with its value: "bias False", "vocab_size 65 (shakespeare_char's meta.pkl)".
std::vector<std::string> defaulted_fields(const ModelConfig& config);

// An encoder field's name in `config`'s own config.json: BERT's name (`bert_name`), or
// DistilBERT's where its config renames the field ("hidden_size" -> "dim").
std::string encoder_field_name(std::string_view bert_name, const ModelConfig& config);

// The torchvision models the planner builds: "resnet18" ... "vgg19_bn".
const std::vector<std::string>& cnn_models();

// A field that cannot be used, with the file and line of its assignment (line 0: the file).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& path, int line, const std::string& message);
};

// `path` ending in .py is read as nanoGPT's config/*.py, .json as a Hugging Face config.json,
// anything else as TOML.
ModelConfig read_model_config(const std::filesystem::path& path);
ModelConfig parse_json_config(std::string_view text, const std::string& path);
ModelConfig parse_toml_config(std::string_view text, const std::string& path);
ModelConfig parse_python_config(std::string_view text, const std::string& path);

}  // namespace planner
