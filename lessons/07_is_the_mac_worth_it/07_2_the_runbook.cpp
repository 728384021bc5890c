// %% [markdown]
// # 7.2 · The runbook: thresholds, the batch sweep, first and steady epochs
//
// Section 7.1 measured speed. The runbook turns measurements into a decision with rules stated
// in advance, then asks for two more measurements before trusting any speed: the batch that
// fills the machine, and steady epochs rather than the first.

// %%
#include "shared.h"  // the model, the workloads and the honest timing of a step

// %% [markdown] facts="22 %, 18 %, 1.22x, 78 %, 1.28x, 26 %"
// ## The runbook's thresholds, as code
//
// The runbook states its decision rules as numbers a design review can quote:
//
// 1. If the whole step on `mps` improves on the cpu's by less than 22 % while the GPU is busy
//    less than 18 % of the step, the GPU is starved: fix the data plane (everything that reads
//    and prepares the batches) and the batch before making the model bigger.
// 2. If memory grows more than 26 % over ten epochs although `empty_cache()` runs at every
//    epoch boundary, suspect tensors kept alive (lesson 6), and plan a dedicated remote host
//    for the job.
// 3. If the project must reproduce CUDA's loss curves bit for bit and the drift exceeds its
//    tolerance, keep `mps` for preprocessing and train on CUDA (or redesign the flow in MLX).
//
// The four places a job can run, in the runbook's terms:
//
// | lane | strength | risk | best for |
// |---|---|---|---|
// | cpu | runs everything PyTorch runs | a low ceiling | checking logic; small or data-bound jobs |
// | PyTorch `mps` | the same training code on the Mac's GPU | missing ops, numerics, sensitivity to the batch | vision and small models trained in PyTorch |
// | MLX | built by Apple around unified memory | two code bases to keep in step | Apple-first inference, language models |
// | remote Apple silicon | a dedicated machine, shareable, with a latency promise | operations work and a network hop | long queues and always-on services |
//
// Rule 3 adds a fifth, outside the Mac: CUDA itself, for a project bound to its results.
//
// "Improves by less than 22 %" reads two ways. As a speedup, `mps` is less than 1.22x the cpu;
// as a cut in step time, the `mps` step is more than 78 % of the cpu's, a speedup below 1.28x.
// The code below takes the first reading, the one more lenient towards `mps`; a speedup between
// the two is a grey zone where a longer measurement should decide.
//
// The function below encodes the rules in an order: a run whose numbers cannot be trusted, or
// whose memory will not last, is settled before one that is merely slow.

// %%
// The runbook's thresholds. They are one team's quotable numbers, not laws: replace them with
// your own once you have measured your own runs.
constexpr double kMinimumSpeedup =
    1.22;  // mps must beat the cpu by 22 %, whole step against whole step
constexpr double kStarvedGpuShare = 0.18;  // a GPU busy less than this share of the step is waiting
constexpr double kMemoryGrowthLimit =
    0.26;  // over ten epochs, with empty_cache() at every boundary

// What one workload's trial runs measured, and what the project demands.
struct Evidence {
  double cpu_step_ms = 0, mps_step_ms = 0;    // steady steps, timed between synchronizations
  double gpu_busy_share = 0;                  // of the mps step's wall time
  double memory_growth = 0;                   // driver memory, epoch 10 over epoch 1, minus 1
  bool hot_op_falls_back = false;             // an op of the step runs through the cpu fallback
  bool needs_bitwise_cuda_match = false;      // results must equal a CUDA run's, bit for bit
  bool mostly_llm_inference = false;          // the main job serves a language model
  bool long_jobs_on_a_shared_laptop = false;  // hours of training beside calls and browsers
};

struct Lane {
  std::string where;  // "cpu", "mps", "MLX", "remote" (an Apple-silicon host), "CUDA"
  std::string why;
};

// The first rule that applies decides.
Lane choose_lane(const Evidence& e) {
  const double speedup = e.cpu_step_ms / e.mps_step_ms;
  const std::string busy = py::percent(e.gpu_busy_share);
  if (e.needs_bitwise_cuda_match) {
    return {"CUDA", "bitwise parity needs a CUDA machine itself; keep mps for preprocessing"};
  }
  if (e.memory_growth > kMemoryGrowthLimit) {
    return {"remote", fmt::format("memory grew {} over ten epochs: find the retained tensors, "
                                  "then plan a dedicated host",
                                  py::percent(e.memory_growth))};
  }
  if (speedup < kMinimumSpeedup && e.gpu_busy_share < kStarvedGpuShare) {
    return {"cpu", fmt::format("mps is only {:.2f}x the cpu and the GPU idles ({} busy): fix the "
                               "data plane and the batch before widening the model",
                               speedup, busy)};
  }
  if (speedup < kMinimumSpeedup) {
    return {"cpu", fmt::format("mps is only {:.2f}x the cpu: the work is too small for the GPU",
                               speedup)};
  }
  if (e.hot_op_falls_back) {
    return {"MLX", "a hot op falls back to the cpu: name it; if it stays unfixed, move the model "
                   "to MLX or a remote host"};
  }
  if (e.mostly_llm_inference) return {"MLX", "language-model inference is what MLX is built for"};
  if (e.long_jobs_on_a_shared_laptop) {
    return {"remote", "long queues compete with the laptop's other work for unified memory"};
  }
  return {"mps", fmt::format("mps is {:.2f}x the cpu with the GPU {} busy", speedup, busy)};
}
// %% [python]
// MINIMUM_SPEEDUP = 1.22       # mps must beat the cpu by 22 %, whole step against whole step
// STARVED_GPU_SHARE = 0.18     # a GPU busy less than this share of the step is waiting
// MEMORY_GROWTH_LIMIT = 0.26   # over ten epochs, with empty_cache() at every boundary
//
//
// @dataclass
// class Evidence:
//     cpu_step_ms: float = 0.0
//     mps_step_ms: float = 0.0
//     gpu_busy_share: float = 0.0
//     memory_growth: float = 0.0
//     hot_op_falls_back: bool = False
//     needs_bitwise_cuda_match: bool = False
//     mostly_llm_inference: bool = False
//     long_jobs_on_a_shared_laptop: bool = False
//
//
// def choose_lane(e):
//     """(where, why): the first rule that applies decides."""
//     speedup = e.cpu_step_ms / e.mps_step_ms
//     if e.needs_bitwise_cuda_match:
//         return "CUDA", "bitwise parity needs a CUDA machine itself; keep mps for preprocessing"
//     if e.memory_growth > MEMORY_GROWTH_LIMIT:
//         return "remote", (f"memory grew {e.memory_growth:.0%} over ten epochs: find the retained tensors, "
//                           "then plan a dedicated host")
//     if speedup < MINIMUM_SPEEDUP and e.gpu_busy_share < STARVED_GPU_SHARE:
//         return "cpu", (f"mps is only {speedup:.2f}x the cpu and the GPU idles ({e.gpu_busy_share:.0%} busy): "
//                        "fix the data plane and the batch before widening the model")
//     if speedup < MINIMUM_SPEEDUP:
//         return "cpu", f"mps is only {speedup:.2f}x the cpu: the work is too small for the GPU"
//     if e.hot_op_falls_back:
//         return "MLX", "a hot op falls back to the cpu: name it; if it stays unfixed, move the model to MLX or a remote host"
//     if e.mostly_llm_inference:
//         return "MLX", "language-model inference is what MLX is built for"
//     if e.long_jobs_on_a_shared_laptop:
//         return "remote", "long queues compete with the laptop's other work for unified memory"
//     return "mps", f"mps is {speedup:.2f}x the cpu with the GPU {e.gpu_busy_share:.0%} busy"

// %% [markdown] facts="20 ms"
// Four workloads measured on this machine go through it. The third one spends 20 ms of host
// time per step reading and tokenizing its batch, as lesson 5's loop did; the fourth is the same
// model with that work gone.

// %% runbook_on_measured_workloads requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("the runbook's rules decide from measured steps") {
  for (const Workload& w :
       {Workload{32, 256}, Workload{2048, 2048}, Workload{256, 1024, 20}, Workload{256, 1024}}) {
    const Timing cpu = time_steps(w, torch::Device("cpu")),
                 mps = time_steps(w, torch::Device("mps"));
    const Lane lane = choose_lane({.cpu_step_ms = cpu.step_ms,
                                   .mps_step_ms = mps.step_ms,
                                   .gpu_busy_share = mps.gpu_busy_ms / mps.step_ms});
    print(fmt::format("batch {}, width {}, {:.0f} ms of host work: {}", w.batch, w.width,
                      w.prepare_ms, lane.where));
    print("  " + lane.why);
  }
}
// %% [output]
// batch 32, width 256, 0 ms of host work: cpu
//   mps is only 0.37x the cpu: the work is too small for the GPU
// batch 2048, width 2048, 0 ms of host work: mps
//   mps is 4.11x the cpu with the GPU 100% busy
// batch 256, width 1024, 20 ms of host work: cpu
//   mps is only 1.12x the cpu and the GPU idles (8% busy): fix the data plane and the batch before widening the model
// batch 256, width 1024, 0 ms of host work: mps
//   mps is 1.88x the cpu with the GPU 98% busy
// %% [output] machine="m1-8gb"
// batch 32, width 256, 0 ms of host work: cpu
//   mps is only 0.44x the cpu: the work is too small for the GPU
// batch 2048, width 2048, 0 ms of host work: mps
//   mps is 1.98x the cpu with the GPU 100% busy
// batch 256, width 1024, 20 ms of host work: mps
//   mps is 1.31x the cpu with the GPU 27% busy
// batch 256, width 1024, 0 ms of host work: mps
//   mps is 1.33x the cpu with the GPU 99% busy
// %% [python]
// for w in [Workload(32, 256), Workload(2048, 2048), Workload(256, 1024, 20), Workload(256, 1024)]:
//     cpu, mps = time_steps(w, torch.device("cpu")), time_steps(w, torch.device("mps"))
//     where, why = choose_lane(Evidence(cpu.step_ms, mps.step_ms, mps.gpu_busy_ms / mps.step_ms))
//     print(f"batch {w.batch}, width {w.width}, {w.prepare_ms:.0f} ms of host work: {where}")
//     print("  " + why)

// %% [markdown] facts="20 ms, 7.80 ms"
// The third workload, with 20 ms of host work per step, is the runbook's first rule at work. On
// the M3 Max the model alone is {{runbook_on_measured_workloads@m3-max-64gb:0 ms...0 ms...0 ms...0 ms...mps is}}x faster
// on `mps` (the fourth workload), but with 20 ms of tokenizing in every step both devices wait
// for the host, the speedup shrinks to {{runbook_on_measured_workloads@m3-max-64gb:20 ms of host work...only}}x and the
// GPU is busy {{runbook_on_measured_workloads@m3-max-64gb:20 ms of host work...idles (}} % of the time. Making the model
// wider would only hide the problem: move the tokenizing out of the step (a `DataLoader` with
// workers, or data prepared once and cached), then measure again. On the M1 (its output is shown
// too) the rule does not fire ({{runbook_on_measured_workloads@m1-8gb:20 ms of host work...mps is}}x,
// {{runbook_on_measured_workloads@m1-8gb:20 ms of host work...GPU}} % busy), and the reason is worth seeing: on `mps`
// the GPU computes the last batch while the host prepares the next, so the GPU's work hides
// behind the host's 20 ms and the step takes little more than those 20 ms; on the cpu the
// model's own time adds to them. The M1's cpu needs 7.80 ms for this model against the M3 Max's
// 3.26 (section 7.1's first table), so there is more to hide there.
//
// ## When to move: beyond speed
//
// Speed is one of four reasons to move a job. The runbook's others, as evidence the rules read:
// the large step above, measured again, and then the same step with one more thing known about
// the job.

// %% when_to_move requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("what the runbook says beyond speed: trust, memory, fallbacks and the job's kind") {
  const Workload large{2048, 2048};
  const Timing cpu = time_steps(large, torch::Device("cpu")),
               mps = time_steps(large, torch::Device("mps"));
  const Evidence fast{.cpu_step_ms = cpu.step_ms,
                      .mps_step_ms = mps.step_ms,
                      .gpu_busy_share = mps.gpu_busy_ms / mps.step_ms};
  Evidence leaking = fast, falling_back = fast, serving = fast, overnight = fast, audited = fast;
  leaking.memory_growth = 0.40;
  falling_back.hot_op_falls_back = true;
  serving.mostly_llm_inference = true;
  overnight.long_jobs_on_a_shared_laptop = true;
  audited.needs_bitwise_cuda_match = true;
  for (const auto& [name, e] :
       {std::pair{"fast and healthy", fast}, std::pair{"leaking", leaking},
        std::pair{"falls back", falling_back}, std::pair{"serves an LLM", serving},
        std::pair{"runs overnight", overnight}, std::pair{"must match CUDA", audited}}) {
    const Lane lane = choose_lane(e);
    print(fmt::format("{:<16} -> {:<6} {}", name, lane.where, lane.why));
  }
}
// %% [output]
// fast and healthy -> mps    mps is 4.11x the cpu with the GPU 100% busy
// leaking          -> remote memory grew 40% over ten epochs: find the retained tensors, then plan a dedicated host
// falls back       -> MLX    a hot op falls back to the cpu: name it; if it stays unfixed, move the model to MLX or a remote host
// serves an LLM    -> MLX    language-model inference is what MLX is built for
// runs overnight   -> remote long queues compete with the laptop's other work for unified memory
// must match CUDA  -> CUDA   bitwise parity needs a CUDA machine itself; keep mps for preprocessing
// %% [output] machine="m1-8gb"
// fast and healthy -> mps    mps is 1.98x the cpu with the GPU 100% busy
// leaking          -> remote memory grew 40% over ten epochs: find the retained tensors, then plan a dedicated host
// falls back       -> MLX    a hot op falls back to the cpu: name it; if it stays unfixed, move the model to MLX or a remote host
// serves an LLM    -> MLX    language-model inference is what MLX is built for
// runs overnight   -> remote long queues compete with the laptop's other work for unified memory
// must match CUDA  -> CUDA   bitwise parity needs a CUDA machine itself; keep mps for preprocessing
// %% [python]
// from dataclasses import replace
//
// large = Workload(2048, 2048)
// cpu, mps = time_steps(large, torch.device("cpu")), time_steps(large, torch.device("mps"))
// fast = Evidence(cpu.step_ms, mps.step_ms, mps.gpu_busy_ms / mps.step_ms)
// cases = [("fast and healthy", fast),
//          ("leaking", replace(fast, memory_growth=0.40)),
//          ("falls back", replace(fast, hot_op_falls_back=True)),
//          ("serves an LLM", replace(fast, mostly_llm_inference=True)),
//          ("runs overnight", replace(fast, long_jobs_on_a_shared_laptop=True)),
//          ("must match CUDA", replace(fast, needs_bitwise_cuda_match=True))]
// for name, e in cases:
//     where, why = choose_lane(e)
//     print(f"{name:<16} -> {where:<6} {why}")

// %% [markdown] facts="10 %"
// Each move has a trigger you can check:
//
// - **to MLX** when the dominant work is language-model inference (MLX and the tools built on
//   it are tuned for exactly that), or when a hot operator keeps falling back to the cpu and
//   cannot be fixed. Converting a PyTorch model to MLX is manual work, and two stacks must then
//   be kept in step: move for a reason, not a hunch.
// - **to a remote Apple-silicon machine** when long queues would run on a laptop that also
//   holds video calls, a browser and an IDE in the same unified memory, or when memory keeps
//   growing and the job needs a host of its own while you hunt the cause.
// - **to a split architecture** when the same few operators still fall back after two weeks of
//   work: keep what runs well on `mps`, and move those parts deliberately.
// - **stop tuning** when two profiling passes a week apart, with data loading already fixed,
//   still disagree and point at the same few operators. No PyTorch upgrade will change the
//   physics: rewrite those layers, move them, or move the heavy phase to hardware you trust,
//   and write down what you tried and why it failed.
//
// ## The batch sweep
//
// The batch decides both the speedup and the memory. The runbook's sweep doubles it until
// memory refuses, recording throughput and the memory the process holds. The helper below picks
// a batch from the sweep; its rule is the course's, not the runbook's: the smallest batch within
// 10 % of the best throughput, because past that point a bigger batch buys memory pressure and
// fewer updates per epoch, not speed.

// %%
struct SweepPoint {
  std::int64_t batch = 0;
  double examples_per_second = 0;
  std::int64_t driver_bytes = 0;
};

std::int64_t pick_batch(const std::vector<SweepPoint>& sweep) {
  double best = 0;
  for (const SweepPoint& p : sweep) best = std::max(best, p.examples_per_second);
  for (const SweepPoint& p : sweep) {
    if (p.examples_per_second >= 0.9 * best) return p.batch;
  }
  return 0;
}
// %% [python]
// @dataclass
// class SweepPoint:
//     batch: int
//     examples_per_second: float
//     driver_bytes: int
//
//
// def pick_batch(sweep):
//     """The smallest batch within 10 % of the best throughput."""
//     best = max(p.examples_per_second for p in sweep)
//     return next(p.batch for p in sweep if p.examples_per_second >= 0.9 * best)

// %% batch_sweep requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("the batch sweep: double until memory refuses, record throughput and memory") {
  std::vector<SweepPoint> sweep;
  for (std::int64_t batch = 4096;; batch *= 2) {
    try {
      const Timing t = time_steps({batch, 2048}, torch::Device("mps"));
      sweep.push_back({batch, static_cast<double>(batch) / t.step_ms * 1e3, t.driver_bytes});
      print(fmt::format("batch {:>7}: {:>9.0f} examples/s, {:>6.2f} GiB held", batch,
                        sweep.back().examples_per_second,
                        static_cast<double>(t.driver_bytes) / (1 << 30)));
    } catch (const torch::Error& error) {
      print(fmt::format("batch {:>7}: out of memory", batch));
      break;
    }
  }
  print("batch to use:", pick_batch(sweep));
}
// %% [output]
// batch    4096:    205105 examples/s,   1.02 GiB held
// batch    8192:    223052 examples/s,   1.02 GiB held
// batch   16384:    233253 examples/s,   1.02 GiB held
// batch   32768:    238710 examples/s,   2.02 GiB held
// batch   65536:    233157 examples/s,   3.02 GiB held
// batch  131072:    234565 examples/s,   6.02 GiB held
// batch  262144:    235275 examples/s,  11.02 GiB held
// batch  524288:    235632 examples/s,  21.02 GiB held
// batch 1048576:    235810 examples/s,  41.02 GiB held
// batch 2097152:    107495 examples/s,  65.02 GiB held
// batch 4194304: out of memory
// batch to use: 8192
// %% [output] machine="m1-8gb"
// batch    4096:     38410 examples/s,   1.02 GiB held
// batch    8192:     41140 examples/s,   1.02 GiB held
// batch   16384:     42656 examples/s,   1.02 GiB held
// batch   32768:     43456 examples/s,   2.02 GiB held
// batch   65536:     42211 examples/s,   3.02 GiB held
// batch  131072:     28486 examples/s,   6.02 GiB held
// batch  262144: out of memory
// batch to use: 8192
// %% [python]
// sweep, batch = [], 4096
// while True:
//     try:
//         t = time_steps(Workload(batch, 2048), torch.device("mps"))
//         sweep.append(SweepPoint(batch, batch / t.step_ms * 1e3, t.driver_bytes))
//         print(f"batch {batch:>7}: {sweep[-1].examples_per_second:>9.0f} examples/s, "
//               f"{t.driver_bytes / (1 << 30):>6.2f} GiB held")
//     except RuntimeError:
//         print(f"batch {batch:>7}: out of memory")
//         break
//     batch *= 2
// print("batch to use:", pick_batch(sweep))

// %% [markdown] facts="64 GB, 8 GB"
// Throughput rises quickly while the batch is small and then flattens: from 8192 on, the M3 Max's
// GPU is full, and a larger batch only takes more memory. Two batches from the end the cliff
// appears: 2097152 examples hold {{batch_sweep@m3-max-64gb:batch 2097152:...examples/s,}} GiB,
// which with the other applications' memory no longer fits in 64 GB, macOS swaps, and throughput
// halves. The next doubling is refused. On the M1 the same cliff comes at 131072 (the M1's
// output), with {{batch_sweep@m1-8gb:batch  131072:...examples/s,}} GiB held on an 8 GB machine. Record each line:
// the batch, the throughput and the memory are the evidence a reviewer asks for, and the sweep on a
// remote machine with more memory will land elsewhere with the same method.
//
// ## First epoch against steady epochs
//
// Numbers from the first epoch describe a different program from the steady ones. Every
// operation meets its shapes for the first time and PyTorch builds its GPU code (lesson 5); a
// last batch smaller than the others (1000 examples in batches of 64 leave 40) brings new
// shapes and builds again. Time three epochs:

// %% first_epoch_vs_steady requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("the first epoch pays for building graphs; label which epochs a number comes from") {
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  auto model = make_classifier(768);
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters());
  std::vector<double> epochs_ms;
  for (int epoch = 1; epoch <= 3; ++epoch) {
    const double start = py::time::perf_counter();
    for (std::int64_t first = 0; first < 1000; first += 64) {  // 15 batches of 64, then one of 40
      const std::int64_t batch = std::min<std::int64_t>(64, 1000 - first);
      const auto x = torch::randn({batch, 768}, device);
      const auto y =
          torch::zeros({batch}, torch::TensorOptions().dtype(torch::kInt64).device(device));
      optimizer.zero_grad();
      F::cross_entropy(model(x), y).backward();
      optimizer.step();
    }
    torch::mps::synchronize();
    epochs_ms.push_back((py::time::perf_counter() - start) * 1e3);
    print(fmt::format("epoch {}: {:.2f} ms", epoch, epochs_ms.back()));
  }
  print(fmt::format("the first epoch took {:.2f}x a steady one", epochs_ms[0] / epochs_ms[2]));
}
// %% [output]
// epoch 1: 28.03 ms
// epoch 2: 19.93 ms
// epoch 3: 19.93 ms
// the first epoch took 1.41x a steady one
// %% [output] machine="m1-8gb"
// epoch 1: 55.78 ms
// epoch 2: 49.38 ms
// epoch 3: 49.38 ms
// the first epoch took 1.13x a steady one
// %% [python]
// device = torch.device("mps")
// model = make_classifier(768).to(device)
// optimizer = torch.optim.AdamW(model.parameters())
// epochs_ms = []
// for epoch in range(1, 4):
//     start = time.perf_counter()
//     for first in range(0, 1000, 64):  # 15 batches of 64, then one of 40
//         batch = min(64, 1000 - first)
//         x = torch.randn(batch, 768, device=device)
//         y = torch.zeros(batch, dtype=torch.int64, device=device)
//         optimizer.zero_grad()
//         F.cross_entropy(model(x), y).backward()
//         optimizer.step()
//     torch.mps.synchronize()
//     epochs_ms.append((time.perf_counter() - start) * 1e3)
//     print(f"epoch {epoch}: {epochs_ms[-1]:.2f} ms")
// print(f"the first epoch took {epochs_ms[0] / epochs_ms[2]:.2f}x a steady one")

// %% [markdown]
// The first epoch takes {{first_epoch_vs_steady@m3-max-64gb:epoch 1:}} ms on the M3 Max, the next two
// {{first_epoch_vs_steady@m3-max-64gb:epoch 2:}} ms each: {{first_epoch_vs_steady@m3-max-64gb:took}}x, and the extra is spent once
// (on the M1, whose GPU takes longer over the steps themselves, {{first_epoch_vs_steady@m1-8gb:took}}x). On a real run
// the gap can be larger (a `DataLoader` starting its workers, files entering the disk cache), and
// it never comes back. So a design review should hear which window a number comes from: "steady
// epochs 2 to 3" and "first epoch" are different claims.
