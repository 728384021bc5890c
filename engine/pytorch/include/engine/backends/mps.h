#pragma once
// torch.backends.mps (torch/backends/mps/__init__.py), which LibTorch's C++ API does not have
// (py::torch::backends::mps): two different questions.
// is_built():     was this PyTorch compiled with MPS? A property of the wheel.
// is_available(): can this process use an MPS device right now? Needs the build, macOS at or
//                 above the release's minimum, and a Metal 2 GPU that is not low-power. Like
//                 PyTorch's (an lru_cache), the answer is computed once per process.

namespace engine::py::torch::backends::mps {

bool is_built();
bool is_available();
// True when the OS is macOS major.minor or newer.
bool is_macos_or_newer(int major, int minor);

}  // namespace engine::py::torch::backends::mps
