// The engine's CPU generator against values that real PyTorch produced (tests/data,
// written by tests/tools/make_torch_rng_reference.py), bit for bit, for both of PyTorch's
// normal-sampling kernels.

#include "engine/random.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/sim.h"

namespace {

struct RngReference {
  std::string kernel, op, seed;
  std::vector<std::int64_t> shape;
  std::vector<std::uint32_t> bits;
};

std::vector<RngReference> load_rng_reference() {
  std::ifstream in(TUTOR_TEST_DATA_DIR "/torch_cpu_rng.txt");
  REQUIRE(in);
  std::vector<RngReference> all;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    RngReference r;
    std::string shape, hex;
    fields >> r.kernel >> r.op >> r.seed >> shape;
    std::istringstream dims(shape);
    for (std::string dim; std::getline(dims, dim, ',');) r.shape.push_back(std::stoll(dim));
    while (fields >> hex)
      r.bits.push_back(static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16)));
    all.push_back(r);
  }
  REQUIRE(all.size() > 100);
  return all;
}

// The x86 Linux box runs PyTorch's AVX2 kernels; x86 code under Rosetta 2 has no AVX and runs
// the baseline ("default" capability) kernels the reference recorded as "portable".
const char* machine_for(const std::string& kernel) {
  return kernel == "avx2" ? "linux-x86_64" : "rosetta-x86_64";
}

std::vector<float> produce(const RngReference& r) {
  engine::sim::use_machine(machine_for(r.kernel));
  engine::manual_seed(std::stoull(r.seed));
  if (r.op == "randn") return engine::randn(r.shape).to_vector<float>();
  if (r.op == "rand") return engine::rand(r.shape).to_vector<float>();
  engine::nn::Linear layer(r.shape[0], r.shape[1]);
  std::vector<float> out = layer->weight.to_vector<float>();
  const std::vector<float> bias = layer->bias.to_vector<float>();
  out.insert(out.end(), bias.begin(), bias.end());
  return out;
}

}  // namespace

// PyTorch's AVX2 sampler and its double Box-Muller (fewer than 16 values) compute with basic
// operations only, and the engine reproduces them bit for bit. Its portable sampler calls the C
// library's float log, sin and cos, whose last bits differ between C libraries (the reference
// is glibc's; a Mac's is Apple's); the engine computes them correctly rounded, the same on
// every host, so a few of those values differ from glibc's by a unit or two in the last place.
TEST_CASE("randn, rand and Linear's initialisation reproduce PyTorch's CPU generator bit for bit") {
  int compared = 0, portable_compared = 0, portable_differ = 0;
  for (const RngReference& r : load_rng_reference()) {
    CAPTURE(r.kernel);
    CAPTURE(r.op);
    CAPTURE(r.seed);
    CAPTURE(r.shape.size());
    const std::vector<float> produced = produce(r);
    REQUIRE(produced.size() >= r.bits.size());
    const bool through_c_library = r.kernel == "portable" && r.op == "randn" && r.bits.size() >= 16;
    for (std::size_t i = 0; i < r.bits.size(); ++i) {
      CAPTURE(i);
      const auto bits = static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(produced[i]));
      ++compared;
      if (!through_c_library) {
        REQUIRE(bits == r.bits[i]);
        continue;
      }
      ++portable_compared;
      REQUIRE(std::abs(bits - static_cast<std::int64_t>(r.bits[i])) <= 2);
      portable_differ += bits != r.bits[i] ? 1 : 0;
    }
  }
  CHECK(compared > 10000);
  CHECK(portable_compared > 5000);
  CHECK(portable_differ * 50 < portable_compared);  // under 2 %: 84 of 6,244 today
}

TEST_CASE("a fresh process seeds its generator at random, and manual_seed overrides it") {
  engine::sim::restart();
  const std::uint64_t first = engine::initial_seed();
  engine::sim::restart();
  const std::uint64_t second = engine::initial_seed();
  CHECK(first != second);       // 53 random bits each: equal once in 2^53 runs
  CHECK(first < (1ULL << 53));  // the seed fits a Python float, as in PyTorch
  engine::manual_seed(7);
  CHECK(engine::initial_seed() == 7);
}

TEST_CASE("manual_seed discards the cached second half of a Box-Muller pair") {
  engine::sim::restart();
  engine::manual_seed(3);
  const float first = engine::randn({1}).to_vector<float>()[0];  // caches its partner value
  engine::manual_seed(3);
  CHECK(engine::randn({1}).to_vector<float>()[0] == first);
}

TEST_CASE("the two kernels agree below 16 values and differ from 16 on") {
  auto sample = [](const char* machine, std::int64_t n) {
    engine::sim::use_machine(machine);
    engine::manual_seed(0);
    return engine::randn({n}).to_vector<float>();
  };
  CHECK(sample("linux-x86_64", 15) == sample("m3-max-64gb", 15));
  CHECK(sample("linux-x86_64", 1000) != sample("m3-max-64gb", 1000));
  CHECK(sample("rosetta-x86_64", 1000) == sample("m3-max-64gb", 1000));  // same portable sampler
}

TEST_CASE(
    "mps draws from a generator of its own: manual_seed seeds it, and the cpu's stream stays put") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(0);
  const std::vector<float> first = engine::randn({3}).to_vector<float>();
  engine::manual_seed(0);
  const engine::Tensor on_mps = engine::randn({3}, engine::Device("mps"));
  engine::nn::functional::dropout(engine::ones({8}, engine::Device("mps")),
                                  engine::nn::functional::DropoutFuncOptions().p(0.5));
  CHECK(engine::randn({3}).to_vector<float>() == first);  // as if nothing had been drawn on mps
  engine::manual_seed(0);
  CHECK(engine::randn({3}, engine::Device("mps")).cpu().to_vector<float>() ==
        on_mps.cpu().to_vector<float>());
}

TEST_CASE("a seeded cpu dropout keeps the elements PyTorch keeps, scaled as its div_ scales them") {
  engine::sim::use_machine("m3-max-64gb");
  namespace F = engine::nn::functional;
  // Debian's PyTorch 1.13 (no MKL, as on a Mac): torch.manual_seed(0); F.dropout(torch.ones(12), 0.3)
  engine::manual_seed(0);
  const float kept = 1.0f / 0.7f;  // 1.4285714626312256 in float32
  CHECK(F::dropout(engine::ones({12}), F::DropoutFuncOptions().p(0.3)).to_vector<float>() ==
        std::vector<float>{0, 0, kept, 0, kept, 0, kept, kept, kept, kept, kept, kept});
  // torch.manual_seed(7); F.dropout(torch.ones(10), 0.5)
  engine::manual_seed(7);
  CHECK(F::dropout(engine::ones({10}), F::DropoutFuncOptions().p(0.5)).to_vector<float>() ==
        std::vector<float>{2, 2, 0, 0, 0, 0, 2, 0, 0, 0});
}
