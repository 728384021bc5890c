// The planner's work is bounded on hostile input: every size within a range that keeps a plan
// within seconds a machine and its numbers far within 64-bit integers, refused outside it with
// the field and the range; nesting deeper than a config ever is refused before a parser
// recurses into it; a refusal quotes at most a line of the file.

#include <doctest/doctest.h>

#include <string>

#include "planner/model_config.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"
#include "planner/training_step.h"
#include "refusal.h"

using planner_tests::refusal;

namespace {

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

}  // namespace

TEST_CASE("every size is refused outside its range, with the field and the range") {
  CHECK(refusal("n_layer = 129\n") ==
        "bad.toml:1: n_layer: expected an integer from 1 to 128, got 129");
  CHECK(refusal("n_layer = 1000000000\n", "bad.py") ==
        "bad.py:1: n_layer: expected an integer from 1 to 128, got 1000000000");
  CHECK(refusal("n_embd = 65537\n") ==
        "bad.toml:1: n_embd: expected an integer from 1 to 65536, got 65537");
  CHECK(refusal("block_size = 1048577\n") ==
        "bad.toml:1: block_size: expected an integer from 1 to 1048576, got 1048577");
  CHECK(refusal("gradient_accumulation_steps = 1025\n") ==
        "bad.toml:1: gradient_accumulation_steps: expected an integer from 1 to 1024, got 1025");
  CHECK(refusal(R"({"model_type": "bert", "intermediate_size": 262145})", "c.json") ==
        "c.json:1: intermediate_size: expected an integer from 1 to 262144, got 262145");
  CHECK(refusal(R"({"model_type": "distilbert", "n_layers": 200})", "c.json") ==
        "c.json:1: n_layers: expected an integer from 1 to 128, got 200");
  CHECK(refusal("model_type = \"vit\"\nnum_channels = 4096\n") ==
        "bad.toml:2: num_channels: expected an integer from 1 to 1024, got 4096");
  CHECK(refusal("model = \"resnet18\"\nimage_size = 100000\n") ==
        "bad.toml:2: image_size: expected an integer from 1 to 8192, got 100000");
  CHECK(refusal("family = \"mlp\"\nwidths = [784, 2000000]\n")
            .starts_with("bad.toml:2: widths: expected a list of 2 to 130 integers from 1 to "
                         "1048576"));
  // a config.json's number beyond int64 is refused as the number it is, not wrapped around
  CHECK(refusal(R"({"model_type": "bert", "num_hidden_layers": 18446744073709551615})", "c.json") ==
        "c.json:1: num_hidden_layers: expected an integer from 1 to 128, got 1.84467e+19");
  CHECK(refusal(R"({"model_type": "gpt2", "n_layer": 6, "trainable_layers": 7})", "c.json") ==
        "c.json:1: trainable_layers: the model has 6 blocks to train; trainable_layers counts "
        "them from the last (0: the head alone)");
}

TEST_CASE("a GPT of the most layers and micro-steps is planned: a plan times five micro-steps") {
  CHECK(refusal("n_layer = 128\ngradient_accumulation_steps = 1024\n") == "accepted");
  CHECK(refusal("init_from = 'gpt2-xl'\ngradient_accumulation_steps = 32\n", "ft.py") ==
        "accepted");
}

TEST_CASE("a tensor larger than any Mac's memory is refused before anything computes it") {
  CHECK(refusal("n_layer = 2\nbatch_size = 65536\nblock_size = 1048576\n") ==
        "bad.toml: the logits, batch_size x block_size x vocab_size = 65536 x 1048576 x 50304, "
        "would hold 3.46e+15 elements (12.3 PiB in float32); the planner takes tensors of up to "
        "512.0 GiB, the memory of the largest Mac");
  CHECK(refusal("n_layer = 2\nn_head = 1024\nn_embd = 1024\nblock_size = 65536\nbatch_size = 1\n"
                "vocab_size = 2\n")
            .starts_with("bad.toml: the attention scores, batch_size x n_head x block_size x "
                         "block_size = 1 x 1024 x 65536 x 65536, would hold"));
  CHECK(refusal(R"({"model_type": "gpt2", "n_embd": 65536, "n_head": 64, "seq_length": 16,
                    "batch_size": 65536})",
                "c.json")
            .starts_with("c.json: the MLP's activations, batch_size x seq_length x 4 x n_embd = "
                         "65536 x 16 x 262144"));
  CHECK(refusal("model_type = \"bert\"\nmax_position_embeddings = 1048576\n"
                "seq_length = 1048576\n")
            .starts_with("bad.toml: the attention scores, batch_size x num_attention_heads x "
                         "seq_length x seq_length = 8 x 12 x 1048576 x 1048576"));
  CHECK(refusal("model_type = \"vit\"\nimage_size = 8192\npatch_size = 1\nbatch_size = 1\n")
            .starts_with("bad.toml: the attention scores, batch_size x num_attention_heads x "
                         "(image_size / patch_size)^2 + 1 x (image_size / patch_size)^2 + 1"));
  CHECK(refusal("model = \"vgg11\"\nimage_size = 8192\nbatch_size = 65536\n")
            .starts_with("bad.toml: the first convolution's output, batch_size x 64 channels x "
                         "image_size x image_size = 65536 x 64 x 8192 x 8192"));
  CHECK(refusal("family = \"mlp\"\nwidths = [1048576, 1048576, 10]\n")
            .starts_with("bad.toml: layer 1's weight, widths[0] x widths[1] = 1048576 x 1048576"));
}

TEST_CASE(
    "the largest model the planner takes plans without an overflow, and says why no batch "
    "fits") {
  // a token embedding of 2^36 elements, half the limit: 0.17 trillion parameters
  const planner::ModelConfig c = planner::parse_toml_config(
      "n_layer = 2\nn_head = 64\nn_embd = 65536\nvocab_size = 1048576\nblock_size = 1024\n"
      "batch_size = 1\ngradient_accumulation_steps = 1\ncompile = false\n",
      "largest.toml");
  const planner::Prediction p = planner::predict(c, *engine::find_machine("m4-max-128gb"));
  CHECK(p.cpu == planner::CpuRun::Swaps);  // 2.75 TB of state: no cpu time is predicted
  CHECK(planner::parameter_count(c) > 68'719'476'736);       // 2^36
  CHECK(p.state_bytes == 16 * planner::parameter_count(c));  // AdamW's two moments and the grads
  const planner::Recommendation r = planner::recommend(p, planner::memory_knobs(c));
  CHECK(r.lane == "remote");
  REQUIRE(!r.reasons.empty());
  CHECK(r.reasons[0].find("no batch fits") != std::string::npos);  // not "lower batch_size"
}

TEST_CASE("nesting deeper than a config ever is refused before a parser recurses into it") {
  const std::string arrays = repeated("[", 100'000) + repeated("]", 100'000);
  const std::string objects = repeated("{\"a\": ", 100'000) + "1" + repeated("}", 100'000);
  const std::string json_refusal =
      "c.json:1: arrays and objects nested more than 64 deep; a config.json's fields nest a few "
      "levels";
  CHECK(refusal(arrays, "c.json") == json_refusal);
  CHECK(refusal("{\"model_type\": \"bert\", \"x\": " + objects + "}", "c.json") == json_refusal);
  CHECK(refusal("{\"model_type\": \"gpt2\", \"architectures\": " + arrays + "}", "c.json") ==
        json_refusal);
  CHECK(refusal("{\"model_type\": \"bert\", \"note\": \"[[[[[[[[[[\"}", "c.json") == "accepted");

  std::string dotted = "a";
  for (int i = 0; i < 50'000; ++i) dotted += ".a";
  const std::string toml_refusal =
      "bad.toml:1: tables and values nested more than 64 deep; a config's fields are plain values "
      "at its top";
  CHECK(refusal(dotted + " = 1\n") == toml_refusal);
  CHECK(refusal("[" + dotted + "]\nb = 1\n") == toml_refusal);
  CHECK(refusal("[[" + dotted + "]]\nb = 1\n") == toml_refusal);
  CHECK(refusal("x = {" + dotted + " = 1}\n") == toml_refusal);
  CHECK(refusal("x = " + arrays + "\n") == toml_refusal);
  CHECK(refusal("n_layer = 2\n" + repeated("\"a\".", 50'000) + "b = 1\n") ==
        "bad.toml:2: tables and values nested more than 64 deep; a config's fields are plain "
        "values at its top");
  // dots in strings, numbers and comments are not nesting
  CHECK(refusal("n_layer = 2\ndataset = \"" + repeated("a.", 100) + "\"\ndropout = 0.1 # " +
                repeated(".", 100) + "\n") == "accepted");
}

TEST_CASE("TOML's letters beyond ASCII are refused outside strings, before toml++ sees them") {
  // toml++ 3.3 reaches __builtin_unreachable on U+026C in a bare key (marzer/tomlplusplus#295)
  CHECK(refusal("n_layer = 6\n\xc9\xac = 1\n") ==
        "bad.toml:2: a character beyond ASCII outside a string or comment; TOML allows them only "
        "in quoted strings and comments");
  CHECK(refusal("n_layer = 6  # \xc9\xac\ndataset = \"\xc9\xac\"\n") == "accepted");
}

TEST_CASE("a refusal quotes at most a line of what the file holds") {
  const std::string value = repeated("(", 100'000);
  const std::string message = refusal("n_layer = " + value + "\n", "bad.py");
  CHECK(message ==
        "bad.py:1: n_layer: cannot read '" + repeated("(", 60) +
            "...' (the planner reads numbers, True/False, quoted strings and products such as 5 "
            "* 8)");
  CHECK(refusal(repeated("x", 100'000) + " = 1\n").size() < 600);
  CHECK(refusal("model = \"" + repeated("r", 100'000) + "\"\n").size() < 600);
}
