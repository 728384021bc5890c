// %% [markdown]
// # 6.2 · What to do about it
//
// Section 6.1 found the limits. This one is about staying under them: which settings to leave
// alone, how to shrink the work instead, how to go from a symptom to its first fix, and how to
// find memory that a program keeps without meaning to.

// %%
#include "shared.h"  // best_device() and size_text()

// %% [markdown]
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
// `py::os::setenv` plays the part of `os.environ[...] = ...` in Python, and
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

// %% [markdown] facts="8 GB"
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

// %% [markdown] facts="26 %"
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
  py::torch::mps::empty_cache();   // start as a fresh process would, without an earlier run's heaps
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
//     torch.mps.empty_cache()  # start as a fresh process would, without an earlier run's heaps
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

// %% retained_tensors requires="mps" compare="m3-max-64gb"
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

// %% [markdown] facts="8 MiB, 384 KiB"
// On the M3 Max the kept vectors take the driver's count from
// {{retained_tensors@m3-max-64gb:kept on the GPU:...epoch 1:}} MiB to {{retained_tensors@m3-max-64gb:kept on the GPU:...epoch 10:}} MiB, one
// 8 MiB heap after another. Moved to the cpu, the loop holds
// {{retained_tensors@m3-max-64gb:moved to the cpu:...epoch 1:}} MiB from the first epoch to the last: one 8 MiB heap for
// the model, its gradients and Adam's state, plus MPS's own 384 KiB. Each loop starts with
// `empty_cache()`, as a fresh process would. Without it, the second loop's small tensors land in
// heaps the first loop left behind, spread over two of them, and its count starts a heap higher:
// a difference of heaps, not of tensors, and a reason to compare memory between runs only from
// the same starting point.
//
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
// one hint at a time). Then lesson 7, `build/course run 07`, puts the cpu and the GPU side
// by side and decides, with a practitioner's runbook, where a job should run.
