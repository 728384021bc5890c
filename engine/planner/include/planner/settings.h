#pragma once
// Each model family's own settings, in its own library's names; a ModelConfig holds one of them
// (model_config.h). Each family's file (src/families/) reads, checks, describes and runs its own.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace planner {

// nanoGPT's GPT (model.py), trained by train.py: its globals that decide what one iteration
// computes, with train.py's defaults (GPT-2 small on OpenWebText). Also GPT-2 as transformers
// configures it (`model_type = "gpt2"`), a GPT of the same layers under GPT2Config's names.
struct GptSettings {
  std::int64_t n_layer = 12, n_head = 12, n_embd = 768, block_size = 1024;
  std::int64_t vocab_size = 50304;  // meta.pkl's, when the dataset has one; else GPT-2's, padded
  double dropout = 0.0;
  bool bias = false;
  // `num_labels`: 0, a language model (model.py's output layer, tied to the token embedding);
  // more, a classifier of that many labels on the last token instead, as transformers'
  // GPT2ForSequenceClassification has (a `score` layer of its own, untied)
  std::int64_t num_labels = 0;
  // The MLP's activation: "gelu", nanoGPT's nn.GELU(); "gelu_new", GPT-2's tanh approximation
  // written out op by op, as transformers' NewGELUActivation and LLMs-from-scratch compute it
  std::string activation_function = "gelu";
  std::string attn_implementation = "sdpa";  // "eager": scores, mask and softmax op by op
  bool compile = true;
  std::string dataset = "openwebtext";
  std::string init_from = "scratch";
  // train.py's `dtype`, the autocast dtype of its `ctx`; 'float16' where CUDA has no bfloat16, as
  // on a Mac. train.py autocasts only when the device is CUDA's: on mps and the cpu `ctx` is
  // nullcontext() and the step runs in float32 whatever it says (the config's `autocast` plans
  // a train.py changed to autocast there)
  std::string dtype = "float16";
  // "gpt2": read with transformers' GPT2Config names, which size the position embedding by
  // n_positions (model.py sizes it by block_size)
  std::string model_type;
  std::int64_t n_positions = 1024;
};

// An MLP classifier: linear layers with ReLU (and dropout) between them, cross-entropy on the last.
struct MlpSettings {
  std::vector<std::int64_t> widths{};  // the inputs, the hidden layers, the classes
  double dropout = 0.0;                // after each hidden layer's ReLU
};

// A Transformer encoder for classification, in Hugging Face's names (DistilBERT's dim, n_layers,
// n_heads and hidden_dim are read into the same fields); the defaults are BertConfig's.
struct EncoderSettings {
  std::string model_type;  // "bert", "distilbert", "vit"
  std::int64_t hidden_size = 768, num_hidden_layers = 12, num_attention_heads = 12,
               intermediate_size = 3072, vocab_size = 30522, max_position_embeddings = 512,
               type_vocab_size = 2;
  std::int64_t seq_length = 128;  // tokens per sample (run_glue.py's max_seq_length)
  std::int64_t image_size = 224, patch_size = 16, num_channels = 3;  // a ViT's input
  std::int64_t num_labels = 2;
  double dropout = 0.1, attention_dropout = 0.1;
  std::string attn_implementation = "sdpa";  // "eager": scores, mask and softmax op by op
};

// A torchvision classification CNN (ResNet, VGG), with its images and classes.
struct CnnSettings {
  std::string model;  // torchvision's name: "resnet50"
  std::int64_t image_size = 224;
  std::int64_t num_classes = 1000;  // torchvision's
};

// The torchvision models the planner builds: "resnet18" ... "vgg19_bn".
const std::vector<std::string>& cnn_models();

// A training step of the learner's own PyTorch model, traced by their PyTorch on the meta device
// (`course plan --torch FILE.py`, src/families/torch_trace.h), replayed through the engine.
struct Trace;
struct TorchSettings {
  std::shared_ptr<const Trace> trace;  // at the config's batch_size
  // The step traced again at another batch size, for the batch sweep.
  std::function<std::shared_ptr<const Trace>(std::int64_t batch_size)> at_batch;
};

// One family's settings. The order is the family registry's (src/family_registry.cpp).
using FamilySettings =
    std::variant<GptSettings, MlpSettings, EncoderSettings, CnnSettings, TorchSettings>;

}  // namespace planner
