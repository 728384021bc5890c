// The planner's other families: Hugging Face's encoders (config.json or TOML), torchvision's CNNs,
// and frozen blocks. Parameter counts are the libraries' own (transformers' num_parameters(),
// sum(p.numel()) over a torchvision model); every example plans on every machine.

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "planner/model_config.h"
#include "planner/plan.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"
#include "planner/training_step.h"
#include "refusal.h"

using planner::ModelConfig;

namespace {

const std::string kExamples = TUTOR_SOURCE_DIR "/engine/planner/examples/";

using planner_tests::refusal;

ModelConfig from_toml(const std::string& text) {
  return planner::parse_toml_config(text, "t.toml");
}

double mps_ms(const ModelConfig& c, const char* machine) {
  return *planner::predict(c, *engine::find_machine(machine)).mps_seconds() * 1e3;
}

}  // namespace

TEST_CASE("encoders and CNNs have the parameter counts their libraries report") {
  // transformers: BertForSequenceClassification(bert-base-uncased, 2 labels), DistilBert...,
  // ViTForImageClassification(google/vit-base-patch16-224, 1000 labels)
  CHECK(planner::parameter_count(
            planner::read_model_config(kExamples + "bert_base_uncased.json")) == 109'483'778);
  CHECK(planner::parameter_count(from_toml("model_type = \"distilbert\"\n")) == 66'955'010);
  CHECK(planner::parameter_count(from_toml("model_type = \"vit\"\nnum_labels = 1000\n")) ==
        86'567'656);
  // torchvision, 1000 classes
  CHECK(planner::parameter_count(from_toml("model = \"resnet18\"\n")) == 11'689'512);
  CHECK(planner::parameter_count(from_toml("model = \"resnet50\"\n")) == 25'557'032);
  CHECK(planner::parameter_count(from_toml("model = \"vgg16\"\n")) == 138'357'544);
  CHECK(planner::parameter_count(from_toml("model = \"vgg16_bn\"\n")) == 138'365'992);
}

TEST_CASE("a Hugging Face config.json is read with its own names, the rest of it ignored") {
  const ModelConfig bert = planner::read_model_config(kExamples + "bert_base_uncased.json");
  REQUIRE(std::holds_alternative<planner::EncoderSettings>(bert.settings));
  CHECK(bert.as<planner::EncoderSettings>().model_type == "bert");
  CHECK(bert.as<planner::EncoderSettings>().vocab_size == 30522);
  CHECK(bert.as<planner::EncoderSettings>().dropout == 0.1);
  // its "gradient_checkpointing": false is read, as transformers' older configs carry it
  CHECK(std::find(bert.set_in_file.begin(), bert.set_in_file.end(), "gradient_checkpointing") !=
        bert.set_in_file.end());
  const std::vector<std::string> defaults = planner::defaulted_fields(bert);
  CHECK(defaults == std::vector<std::string>{"seq_length 128", "num_labels 2",
                                             "attn_implementation \"sdpa\"", "batch_size 8",
                                             "optimizer \"adamw\"", "gradient_accumulation_steps 1",
                                             "log_interval 1 (loss.item() every step)"});
  // id2label gives num_labels, as PretrainedConfig derives it
  CHECK(planner::parse_json_config(
            R"({"model_type": "bert", "id2label": {"0": "neg", "1": "neu", "2": "pos"}})", "c.json")
            .as<planner::EncoderSettings>()
            .num_labels == 3);
  // DistilBERT's names, and its defaults named by them
  const ModelConfig distil = from_toml("model_type = \"distilbert\"\nn_layers = 3\ndim = 384\n");
  CHECK(distil.as<planner::EncoderSettings>().num_hidden_layers == 3);
  CHECK(distil.as<planner::EncoderSettings>().hidden_size == 384);
  CHECK(planner::defaulted_fields(distil).front() == "n_heads 12");
}

TEST_CASE("a bad encoder or CNN config is refused, naming the field") {
  CHECK(refusal(R"({"model_type": "bert", "num_hidden_layer": 4})", "c.json") ==
        "c.json:1: num_hidden_layer: not a field the planner knows; did you mean "
        "num_hidden_layers?");
  CHECK(refusal(R"({"hidden_size": 768})", "c.json") ==
        "c.json: a config.json names its model_type; the planner reads \"bert\", \"distilbert\", "
        "\"vit\" and \"gpt2\" (MLPs and CNNs are planned from TOML, a GPT from nanoGPT's "
        "config/*.py too)");
  CHECK(refusal("{\n  \"model_type\": \"bert\",\n  oops\n}", "c.json")
            .starts_with("c.json:3: parse error"));
  CHECK(refusal("model_type = \"llama\"\n") ==
        "bad.toml:1: model_type: the planner knows the encoders \"bert\", \"distilbert\" and "
        "\"vit\" and the GPT \"gpt2\", not \"llama\"");
  CHECK(refusal("model_type = \"bert\"\ndim = 512\n") ==
        "bad.toml:2: dim: DistilBERT's name; bert's config calls it hidden_size");
  CHECK(refusal("model_type = \"bert\"\nhidden_size = 100\n") ==
        "bad.toml:2: hidden_size: the hidden size (100) is not a multiple of the number of "
        "attention heads (12)");
  CHECK(refusal("model_type = \"vit\"\nseq_length = 128\n") ==
        "bad.toml:2: seq_length: a text encoder's field; a ViT reads images of image_size");
  CHECK(refusal("model_type = \"bert\"\nseq_length = 1024\n") ==
        "bad.toml:2: seq_length (1024) is longer than the model's max_position_embeddings (512)");
  CHECK(
      refusal("model = \"resnet51\"\n")
          .starts_with(
              "bad.toml:1: model: the planner builds torchvision's resnet18, resnet34, resnet50"));
  CHECK(refusal("model = \"resnet50\"\nimage_size = 16\n") ==
        "bad.toml:2: image_size: images of at least 32 pixels a side pass the five halvings of "
        "these models");
  CHECK(refusal("model = \"resnet50\"\nnum_class = 10\n") ==
        "bad.toml:2: num_class: not a field the planner knows; did you mean num_classes?");
  CHECK(refusal("model = \"resnet50\"\ntrainable_layers = 5\n") ==
        "bad.toml:2: trainable_layers: the model has 4 blocks to train; trainable_layers counts "
        "them from the last (0: the head alone)");
}

TEST_CASE("freezing all but the last block trains fewer parameters and steps faster") {
  const ModelConfig all = from_toml("model_type = \"distilbert\"\nbatch_size = 16\n");
  ModelConfig last = all;
  last.trainable_layers = 1;
  const std::int64_t trained = planner::parameter_count(last, true);
  // one DistilBERT layer (7,087,872) and the head: pre_classifier and classifier (591,362)
  CHECK(trained == 7'087'872 + 592'130);
  CHECK(planner::parameter_count(last) == planner::parameter_count(all));
  CHECK(mps_ms(last, "m3-max-64gb") < 0.8 * mps_ms(all, "m3-max-64gb"));
  ModelConfig head_only = all;
  head_only.trainable_layers = 0;
  CHECK(planner::parameter_count(head_only, true) == 592'130);
  CHECK(mps_ms(head_only, "m3-max-64gb") < mps_ms(last, "m3-max-64gb"));
  std::ostringstream out, err;
  REQUIRE(planner::plan_command({kExamples + "distilbert_last_block.toml", "--machine", "m1-8gb"},
                                out, err, 400) == 0);
  CHECK(out.str().find("66.96M parameters, training the last layer and the head (7.68M of them)") !=
        std::string::npos);
}

TEST_CASE("every example config plans on every machine, in text and in JSON") {
  for (const auto& entry : std::filesystem::directory_iterator(kExamples)) {
    if (entry.is_directory()) continue;  // pytorch/: models course plan --torch traces
    const std::string path = entry.path().string();
    // GPT-2's 40 micro-steps, compiled and eager, on every machine would take most of this
    // test's time; "GPT-2 small with 40 micro-steps is refused..." plans it on two machines
    if (entry.path().filename() == "train_gpt2.py") continue;
    CAPTURE(path);
    std::ostringstream out, err;
    REQUIRE(planner::plan_command({path, "--json"}, out, err) == 0);
    const nlohmann::json plan = nlohmann::json::parse(out.str());
    std::size_t machines = 0;
    for (const engine::MachineProfile* m : engine::machines()) machines += m->name != "host";
    REQUIRE(plan["machines"].size() == machines);
    for (const auto& row : plan["machines"]) {
      CAPTURE(row["machine"]);
      CHECK(row["cpu_ms"].get<double>() > 0);
      CHECK((row["mps_ms"].is_null() || row["mps_ms"].get<double>() > 0));
      CHECK(!row["verdict"].get<std::string>().empty());
    }
    // A 60-column terminal keeps the table; a 40-column one gets each machine's numbers one per
    // line. Both the plan and the batch sweep fit either.
    for (const std::size_t width : {60, 40}) {
      for (const bool sweep : {false, true}) {
        CAPTURE(width);
        CAPTURE(sweep);
        std::vector<std::string> args{path, "--machine", "m1-8gb"};
        if (sweep) args.insert(args.end(), {"--sweep", "batch"});
        std::ostringstream text, text_err;
        CHECK(planner::plan_command(args, text, text_err, width) == 0);
        std::istringstream lines(text.str());
        for (std::string line; std::getline(lines, line);) CHECK(line.size() <= width);
        CHECK((text.str().find("\nmachine ") != std::string::npos) == (width == 60 && !sweep));
      }
    }
  }
}

TEST_CASE(
    "a VGG whose feature map does not divide into 7 x 7 cannot train on mps: the plan says cpu") {
  // 100-pixel images leave a 3 x 3 map, which PyTorch's MPS adaptive pooling refuses to grow
  const ModelConfig c = from_toml("model = \"vgg11\"\nimage_size = 100\nbatch_size = 4\n");
  const planner::Prediction p = planner::predict(c, *engine::find_machine("m3-max-64gb"));
  CHECK(p.memory == planner::MpsMemory::Unsupported);
  CHECK(!p.mps_seconds());
  CHECK(p.cpu_seconds() > 0);
  const planner::Recommendation r = planner::recommend(p, planner::memory_knobs(c));
  CHECK(r.lane == "cpu");
  CHECK(r.reasons.front().starts_with(
      "the MPS backend refuses a step of this model: Adaptive pool MPS: output sizes must be "
      "divisible by input sizes"));
  // at 224 pixels the map is 7 x 7 and the step runs
  CHECK(planner::predict(from_toml("model = \"vgg11\"\nbatch_size = 4\n"),
                         *engine::find_machine("m3-max-64gb"))
            .mps_seconds()
            .has_value());
}

TEST_CASE("advice on memory names the sizes of the config's own family") {
  CHECK(planner::memory_knobs(from_toml("model = \"resnet18\"\n")) == "batch_size or image_size");
  CHECK(planner::memory_knobs(from_toml("model_type = \"bert\"\n")) == "batch_size or seq_length");
  CHECK(planner::memory_knobs(from_toml("model_type = \"vit\"\n")) == "batch_size or image_size");
  CHECK(planner::memory_knobs(from_toml("family = \"mlp\"\nwidths = [4, 2]\n")) == "batch_size");
  CHECK(planner::memory_knobs(from_toml("n_layer = 2\n")) == "batch_size or block_size");
  // a CNN too large for an 8 GB Mac is told to lower its batch or images, not a block size
  const ModelConfig big = from_toml("model = \"resnet50\"\nbatch_size = 256\n");
  const planner::Prediction p = planner::predict(big, *engine::find_machine("m1-8gb"));
  const planner::Recommendation r = planner::recommend(p, planner::memory_knobs(big));
  CHECK(r.lane == "remote");
  bool named = false;
  for (const std::string& reason : r.reasons)
    named = named || reason.find("lower batch_size or image_size") != std::string::npos ||
            reason.find("halve batch_size or image_size") != std::string::npos;
  CHECK(named);
}

TEST_CASE("what a learner tried first: each of these is refused or read as its library would") {
  // a GPT fine-tunes too, from TOML and from nanoGPT's Python files
  const ModelConfig gpt =
      from_toml("n_layer = 6\nn_head = 6\nn_embd = 384\ntrainable_layers = 1\n");
  CHECK(gpt.trainable_layers == 1);
  // the last block (12 C^2 + 2 C) and the head: ln_f and the output layer tied to wte
  CHECK(planner::parameter_count(gpt, true) == (12 * 384 * 384 + 2 * 384) + 384 + 50304 * 384);
  CHECK(planner::parse_python_config("n_layer = 6\ntrainable_layers = 2\n", "t.py")
            .trainable_layers == 2);
  // transformers takes len(id2label) over a num_labels that disagrees; the planner refuses
  CHECK(refusal(R"({"model_type": "bert", "num_labels": 5, "id2label": {"0": "a", "1": "b"}})",
                "c.json") ==
        "c.json:1: num_labels: num_labels (5) and id2label (2 labels) disagree; transformers takes "
        "id2label's");
  // a float where an integer belongs is shown as written
  CHECK(refusal(R"({"model_type": "bert", "hidden_size": 768.0})", "c.json") ==
        "c.json:1: hidden_size: expected an integer from 1 to 65536, got 768.0");
  CHECK(refusal("model = \"resnet18\"\nbatch_size = 281474976710656\n") ==
        "bad.toml:2: batch_size: expected an integer from 1 to 65536, got 281474976710656");
  // the names other libraries use are translated, not matched to a near neighbour
  CHECK(refusal(R"({"model_type": "bert", "num_layers": 6})", "c.json") ==
        "c.json:1: num_layers: bert's config calls it num_hidden_layers");
  CHECK(refusal(R"({"model_type": "bert", "n_layer": 6})", "c.json") ==
        "c.json:1: n_layer: bert's config calls it num_hidden_layers");
  CHECK(refusal("model_type = \"distilbert\"\nnum_layers = 3\n") ==
        "bad.toml:2: num_layers: distilbert's config calls it n_layers");
  CHECK(refusal("model = \"resnet18\"\nnum_labels = 10\n") ==
        "bad.toml:2: num_labels: torchvision calls it num_classes");
  // family as --json writes it
  CHECK(std::holds_alternative<planner::EncoderSettings>(
      from_toml("family = \"encoder\"\nmodel_type = \"vit\"\n").settings));
  CHECK(std::holds_alternative<planner::CnnSettings>(
      from_toml("family = \"cnn\"\nmodel = \"vgg11\"\n").settings));
  CHECK(refusal("family = \"mlp\"\nmodel_type = \"bert\"\n") ==
        "bad.toml:1: family: expected \"gpt\", \"mlp\", \"encoder\" or \"cnn\" (an encoder names "
        "its model_type, a CNN its torchvision model), got \"mlp\" beside model_type");
  CHECK(refusal("\n\n", "c.json") ==
        "c.json: the file is empty; a config.json is an object of fields");
}

TEST_CASE("a GPT classifier's head is its own: backward stops at the last block that trains") {
  const std::string shape =
      "n_layer = 6\nn_head = 6\nn_embd = 384\nblock_size = 128\n"
      "batch_size = 8\ngradient_accumulation_steps = 1\ncompile = false\n";
  const auto last_block_only = [](ModelConfig c) {
    c.trainable_layers = 1;
    return c;
  };
  const ModelConfig language_model = from_toml(shape);
  const ModelConfig classifier = from_toml(shape + "num_labels = 2\n");
  CHECK(classifier.as<planner::GptSettings>().num_labels == 2);
  // the last block, ln_f and the score layer: the token embedding stays frozen
  CHECK(planner::parameter_count(last_block_only(classifier), true) ==
        (12 * 384 * 384 + 2 * 384) + 384 + 2 * 384);
  // Freezing all but the last block: the classifier's backward then runs through one block of
  // six, and its step takes less than half as long. The language model's tied embedding still
  // trains, so its backward runs through all six, skipping only their weights' gradients.
  const char* m3 = "m3-max-64gb";
  CHECK(mps_ms(last_block_only(classifier), m3) < 0.4 * mps_ms(classifier, m3));
  CHECK(mps_ms(last_block_only(language_model), m3) > 0.8 * mps_ms(language_model, m3));
  std::ostringstream out, err;
  REQUIRE(planner::plan_command({kExamples + "gpt2_spam_classifier.toml", "--machine", "m1-8gb"},
                                out, err, 400) == 0);
  CHECK(out.str().find("classifying 2 labels, adamw, compile off; 123.65M parameters, training "
                       "the last layer and the head (7.09M of them)") != std::string::npos);
  CHECK(refusal("n_layer = 6\nnum_labels = 0\n") ==
        "bad.toml:2: num_labels: expected an integer from 1 to 1048576, got 0");
}

TEST_CASE("gelu_new and eager attention launch the kernels GPT-2 written out launches") {
  const std::string shape =
      "n_layer = 2\nn_head = 2\nn_embd = 32\nblock_size = 16\n"
      "batch_size = 2\nvocab_size = 65\ngradient_accumulation_steps = 1\n"
      "compile = false\n";
  // The cpu kernels (and host spans) of one training iteration, by name.
  const auto launches = [](const ModelConfig& c) {
    engine::sim::use_machine("m3-max-64gb");
    engine::sim::ShapeOnlyGuard shape_only;
    planner::TrainingRun run(c, engine::Device("cpu"), false);
    engine::sim::TimelineRecording recording;
    static_cast<void>(run.iterate());
    std::map<std::string, int> count;
    for (const auto& span : recording.spans()) count[span.name] += span.category == "cpu" ? 1 : 0;
    return count;
  };
  auto fused = launches(from_toml(shape));
  CHECK(fused["aten::gelu"] == 2);
  CHECK(fused["aten::tanh"] == 0);
  CHECK(fused["aten::triu + masked_fill"] == 2);  // sdpa's causal mask, made per call
  auto written_out =
      launches(from_toml(shape + "activation_function = \"gelu_new\"\nattn_implementation = "
                                 "\"eager\"\n"));
  CHECK(written_out["aten::gelu"] == 0);
  // per block: tanh and pow forward; tanh_backward, and pow_backward's own pow, backward
  CHECK(written_out["aten::tanh"] == 2);
  CHECK(written_out["aten::tanh_backward"] == 2);
  CHECK(written_out["aten::pow"] == 4);
  CHECK(written_out["aten::_softmax"] == 2);
  CHECK(written_out["aten::_softmax_backward_data"] == 2);
  CHECK(written_out["aten::triu + masked_fill"] == 0);  // eager's mask is a buffer, made once
  CHECK(refusal("n_layer = 2\nactivation_function = \"relu\"\n") ==
        "bad.toml:2: activation_function: expected \"gelu\" or \"gelu_new\" (the planner's GPT "
        "computes those two), got \"relu\"");
}

TEST_CASE("GPT-2's config.json is read with transformers' names and defaults") {
  const ModelConfig lm = planner::read_model_config(kExamples + "gpt2_config.json");
  REQUIRE(std::holds_alternative<planner::GptSettings>(lm.settings));
  const planner::GptSettings& gpt2 = lm.as<planner::GptSettings>();
  CHECK(gpt2.block_size == 512);
  CHECK(gpt2.activation_function == "gelu_new");
  CHECK(gpt2.bias);
  CHECK(gpt2.dropout == doctest::Approx(0.1));
  CHECK(gpt2.num_labels == 0);
  // transformers' GPT2LMHeadModel.num_parameters() for gpt2: 124,439,808
  CHECK(planner::parameter_count(lm) == 124'439'808);
  CHECK(planner::memory_knobs(lm) == "batch_size or seq_length");  // its own names
  std::ostringstream out, err;
  REQUIRE(planner::plan_command({kExamples + "gpt2_config.json", "--machine", "m1-8gb", "--json"},
                                out, err, 100) == 0);
  CHECK(nlohmann::json::parse(out.str())["config"]["model_type"] == "gpt2");
  CHECK(planner::defaulted_fields(lm) ==
        std::vector<std::string>{"n_inner null (4 x n_embd)", "attn_implementation \"sdpa\"",
                                 "optimizer \"adamw\"", "compile false",
                                 "gradient_accumulation_steps 1", "gradient_checkpointing false",
                                 "log_interval 1 (loss.item() every step)"});
  const auto json = [](const std::string& text) {
    return planner::parse_json_config(text, "config.json");
  };
  const ModelConfig classifier =
      json(R"({"model_type": "gpt2", "architectures": ["GPT2ForSequenceClassification"],
               "id2label": {"0": "a", "1": "b", "2": "c"}, "n_layer": 6})");
  CHECK(classifier.as<planner::GptSettings>().num_labels == 3);
  CHECK(classifier.as<planner::GptSettings>().block_size == 1024);
  CHECK(planner::defaulted_fields(classifier).front() == "n_head 12");
  CHECK(planner::defaulted_fields(classifier)[3] == "seq_length 1024 (n_positions)");
  CHECK(refusal(R"({"model_type": "gpt2", "n_inner": 1000})", "c.json") ==
        "c.json:1: n_inner: the planner's GPT has an MLP 4 x n_embd wide (3072), not 1000");
  CHECK(refusal(R"({"model_type": "gpt2", "activation_function": "relu"})", "c.json") ==
        "c.json:1: activation_function: expected \"gelu\" or \"gelu_new\" (the planner's GPT "
        "computes those two), got \"relu\"");
  CHECK(refusal(R"({"model_type": "gpt2", "seq_length": 2048})", "c.json") ==
        "c.json:1: seq_length: 2048 is longer than n_positions (1024), the longest sequence GPT-2 "
        "takes");
  CHECK(refusal(R"({"model_type": "gpt2", "n_layers": 6})", "c.json") ==
        "c.json:1: n_layers: not a field the planner knows; did you mean n_layer?");
  // transformers' bookkeeping (distilgpt2's file has _num_labels) is not a field
  CHECK(json(R"({"model_type": "gpt2", "_num_labels": 1, "n_layer": 6})")
            .as<planner::GptSettings>()
            .n_layer == 6);
  // the planner's and Trainer's names for GPT-2's fields
  CHECK(refusal(R"({"model_type": "gpt2", "block_size": 512})", "c.json") ==
        "c.json:1: block_size: a GPT-2 config calls the tokens per sequence seq_length "
        "(n_positions is the longest it takes)");
  CHECK(refusal(R"({"model_type": "gpt2", "dropout": 0.0})", "c.json") ==
        "c.json:1: dropout: GPT-2's config calls it resid_pdrop");
  CHECK(refusal(R"({"model_type": "gpt2", "family": "encoder"})", "c.json") ==
        "c.json:1: family: model_type \"gpt2\" is a GPT: family = \"gpt\", or no family, not "
        "\"encoder\"");
  // the head is the class the checkpoint names: one of the two the planner builds
  CHECK(refusal(R"({"model_type": "gpt2", "architectures": ["GPT2ForTokenClassification"]})",
                "c.json") ==
        "c.json:1: architectures: the planner builds GPT2LMHeadModel (a language model) and "
        "GPT2ForSequenceClassification, not GPT2ForTokenClassification");
  CHECK(refusal(R"({"model_type": "gpt2",
                    "architectures": ["GPT2LMHeadModel", "GPT2ForSequenceClassification"]})",
                "c.json") ==
        "c.json:2: architectures: names both GPT2LMHeadModel and GPT2ForSequenceClassification; "
        "plan one at a time");
  CHECK(refusal(R"({"model_type": "gpt2", "num_labels": 3})", "c.json") ==
        "c.json:1: num_labels: plans a classifier only beside architectures = "
        "[\"GPT2ForSequenceClassification\"], as transformers builds one; without it, GPT-2 is a "
        "language model");
  CHECK(refusal(R"({"model_type": "gpt2", "architectures": ["GPT2ForSequenceClassification"],
                    "id2label": {}})",
                "c.json") == "c.json:2: id2label: names no labels; a classifier needs one or more");
  // TOML takes the list too
  CHECK(from_toml("model_type = \"gpt2\"\narchitectures = [\"GPT2ForSequenceClassification\"]\n"
                  "num_labels = 4\n")
            .as<planner::GptSettings>()
            .num_labels == 4);
  // nanoGPT's train.py crops a checkpoint to a shorter block_size, never to a longer one
  CHECK(refusal("init_from = \"gpt2\"\nblock_size = 2048\n") ==
        "bad.toml:2: block_size: GPT-2's checkpoints hold 1024 positions; train.py crops a model "
        "to a shorter block_size but cannot grow it to 2048");
}

TEST_CASE("a sweep that never swaps says where it stopped; a tiny head is counted exactly") {
  std::ostringstream out, err;
  REQUIRE(planner::plan_command(
              {kExamples + "mnist_mlp.toml", "--machine", "m4-max-128gb", "--sweep", "batch"}, out,
              err, 100) == 0);
  CHECK(out.str().find("largest batch_size without swap: 65536 (the sweep stops there)") !=
        std::string::npos);
  CHECK(out.str().find("not in the file, so the planner's defaults: dropout 0.0") !=
        std::string::npos);
  const ModelConfig mlp =
      from_toml("family = \"mlp\"\nwidths = [784, 256, 10]\ntrainable_layers = 0\n");
  CHECK(planner::parameter_count(mlp, true) == 2570);
}
