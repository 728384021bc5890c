// The engine's dtypes against what real PyTorch recorded (tests/tools/capture_precision.py, into
// tests/data/pytorch-<release>/precision.json): type promotion over every pair of dtypes and kind
// of operand, float16 and bfloat16 rounding, the samplers in other dtypes, seeded cpu dropout,
// float16 and bfloat16 kernels, autocast's choices on the cpu, dtype errors and printing. Every
// captured release present is compared; where an older release behaves otherwise than 2.9, the
// entry is listed below with the reason, and a listed entry that no longer differs fails too.

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/autocast.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/type_promotion.h"
#include "precision_probes.h"

using nlohmann::json;

namespace {

// What 1.13 does otherwise than 2.9, by capture section and key (a key ending in '*' covers
// every key it starts).
const std::map<std::string, std::string> kDifferencesOf113 = {
    {"texts/gelu_long",
     "1.13 raised AT_DISPATCH's error as a RuntimeError; 2.x raises NotImplementedError, as the engine does"},
    {"texts/layer_norm_long", "as above"},
    {"texts/log_softmax_long", "as above"},
    {"texts/nll_loss_long", "as above"},
    {"texts/randn_long", "as above"},
    {"texts/softmax_inner_long", "as above"},
    {"texts/softmax_long", "as above"},
    {"kernels/gelu:float16", "1.13 has no float16 GELU on the cpu"},
    {"kernels/layer_norm:float16", "1.13 has no float16 layer norm on the cpu"},
    {"kernels/linear:float16", "1.13 has no float16 addmm on the cpu"},
    {"kernels/log_softmax:float16", "1.13 has no float16 log_softmax on the cpu"},
    {"kernels/matmul:float16", "1.13 has no float16 addmm on the cpu"},
    {"kernels/relu:float16", "1.13 has no float16 clamp_min on the cpu"},
    {"kernels/softmax:float16", "1.13 has no float16 softmax on the cpu"},
    {"kernels/tanh:float16", "1.13 has no float16 tanh on the cpu"},
    {"autocast_cpu/float16:*", "1.13's cpu autocast takes bfloat16 only (2.9 takes float16 too)"},
    {"autocast_cpu/float32:*", "1.13 raises where 2.9 warns and turns autocast off"},
    {"texts/autocast_cpu_float64", "1.13 raises where 2.9 warns and turns autocast off"},
    {"texts/matmul_mixed", "1.13's mm said 'expected scalar type Float but found Double'"},
    {"kernels/matmul:bfloat16",
     "1.13's cpu gemm for bfloat16 adds into its bfloat16 output, "
     "rounding at every step; 2.9 accumulates in float32 (opmath)"},
    {"kernels/linear:bfloat16",
     "1.13's cpu addmm for bfloat16 adds into its bfloat16 output, "
     "rounding at every step; 2.9 accumulates in float32 (opmath)"},
    {"kernels/layer_norm:bfloat16",
     "up to two units apart: 1.13's bfloat16 layer norm rounds its statistics otherwise; the "
     "2.11 capture decides whether the engine's float32 statistics are 2.9's"},
    {"rounding/bfloat16",
     "NaN: 1.13's AVX2 conversion gives 0xffff, the engine c10::BFloat16's "
     "round_to_nearest_even 0x7fc0"},
    {"rounding/bfloat16_to_float32",
     "NaN: 1.13's AVX2 conversion gives 0xffff, the engine "
     "c10::BFloat16's round_to_nearest_even 0x7fc0"},
    {"samplers/randn:float64:*",
     "last bits: glibc's log, sin and cos in 1.13, the engine's own "
     "portable ones (the same on every host)"},
    {"samplers/randn:float16:20",
     "last bits: 1.13's log, sqrt, sin and cos of a c10::Half return a float, unrounded; 2.9's "
     "round into the half type (as both do for bfloat16), which the engine follows"},
    {"samplers/randn:float16:37", "as randn:float16:20"},
};

// PyTorch 2.11 (tests/data/pytorch-2.11, recorded on an x86-64 Linux machine).
const std::map<std::string, std::string> kDifferencesOf211 = {
    {"rounding/bfloat16",
     "NaN: 2.11's vectorized conversion on x86-64 gives 0xffff, the engine "
     "c10::BFloat16's round_to_nearest_even 0x7fc0"},
    {"rounding/bfloat16_to_float32", "the same NaN, widened"},
    {"samplers/randn:float64:*",
     "last bits: glibc's log, sin and cos in 2.11, the engine's own portable ones (the same on "
     "every host)"},
};

const std::map<std::string, const std::map<std::string, std::string>*> kDifferencesByRelease = {
    {"pytorch-1.13", &kDifferencesOf113},
    {"pytorch-2.11", &kDifferencesOf211},
};

const std::string* listed_difference(const std::map<std::string, std::string>& listed,
                                     const std::string& key) {
  for (const auto& [pattern, reason] : listed) {
    const bool prefix = pattern.back() == '*';
    if (prefix ? key.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0 : key == pattern)
      return &reason;
  }
  return nullptr;
}

// The captures present in tests/data: one folder per release.
std::vector<std::filesystem::path> captures() {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(TUTOR_TEST_DATA_DIR)) {
    if (std::filesystem::exists(entry.path() / "precision.json"))
      found.push_back(entry.path() / "precision.json");
  }
  return found;
}

// Compares every key of one section; `engine_side` computes the engine's entry. A key may
// differ only if the release's list says why, and a listed key must differ.
void compare_section(const json& capture, const std::string& release, const std::string& section,
                     const std::function<json(const std::string& key)>& engine_side,
                     const std::function<bool(const json&, const json&)>& same) {
  const auto release_differences = kDifferencesByRelease.find(release);
  for (const auto& item : capture[section].items()) {
    const std::string key = section + "/" + item.key();
    CAPTURE(release);
    CAPTURE(key);
    engine::sim::use_machine("linux-x86_64");
    const json ours = engine_side(item.key());
    if (ours.is_null()) {  // not comparable with this capture (precision_probes.h says when)
      MESSAGE(("not compared with this capture: " + key));
      continue;
    }
    const bool equal = same(ours, item.value());
    const std::string* reason = release_differences == kDifferencesByRelease.end()
                                    ? nullptr
                                    : listed_difference(*release_differences->second, key);
    if (reason != nullptr) {
      CHECK_MESSAGE(!equal, ("listed as a difference of " + release + " (" + *reason +
                             ") but the engine now agrees"));
    } else {
      CHECK_MESSAGE(equal, ("PyTorch: " + item.value().dump() + "\nengine:  " + ours.dump()));
    }
  }
}

bool identical(const json& ours, const json& theirs) { return ours == theirs; }

}  // namespace

TEST_CASE("the engine promotes, rounds, samples and computes dtypes as the captured PyTorch does") {
  const std::vector<std::filesystem::path> files = captures();
  REQUIRE_FALSE(files.empty());  // Debian's PyTorch 1.13 capture is committed
  for (const std::filesystem::path& file : files) {
    std::ifstream in(file);
    const json capture = json::parse(in);
    const std::string release = file.parent_path().filename().string();
    compare_section(capture, release, "promote_types", precision_probes::promote_types, identical);
    compare_section(capture, release, "result_type", precision_probes::result_type, identical);
    compare_section(capture, release, "rounding", precision_probes::rounding(capture["rounding"]),
                    identical);
    const bool without_mkl = !capture["about"]["mkl"].get<bool>();
    compare_section(capture, release, "samplers", precision_probes::sampler(without_mkl),
                    identical);
    compare_section(capture, release, "kernels", precision_probes::kernel,
                    precision_probes::within_one_unit);
    compare_section(capture, release, "autocast_cpu", precision_probes::autocast_cpu, identical);
    compare_section(capture, release, "texts", precision_probes::text, identical);
    compare_section(capture, release, "printing", precision_probes::printing, identical);
  }
}

TEST_CASE("every listed difference names an entry its capture has") {
  for (const std::filesystem::path& file : captures()) {
    std::ifstream in(file);
    const json capture = json::parse(in);
    const auto listed = kDifferencesByRelease.find(file.parent_path().filename().string());
    if (listed == kDifferencesByRelease.end()) continue;
    for (const auto& difference : *listed->second) {
      const std::string& pattern = difference.first;  // named, not bound: clang 14's CAPTURE
      CAPTURE(pattern);
      const std::string section = pattern.substr(0, pattern.find('/'));
      const std::string key = pattern.substr(section.size() + 1);
      bool found = false;
      for (const auto& item : capture[section].items()) {
        found =
            found || (key.back() == '*' ? item.key().rfind(key.substr(0, key.size() - 1), 0) == 0
                                        : item.key() == key);
      }
      CHECK(found);
    }
  }
}
