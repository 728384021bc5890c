#pragma once
// Python's os.environ for the simulated process. A simulated process starts with a copy of this
// program's real environment, so `PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.7 build/lessons/lesson06_2`
// behaves as it would for a Python script; setenv() changes only the simulated process, as
// `os.environ[name] = value` does before PyTorch reads the variable.

#include <optional>
#include <string>

namespace engine::py::os {

std::optional<std::string> getenv(const std::string& name);
void setenv(const std::string& name, const std::string& value);
void unsetenv(const std::string& name);

}  // namespace engine::py::os
