#pragma once
// torch.mps (torch/mps/__init__.py): the MPS device module.

#include <cstdint>

namespace engine::mps {

// 1 when MPS is built and available, else 0: the backend has at most one device.
std::int64_t device_count();
bool is_available();

}  // namespace engine::mps
