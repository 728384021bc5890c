#pragma once
// Helpers shared by the engine's tests.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/notebook/doctest_printing.h"  // failed CHECKs show devices, shapes, dtypes
#include "engine/sim.h"
#include "engine/tensor.h"

namespace test_support {

// The message of the engine error `action` raises, or "no error": the tests compare it with
// PyTorch's exact text.
template <typename Action>
std::string error_of(const Action& action) {
  try {
    action();
  } catch (const engine::Error& e) {
    return e.what();
  }
  return "no error";
}

// A file in the temporary directory that no other run of these tests uses: CTest runs this
// program's cases one at a time and, for its peak-memory test, all of them at once.
inline std::filesystem::path scratch_file(const std::string& name) {
  return std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name);
}

// What the engine writes to std::cerr (its warnings) while this is alive.
// Traces from here to the end of the scope, then drops the recording: the test cases after it
// in the same program would otherwise record (and pay for) every span of their own.
class Tracing {
 public:
  Tracing() { engine::sim::start_tracing(); }
  ~Tracing() { engine::sim::stop_tracing(); }
  Tracing(const Tracing&) = delete;
  Tracing& operator=(const Tracing&) = delete;
};

class CaptureStderr {
 public:
  CaptureStderr() : old_(std::cerr.rdbuf(text_.rdbuf())) {}
  ~CaptureStderr() { std::cerr.rdbuf(old_); }
  CaptureStderr(const CaptureStderr&) = delete;
  CaptureStderr& operator=(const CaptureStderr&) = delete;
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* old_;
};

// A float tensor's values, in order.
inline std::vector<float> values(const engine::Tensor& t) { return t.to_vector<float>(); }

// Reference values written by the tests/tools/make_torch_*_reference.py scripts: lines of
// "SEED NAME VALUE...", with "#" comments. Empty when the file cannot be read.
using ReferenceValues = std::map<int, std::map<std::string, std::vector<double>>>;
inline ReferenceValues load_reference(const std::string& path) {
  std::ifstream in(path);
  ReferenceValues all;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int seed = 0;
    std::string name;
    fields >> seed >> name;
    for (double v = 0; fields >> v;) all[seed][name].push_back(v);
  }
  return all;
}

}  // namespace test_support
