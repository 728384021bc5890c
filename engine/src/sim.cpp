#include "engine/sim.h"

#include <string>

#include "engine/errors.h"
#include "process.h"
#include "runtime/trace.h"
#include "tensor_impl.h"

namespace engine {
namespace detail {

Process& process() {
  static Process current(default_machine());
  return current;
}

}  // namespace detail

namespace sim {

const MachineProfile& machine() { return detail::process().machine; }

void use_machine(const MachineProfile& profile) {
  detail::process() = detail::Process(profile);
  detail::trace_new_process();
}

void use_machine(std::string_view name) {
  const MachineProfile* profile = find_machine(name);
  if (profile == nullptr) {
    throw ValueError("unknown machine '" + std::string(name) + "'; choose one of " +
                     machine_names());
  }
  use_machine(*profile);
}

void restart() { use_machine(machine()); }

namespace {
thread_local int g_shape_only_depth = 0;
}  // namespace

ShapeOnlyGuard::ShapeOnlyGuard() { ++g_shape_only_depth; }
ShapeOnlyGuard::~ShapeOnlyGuard() { --g_shape_only_depth; }
bool shape_only_mode() { return g_shape_only_depth > 0; }
bool is_shape_only(const Tensor& t) { return t.impl().storage == nullptr; }

}  // namespace sim
}  // namespace engine
