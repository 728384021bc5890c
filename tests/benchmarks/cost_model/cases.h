#pragma once
// The validation set's data (tests/data/cost_model_cases.toml): published measurements, each
// with where it comes from, what ran, how the script timed it and what it measured.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cost_model {

// How the published script timed the work (README.md describes each).
enum class Timing { SyncEach, SyncLoop, Events, Script };

struct Source {
  std::string id, cite, hardware, pytorch, machine;
  Timing timing = Timing::SyncEach;
  int warmup = 1, repeat = 9;

  // A PyTorch 1.x run: another MPS backend (before 2.0's), reported apart and out of the targets.
  bool before_2_0() const { return pytorch.rfind("1.", 0) == 0; }
};

struct Case {
  int line = 0;  // in the data file, for messages
  const Source* source = nullptr;
  std::string role;    // "fit" or "check"
  std::string regime;  // one of regimes()
  std::string device;  // "mps" or "cpu"
  std::string op;      // what runs: an operator, or a model ("nanogpt", "bert")
  std::vector<std::vector<std::int64_t>> shapes;
  std::vector<std::int64_t> dims;       // reduce over these (sum), or the softmax dimension
  std::map<std::string, double> model;  // a model's configuration
  std::string optimizer;                // a classifier's: "sgd", "adam" or "adamw"
  std::string unit;                     // "ms", "s", "TFLOPS" or "%"
  double measured = 0;
  double within = 0;  // when set, the prediction must be at most this far off (a target)

  bool fitted() const { return role == "fit"; }
  std::string label() const;  // "m3-max-64gb mps matmul 1000x1024x64 @ 1000x64x256"
};

struct Cases {
  std::vector<Source> sources;  // stable addresses: cases point into it
  std::vector<Case> cases;
};

class CaseError : public std::runtime_error {
 public:
  CaseError(const std::string& path, int line, const std::string& what)
      : std::runtime_error(path + ":" + std::to_string(line) + ": " + what) {}
};

// The model family a whole-model op belongs to ("gpt", "encoder", "cnn", "mlp"), or "operator".
std::string family_of(const std::string& op);

// The regimes the report groups cases by, in report order.
const std::vector<std::string>& regimes();
// Reads and checks the whole file; throws CaseError naming the file and line of the first problem.
Cases load_cases(const std::string& path);

}  // namespace cost_model
