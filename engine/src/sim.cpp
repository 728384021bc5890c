#include "engine/sim.h"

#include <string>

#include "engine/errors.h"
#include "process.h"
#include "runtime/fallback.h"
#include "runtime/trace.h"
#include "tensor_impl.h"

namespace engine {
namespace detail {

Process& process() {
  static Process current(default_machine(), program_environment());
  return current;
}

bool mps_fallback_enabled(const std::map<std::string, std::string>& environment) {
  const auto it = environment.find("PYTORCH_ENABLE_MPS_FALLBACK");
  return it != environment.end() && it->second != "0";
}

}  // namespace detail

namespace sim {

const MachineProfile& machine() { return detail::process().machine; }

namespace {

// A new simulated process replaces the current one, as a new Python process would.
void start_process(const MachineProfile& profile, std::map<std::string, std::string> environment) {
  detail::process() = detail::Process(profile, std::move(environment));
  detail::trace_new_process();
}

}  // namespace

void use_machine(const MachineProfile& profile) { start_process(profile, detail::program_environment()); }

void restart_with_environment(const std::map<std::string, std::string>& changes) {
  std::map<std::string, std::string> environment = detail::program_environment();
  for (const auto& [name, value] : changes) environment[name] = value;
  start_process(MachineProfile(machine()), std::move(environment));
}

std::map<std::string, std::int64_t> fallback_counts() { return detail::process().fallback_counts; }

std::vector<std::string> backend_path() { return detail::process().backend_path; }

void clear_backend_path() { detail::process().backend_path.clear(); }

std::vector<std::string> operators_without_mps_kernel() {
  std::vector<std::string> names;
  for (const detail::MissingMpsKernel& entry : detail::operators_without_mps_kernel()) names.emplace_back(entry.op);
  return names;
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
