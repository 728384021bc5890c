// Prints what ATen's Philox engine (aten/src/ATen/core/PhiloxRNGEngine.h, the engine behind
// MPSGeneratorImpl's state words) draws, as JSON, for the engine's test
// tests/engine/pytorch/mps_random_test.cpp. Header-only: built on a machine with PyTorch by
//   g++ -std=c++17 -I"$(python3 -c 'import torch.utils.cpp_extension as e; print(e.include_paths()[0])')" \
//     tests/tools/philox_reference.cpp -o philox_reference && ./philox_reference > philox.json
#include <ATen/core/PhiloxRNGEngine.h>

#include <cstdint>
#include <cstdio>

namespace {

void draws(std::uint64_t seed, std::uint64_t offset, const char* separator) {
  at::Philox4_32 engine(seed);
  engine.set_offset(offset);
  std::printf("    {\"seed\": %llu, \"offset\": %llu, \"draws\": [",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(offset));
  for (int i = 0; i < 8; ++i) std::printf("%s%u", i == 0 ? "" : ", ", engine());
  std::printf("]}%s\n", separator);
}

}  // namespace

int main() {
  std::printf("{\n  \"about\": \"at::Philox4_32(seed), set_offset(offset), then eight draws\",\n");
  std::printf("  \"cases\": [\n");
  draws(0, 0, ",");
  draws(42, 0, ",");
  draws(42, 3, ",");
  draws(0xFFFFFFFFFFFFFFFFULL, 0, "");
  std::printf("  ]\n}\n");
  return 0;
}
