// at::autocast's state functions (aten/src/ATen/autocast_mode.cpp) and Python's context manager
// (torch/amp/autocast_mode.py, torch.autocast's __init__, __enter__ and __exit__).

#include "engine/autocast.h"

#include <iostream>
#include <string>

#include "engine/errors.h"
#include "machine/process.h"

namespace engine {

namespace autocast {

bool is_autocast_enabled(DeviceType device_type) {
  return detail::process().autocast.enabled[device_type];
}

void set_autocast_enabled(DeviceType device_type, bool enabled) {
  detail::process().autocast.enabled[device_type] = enabled;
}

ScalarType get_autocast_dtype(DeviceType device_type) {
  const auto& dtypes = detail::process().autocast.dtype;
  const auto it = dtypes.find(device_type);
  return it == dtypes.end() ? ScalarType::Float : it->second;
}

void set_autocast_dtype(DeviceType device_type, ScalarType dtype) {
  detail::process().autocast.dtype[device_type] = dtype;
}

bool is_autocast_cache_enabled() { return detail::process().autocast.cache_enabled; }

void set_autocast_cache_enabled(bool enabled) {
  detail::process().autocast.cache_enabled = enabled;
}

void clear_cache() { detail::process().autocast.cache.clear(); }

int increment_nesting() { return ++detail::process().autocast.nesting; }

int decrement_nesting() { return --detail::process().autocast.nesting; }

}  // namespace autocast

namespace py::torch {
namespace {

// torch._C._is_autocast_available: the device types with an autocast dispatch key.
DeviceType autocast_device(std::string_view device_type) {
  if (device_type == "cpu") return DeviceType::CPU;
  if (device_type == "mps") return DeviceType::MPS;
  if (device_type == "cuda") return DeviceType::CUDA;
  throw Error("User specified an unsupported autocast device_type '" + std::string(device_type) +
              "'");
}

// warnings.warn, shown as Python shows a UserWarning.
void warn(const std::string& message) { std::cerr << "UserWarning: " << message << '\n'; }

// torch.autocast.__init__'s checks of `enabled`: a device without the hardware, or a dtype
// other than the two lower precisions, turns autocast off with a warning.
bool checked_enabled(DeviceType device, ScalarType dtype, bool enabled) {
  if (!enabled) return false;
  if (device == DeviceType::CUDA) {  // no machine of the course has CUDA
    warn("CUDA is not available or torch_xla is imported. Disabling autocast.");
    return false;
  }
  if (dtype == ScalarType::BFloat16 || dtype == ScalarType::Half) return true;
  const std::string name = device == DeviceType::MPS ? "MPS" : "CPU";
  warn("In " + name + " autocast, but the target dtype is not supported. Disabling autocast.\n" +
       name + " Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.");
  return false;
}

}  // namespace

autocast::autocast(std::string_view device_type, std::optional<ScalarType> dtype, bool enabled,
                   std::optional<bool> cache_enabled)
    : device_(autocast_device(device_type)),
      fast_dtype_(dtype.value_or(engine::autocast::get_autocast_dtype(device_))),
      enabled_(checked_enabled(device_, fast_dtype_, enabled)),
      cache_enabled_(cache_enabled.value_or(engine::autocast::is_autocast_cache_enabled())) {
  previous_cache_enabled_ = engine::autocast::is_autocast_cache_enabled();
  previous_enabled_ = engine::autocast::is_autocast_enabled(device_);
  previous_dtype_ = engine::autocast::get_autocast_dtype(device_);
  engine::autocast::set_autocast_enabled(device_, enabled_);
  engine::autocast::set_autocast_dtype(device_, fast_dtype_);
  engine::autocast::increment_nesting();
  engine::autocast::set_autocast_cache_enabled(cache_enabled_);
}

// __exit__: the cache is dropped on leaving the outermost region.
autocast::~autocast() {
  if (engine::autocast::decrement_nesting() == 0) engine::autocast::clear_cache();
  engine::autocast::set_autocast_enabled(device_, previous_enabled_);
  engine::autocast::set_autocast_dtype(device_, previous_dtype_);
  engine::autocast::set_autocast_cache_enabled(previous_cache_enabled_);
}

}  // namespace py::torch
}  // namespace engine
