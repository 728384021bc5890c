#pragma once
// Lab 1 · Preflight. What to check before installing PyTorch on a Mac, and the first line of a
// memory budget: Apple's requirements (Apple silicon, macOS 14.0 or later, an arm64 Python 3.10
// or later, Xcode's command-line tools)
// read from the interpreter, and the bytes of a batch. The tests run the preflight on every
// simulated machine.

#include <cstdint>
#include <string>
#include <vector>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

// True when the macOS release `release` ("15.6.1", "14", "13.10") is `major`.`minor` or newer.
// A release that is not a version ("" off macOS) is not newer than anything.
bool macos_at_least(const std::string& release, int major, int minor);

// What stops this machine from following Apple's setup for PyTorch on MPS, one line each; empty
// when nothing does. Ask the interpreter (py::platform: system(), machine(), mac_release(),
// proc_translated(), python_version(), xcode_select_path()), never the hardware alone. A line
// that is about...
//   ...not running macOS                    mentions "macOS"
//   ...an x86_64 interpreter under Rosetta  mentions "Rosetta"
//   ...any other x86_64 interpreter         mentions "x86_64"
//   ...a macOS release older than 14.0      mentions the release ("12.0")
//   ...a Python older than 3.10             mentions "Python" and its version ("Python 3.8.9")
//   ...no Xcode command-line tools          mentions "xcode-select" (the command that installs them)
std::vector<std::string> preflight_problems();

// The bytes of one batch of `shape` in `dtype`: what it costs before any copy is made.
std::int64_t batch_bytes(torch::IntArrayRef shape, torch::ScalarType dtype);

}  // namespace lab
