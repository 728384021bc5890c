#pragma once
// Internal: what autocast does to one operation's inputs (aten/src/ATen/autocast_mode.h's
// cached_cast and cast policies), for the operations of the engine that PyTorch 2.9 lists.

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/device.h"
#include "engine/tensor.h"

namespace engine::detail {

// The engine's operations that appear in an autocast op list (on either device).
enum class AutocastOp : std::uint8_t {
  Matmul,
  Linear,
  Conv2d,
  ScaledDotProductAttention,
  Softmax,
  LogSoftmax,
  LayerNorm,
  BatchNorm,
  NllLoss,
  CrossEntropy,
  Sum,
  Pow,
  Cat,
};

struct Autocasted {
  DeviceType device;
  std::vector<Tensor> inputs;
};

// The inputs of `op` cast as autocast casts them, when autocast is on for the device type of the
// first defined one and `op` is on that device's list; nothing otherwise (the inputs are used as
// they are). The caller then runs the operation on these inputs under an AutocastExclusion.
std::optional<Autocasted> autocast_inputs(AutocastOp op, const std::vector<Tensor>& inputs);

// Autocast turned off for one device type while alive: the wrapper's ExcludeDispatchKeyGuard, so
// that the operation it runs, and whatever that calls, is not cast again.
class AutocastExclusion {
 public:
  explicit AutocastExclusion(DeviceType device);
  ~AutocastExclusion();
  AutocastExclusion(const AutocastExclusion&) = delete;
  AutocastExclusion& operator=(const AutocastExclusion&) = delete;

 private:
  DeviceType device_;
  bool previous_;
};

}  // namespace engine::detail
