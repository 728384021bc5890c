#pragma once
// The engine's exceptions mirror c10's (c10/util/Exception.h): Error for what Python shows as
// RuntimeError, and subclasses for the other Python exception types PyTorch raises. Each one
// knows its Python name, so a lesson can print exactly the line a learner sees from real
// PyTorch: "RuntimeError: PyTorch is not linked with support for mps devices".

#include <stdexcept>
#include <string>
#include <string_view>

namespace engine {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  virtual std::string_view python_type() const noexcept { return "RuntimeError"; }
};

class ValueError : public Error {
 public:
  using Error::Error;
  std::string_view python_type() const noexcept override { return "ValueError"; }
};

class TypeError : public Error {
 public:
  using Error::Error;
  std::string_view python_type() const noexcept override { return "TypeError"; }
};

// TORCH_CHECK_NOT_IMPLEMENTED: an operator without a kernel for the device.
class NotImplementedError : public Error {
 public:
  using Error::Error;
  std::string_view python_type() const noexcept override { return "NotImplementedError"; }
};

class IndexError : public Error {
 public:
  using Error::Error;
  std::string_view python_type() const noexcept override { return "IndexError"; }
};

// c10::SyntaxError: Metal's compiler rejected the source given to torch.mps.compile_shader.
class SyntaxError : public Error {
 public:
  using Error::Error;
  std::string_view python_type() const noexcept override { return "SyntaxError"; }
};

// Python-side checks such as torch.cuda's "Torch not compiled with CUDA enabled".
class AssertionError : public Error {
 public:
  using Error::Error;
  std::string_view python_type() const noexcept override { return "AssertionError"; }
};

namespace py {
// "RuntimeError: ...", the line Python's traceback.format_exception_only(e) ends with (without
// its newline): the last line of a traceback.
std::string format_exception_only(const Error& error);
}  // namespace py

}  // namespace engine
