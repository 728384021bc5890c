#pragma once
// Internal: the text of PyTorch's dispatcher for an operator without a kernel for MPS, where the
// build has no MPS backend at all (missing_backend.cpp says which release's it is).

#include <string_view>

namespace engine::detail {

// NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'MPS'
// backend. ... (without the "NotImplementedError: " Python puts in front)
std::string_view no_mps_kernel_for_empty();

}  // namespace engine::detail
