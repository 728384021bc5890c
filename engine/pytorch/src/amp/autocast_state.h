#pragma once
// Internal: autocast's state in one simulated process (PyTorch keeps it thread-local; the
// engine's processes have one thread). A fresh process has autocast off everywhere.

#include <map>
#include <utility>
#include <vector>

#include "engine/device.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace engine::detail {

struct AutocastState {
  std::map<DeviceType, bool> enabled;
  std::map<DeviceType, ScalarType> dtype = {{DeviceType::CPU, ScalarType::BFloat16},
                                            {DeviceType::CUDA, ScalarType::Half},
                                            {DeviceType::MPS, ScalarType::Half}};
  int nesting = 0;
  bool cache_enabled = true;
  // cached_cast's cache: a float32 weight and its cast, kept until the outermost region ends.
  std::vector<std::pair<Tensor, Tensor>> cache;
};

}  // namespace engine::detail
