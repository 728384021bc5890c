// torch.mps's memory functions (torch/mps/__init__.py) and the hooks behind them
// (aten/src/ATen/mps/MPSHooks.mm): each one reaches the process's caching allocator.

#include <string>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/mps.h"
#include "engine/python_format.h"
#include "machine/process.h"

namespace engine {

std::shared_ptr<detail::MpsAllocator> detail::mps_allocator() {
  Process& p = process();
  if (!p.mps_allocator) {
    if (!p.allocator_environment)
      p.allocator_environment = p.environment;  // the first start reads it
    p.mps_allocator = std::make_shared<MpsAllocator>(p.machine, *p.allocator_environment);
  }
  return p.mps_allocator;
}

namespace py::torch::mps {
namespace {

// The allocator when MPS works here; nullptr when it is built but unavailable (Metal has no
// device, and every counter reads 0); an error, as MPSHooksInterface raises, without MPS.
std::shared_ptr<detail::MpsAllocator> allocator_for(const char* hook) {
  if (!backends::mps::is_built())
    throw Error(std::string("Cannot execute ") + hook + "() without MPS backend.");
  if (!backends::mps::is_available()) return nullptr;
  return detail::mps_allocator();
}

}  // namespace

std::int64_t current_allocated_memory() {
  const auto a = allocator_for("getCurrentAllocatedMemory");
  return a ? static_cast<std::int64_t>(a->current_allocated()) : 0;
}

std::int64_t driver_allocated_memory() {
  const auto a = allocator_for("getDriverAllocatedMemory");
  return a ? static_cast<std::int64_t>(a->driver_allocated()) : 0;
}

std::int64_t recommended_max_memory() {
  const auto a = allocator_for("getRecommendedMaxMemory");
  return a ? static_cast<std::int64_t>(a->recommended_max()) : 0;
}

void empty_cache() {
  if (const auto a = allocator_for("emptyCache")) a->empty_cache();
}

void set_per_process_memory_fraction(double fraction) {
  if (fraction < 0 || fraction > 2) {
    throw ValueError("Invalid fraction value: " + py::str(fraction) + ". Allowed range: 0~2");
  }
  if (const auto a = allocator_for("setMemoryFraction")) a->set_high_watermark_ratio(fraction);
}

void reject_memory_fraction_type() {
  throw TypeError("Invalid type for fraction argument, must be `float`");
}

}  // namespace py::torch::mps
}  // namespace engine
