#pragma once
// Which PyTorch release the engine reproduces. Availability rules, error texts and defaults
// follow this release; where a newer or older release differs, the lesson says so.

#include <string_view>

namespace engine {

// The seed lesson cites the PyTorch 2.9 documentation (docs.pytorch.org/docs/2.9).
inline constexpr std::string_view kEmulatedPyTorchVersion = "2.9";

}  // namespace engine
