#include "engine/sim.h"

#include <stdexcept>
#include <string>

#include "engine/errors.h"
#include "machine/process.h"
#include "mps/fallback.h"
#include "tensor/tensor_impl.h"
#include "trace/trace.h"

namespace engine {
namespace detail {

Process& process() {
  static Process current(default_machine(), program_environment());
  return current;
}

FallbackVariable read_mps_fallback_variable(const MachineProfile& machine,
                                            const std::map<std::string, std::string>& environment) {
  const auto it = environment.find("PYTORCH_ENABLE_MPS_FALLBACK");
  if (!machine.torch_built_with_mps || it == environment.end()) return {};  // no MPS: never read
  // The same std::stoi PyTorch calls; the message is libc++'s, as macOS prints it.
  const std::string uncaught = "libc++abi: terminating due to uncaught exception of type ";
  try {
    return {.enabled = std::stoi(it->second) != 0};
  } catch (const std::invalid_argument&) {
    return {.abort_message = uncaught + "std::invalid_argument: stoi: no conversion"};
  } catch (const std::out_of_range&) {
    return {.abort_message = uncaught + "std::out_of_range: stoi: out of range"};
  }
}

}  // namespace detail

namespace sim {

const MachineProfile& machine() { return detail::process().machine; }

namespace {

// A new simulated process replaces the current one, as a new Python process would, unless it
// dies while importing torch.
// `changed`: what the new process's environment sets differently, for the trace's label.
void start_process(const MachineProfile& profile, std::map<std::string, std::string> environment,
                   const std::string& changed = "") {
  detail::Process started(profile, std::move(environment));
  if (!started.fallback_variable.abort_message.empty()) {
    throw ProcessAborted(started.fallback_variable.abort_message);
  }
  detail::process() = std::move(started);
  detail::trace_new_process(changed.empty() ? std::string(profile.name)
                                            : std::string(profile.name) + " · " + changed);
}

}  // namespace

void use_machine(const MachineProfile& profile) {
  start_process(profile, detail::program_environment());
}

void restart_with_environment(const std::map<std::string, std::optional<std::string>>& changes) {
  std::map<std::string, std::string> environment = detail::program_environment();
  std::string changed;
  for (const auto& [name, value] : changes) {
    changed += (changed.empty() ? "" : ", ") + name + (value ? "='" + *value + "'" : " unset");
    if (value) {
      environment[name] = *value;
    } else {
      environment.erase(name);
    }
  }
  start_process(MachineProfile(machine()), std::move(environment), changed);
}

std::map<std::string, std::int64_t> fallback_counts() { return detail::process().fallback_counts; }

std::vector<std::string> backend_path() { return detail::process().backend_path; }

void clear_backend_path() { detail::process().backend_path.clear(); }

std::vector<std::string> operators_without_mps_kernel() {
  std::vector<std::string> names;
  for (const detail::MissingMpsKernel& entry : detail::operators_without_mps_kernel())
    names.emplace_back(entry.op);
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
