// The planner behind `course plan`: nanoGPT's configs read in both formats, predictions that
// agree with seed 003's measured run, the runbook's recommendations, and bad input refused with
// the field and the line.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/notebook/terminal_text.h"
#include "planner/model_config.h"
#include "planner/plan.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"
#include "planner/training_step.h"
#include "refusal.h"

using planner::ModelConfig;

namespace {

const std::string kData = TUTOR_SOURCE_DIR "/engine/planner/examples/";

const engine::MachineProfile& machine(const char* name) { return *engine::find_machine(name); }

using planner_tests::refusal;

struct Run {
  int status;
  std::string out, err;
};

// As a 160-column terminal shows it (the README's examples), or `width` columns.
Run plan(const std::vector<std::string>& args, std::size_t width = 160) {
  std::ostringstream out, err;
  const int status = planner::plan_command(args, out, err, width);
  return {status, out.str(), err.str()};
}

// --json for every simulated machine.
std::string plan_output_of_all_machines() {
  return plan({kData + "laptop_char.toml", "--json"}).out;
}

}  // namespace

TEST_CASE("nanoGPT's shakespeare-char config reads the same from its Python file and from TOML") {
  const ModelConfig py = planner::read_model_config(kData + "train_shakespeare_char.py");
  const ModelConfig toml = planner::read_model_config(kData + "train_shakespeare_char.toml");
  for (const ModelConfig& c : {py, toml}) {
    const planner::GptSettings& gpt = c.as<planner::GptSettings>();
    CHECK(gpt.n_layer == 6);
    CHECK(gpt.n_head == 6);
    CHECK(gpt.n_embd == 384);
    CHECK(gpt.block_size == 256);
    CHECK(c.batch_size == 64);
    CHECK(c.gradient_accumulation_steps == 1);
    CHECK(gpt.dropout == doctest::Approx(0.2));
    CHECK(gpt.vocab_size == 65);  // shakespeare_char's meta.pkl
    CHECK_FALSE(gpt.bias);        // train.py's default
    CHECK_FALSE(gpt.compile);
    CHECK(c.optimizer == "adamw");
  }
  CHECK(planner::parameter_count(py) ==
        10'646'784);  // train.py prints "number of parameters: 10.65M"
}

TEST_CASE("what a config leaves out keeps train.py's defaults; 5 * 8 is read as 40") {
  const ModelConfig gpt2_config = planner::read_model_config(kData + "train_gpt2.py");
  const planner::GptSettings& gpt2 = gpt2_config.as<planner::GptSettings>();
  CHECK(gpt2.n_layer == 12);
  CHECK(gpt2.n_embd == 768);
  CHECK(gpt2_config.gradient_accumulation_steps == 40);
  CHECK(gpt2.vocab_size == 50304);  // no meta.pkl for openwebtext: GPT-2's, padded
  CHECK(gpt2.compile);
  CHECK(planner::parameter_count(gpt2_config) == 123'587'328);  // 123.59M
  const ModelConfig pretrained =
      planner::parse_python_config("init_from = 'gpt2'\nblock_size = 256\n", "ft.py");
  const planner::GptSettings& checkpoint = pretrained.as<planner::GptSettings>();
  CHECK(checkpoint.vocab_size == 50257);  // from_pretrained: GPT-2's own vocabulary, with biases
  CHECK(checkpoint.bias);
  CHECK(checkpoint.block_size == 256);                         // cropped, as train.py crops it
  CHECK(planner::parameter_count(pretrained) == 123'653'376);  // 123.65M
}

TEST_CASE("shakespeare-char on the M3 Max: the plan agrees with seed 003's run within 10 %") {
  ModelConfig c = planner::read_model_config(kData + "train_shakespeare_char.toml");
  c.as<planner::GptSettings>().compile = true;
  const planner::Prediction p = planner::predict(c, machine("m3-max-64gb"));
  REQUIRE(p.mps_seconds());
  REQUIRE(p.compiled_seconds);
  CHECK(*p.mps_seconds() == doctest::Approx(0.221).epsilon(0.10));             // seed 003: 221 ms
  CHECK(p.cpu_seconds().value_or(0) == doctest::Approx(1.986).epsilon(0.10));  // 1986 ms
  CHECK(*p.compiled_seconds == doctest::Approx(0.306).epsilon(0.10));          // 306 ms
  CHECK(p.memory == planner::MpsMemory::Fits);
  const planner::Recommendation r = planner::recommend(p);
  CHECK(r.lane == "mps");
  REQUIRE(r.reasons.size() == 2);
  CHECK(r.reasons[1].find("turn compile off (False in a Python config, false in TOML and JSON)") !=
        std::string::npos);
}

TEST_CASE("shakespeare-char swaps on the 8 GB M1, and the GPU loses its lead") {
  const ModelConfig c = planner::read_model_config(kData + "train_shakespeare_char.py");
  const planner::Prediction p = planner::predict(c, machine("m1-8gb"));
  CHECK(p.memory == planner::MpsMemory::Swaps);
  CHECK(p.mps_bytes > planner::free_memory(machine("m1-8gb")));
  const planner::Recommendation r = planner::recommend(p);
  CHECK(r.lane == "remote");
  CHECK(r.reasons[1].find("lower batch_size or block_size") != std::string::npos);
}

TEST_CASE("GPT-2 small with 40 micro-steps is refused on a 16 GB Mac and fits on the M3 Max") {
  const ModelConfig c = planner::read_model_config(kData + "train_gpt2.py");
  const planner::Prediction small = planner::predict(c, machine("m1-pro-16gb"));
  CHECK(small.memory == planner::MpsMemory::OutOfMemory);
  CHECK(small.why.find("MPS backend out of memory") == 0);
  CHECK(planner::recommend(small).lane == "remote");
  const planner::Prediction large = planner::predict(c, machine("m3-max-64gb"));
  CHECK(large.memory == planner::MpsMemory::Fits);
  CHECK(planner::recommend(large).lane == "mps");
}

TEST_CASE("a small model trains no faster on the M3 Max's GPU: the runbook keeps it on the cpu") {
  const ModelConfig c = planner::read_model_config(kData + "laptop_char.toml");
  const planner::Prediction p = planner::predict(c, machine("m3-max-64gb"));
  const planner::Recommendation r = planner::recommend(p);
  CHECK(*p.cpu_seconds() / *p.mps_seconds() < planner::kMinimumSpeedup);
  CHECK(r.lane == "cpu");
  CHECK(r.reasons[0].find("below the runbook's 1.22x") != std::string::npos);
}

TEST_CASE("machines without a usable MPS are planned for their cpu") {
  const ModelConfig c = planner::read_model_config(kData + "laptop_char.toml");
  const planner::Prediction linux_box = planner::predict(c, machine("linux-x86_64"));
  CHECK(linux_box.memory == planner::MpsMemory::Unavailable);
  CHECK_FALSE(linux_box.mps_seconds());
  CHECK(linux_box.cpu_seconds() > 0);
  CHECK(planner::recommend(linux_box).reasons[0].find("this PyTorch build has no MPS") == 0);
  const planner::Prediction old_mac = planner::predict(c, machine("intel-mac-macos12.0"));
  CHECK(old_mac.why == "MPS is built but unavailable on macOS 12.0");
}

TEST_CASE("the plan names every value the config left to train.py's defaults") {
  const ModelConfig shakespeare = planner::read_model_config(kData + "train_shakespeare_char.toml");
  CHECK(planner::defaulted_fields(shakespeare) ==
        std::vector<std::string>{"vocab_size 65 (shakespeare_char's meta.pkl)", "bias False",
                                 "num_labels 0 (a language model)", "activation_function \"gelu\"",
                                 "attn_implementation \"sdpa\"", "optimizer \"adamw\"",
                                 "gradient_checkpointing false"});
  const ModelConfig pretrained =
      planner::parse_python_config("init_from = 'gpt2'\nblock_size = 256\n", "ft.py");
  CHECK(planner::defaulted_fields(pretrained) ==  // the shape is the checkpoint's, not a default
        std::vector<std::string>{"batch_size 12", "dropout 0.0", "num_labels 0 (a language model)",
                                 "activation_function \"gelu\"", "attn_implementation \"sdpa\"",
                                 "compile True", "optimizer \"adamw\"",
                                 "gradient_accumulation_steps 40", "gradient_checkpointing false",
                                 "log_interval 1 (loss.item() every step)"});
  const Run run = plan({kData + "train_shakespeare_char.toml", "--machine", "m3-max-64gb"});
  CHECK(
      run.out.find(
          "not in the file, so train.py's defaults: vocab_size 65 (shakespeare_char's meta.pkl), bias False, "
          "num_labels 0 (a language model), activation_function \"gelu\",\n  attn_implementation "
          "\"sdpa\", optimizer \"adamw\", gradient_checkpointing false\n") != std::string::npos);
}

TEST_CASE("a bad config is refused with its file, line and field") {
  CHECK(
      refusal("n_layer = 6\nwidth = 384\n") ==
      "bad.toml:2: width: not a field the planner knows (a GPT's fields: n_layer, n_head, "
      "n_embd, block_size, batch_size, vocab_size, gradient_accumulation_steps, dropout, bias, "
      "num_labels, activation_function, attn_implementation, compile, optimizer, dataset, init_from, trainable_layers, autocast, log_interval, gradient_checkpointing, dtype; family = \"mlp\", model_type = "
      "\"bert\" or model = \"resnet50\" plan other families)");
  CHECK(refusal("n_head = 6\nn_layers = 4\n") ==
        "bad.toml:2: n_layers: not a field the planner knows; did you mean n_layer?");
  CHECK(refusal("") ==
        "bad.toml: sets none of the planner's fields, so the plan would be train.py's defaults "
        "(GPT-2 124M on OpenWebText); set at least n_layer, n_head, n_embd, block_size and "
        "batch_size, or name another family (family = \"mlp\", model_type = \"bert\", model = "
        "\"resnet50\")");
  CHECK(refusal("n_layer = 6\nn_head = \"six\"\n") ==
        "bad.toml:2: n_head: expected an integer from 1 to 1024, got 'six'");
  CHECK(refusal("batch_size = -4\n") ==
        "bad.toml:1: batch_size: expected an integer from 1 to 65536, got -4");
  CHECK(refusal("dropout = 1.5\n") ==
        "bad.toml:1: dropout: expected a probability from 0 up to (not including) 1, got 1.5");
  CHECK(refusal("bias = 1\n") == "bad.toml:1: bias: expected true or false, got 1");
  CHECK(refusal("optimizer = \"lion\"\n") ==
        "bad.toml:1: optimizer: expected \"adamw\", \"adam\" or \"sgd\", got \"lion\"");
  CHECK(refusal("n_embd = 384\nn_head = 5\n") ==
        "bad.toml:2: n_head: n_embd (384) must be a multiple of n_head (5)");
  CHECK(refusal("n_layer = [6]\n") ==
        "bad.toml:1: n_layer: expected an integer from 1 to 128, got a list");
  CHECK(refusal("n_layer = [\"6\"]\n") ==
        "bad.toml:1: n_layer: cannot use a list of other than integers here: expected a number, "
        "true or false, or a string");
  CHECK(refusal("n_layer = \n").rfind("bad.toml:1: ", 0) == 0);  // toml++'s own description follows
}

TEST_CASE(
    "a nanoGPT Python config is refused only for a field the planner uses, or a misspelling of one") {
  CHECK(refusal("import time\nwandb_run_name = 'x' + str(time.time())\nn_layer = 4\n", "bad.py") ==
        "accepted");
  CHECK(refusal("n_layer = 4\nn_embed = 256\n", "bad.py") ==
        "bad.py:2: n_embed: not a field the planner knows; did you mean n_embd?");
  CHECK(refusal("# nothing yet\nout_dir = 'out'\n", "bad.py")
            .starts_with("bad.py: sets none of the planner's fields"));
  CHECK(
      refusal("# two to the third\nn_layer = 2 ** 3\n", "bad.py") ==
      "bad.py:2: n_layer: cannot read '2 ** 3' (the planner reads numbers, True/False, quoted strings and "
      "products such as 5 * 8)");
  CHECK(refusal("block_size = '256'  # quoted by mistake\n", "bad.py") ==
        "bad.py:1: block_size: expected an integer from 1 to 1048576, got '256'");
  CHECK(
      refusal("n_layer =\n", "bad.py") ==
      "bad.py:1: n_layer: cannot read '' (the planner reads numbers, True/False, quoted strings and products such "
      "as 5 * 8)");
  CHECK(
      refusal("n_layer = 99999999999999999999\n", "bad.py") ==
      "bad.py:1: n_layer: expected an integer from 1 to 128, got 99999999999999999999");  // too large for an integer
  CHECK(
      refusal("batch_size = 4294967296 * 4294967296\n", "bad.py") ==
      "bad.py:1: batch_size: cannot read '4294967296 * 4294967296' (the planner reads numbers, True/False, quoted "
      "strings and products such as 5 * 8)");
  CHECK(
      refusal("compile = false\n", "bad.py") ==
      "bad.py:1: compile: cannot read 'false' (the planner reads numbers, True/False, quoted strings and "
      "products such as 5 * 8)");
}

TEST_CASE("course plan prints each machine's times, memory and recommendation") {
  const Run run = plan({kData + "train_shakespeare_char.py", "--machine", "m3-max-64gb"});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(
      run.out.find(
          "train_shakespeare_char: 6 layers, 6 heads, 384 wide, context 256, batch 64 x 1 micro-step") ==
      0);
  CHECK(run.out.find("10.65M parameters") != std::string::npos);
  CHECK(run.out.find("m3-max-64gb") != std::string::npos);
  CHECK(run.out.find("  -> mps: mps is ") != std::string::npos);
  CHECK(run.out.find("m1-8gb") == std::string::npos);  // only the machine asked for
}

TEST_CASE("course plan fits a narrow terminal: prose wrapped, the memory column under each row") {
  const Run run = plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb"}, 60);
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);)
    CHECK(engine::notebook::display_width(line) <= 60);
  CHECK(run.out.find("\nmachine                   cpu      mps  compiled  cpu/mps\n") !=
        std::string::npos);
  CHECK(run.out.find("\n     mps memory: 6.09 of 5.0 GiB free: swaps\n") != std::string::npos);
  CHECK(run.out.find("\n  -> mps: batch_size 32 with gradient_accumulation_steps 2\n"
                     "     (the same 64 samples a step) fits the step in 3.09 GiB\n") !=
        std::string::npos);
}

TEST_CASE("course plan's refusals are wrapped to the terminal, the long lists of fields included") {
  const std::filesystem::path config =
      std::filesystem::temp_directory_path() / "planner_test_unknown_field.toml";
  std::ofstream(config) << "model_type = \"bert\"\nfoo = 1\n";
  const Run unknown = plan({config.string(), "--machine", "m1-8gb"}, 60);
  std::filesystem::remove(config);
  const Run machine = plan({kData + "laptop_char.toml", "--machine", "m3-max-30gpu"}, 60);
  for (const Run* run : {&unknown, &machine}) {
    CHECK(run->status != 0);
    std::istringstream lines(run->err);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count)
      CHECK(engine::notebook::display_width(line) <= 60);
    CHECK(count > 1);  // wrapped, not cut
  }
  std::string unwrapped = unknown.err;
  for (std::size_t at; (at = unwrapped.find("\n  ")) != std::string::npos;)
    unwrapped.replace(at, 3, " ");
  CHECK(unwrapped.find("foo: not a field of bert's config (its fields: model_type,") !=
        std::string::npos);
  CHECK(
      unwrapped.find(
          "trainable_layers, autocast, log_interval, gradient_accumulation_steps, gradient_checkpointing)") !=
      std::string::npos);
}

TEST_CASE(
    "course plan refuses bad arguments with its usage, and a bad config with the config's message") {
  CHECK(plan({}).status == 2);
  CHECK(plan({}).err.find("usage: course plan CONFIG|--torch FILE.py [--machine NAME]") !=
        std::string::npos);
  CHECK(plan({kData + "laptop_char.toml", "--machine"}).status == 2);
  CHECK(plan({kData + "laptop_char.toml", "--machine", "m9-ultra"})
            .err.find("unknown machine 'm9-ultra'") != std::string::npos);
  CHECK(plan({kData + "laptop_char.toml", "--machine", "m3-max"})
            .err.find("unknown machine 'm3-max'; did you mean m3-max-64gb?") != std::string::npos);
  const Run listed = plan({"--list-machines"});
  CHECK(listed.status == 0);
  CHECK(listed.out.find("m3-max-14cpu-30gpu-{36,96}gb") != std::string::npos);
  CHECK(plan({kData + "laptop_char.toml", "--fast"}).err.find("unknown option --fast") !=
        std::string::npos);
  const Run missing = plan({kData + "no_such_config.toml"});
  CHECK(missing.status == 1);
  CHECK(missing.err.find("no_such_config.toml: cannot read the file: No such file or directory") !=
        std::string::npos);
  const Run directory = plan({kData});
  CHECK(directory.status == 1);
  CHECK(directory.err.find("cannot read the file: it is a directory") != std::string::npos);
}

TEST_CASE("the planner's README shows what course plan prints") {
  std::ifstream in(TUTOR_SOURCE_DIR "/engine/planner/README.md");
  std::stringstream readme;
  readme << in.rdbuf();
  const Run m3 = plan({kData + "train_shakespeare_char.toml", "--machine", "m3-max-64gb"});
  const Run m1 = plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb"});
  CHECK(readme.str().find("```\n" + m3.out + "```") != std::string::npos);
  const std::string m1_rows = m1.out.substr(m1.out.find("\nm1-8gb") + 1);
  CHECK(readme.str().find("```\n" + m1_rows + "```") != std::string::npos);
  const Run sweep =
      plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb", "--sweep", "batch"});
  CHECK(readme.str().find("```\n" + sweep.out.substr(sweep.out.find("\nm1-8gb") + 1) + "```") !=
        std::string::npos);
}

TEST_CASE("course plan --json gives each machine's steps, memory and verdict, as the table does") {
  const Run table = plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb"});
  const Run run = plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb", "--json"});
  REQUIRE(run.status == 0);
  const nlohmann::json plan = nlohmann::json::parse(run.out);
  CHECK(plan["config"]["n_layer"] == 6);
  CHECK(plan["config"]["parameters"] == 10'646'784);
  CHECK(plan["config"]["defaults"].size() ==
        planner::defaulted_fields(planner::read_model_config(kData + "train_shakespeare_char.toml"))
            .size());
  REQUIRE(plan["machines"].size() == 1);
  const nlohmann::json& m1 = plan["machines"][0];
  CHECK(m1["machine"] == "m1-8gb");
  CHECK(m1["verdict"] == "mps");  // with the memory fix
  CHECK(m1["memory"] == "swaps");
  CHECK(m1["memory_fix"]["batch_size"] == 32);
  CHECK(m1["memory_fix"]["gradient_accumulation_steps"] == 2);
  CHECK(m1["memory_fix"]["gradient_checkpointing"] == false);
  CHECK(m1["compiled_ms"].is_null());  // the config does not compile
  // The same numbers as the table's row: "m1-8gb  3763  3850  -  0.98x  6.09 of 5.0 GiB free: swaps"
  CHECK(table.out.find(fmt::format("{:.0f}     {:.0f}", m1["cpu_ms"].get<double>(),
                                   m1["mps_ms"].get<double>())) != std::string::npos);
  CHECK(table.out.find(
            fmt::format("{:.2f} of {:.1f} GiB free", m1["mps_bytes"].get<double>() / (1 << 30),
                        m1["free_bytes"].get<double>() / (1 << 30))) != std::string::npos);
  // Every simulated machine but this computer, without --machine.
  const nlohmann::json all = nlohmann::json::parse(plan_output_of_all_machines());
  CHECK(all["machines"].size() == engine::machines().size() - 1);
}

TEST_CASE(
    "course plan --sweep batch doubles the batch until the GPU swaps, and names the largest that "
    "fits") {
  const Run run =
      plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb", "--sweep", "batch"}, 60);
  REQUIRE(run.status == 0);
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);)
    CHECK(engine::notebook::display_width(line) <= 60);
  CHECK(run.out.find("\n  batch    mps ms  samples/s  mps memory\n      1 ") != std::string::npos);
  // Batch 64 is the config's own, whose step the table above predicts: 3850 ms, swapping.
  CHECK(run.out.find("\n     64      3850       16.6  6.09 of 5.0 GiB free: swaps\n") !=
        std::string::npos);
  CHECK(run.out.find("largest batch_size without swap: 32\n") != std::string::npos);

  const nlohmann::json sweep =
      nlohmann::json::parse(plan({kData + "train_shakespeare_char.toml", "--machine", "m1-8gb",
                                  "--sweep", "batch", "--json"})
                                .out);
  const nlohmann::json& steps = sweep["sweeps"][0]["steps"];
  REQUIRE(steps.size() == 7);  // 1, 2, 4, ..., 64
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    CHECK(steps[i]["batch_size"] == 1 << i);
    CHECK(steps[i]["memory"] == "fits");
    CHECK(steps[i + 1]["mps_bytes"].get<std::int64_t>() >
          steps[i]["mps_bytes"].get<std::int64_t>());
  }
  CHECK(steps.back()["memory"] == "swaps");
  CHECK(sweep["sweeps"][0]["largest_batch_without_swap"] == 32);

  const Run linux =
      plan({kData + "laptop_char.toml", "--machine", "linux-x86_64", "--sweep", "batch"});
  CHECK(linux.out.find("no sweep: this PyTorch build has no MPS") != std::string::npos);
  CHECK(plan({kData + "laptop_char.toml", "--sweep"})
            .err.find("--sweep sweeps the batch or the DataLoader's workers") != std::string::npos);
  CHECK(plan({kData + "laptop_char.toml", "--sweep", "block_size"}).status == 2);
}

TEST_CASE("an MLP classifier is planned from its widths, with the planner's defaults named") {
  const ModelConfig mlp = planner::read_model_config(kData + "mnist_mlp.toml");
  REQUIRE(std::holds_alternative<planner::MlpSettings>(mlp.settings));
  CHECK(mlp.as<planner::MlpSettings>().widths == std::vector<std::int64_t>{784, 512, 256, 10});
  CHECK(mlp.batch_size == 128);
  CHECK(planner::parameter_count(mlp) == 785 * 512 + 513 * 256 + 257 * 10);
  CHECK(planner::defaulted_fields(mlp) ==
        std::vector<std::string>{"dropout 0.0",
                                 "samples \"tensors\" (batches made in memory, no input pipeline)",
                                 "gradient_accumulation_steps 1", "gradient_checkpointing false",
                                 "log_interval 1 (loss.item() every step)"});

  const Run run = plan({kData + "mnist_mlp.toml", "--machine", "m1-8gb"}, 60);
  REQUIRE(run.status == 0);
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);)
    CHECK(engine::notebook::display_width(line) <= 60);
  CHECK(run.out.find("mnist_mlp: an MLP classifier 784-512-256-10, batch 128") == 0);
  CHECK(run.out.find("not in the file, so the planner's defaults: dropout 0.0") !=
        std::string::npos);
  CHECK(run.out.find("a steady training step (the batch copied in, forward,") != std::string::npos);

  const nlohmann::json json =
      nlohmann::json::parse(plan({kData + "mnist_mlp.toml", "--machine", "m1-8gb", "--json"}).out);
  CHECK(json["config"]["family"] == "mlp");
  CHECK(json["config"]["widths"] == std::vector<std::int64_t>{784, 512, 256, 10});
  const nlohmann::json& m1 = json["machines"][0];
  CHECK(m1["cpu_ms"].get<double>() > 0);
  CHECK(m1["mps_ms"].get<double>() > 0);
  CHECK(m1["compiled_ms"].is_null());
  // A larger batch holds more, and the sweep runs for an MLP as for a GPT.
  const Run sweep = plan({kData + "mnist_mlp.toml", "--machine", "m1-8gb", "--sweep", "batch"});
  CHECK(sweep.status == 0);
  CHECK(sweep.out.find("largest batch_size without swap") != std::string::npos);
}

TEST_CASE("an MLP's config is refused with its file, line and field") {
  CHECK(refusal("family = \"mlp\"\nbatch_size = 32\n") ==
        "bad.toml: an MLP needs its widths, the inputs first and the classes last: widths = "
        "[784, 256, 10]");
  CHECK(refusal("family = \"mlp\"\nwidths = [784]\n") ==
        "bad.toml:2: widths: expected a list of 2 to 130 integers from 1 to 1048576, the inputs "
        "first and the classes last: widths = [784, 256, 10]");
  CHECK(refusal("family = \"mlp\"\nwidths = [784, 0, 10]\n")
            .starts_with("bad.toml:2: widths: expected a list of 2 to 130 integers from 1 to"));
  CHECK(refusal("family = \"mlp\"\nwidths = [784, 10]\nn_layer = 4\n") ==
        "bad.toml:3: n_layer: a GPT's field, not an MLP's (an MLP's fields: widths, batch_size, "
        "dropout, optimizer, trainable_layers, autocast, log_interval, "
        "gradient_accumulation_steps, gradient_checkpointing, samples, stored_size, augment, "
        "num_workers, num_samples)");
  CHECK(refusal("family = \"mlp\"\nwidth = [784, 10]\n") ==
        "bad.toml:2: width: not a field the planner knows; did you mean widths?");
  CHECK(refusal("family = \"mlp\"\nwidths = [784, 10]\nlayers = 3\n") ==
        "bad.toml:3: layers: not a field of an MLP (its fields: widths, batch_size, dropout, "
        "optimizer, trainable_layers, autocast, log_interval, gradient_accumulation_steps, "
        "gradient_checkpointing, samples, stored_size, augment, num_workers, num_samples)");
  CHECK(refusal("family = \"cnn\"\n") ==
        "bad.toml:1: family: a CNN names torchvision's model: model = \"resnet50\"");
  CHECK(
      refusal("n_layer = 4\nwidths = [784, 10]\n") ==
      "bad.toml:2: widths: an MLP's field; a GPT has n_layer, n_head and n_embd (family = \"mlp\" "
      "plans an MLP)");
  CHECK(refusal("family = \"gpt\"\nn_layer = 4\n") == "accepted");
}

TEST_CASE("the model's state bounds every batch: weights, gradients and the optimizer's moments") {
  // 784-10: 7850 parameters. Adam keeps two moments a parameter, SGD's momentum one.
  ModelConfig c = planner::parse_toml_config("family = \"mlp\"\nwidths = [784, 10]\n", "mlp.toml");
  c.optimizer = "adam";
  CHECK(planner::model_state_bytes(c) == 4 * (7850 + 3 * 7850));
  c.optimizer = "sgd";
  CHECK(planner::model_state_bytes(c) == 4 * (7850 + 2 * 7850));
}

TEST_CASE("a model whose state alone outgrows the machine is sent elsewhere, not told to halve") {
  // GPT-2 XL's shape at batch 1: 1.56B parameters, 23 GiB with AdamW's moments and the gradients.
  const ModelConfig c = planner::parse_python_config(
      "n_layer = 48\nn_head = 25\nn_embd = 1600\nblock_size = 1024\nbatch_size = 1\n", "xl.py");
  const planner::Prediction small_mac = planner::predict(c, machine("m1-8gb"));
  CHECK(small_mac.state_bytes > planner::allocator_limit(machine("m1-8gb")));
  REQUIRE(small_mac.memory == planner::MpsMemory::OutOfMemory);
  const planner::Recommendation oom = planner::recommend(small_mac);
  CHECK(oom.lane == "remote");
  CHECK(oom.reasons[0].find("the weights, their gradients and the optimizer's state alone take") ==
        0);
  CHECK(oom.reasons[0].find("no batch fits") != std::string::npos);
  CHECK(oom.reasons[0].find("halve") == std::string::npos);

  // No MPS, and not the memory for the model either: not the cpu.
  const planner::Prediction old_mac = planner::predict(c, machine("intel-mac-macos12.0"));
  const planner::Recommendation r = planner::recommend(old_mac);
  CHECK(r.lane == "remote");
  CHECK(r.reasons[0].find("more than the 12.00 GiB this machine has free") != std::string::npos);
  CHECK(r.reasons[1] == "MPS is built but unavailable on macOS 12.0");
}

TEST_CASE("the sweep says why even batch 1 cannot fit, and counts billions as billions") {
  const std::filesystem::path config =
      std::filesystem::temp_directory_path() / "planner_test_state_bound.py";
  std::ofstream(config) << "n_layer = 48\nn_head = 25\nn_embd = 1600\nblock_size = 1024\n";
  const Run sweep = plan({config.string(), "--sweep", "batch", "--machine", "m1-8gb"});
  std::filesystem::remove(config);
  CHECK(sweep.status == 0);
  CHECK(sweep.out.find("even batch_size 1 does not fit without swap: the weights, their gradients "
                       "and the optimizer's state alone take") != std::string::npos);
  CHECK(sweep.out.find("1.56B parameters") != std::string::npos);
}
