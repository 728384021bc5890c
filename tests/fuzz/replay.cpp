// Replays inputs through a fuzz target without libFuzzer, so that every committed input (the
// seed corpus and each crash ever found) runs in the normal test suite with any compiler:
//   fuzz_replay_<target> FILE_OR_DIRECTORY...

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      // Its files and its folders' (a lesson in sections is a folder), as libFuzzer reads one.
      for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i])) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else {
      inputs.emplace_back(argv[i]);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const std::filesystem::path& input : inputs) {
    std::ifstream in(input, std::ios::binary);
    if (!in) {
      std::cerr << "cannot read " << input.string() << '\n';
      return 1;
    }
    const std::string data{std::istreambuf_iterator<char>(in), {}};
    std::cout << input.string() << " (" << data.size() << " bytes)\n"
              << std::flush;  // names the input of a crash
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  std::cout << inputs.size() << " inputs replayed\n";
  return inputs.empty() ? 1 : 0;
}
