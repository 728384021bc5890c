#include "engine/notebook/closest_machine.h"

#include <cmath>
#include <limits>
#include <tuple>

#include "engine/backends/mps.h"
#include "engine/sim.h"

namespace engine::notebook {
namespace {

struct Availability {
  bool built = false;
  bool available = false;
  bool operator==(const Availability&) const = default;
};

// What the engine's own rules answer on `machine`: is_built() and is_available(). A process
// that dies at start-up (a bad PYTORCH_ENABLE_MPS_FALLBACK on a Mac) cannot use MPS.
Availability availability_on(const MachineProfile& machine) {
  try {
    sim::use_machine(machine);
  } catch (const sim::ProcessAborted&) {
    return {machine.torch_built_with_mps, false};
  }
  return {py::torch::backends::mps::is_built(), py::torch::backends::mps::is_available()};
}

// Smaller is closer; tuples compare feature by feature, the most telling first.
auto distance(const MachineProfile& a, Availability a_mps, const MachineProfile& b,
              Availability b_mps) {
  const double memory_ratio = a.memory_bytes > 0 && b.memory_bytes > 0
                                  ? std::abs(std::log2(static_cast<double>(a.memory_bytes) /
                                                       static_cast<double>(b.memory_bytes)))
                                  : std::numeric_limits<double>::infinity();
  return std::tuple(a.os != b.os, a.cpu_architecture != b.cpu_architecture,
                    a.python_architecture != b.python_architecture, !(a_mps == b_mps),
                    memory_ratio);
}

}  // namespace

const MachineProfile& closest_machine(const MachineProfile& computer,
                                      std::span<const MachineProfile* const> candidates) {
  const Availability computer_mps = availability_on(computer);
  const MachineProfile* best = nullptr;
  decltype(distance(computer, computer_mps, computer, computer_mps)) best_distance{};
  for (const MachineProfile* candidate : candidates) {
    if (candidate == &computer) continue;
    const auto d = distance(computer, computer_mps, *candidate, availability_on(*candidate));
    if (best == nullptr || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  availability_on(computer);  // the simulated process runs on `computer` again
  return *best;
}

}  // namespace engine::notebook
