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
//
// Terms the course uses before explaining them are in its glossary: `lesson06 --glossary`.

// %%
#include <cstdint>
#include <string>
#include <vector>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines
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
// %% [python]
// import os
// import subprocess
// import sys
// import time
//
// import torch
// import torch.nn.functional as F
//
//
// def best_device():
//     return torch.device("mps") if torch.backends.mps.is_available() else torch.device("cpu")
//
//
// def size_text(size):
//     """Bytes in the unit that reads best: "12.00 MiB", "32.00 KiB", "6.00 GiB"."""
//     if size >= 1 << 30:
//         return f"{size / (1 << 30):.2f} GiB"
//     if size >= 1 << 20:
//         return f"{size / (1 << 20):.2f} MiB"
//     return f"{size / (1 << 10):.2f} KiB"

// %% [markdown]
// ## The bill of one training step
//
// The ticket classifier of lesson 3, trained with Adam: read `current_allocated_memory()`
// after each phase of one step.

// %% memory_bill requires="mps"
TUTOR_CELL("the memory of a training step grows with the batch, the activations, the gradients and the optimizer") {
  const torch::Device device("mps");
  std::int64_t previous = py::torch::mps::current_allocated_memory();
  auto in_use = [&previous](const char* after) {
    const std::int64_t now = py::torch::mps::current_allocated_memory();
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
// forward pass:             12.17 MiB in use, +128.00 KiB
// backward pass:            12.09 MiB in use, -80.00 KiB
// optimizer step:           12.31 MiB in use, +224.00 KiB
// %% [python]
// device = torch.device("mps")
// previous = torch.mps.current_allocated_memory()
//
// def in_use(after):
//     global previous
//     now = torch.mps.current_allocated_memory()
//     change = now - previous
//     print(f"{after:<24} {size_text(now):>10} in use, {'-' if change < 0 else '+'}{size_text(abs(change))}")
//     previous = now
//
// model = torch.nn.Linear(768, 3).to(device)
// in_use("model moved:")
// batch = torch.randn(32, 128, 768).to(device)
// labels = torch.zeros(32, dtype=torch.int64, device=device)
// in_use("batch and labels moved:")
// optimizer = torch.optim.Adam(model.parameters())
// loss = F.cross_entropy(model(batch.mean(1)), labels)
// in_use("forward pass:")
// loss.backward()
// in_use("backward pass:")
// optimizer.step()
// in_use("optimizer step:")

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
    const auto before = py::torch::mps::current_allocated_memory();
    auto tensor = torch::ones({1024, 1024}, torch::Device("mps"));
    const auto after = py::torch::mps::current_allocated_memory();
    tensor = torch::Tensor();  // del tensor
    py::torch::mps::empty_cache();
    print("live tensor allocation increased:", after > before);
    print("recommended limit reported:", py::torch::mps::recommended_max_memory() > 0);
  } else {
    print("MPS allocator counters need an available mps device");
  }
}
// %% [output]
// live tensor allocation increased: True
// recommended limit reported: True
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// MPS allocator counters need an available mps device
// %% [python]
// if torch.backends.mps.is_available():
//     before = torch.mps.current_allocated_memory()
//     tensor = torch.ones(1024, 1024, device="mps")
//     after = torch.mps.current_allocated_memory()
//     del tensor
//     torch.mps.empty_cache()
//     print("live tensor allocation increased:", after > before)
//     print("recommended limit reported:", torch.mps.recommended_max_memory() > 0)
// else:
//     print("MPS allocator counters need an available mps device")

// %% [markdown]
// The two counters tell different stories about the same 4 MiB tensor. Deleting it lowers the
// live count at once, but the allocator keeps the buffer, and the 32 MiB heap it was carved
// from, for the next tensor. Only `empty_cache()` gives the heap back; it first waits for the
// GPU, because queued kernels may still use cached buffers.

// %% counters_del_and_empty_cache requires="mps"
TUTOR_CELL("del frees a tensor for reuse; empty_cache returns the cached memory to the system") {
  auto show = [](const char* moment) {
    print(fmt::format("{:<18} live {:>10}   driver {:>10}", moment,
                      size_text(py::torch::mps::current_allocated_memory()),
                      size_text(py::torch::mps::driver_allocated_memory())));
  };
  auto tensor = torch::ones({1024, 1024}, torch::Device("mps"));
  show("after ones:");
  tensor = torch::Tensor();  // del tensor
  show("after del:");
  py::torch::mps::empty_cache();
  show("after empty_cache:");
}
// %% [output]
// after ones:        live   4.00 MiB   driver  32.38 MiB
// after del:         live   0.00 KiB   driver  32.38 MiB
// after empty_cache: live   0.00 KiB   driver 384.00 KiB
// %% [python]
// def show(moment):
//     live, driver = torch.mps.current_allocated_memory(), torch.mps.driver_allocated_memory()
//     print(f"{moment:<18} live {size_text(live):>10}   driver {size_text(driver):>10}")
//
// tensor = torch.ones(1024, 1024, device="mps")
// show("after ones:")
// del tensor
// show("after del:")
// torch.mps.empty_cache()
// show("after empty_cache:")

// %% [markdown]
// ## Growing the batch until MPS refuses
//
// The practitioner's batch sweep: double the batch, measure the time per report, and stop when
// the allocator says no. Each step here is the forward pass of a three-layer encoder (768 wide,
// with ReLUs) over a batch made directly on the GPU. Autograd keeps the layers' activations for
// the backward pass, so the step holds several tensors the size of the batch at once. The
// allocator's hard limit, the **high watermark**, is 1.7 × the recommended working set by
// default; on the 8 GB M1 that is 1.7 × 5.33 GiB = 9.07 GiB, more than the machine's memory.

// %%
// One forward pass of a three-layer encoder over `reports` reports of 128 tokens; the
// activations it returns are what autograd keeps for the backward pass.
std::vector<torch::Tensor> encoder_forward(std::int64_t reports, const torch::Device& device) {
  std::vector<torch::Tensor> kept{torch::randn({reports, 128, 768}, device)};
  for (int layer = 0; layer < 3; ++layer) {
    torch::nn::Linear linear(768, 768);
    linear->to(device);
    kept.push_back(torch::relu(linear(kept.back())));
  }
  return kept;
}
// %% [python]
// def encoder_forward(reports, device):
//     """One forward pass of a three-layer encoder over `reports` reports of 128 tokens; the
//     activations it returns are what autograd keeps for the backward pass."""
//     kept = [torch.randn(reports, 128, 768, device=device)]
//     for _ in range(3):
//         linear = torch.nn.Linear(768, 768).to(device)
//         kept.append(torch.relu(linear(kept[-1])))
//     return kept

// %% batch_sweep requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("doubling the batch: steady time per report, then the swap cliff, then out of memory") {
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  print("recommended working set:", size_text(py::torch::mps::recommended_max_memory()));
  for (std::int64_t reports = 256;; reports *= 2) {
    py::torch::mps::empty_cache();  // each size starts from an empty cache, as separate runs would
    try {
      torch::mps::synchronize();
      const double start = py::time::perf_counter();
      const auto kept = encoder_forward(reports, device);
      torch::mps::synchronize();
      const double seconds = py::time::perf_counter() - start;
      print(fmt::format("{:>6} reports: {:>9} live, {:>9} held, {:6.2f} µs per report", reports,
                        size_text(py::torch::mps::current_allocated_memory()),
                        size_text(py::torch::mps::driver_allocated_memory()),
                        seconds * 1e6 / static_cast<double>(reports)));
    } catch (const torch::Error& error) {
      print(fmt::format("{:>6} reports:", reports), py::format_exception_only(error));
      break;
    }
  }
}
// %% [output]
// recommended working set: 48.00 GiB
//    256 reports: 390.80 MiB live,  1.01 GiB held,  71.69 µs per report
//    512 reports: 774.80 MiB live,  1.01 GiB held,  60.15 µs per report
//   1024 reports:  1.51 GiB live,  3.01 GiB held,  60.98 µs per report
//   2048 reports:  3.01 GiB live,  3.79 GiB held,  58.08 µs per report
//   4096 reports:  6.01 GiB live,  7.54 GiB held,  57.00 µs per report
//   8192 reports: 12.01 GiB live, 15.04 GiB held,  56.63 µs per report
//  16384 reports: 24.01 GiB live, 30.04 GiB held,  56.45 µs per report
//  32768 reports: 48.01 GiB live, 60.04 GiB held,  65.03 µs per report
//  65536 reports: RuntimeError: MPS backend out of memory (MPS allocated: 72.04 GiB, other allocations: 384.00 KiB, max allowed: 81.60 GiB). Tried to allocate 24.00 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
// %% [output] machine="m1-8gb"
// recommended working set: 5.33 GiB
//    256 reports: 390.80 MiB live,  1.01 GiB held, 296.67 µs per report
//    512 reports: 774.80 MiB live,  1.01 GiB held, 283.24 µs per report
//   1024 reports:  1.51 GiB live,  3.01 GiB held, 319.38 µs per report
//   2048 reports:  3.01 GiB live,  3.79 GiB held, 317.77 µs per report
//   4096 reports:  6.01 GiB live,  7.54 GiB held, 522.25 µs per report
//   8192 reports: RuntimeError: MPS backend out of memory (MPS allocated: 9.04 GiB, other allocations: 384.00 KiB, max allowed: 9.07 GiB). Tried to allocate 3.00 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
// %% [python]
// device = torch.device("mps")
// print("recommended working set:", size_text(torch.mps.recommended_max_memory()))
// reports = 256
// while True:
//     torch.mps.empty_cache()  # each size starts from an empty cache, as separate runs would
//     try:
//         torch.mps.synchronize()
//         start = time.perf_counter()
//         kept = encoder_forward(reports, device)
//         torch.mps.synchronize()
//         seconds = time.perf_counter() - start
//         live, held = torch.mps.current_allocated_memory(), torch.mps.driver_allocated_memory()
//         print(f"{reports:>6} reports: {size_text(live):>9} live, {size_text(held):>9} held, "
//               f"{seconds * 1e6 / reports:6.2f} µs per report")
//         del kept
//     except RuntimeError as error:
//         print(f"{reports:>6} reports:", f"{type(error).__name__}: {error}")
//         break
//     reports *= 2

// %% [markdown]
// Read the sweep from the top. After each step four tensors the size of the batch are live:
// the input and the three ReLU outputs, which the backward pass will need. The linear layers'
// outputs are gone, because a ReLU keeps its result for the backward pass, not its input. The
// "held" column, the driver's count, is larger: it includes the step's peak (a linear output
// and the next ReLU's result exist together for a moment) and it grows in heap-sized steps.
// Buffers below half a GiB are carved out of shared 1 GiB heaps, so 391 MiB of tensors hold a
// whole GiB; from 2048 reports on each buffer gets a heap of its own, rounded up to 2 MiB.
//
// While everything fits, the time per report changes little: the GPU does the same work per
// report at any size. (The one step up, at 1024 reports on the M1, is where each layer's result
// passes 256 MiB, and MPS computes and writes results that large in passes that do not
// overlap.) Then the cliff. On the M1 (its output is shown with the M3 Max's), 4096 reports hold 7.5 GiB, and with
// 3 GiB taken by macOS and the other applications that is more than the machine's 8 GiB: macOS
// pages part of the GPU's memory out to the SSD, and the time per report jumps. The next
// doubling is refused: the error names "MPS allocated" (the allocator's heaps, cached buffers
// included), the "max allowed" high watermark, and the request that failed. On the M3 Max the
// same happens at a larger scale: 60 GiB held beside 8 GiB of other applications spill past 64
// GiB, and the next doubling crosses the 81.6 GiB limit.
//
// ## One tensor too large
//
// There is a second limit, and it is per buffer. Metal cannot make a single buffer longer than
// the device's `maxBufferLength`, and PyTorch's allocator checks that first, before any
// watermark: the request fails with `Invalid buffer size` however much memory is free. On the
// Macs that report the value it is about half the RAM: 4 GiB on an 8 GB Mac. (The emulator
// uses half the RAM for every Mac; newer chips report a little more, up to 0.59 of it.)

// %% one_tensor_too_large requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("one tensor above Metal's maximum buffer length is refused whatever memory is free") {
  sim::ShapeOnlyGuard shape_only;
  for (const std::int64_t reports : {8192, 16384, 131072}) {
    try {
      const auto batch = torch::randn({reports, 128, 768}, torch::Device("mps"));
      print(fmt::format("{:>6} reports in one tensor: {}", reports, size_text(py::torch::mps::current_allocated_memory())));
    } catch (const torch::Error& error) {
      print(fmt::format("{:>6} reports in one tensor:", reports), py::format_exception_only(error));
    }
  }
}
// %% [output]
//   8192 reports in one tensor: 3.00 GiB
//  16384 reports in one tensor: 6.00 GiB
// 131072 reports in one tensor: RuntimeError: Invalid buffer size: 48.00 GiB
// %% [output] machine="m1-8gb"
//   8192 reports in one tensor: 3.00 GiB
//  16384 reports in one tensor: RuntimeError: Invalid buffer size: 6.00 GiB
// 131072 reports in one tensor: RuntimeError: Invalid buffer size: 48.00 GiB
// %% [python]
// for reports in [8192, 16384, 131072]:
//     try:
//         batch = torch.randn(reports, 128, 768, device="mps")
//         print(f"{reports:>6} reports in one tensor: {size_text(torch.mps.current_allocated_memory())}")
//         del batch
//     except RuntimeError as error:
//         print(f"{reports:>6} reports in one tensor:", f"{type(error).__name__}: {error}")

// %% [markdown]
// On the M1 (both machines' outputs are shown) a 6 GiB batch is refused although the allocator's limit is 9.07
// GiB; on the M3 Max a 48 GiB one is refused with 81.6 GiB allowed. The message does not
// mention memory at all, and no watermark variable changes it: split the tensor (a smaller
// batch, or the work in chunks) instead.
//
// ## The allocator's knobs, and why they come last
//
// Two environment variables set the watermarks: `PYTORCH_MPS_HIGH_WATERMARK_RATIO` (default
// 1.7; `0.0` removes the limit, which PyTorch warns may cause system failure) and
// `PYTORCH_MPS_LOW_WATERMARK_RATIO` (default 1.4 on unified memory), the soft limit above which
// the allocator frees cached buffers more eagerly. The low ratio may not exceed the high one,
// a rule that catches many people who only lower the high ratio. PyTorch reads both once per
// process, when the allocator first starts (at the first MPS allocation), and keeps what it
// read even when that start fails: a script that got the ratios wrong must be started again.
// `torch.mps.set_per_process_memory_fraction(f)` sets the high ratio from inside the script.
// `os::setenv` plays the part of `os.environ[...] = ...` in Python, and
// `sim::restart_with_environment` the part of starting `python train.py` again with the
// variables set in the shell.

// %% watermark_settings requires="mps"
TUTOR_CELL("lowering only the high watermark fails at the first allocation, and only a new process recovers") {
  auto first_allocation = [](const char* attempt) {
    try {
      torch::ones({1}, torch::Device("mps"));
      print(attempt, "the first allocation works");
    } catch (const torch::Error& error) {
      print(attempt, py::format_exception_only(error));
    }
  };
  py::os::setenv("PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.7");
  first_allocation("high 0.7 only:");
  py::os::setenv("PYTORCH_MPS_LOW_WATERMARK_RATIO", "0.5");
  first_allocation("low 0.5 added:");
  sim::restart_with_environment(
      {{"PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.7"}, {"PYTORCH_MPS_LOW_WATERMARK_RATIO", "0.5"}});
  first_allocation("new process:  ");
  for (const double fraction : {2.5, 0.5}) {
    try {
      py::torch::mps::set_per_process_memory_fraction(fraction);
      print("set_per_process_memory_fraction(" + py::str(fraction) + ") accepted");
    } catch (const torch::Error& error) {
      print(py::format_exception_only(error));
    }
  }
  try {
    py::torch::mps::set_per_process_memory_fraction(1);  // an int, not a float
  } catch (const torch::Error& error) {
    print(py::format_exception_only(error));
  }
}
// %% [output]
// high 0.7 only: RuntimeError: invalid low watermark ratio 1.4
// low 0.5 added: RuntimeError: invalid low watermark ratio 1.4
// new process:   the first allocation works
// ValueError: Invalid fraction value: 2.5. Allowed range: 0~2
// set_per_process_memory_fraction(0.5) accepted
// TypeError: Invalid type for fraction argument, must be `float`
// %% [python]
// first_allocation = "import torch; torch.ones(1, device='mps'); print('the first allocation works')"
//
// def try_first_allocation(attempt):
//     try:
//         torch.ones(1, device="mps")
//         print(attempt, "the first allocation works")
//     except RuntimeError as error:
//         print(attempt, f"{type(error).__name__}: {error}")
//
// os.environ["PYTORCH_MPS_HIGH_WATERMARK_RATIO"] = "0.7"
// try_first_allocation("high 0.7 only:")
// os.environ["PYTORCH_MPS_LOW_WATERMARK_RATIO"] = "0.5"
// try_first_allocation("low 0.5 added:")
// fresh = subprocess.run([sys.executable, "-c", first_allocation], capture_output=True, text=True, env=os.environ)
// print("new process:  ", fresh.stdout.strip())
// for fraction in [2.5, 0.5]:
//     try:
//         torch.mps.set_per_process_memory_fraction(fraction)
//         print(f"set_per_process_memory_fraction({fraction}) accepted")
//     except ValueError as error:
//         print(f"{type(error).__name__}: {error}")
// try:
//     torch.mps.set_per_process_memory_fraction(1)  # an int, not a float
// except TypeError as error:
//     print(f"{type(error).__name__}: {error}")

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
// %% [python]
// batch_size, sequence_length = 32, 128
// baseline_positions = batch_size * sequence_length
// for label, batch, tokens in [("baseline", 32, 128), ("half batch", 16, 128), ("half length", 32, 64)]:
//     share = batch * tokens / baseline_positions
//     print(f"{label:11s}: {share:.0%} of token positions")

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
// %% [python]
// for label, reports, tokens in [("baseline", 32, 128), ("half batch", 16, 128), ("half length", 32, 64)]:
//     scores = reports * 12 * tokens * tokens * 4  # float32
//     print(f"{label:11s}: {size_text(scores)} of attention scores per layer")

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
// %% [python]
// from dataclasses import dataclass
//
//
// @dataclass
// class RunReport:
//     out_of_memory_on_first_batch: bool = False
//     allocator_error: bool = False
//     step_time_spread: float = 0.0       # (slowest - fastest) / median over a steady window
//     late_over_early_speed: float = 1.0  # steps per second, last epoch over first
//     memory_growth: float = 0.0          # driver memory, epoch 10 over epoch 1, minus 1
//
//
// def first_fix(r):
//     if r.out_of_memory_on_first_batch:
//         return "shrink the batch (or the sequence) first"
//     if r.allocator_error:
//         return "reduce the workload before touching allocator variables"
//     if r.memory_growth > 0.26:
//         return "suspect retained tensors: find what keeps them alive"
//     if r.late_over_early_speed < 0.5:
//         return "lower the batch and flush the cache at epoch boundaries"
//     if r.step_time_spread > 0.5:
//         return "check fallback and sync points in the hot loop"
//     return "nothing to fix: record the numbers with the batch size"

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
// %% [python]
// reports = [("oom at once", RunReport(out_of_memory_on_first_batch=True)),
//            ("leaking", RunReport(memory_growth=0.40)),
//            ("swapping", RunReport(late_over_early_speed=0.3)),
//            ("jittery", RunReport(step_time_spread=0.9)),
//            ("healthy", RunReport())]
// for name, report in reports:
//     print(f"{name:<11}: {first_fix(report)}")

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
  sim::ShapeOnlyGuard shape_only;  // only sizes matter here
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
    py::torch::mps::empty_cache();
    per_epoch.push_back(py::torch::mps::driver_allocated_memory());
  }
  return per_epoch;
}
// %% [python]
// def driver_memory_per_epoch(keep_on_gpu):
//     """Ten epochs of 20 steps; the driver memory at each epoch's end, after empty_cache()."""
//     device = torch.device("mps")
//     model = torch.nn.Linear(768, 3).to(device)
//     optimizer = torch.optim.Adam(model.parameters())
//     labels = torch.zeros(32, dtype=torch.int64, device=device)
//     saved_vectors, per_epoch = [], []
//     for epoch in range(10):
//         for step in range(20):
//             batch = torch.randn(32, 128, 768, device=device)
//             vectors = batch.mean(1)
//             optimizer.zero_grad()
//             F.cross_entropy(model(vectors), labels).backward()
//             optimizer.step()
//             saved_vectors.append(vectors if keep_on_gpu else vectors.detach().cpu())
//         torch.mps.empty_cache()
//         per_epoch.append(torch.mps.driver_allocated_memory())
//     return per_epoch

// %% retained_tensors requires="mps"
TUTOR_CELL("memory that grows more than 26 % over ten epochs points to retained tensors") {
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
// %% [python]
// for keep_on_gpu in [True, False]:
//     memory = driver_memory_per_epoch(keep_on_gpu)
//     growth = memory[-1] / memory[0] - 1
//     print("vectors kept on the GPU:" if keep_on_gpu else "vectors moved to the cpu:")
//     print(f"  epoch 1: {size_text(memory[0])}, epoch 10: {size_text(memory[-1])}, growth {growth:.0%}")
//     print("  suspect retained tensors" if growth > 0.26 else "  memory is steady")

// %% [markdown]
// ## What to take away
//
// - The bill is weights + gradients + optimizer state + activations + the batch, and for
//   small models the batch and activations dominate.
// - `current_allocated_memory()` counts live tensors; `driver_allocated_memory()` counts what
//   the process holds, cache included. `empty_cache()` returns the cache, not live tensors.
// - Unified memory is shared with the whole machine: past what is free, a run swaps and slows
//   down long before PyTorch's limit stops it.
// - A single tensor at or above Metal's maximum buffer length (about half the RAM) fails with
//   `Invalid buffer size`, whatever the watermarks say.
// - Shrink the batch or the sequence before touching the watermark variables; lowering the
//   high ratio alone fails with `invalid low watermark ratio 1.4`, and the fix needs a new
//   process, because PyTorch reads both variables once.
// - Memory that keeps growing across epochs with `empty_cache()` at every boundary is held by
//   your code: find the references.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson06`. Practise it in lab 6: edit
// `labs/06_memory/lab.cpp` until `build/course verify 06` passes (`build/course hint 06` gives
// one hint at a time). Then lesson 7, `build/lessons/lesson07`, puts the cpu and the GPU side
// by side and decides, with a practitioner's runbook, where a job should run.
