#pragma once
// torch.mps (torch/mps/__init__.py, torch/mps/event.py): the MPS device module, split as LibTorch
// splits it: what its C++ API has, in engine::mps (torch::mps), and the rest, Python's alone, in
// engine::py::torch::mps.

#include <concepts>
#include <cstdint>
#include <memory>

#include "engine/tensor.h"

// LibTorch's torch::mps (torch/csrc/api/include/torch/mps.h): what C++ can ask of the device.
namespace engine::mps {

bool is_available();
// Waits until every kernel queued on the MPS device has finished: the host catches up with the
// device. "Cannot execute deviceSynchronize() without MPS backend." on a build without MPS.
void synchronize();

}  // namespace engine::mps

// The rest of Python's torch.mps, which LibTorch's C++ API does not have: py::torch::mps.
namespace engine::py::torch::mps {

// 1 when MPS is built and available, else 0: the backend has at most one device.
std::int64_t device_count();
// The caching allocator's counters: bytes held by live mps tensors (rounded up to whole
// buffers); everything Metal has allocated for the process (the allocator's heaps, cached free
// buffers included, plus MPS's own); and the GPU's recommended working set, the unit of the
// allocator's limits. A machine whose MPS is built but unavailable reports 0.
std::int64_t current_allocated_memory();
std::int64_t driver_allocated_memory();
std::int64_t recommended_max_memory();
// Waits for the device, then returns the cached, unused buffers to the system. Live tensors
// keep their memory.
void empty_cache();
// Caps the process's MPS memory at `fraction` x recommended_max_memory() (the high watermark;
// 0 removes the cap). ValueError outside 0 to 2. Python accepts only a float here, so an
// integer argument is a TypeError, as set_per_process_memory_fraction(1) is in Python.
void set_per_process_memory_fraction(double fraction);
[[noreturn]] void reject_memory_fraction_type();
template <std::integral T>
void set_per_process_memory_fraction(T) {
  reject_memory_fraction_type();
}

// torch.mps's random numbers (torch/mps/__init__.py over MPSGeneratorImpl): the default mps
// generator's state is 44 bytes in a cpu uint8 tensor (seven 32-bit Philox words, the seed and
// the offset, the count of random operations since seeding); set_rng_state restores it, so the
// random operations after it draw what they drew after get_rng_state. manual_seed seeds only
// mps (and does nothing in a build without MPS, as Python's does); seed() seeds it at random.
// The values drawn are the emulator's, not a Mac's (engine/pytorch/README.md, random/).
Tensor get_rng_state();
void set_rng_state(const Tensor& new_state);
void manual_seed(std::uint64_t seed);
void seed();

// torch.mps.Event: a marker in the MPS stream. record() places it behind the work queued so
// far; query() says whether that work has finished (False if never recorded); synchronize()
// makes the host wait for it; elapsed_time() gives the milliseconds between two timed events,
// after waiting for the device.
// Copies share one event, as Python names share one object. Ids come from the process's pool
// as MPSEventPool hands them out: a released event's id is the next one acquired.
class Event {
 public:
  explicit Event(bool enable_timing = false);
  void record();
  // Later work on the stream waits for the event; with one stream, order already does.
  void wait();
  bool query() const;
  void synchronize();
  double elapsed_time(const Event& end) const;
  std::int64_t id() const noexcept;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace engine::py::torch::mps
