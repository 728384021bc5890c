// torch.mps's random-number API: the default mps generator's state as MPSGeneratorImpl lays it
// out, its Philox words against ATen's own Philox engine (tests/data/pytorch-2.11/philox.json,
// written by tests/tools/philox_reference.cpp), and a run resumed from saved state.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/random.h"
#include "random/mps_generator.h"
#include "test_support.h"

namespace {

namespace mps = engine::py::torch::mps;
using engine::Device;

std::vector<std::uint8_t> state_bytes() { return mps::get_rng_state().to_vector<std::uint8_t>(); }

std::uint64_t little_endian(const std::vector<std::uint8_t>& bytes, std::size_t at,
                            std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = count; i-- > 0;) value = value << 8 | bytes[at + i];
  return value;
}

std::uint32_t word(const std::vector<std::uint8_t>& bytes, std::size_t index) {
  return static_cast<std::uint32_t>(little_endian(bytes, 4 * index, 4));
}

std::vector<float> mps_values(const engine::Tensor& t) { return t.cpu().to_vector<float>(); }

}  // namespace

TEST_CASE("the engine's Philox engine draws what ATen's at::Philox4_32 draws") {
  std::ifstream in(TUTOR_TEST_DATA_DIR "/pytorch-2.11/philox.json");
  REQUIRE(in);
  const nlohmann::json reference = nlohmann::json::parse(in);
  int compared = 0;
  for (const nlohmann::json& c : reference["cases"]) {
    const auto seed = c["seed"].get<std::uint64_t>(), offset = c["offset"].get<std::uint64_t>();
    CAPTURE(seed);
    CAPTURE(offset);
    engine::detail::Philox4x32 philox(seed);
    philox.set_offset(offset);
    std::vector<std::uint32_t> drawn;
    for (int i = 0; i < 8; ++i) drawn.push_back(philox());
    CHECK(drawn == c["draws"].get<std::vector<std::uint32_t>>());
    ++compared;
  }
  CHECK(compared == 4);
}

TEST_CASE("the mps generator's state is 44 bytes: Philox words, the seed and the offset") {
  engine::sim::use_machine("m3-max-64gb");
  mps::manual_seed(42);
  const engine::Tensor state = mps::get_rng_state();
  CHECK(state.numel() == 44);
  CHECK(state.scalar_type() == engine::kUInt8);
  CHECK(state.is_cpu());
  std::vector<std::uint8_t> bytes = state.to_vector<std::uint8_t>();
  // set_current_seed: every word 1 but for the key, the seed's two halves, in words 5 and 6.
  CHECK(std::vector<std::uint32_t>{word(bytes, 0), word(bytes, 1), word(bytes, 4), word(bytes, 5),
                                   word(bytes, 6)} == std::vector<std::uint32_t>{1, 1, 1, 42, 0});
  CHECK(little_endian(bytes, 28, 8) == 42);
  CHECK(little_endian(bytes, 36, 8) == 0);
  // One random operation: words 1 to 4 from the Philox engine, one block further on.
  engine::randn({3}, Device("mps"));
  bytes = state_bytes();
  engine::detail::Philox4x32 philox(42);
  for (std::size_t i = 1; i <= 4; ++i) CHECK(word(bytes, i) == philox());
  CHECK(little_endian(bytes, 36, 8) == 1);
  engine::nn::functional::dropout(engine::ones({8}, Device("mps")),
                                  engine::nn::functional::DropoutFuncOptions().p(0.5));
  CHECK(little_endian(state_bytes(), 36, 8) == 2);
  // torch.manual_seed seeds mps too; drawing on the cpu leaves mps's state alone.
  engine::manual_seed(7);
  engine::randn({3});
  CHECK(little_endian(state_bytes(), 28, 8) == 7);
  CHECK(little_endian(state_bytes(), 36, 8) == 0);
}

TEST_CASE("set_rng_state resumes the draws that followed get_rng_state, dropout's included") {
  engine::sim::use_machine("m3-max-64gb");
  namespace F = engine::nn::functional;
  mps::manual_seed(3);
  const std::vector<float> first = mps_values(engine::randn({5}, Device("mps")));
  const engine::Tensor saved = mps::get_rng_state();
  const std::vector<float> normal = mps_values(engine::randn({5}, Device("mps")));
  const std::vector<float> mask =
      mps_values(F::dropout(engine::ones({16}, Device("mps")), F::DropoutFuncOptions().p(0.5)));
  mps::seed();  // anything in between: another seed, other draws
  engine::rand({9}, engine::TensorOptions().device(Device("mps")));
  mps::set_rng_state(saved);
  CHECK(state_bytes() == saved.to_vector<std::uint8_t>());
  CHECK(mps_values(engine::randn({5}, Device("mps"))) == normal);
  CHECK(mps_values(F::dropout(engine::ones({16}, Device("mps")), F::DropoutFuncOptions().p(0.5))) ==
        mask);
  CHECK(normal != first);  // each operation draws afresh
  mps::manual_seed(3);
  CHECK(mps_values(engine::randn({5}, Device("mps"))) == first);
}

TEST_CASE("seed() draws a seed at random; a build without MPS has no mps generator") {
  engine::sim::use_machine("m3-max-64gb");
  mps::manual_seed(5);
  mps::seed();
  CHECK(little_endian(state_bytes(), 28, 8) != 5);
  engine::sim::use_machine("linux-x86_64");
  CHECK(test_support::error_of([] { mps::get_rng_state(); }) ==
        "Cannot execute getDefaultGenerator() without MPS backend.");
  CHECK(test_support::error_of([] { mps::manual_seed(1); }) == "no error");
}

TEST_CASE("set_rng_state refuses what is not a cpu tensor of 44 bytes, with PyTorch's texts") {
  engine::sim::use_machine("m3-max-64gb");
  mps::manual_seed(11);
  const std::vector<std::uint8_t> before = state_bytes();
  CHECK(test_support::error_of([] { mps::set_rng_state(engine::zeros({44})); }) ==
        "RNG state must be a torch.ByteTensor");
  CHECK(test_support::error_of([] {
          mps::set_rng_state(
              engine::zeros({44}, engine::TensorOptions(engine::kUInt8).device(Device("mps"))));
        }) == "RNG state must be a torch.ByteTensor");
  CHECK(test_support::error_of([] { mps::set_rng_state(engine::zeros({43}, engine::kUInt8)); }) ==
        "RNG state is wrong size");
  CHECK(state_bytes() == before);  // a refused state changes nothing
}
