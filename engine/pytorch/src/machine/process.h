#pragma once
// The state of one simulated process: the machine it runs on and what PyTorch creates once per
// process. sim::restart() replaces it wholesale, as starting a new Python process would.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "amp/autocast_state.h"
#include "engine/device.h"
#include "engine/machine.h"
#include "mps/allocator.h"
#include "random/cpu_generator.h"
#include "random/mps_generator.h"
#include "random/samplers.h"

namespace engine::detail {

// The two clocks of the emulated MPS stream, in seconds since the process started.
struct Timeline {
  double host_now = 0;       // the host's clock: time.perf_counter()
  double device_free = 0;    // when the MPS queue finishes the last work queued on it
  bool uncommitted = false;  // work was encoded since the host last waited for the queue
};

// The environment this program was started with: every simulated process starts with a copy.
std::map<std::string, std::string> program_environment();

// PYTORCH_ENABLE_MPS_FALLBACK as `import torch` reads it, once, on a build with MPS
// (aten/src/ATen/mps/MPSFallback.mm): unset, or a value std::stoi reads as 0 ("0", "00",
// "0.0", " 0"), keeps the NotImplementedError; any other number turns the fallback on; text
// std::stoi cannot read ("false", "") throws out of the library's initialisation, which aborts
// the process before the script's first line.
struct FallbackVariable {
  bool enabled = false;
  std::string abort_message{};  // what the terminal shows when the import aborts; else empty
};
FallbackVariable read_mps_fallback_variable(const MachineProfile& machine,
                                            const std::map<std::string, std::string>& environment);

struct Process {
  Process(const MachineProfile& profile, std::map<std::string, std::string> env)
      : machine(profile),
        environment(std::move(env)),
        fallback_variable(read_mps_fallback_variable(machine, environment)) {}

  MachineProfile machine;  // a copy: the caller's profile need not outlive the process
  std::map<std::string, std::string> environment;  // os.environ
  FallbackVariable
      fallback_variable;         // read at start-up: later changes to the environment do not count
  bool fallback_warned = false;  // TORCH_WARN_ONCE: only the first fallback in a process warns
  bool nonleaf_grad_warned = false;  // Tensor::grad() of a non-leaf warns once (tensor.cpp)
  std::map<std::string, std::int64_t> fallback_counts;  // per operator
  // Where the work ran, in order, one entry per change: "cpu", "mps", "cpu fallback".
  std::vector<std::string> backend_path;
  int fallback_depth = 0;             // > 0 while an operator runs through the cpu fallback
  std::optional<bool> mps_available;  // torch.backends.mps.is_available() is lru_cached
  CpuGenerator cpu_generator;
  // torch.mps's own generator: manual_seed seeds it too, and drawing on mps leaves the cpu's
  // stream where it was. Its state is a Mac's; the values it draws are the emulator's
  // (mps_generator.h says how), reproducible from that state.
  MpsGenerator mps_generator;
  // The stream one random operation draws from: call once per operation, since on mps each
  // call advances the generator's offset.
  CpuGenerator& generator_for(const Device& device) {
    return device.is_mps() ? mps_generator.for_next_operation() : cpu_generator;
  }
  Timeline timeline;
  AutocastState autocast;  // torch.autocast's per-thread state: off in a fresh process
  // torch.mps.Event ids, as MPSEventPool hands them out: released ones first, last in first
  // out, then new ones counting from 1. Shared so that an event outliving its process gives
  // its id back to nothing.
  std::int64_t next_event_id = 1;
  std::shared_ptr<std::vector<std::int64_t>> released_event_ids =
      std::make_shared<std::vector<std::int64_t>>();
  // MPSGraphCache: the graphs built so far, one per op and input shapes (hashed); a process
  // starts empty.
  std::unordered_set<std::size_t> compiled_graphs;
  // The MPS caching allocator, made at the first MPS allocation as PyTorch makes it; tensors
  // hold it weakly, so a tensor that outlives its process frees nothing.
  std::shared_ptr<MpsAllocator> mps_allocator;
  // The resident memory of the DataLoader worker processes it has started and not yet ended,
  // which shares the machine's unified memory. Shared: a loader that outlives its process
  // gives back nothing.
  std::shared_ptr<std::uint64_t> worker_resident_bytes = std::make_shared<std::uint64_t>(0);
  // Whether MPS has initialised in this process (torch.backends.mps.is_available() asked, or a
  // tensor made on mps): from then on, a child forked from it is in a "bad fork"
  // (torch/csrc/mps/Module.cpp's pthread_atfork handler).
  bool mps_initialised() const { return mps_available.has_value() || mps_allocator != nullptr; }
  // While a DataLoader worker's code runs, that worker: it has no MPS context of this process.
  int running_worker = -1;
  // The environment the allocator's first start read its watermark ratios from. init_allocator
  // keeps both getenv results in function-local statics, so a start that failed over a bad
  // ratio fails the same way on every retry in this process, whatever os.environ says since.
  std::optional<std::map<std::string, std::string>> allocator_environment;

  CpuKernels cpu_kernels() const {
    if (machine.python_architecture == Architecture::Arm64) return CpuKernels::Arm64;
    return machine.cpu_has_avx2 ? CpuKernels::X86Avx2 : CpuKernels::X86Baseline;
  }
};

Process& process();
// The current process's MPS allocator, made on first use from its machine and environment.
std::shared_ptr<MpsAllocator> mps_allocator();

}  // namespace engine::detail
