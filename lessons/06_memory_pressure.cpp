// %% [markdown]
// # Lesson 6 · Memory pressure on Apple GPUs
//
// A training step needs more memory than its model's weights: the batch, the activations the
// forward pass keeps for the backward pass, one gradient per parameter, the optimizer's state
// and the temporary tensors in between. On an NVIDIA card all of that must fit in the card's
// own memory. On Apple silicon there is no separate video memory: the GPU allocates from the
// same memory as macOS, your browser and your editor. A run can use more than a card of the
// same price would offer, but it competes with everything else on the machine, and when the
// total no longer fits, macOS starts moving memory to the SSD.
//
// PyTorch's MPS backend manages that memory with a **caching allocator**. It asks Metal for
// large blocks (heaps) and carves tensors' buffers out of them; when a tensor dies, its buffer
// stays cached for the next tensor of a similar size instead of going back to the system.
// Three counters let you watch it:
//
// | call | what it counts |
// |---|---|
// | `torch.mps.current_allocated_memory()` | bytes held by live tensors |
// | `torch.mps.driver_allocated_memory()` | everything Metal has allocated for the process: the allocator's heaps, cached buffers included, plus MPS's own |
// | `torch.mps.recommended_max_memory()` | the GPU's recommended working set, which the allocator's limits are multiples of |
//
// and `torch.mps.empty_cache()` hands the cached, unused buffers back to the system.
//
// **What the emulator models.** The allocator follows PyTorch's own algorithm (heap sizes,
// best-fit reuse of cached buffers, the watermarks, garbage collection and the out-of-memory
// error, with PyTorch's texts). Two details are assumptions: buffers are rounded up to whole
// 16 KiB pages, and MPS's own allocations are a fixed 384 KiB. Memory used by cpu tensors is not
// counted against the machine. Large tensors in this lesson are shape-only (lesson 5): the
// simulated Mac holds their gigabytes, this computer does not.

// %%
#include <cstdint>
#include <string>
#include <vector>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // py::tuple, py::str: values shown the way Python prints them
namespace F = engine::nn::functional;

torch::Device best_device() {
  return torch::mps::is_available() ? torch::Device("mps") : torch::Device("cpu");
}

// Bytes in the unit that reads best: "12.00 MiB", "32.00 KiB", "6.00 GiB".
std::string size_text(std::int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes >= (1LL << 30)) return fmt::format("{:.2f} GiB", b / (1LL << 30));
  if (bytes >= (1LL << 20)) return fmt::format("{:.2f} MiB", b / (1LL << 20));
  return fmt::format("{:.2f} KiB", b / (1LL << 10));
}

// %% [markdown]
// ## The bill of one training step
//
// The ticket classifier of lesson 3, trained with Adam: read `current_allocated_memory()`
// after each phase of one step.

// %% memory_bill
TUTOR_CELL("the memory of a training step grows with the batch, the activations, the gradients and the optimizer") {
  if (!torch::mps::is_available()) {
    print("no mps device here: the allocator's counters need an available mps device");
    return;
  }
  const torch::Device device("mps");
  std::int64_t previous = torch::mps::current_allocated_memory();
  auto in_use = [&previous](const char* after) {
    const std::int64_t now = torch::mps::current_allocated_memory();
    const std::int64_t change = now - previous;
    print(fmt::format("{:<24} {:>10} in use, {}{}", after, size_text(now), change < 0 ? "-" : "+",
                      size_text(change < 0 ? -change : change)));
    previous = now;
  };
  torch::nn::Linear model(768, 3);
  model->to(device);
  in_use("model moved:");
  const auto batch = torch::randn({32, 128, 768}).to(device);
  const auto labels = torch::zeros({32}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  in_use("batch and labels moved:");
  torch::optim::Adam optimizer(model->parameters());
  const auto loss = F::cross_entropy(model(batch.mean({1})), labels);
  in_use("forward pass:");
  loss.backward();
  in_use("backward pass:");
  optimizer.step();
  in_use("optimizer step:");
}
// %% [output]
// model moved:              32.00 KiB in use, +32.00 KiB
// batch and labels moved:   12.05 MiB in use, +12.02 MiB
// forward pass:             12.19 MiB in use, +144.00 KiB
// backward pass:            12.09 MiB in use, -96.00 KiB
// optimizer step:           12.31 MiB in use, +224.00 KiB
// %% [output] machine="intel-mac-macos12.0,linux-x86_64,rosetta-x86_64"
// no mps device here: the allocator's counters need an available mps device

// %% [markdown]
// Read it as a bill. The weights are two tiny tensors (9 KiB and 12 bytes), but each buffer
// takes at least one 16 KiB page. The batch is the bulk: 32 × 128 × 768 floats are 12 MiB, plus
// a page for the labels. The forward pass adds what autograd keeps for the backward pass (the
// averaged reports, the logits' log-probabilities) and the loss; the backward pass frees what
// autograd kept and adds one gradient per parameter; Adam's first step adds two running
// averages per parameter, twice the weights again, yet the counter grows by more: the allocator
// serves each request from the smallest cached buffer that fits, and once the 16 KiB ones are
// taken, the bias's two 12-byte averages land in 96 KiB buffers the backward pass had freed.
// The counter counts whole buffers. For this model the batch dominates. For the encoder of
// lesson 5, with 42 million parameters, weights, gradients and Adam's state alone are
// 4 × 162 MiB, before a single activation.
//
// ## The counters, `del` and `empty_cache()`
//
// The course's listing for checking the allocator, written so that it also runs where MPS is
// missing:

// %% mps_allocator_check
TUTOR_CELL("allocating a tensor raises the live-tensor counter, and the working set is reported") {
  if (torch::mps::is_available()) {
    const auto before = torch::mps::current_allocated_memory();
    auto tensor = torch::ones({1024, 1024}, torch::Device("mps"));
    const auto after = torch::mps::current_allocated_memory();
    tensor = torch::Tensor();  // del tensor
    torch::mps::empty_cache();
    print("live tensor allocation increased:", after > before);
    print("recommended limit reported:", torch::mps::recommended_max_memory() > 0);
  } else {
    print("MPS allocator counters need an available mps device");
  }
}
// %% [output]
// live tensor allocation increased: True
// recommended limit reported: True
// %% [output] machine="intel-mac-macos12.0,linux-x86_64,rosetta-x86_64"
// MPS allocator counters need an available mps device

// %% [markdown]
// The two counters tell different stories about the same 4 MiB tensor. Deleting it lowers the
// live count at once, but the allocator keeps the buffer, and the 32 MiB heap it was carved
// from, for the next tensor. Only `empty_cache()` gives the heap back; it first waits for the
// GPU, because queued kernels may still use cached buffers.

// %% counters_del_and_empty_cache
TUTOR_CELL("del frees a tensor for reuse; empty_cache returns the cached memory to the system") {
  if (!torch::mps::is_available()) {
    print("no mps device here: the allocator's counters need an available mps device");
    return;
  }
  auto show = [](const char* moment) {
    print(fmt::format("{:<18} live {:>10}   driver {:>10}", moment,
                      size_text(torch::mps::current_allocated_memory()),
                      size_text(torch::mps::driver_allocated_memory())));
  };
  auto tensor = torch::ones({1024, 1024}, torch::Device("mps"));
  show("after ones:");
  tensor = torch::Tensor();  // del tensor
  show("after del:");
  torch::mps::empty_cache();
  show("after empty_cache:");
}
// %% [output]
// after ones:        live   4.00 MiB   driver  32.38 MiB
// after del:         live   0.00 KiB   driver  32.38 MiB
// after empty_cache: live   0.00 KiB   driver 384.00 KiB
// %% [output] machine="intel-mac-macos12.0,linux-x86_64,rosetta-x86_64"
// no mps device here: the allocator's counters need an available mps device

// %% [markdown]
// ## Growing the batch until MPS refuses
//
// The practitioner's batch sweep: double the batch, measure the time per report, until the
// allocator says no. Each batch is made directly on the GPU and averaged over its tokens, the
// memory-bound first step of the classifier. The allocator's hard limit, the **high
// watermark**, is 1.7 × the recommended working set by default; on the 8 GB M1 that is
// 1.7 × 5.33 GiB = 9.07 GiB, more than the machine's memory.

// %% batch_sweep
TUTOR_CELL("doubling the batch: steady time per report, then the swap cliff, then out of memory") {
  if (!torch::mps::is_available()) {
    print("no mps device here: the allocator's limits need an available mps device");
    return;
  }
  torch::sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  print("recommended working set:", size_text(torch::mps::recommended_max_memory()));
  for (std::int64_t reports = 1024;; reports *= 2) {
    torch::mps::empty_cache();  // each size starts from an empty cache, as separate runs would
    try {
      const auto batch = torch::randn({reports, 128, 768}, device);
      torch::mps::synchronize();
      const double start = torch::time::perf_counter();
      batch.mean({1});
      torch::mps::synchronize();
      const double seconds = torch::time::perf_counter() - start;
      print(fmt::format("{:>7} reports: {:>10} on the GPU, {:6.2f} µs per report", reports,
                        size_text(torch::mps::driver_allocated_memory()), seconds * 1e6 / static_cast<double>(reports)));
    } catch (const torch::Error& error) {
      print(fmt::format("{:>7} reports:", reports), torch::python_message(error));
      break;
    }
  }
}
// %% [output]
// recommended working set: 48.00 GiB
//    1024 reports:   1.00 GiB on the GPU,   1.71 µs per report
//    2048 reports: 800.38 MiB on the GPU,   1.41 µs per report
//    4096 reports:   2.50 GiB on the GPU,   1.25 µs per report
//    8192 reports:   4.00 GiB on the GPU,   1.18 µs per report
//   16384 reports:   7.00 GiB on the GPU,   1.14 µs per report
//   32768 reports:  13.00 GiB on the GPU,   1.12 µs per report
//   65536 reports:  25.00 GiB on the GPU,   1.11 µs per report
//  131072 reports:  49.00 GiB on the GPU,   1.11 µs per report
//  262144 reports: RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 384.00 KiB, max allowed: 81.60 GiB). Tried to allocate 96.00 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
// %% [output] machine="m1-8gb"
// recommended working set: 5.33 GiB
//    1024 reports:   1.00 GiB on the GPU,   7.29 µs per report
//    2048 reports: 800.38 MiB on the GPU,   6.98 µs per report
//    4096 reports:   2.50 GiB on the GPU,   6.83 µs per report
//    8192 reports:   4.00 GiB on the GPU,   6.75 µs per report
//   16384 reports:   7.00 GiB on the GPU,  50.10 µs per report
//   32768 reports: RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 384.00 KiB, max allowed: 9.07 GiB). Tried to allocate 12.00 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
// %% [output] machine="intel-mac-macos12.0,linux-x86_64,rosetta-x86_64"
// no mps device here: the allocator's limits need an available mps device

// %% [markdown]
// Read the sweep from the top. The memory column moves in heap-sized steps: a batch between
// 10 and 512 MiB gets a 1 GiB heap, a larger one a heap of its own, and the small averaged
// output another heap. The time per report settles as the batch grows (the sync point's fixed
// cost spreads over more reports), then stays flat: the GPU streams the batch at the same speed
// whatever its size. On the M1 the last batch under the limit does
// not fit in the machine: 7 GiB on the GPU plus 3 GiB for macOS and the other applications
// exceed 8 GB, macOS pages part of it out to the SSD, and the time per report jumps seven-fold:
// the "fast start, then cliff" of a run that outgrew the machine. The next doubling is refused
// outright. The error names "MPS allocated" (the allocator's heaps, cached buffers included:
// nothing here, since the cache was just emptied), the "max allowed" high watermark, and the
// request that failed. On the M3 Max the limit, 1.7 × 48 GiB = 81.6 GiB, lies beyond what 64 GB
// can hold beside 8 GB of other applications, but the sweep jumps from 49 GiB straight to a
// refused 96 GiB: a finer sweep would find the cliff in between.
//
// ## The allocator's knobs, and why they come last
//
// Two environment variables set the watermarks, read once when the allocator starts (at the
// first MPS allocation): `PYTORCH_MPS_HIGH_WATERMARK_RATIO` (default 1.7; `0.0` removes the
// limit, which PyTorch warns may cause system failure) and `PYTORCH_MPS_LOW_WATERMARK_RATIO`
// (default 1.4 on unified memory), the soft limit above which the allocator frees cached
// buffers more eagerly. The low ratio may not exceed the high one, a rule that catches many
// people who only lower the high ratio. `torch.mps.set_per_process_memory_fraction(f)` sets the
// high ratio from inside the script. `os::setenv` plays the part of `os.environ[...] = ...` in
// Python: it changes this simulated process's environment before the allocator reads it.

// %% watermark_settings
TUTOR_CELL("lowering only the high watermark fails at the first allocation; the fraction is checked") {
  if (!torch::mps::is_available()) {
    print("no mps device here: the allocator never starts");
    return;
  }
  torch::os::setenv("PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.7");
  try {
    torch::ones({1}, torch::Device("mps"));
  } catch (const torch::Error& error) {
    print(torch::python_message(error));
  }
  torch::os::setenv("PYTORCH_MPS_LOW_WATERMARK_RATIO", "0.5");
  torch::ones({1}, torch::Device("mps"));
  print("with both ratios set, the first allocation works");
  for (const double fraction : {2.5, 0.5}) {
    try {
      torch::mps::set_per_process_memory_fraction(fraction);
      print("set_per_process_memory_fraction(" + py::str(fraction) + ") accepted");
    } catch (const torch::Error& error) {
      print(torch::python_message(error));
    }
  }
  try {
    torch::mps::set_per_process_memory_fraction(1);  // an int, not a float
  } catch (const torch::Error& error) {
    print(torch::python_message(error));
  }
}
// %% [output]
// RuntimeError: invalid low watermark ratio 1.4
// with both ratios set, the first allocation works
// ValueError: Invalid fraction value: 2.5. Allowed range: 0~2
// set_per_process_memory_fraction(0.5) accepted
// TypeError: Invalid type for fraction argument, must be `float`
// %% [output] machine="intel-mac-macos12.0,linux-x86_64,rosetta-x86_64"
// no mps device here: the allocator never starts

// %% [markdown]
// These knobs move the point where PyTorch refuses; they do not make memory appear. Raising
// the limit on an 8 GB machine trades an error for swapping. Shrink the work first.
//
// ## Shrink the work first
//
// The cheapest lever is the number of token positions in a step: the batch size times the
// sequence length. Halving either halves them:

// %% mps_workload_reduction
TUTOR_CELL("halving the batch or the sequence length halves the token positions") {
  const std::int64_t batch_size = 32, sequence_length = 128;
  const std::int64_t baseline_positions = batch_size * sequence_length;
  for (const auto& [label, batch, tokens] : {std::tuple{"baseline", 32, 128}, std::tuple{"half batch", 16, 128},
                                             std::tuple{"half length", 32, 64}}) {
    const double share = static_cast<double>(batch * tokens) / static_cast<double>(baseline_positions);
    print(fmt::format("{:11s}: {} of token positions", label, py::percent(share)));
  }
}
// %% [output]
// baseline   : 100% of token positions
// half batch : 50% of token positions
// half length: 50% of token positions

// %% [markdown]
// The two halvings are not equal for every tensor. Attention scores have one axis per token
// position on each side, (reports, heads, tokens, tokens), so a shorter sequence shrinks them
// twice as fast as a smaller batch. For one layer of lesson 5's encoder (12 heads):

// %% attention_scores
TUTOR_CELL("attention scores shrink with the square of the sequence length") {
  for (const auto& [label, reports, tokens] : {std::tuple{"baseline", 32, 128}, std::tuple{"half batch", 16, 128},
                                               std::tuple{"half length", 32, 64}}) {
    const std::int64_t bytes = std::int64_t{reports} * 12 * tokens * tokens * 4;  // float32
    print(fmt::format("{:11s}: {} of attention scores per layer", label, size_text(bytes)));
  }
}
// %% [output]
// baseline   : 24.00 MiB of attention scores per layer
// half batch : 12.00 MiB of attention scores per layer
// half length: 6.00 MiB of attention scores per layer

// %% [markdown]
// ## From symptom to first fix
//
// When memory goes wrong, the order of the fixes matters more than any single one. The table
// below is a procedure: take what you observed, and do the first thing it says.
//
// | symptom | first question | first fix |
// |---|---|---|
// | out of memory on the first real batch | is the batch or the sequence too large? | shrink the batch first |
// | step time swings wildly | are unsupported ops or sync points bouncing work to the cpu? | check the fallback and logging paths |
// | allocator errors | are you near the working-set limits? | reduce the workload before touching allocator variables |
// | fast start, then a cliff | is the machine swapping? | lower the batch; flush the cache at epoch boundaries |
// | memory climbs from epoch to epoch | are tensors kept alive across steps? | find what holds them; detach or move them off the GPU |
//
// The same table as code, the way a training script could report on itself:

// %%
struct RunReport {
  bool out_of_memory_on_first_batch = false;
  bool allocator_error = false;
  double step_time_spread = 0;     // (slowest - fastest) / median over a steady window
  double late_over_early_speed = 1;  // steps per second, last epoch over first
  double memory_growth = 0;        // driver memory, epoch 10 over epoch 1, minus 1
};

std::string first_fix(const RunReport& r) {
  if (r.out_of_memory_on_first_batch) return "shrink the batch (or the sequence) first";
  if (r.allocator_error) return "reduce the workload before touching allocator variables";
  if (r.memory_growth > 0.26) return "suspect retained tensors: find what keeps them alive";
  if (r.late_over_early_speed < 0.5) return "lower the batch and flush the cache at epoch boundaries";
  if (r.step_time_spread > 0.5) return "check fallback and sync points in the hot loop";
  return "nothing to fix: record the numbers with the batch size";
}

// %% symptom_triage
TUTOR_CELL("the symptom table as a procedure: each report gets its first fix") {
  RunReport too_big;
  too_big.out_of_memory_on_first_batch = true;
  RunReport leaking;
  leaking.memory_growth = 0.40;
  RunReport swapping;
  swapping.late_over_early_speed = 0.3;
  RunReport jittery;
  jittery.step_time_spread = 0.9;
  for (const auto& [name, report] : {std::pair{"oom at once", too_big}, std::pair{"leaking", leaking},
                                     std::pair{"swapping", swapping}, std::pair{"jittery", jittery},
                                     std::pair{"healthy", RunReport{}}}) {
    print(fmt::format("{:<11}: {}", name, first_fix(report)));
  }
}
// %% [output]
// oom at once: shrink the batch (or the sequence) first
// leaking    : suspect retained tensors: find what keeps them alive
// swapping   : lower the batch and flush the cache at epoch boundaries
// jittery    : check fallback and sync points in the hot loop
// healthy    : nothing to fix: record the numbers with the batch size

// %% [markdown]
// ## A leak that is not a leak
//
// A training loop that keeps a reference to a GPU tensor every step grows without bound, and
// no `empty_cache()` helps: the memory is not cached, it is in use. Here the loop saves each
// batch's averaged report vectors "for later analysis" in a list that outlives the epoch. A
// practitioner's rule catches it: measure the driver memory at every epoch boundary, after
// `empty_cache()`; if it rises by more than 26 % over ten epochs, suspect retained tensors.
// The fix keeps the analysis and moves it off the GPU: `.detach().cpu()`.

// %%
// Ten epochs of 20 steps; returns the driver memory at each epoch's end, after empty_cache().
std::vector<std::int64_t> driver_memory_per_epoch(bool keep_on_gpu) {
  torch::sim::ShapeOnlyGuard shape_only;  // only sizes matter here
  const torch::Device device("mps");
  torch::nn::Linear model(768, 3);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters());
  const auto labels = torch::zeros({32}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  std::vector<torch::Tensor> saved_vectors;
  std::vector<std::int64_t> per_epoch;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int step = 0; step < 20; ++step) {
      const auto batch = torch::randn({32, 128, 768}, device);
      const auto vectors = batch.mean({1});
      optimizer.zero_grad();
      F::cross_entropy(model(vectors), labels).backward();
      optimizer.step();
      saved_vectors.push_back(keep_on_gpu ? vectors : vectors.detach().cpu());
    }
    torch::mps::empty_cache();
    per_epoch.push_back(torch::mps::driver_allocated_memory());
  }
  return per_epoch;
}

// %% retained_tensors
TUTOR_CELL("memory that grows more than 26 % over ten epochs points to retained tensors") {
  if (!torch::mps::is_available()) {
    print("no mps device here: the allocator's counters need an available mps device");
    return;
  }
  for (const bool keep_on_gpu : {true, false}) {
    const std::vector<std::int64_t> memory = driver_memory_per_epoch(keep_on_gpu);
    const double growth = static_cast<double>(memory.back()) / static_cast<double>(memory.front()) - 1;
    print(keep_on_gpu ? "vectors kept on the GPU:" : "vectors moved to the cpu:");
    print(fmt::format("  epoch 1: {}, epoch 10: {}, growth {}", size_text(memory.front()),
                      size_text(memory.back()), py::percent(growth)));
    print(growth > 0.26 ? "  suspect retained tensors" : "  memory is steady");
  }
}
// %% [output]
// vectors kept on the GPU:
//   epoch 1: 8.38 MiB, epoch 10: 24.38 MiB, growth 191%
//   suspect retained tensors
// vectors moved to the cpu:
//   epoch 1: 8.38 MiB, epoch 10: 8.38 MiB, growth 0%
//   memory is steady
// %% [output] machine="intel-mac-macos12.0,linux-x86_64,rosetta-x86_64"
// no mps device here: the allocator's counters need an available mps device

// %% [markdown]
// ## What to take away
//
// - The bill is weights + gradients + optimizer state + activations + the batch, and for
//   small models the batch and activations dominate.
// - `current_allocated_memory()` counts live tensors; `driver_allocated_memory()` counts what
//   the process holds, cache included. `empty_cache()` returns the cache, not live tensors.
// - Unified memory is shared with the whole machine: past what is free, a run swaps and slows
//   down long before PyTorch's limit stops it.
// - Shrink the batch or the sequence before touching the watermark variables; lowering the
//   high ratio alone fails with `invalid low watermark ratio 1.4`.
// - Memory that keeps growing across epochs with `empty_cache()` at every boundary is held by
//   your code: find the references.
