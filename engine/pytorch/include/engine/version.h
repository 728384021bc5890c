#pragma once
// Which PyTorch release the engine reproduces. Availability rules, error texts and defaults
// follow this release; where a newer or older release differs, the lesson says so.

#include <string_view>

namespace engine {

// The seed lesson cites the PyTorch 2.9 documentation (docs.pytorch.org/docs/2.9).
inline constexpr std::string_view kEmulatedPyTorchVersion = "2.9";
// torch.version.git_version of the 2.9.0 wheels: the "commit hash" PyTorch's own messages
// quote (at::GetBuildOptions()'s COMMIT_SHA).
inline constexpr std::string_view kEmulatedPyTorchCommit =
    "0fabc3ba44823f257e70ce397d989c8de5e362c1";

}  // namespace engine
