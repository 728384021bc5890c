#pragma once
// The conformance program is built twice: against real LibTorch (TUTOR_CONFORMANCE_LIBTORCH, on a
// machine that has it) and against the course's engine. This is all that differs between the two.

#include <exception>
#include <string>

#ifdef TUTOR_CONFORMANCE_LIBTORCH
#include <ATen/autocast_mode.h>
#include <torch/torch.h>

inline const char* kBackend = "LibTorch";
inline std::string error_text(const c10::Error& e) { return e.what_without_backtrace(); }
#else
#include <engine/engine.h>

namespace torch = engine;  // as the lessons and labs read it

inline const char* kBackend = "the course engine";
inline std::string error_text(const engine::Error& e) { return e.what(); }
// LibTorch runs on the computer it is on: a Linux box without MPS, which is the engine's
// linux-x86_64 machine (PyTorch's Linux wheel, AVX2 kernels).
inline const bool kOnLinux = (engine::sim::use_machine("linux-x86_64"), true);
#endif
