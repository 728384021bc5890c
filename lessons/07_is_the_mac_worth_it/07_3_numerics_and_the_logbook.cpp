// %% [markdown]
// # 7.3 · Numerics and the logbook
//
// Sections 7.1 and 7.2 compared times. This one compares results, which the cpu and the GPU do
// not produce to the last bit, and ends with the record that lets someone else repeat a trial.

// %%
#include "shared.h"  // the model, the workloads and the honest timing of a step

// %% [markdown]
// ## Numerics: close, not identical
//
// The runbook's third rule is about numbers, not time. The cpu and the GPU both compute in
// float32, but they add in different orders: the cpu's kernels sum long rows in their own
// blocked order, while a GPU splits each sum over the threads of a SIMD-group and combines the
// partial sums in a tree, and multiplies matrices in small tiles. Floating-point addition is
// not associative, so the results differ in the last bits. The emulator reproduces this: its
// `mps` sums and matrix products add in a representative GPU order, and its cpu products in
// blocks the way a BLAS kernel does, each order fixed by the emulator's code so that every
// computer prints the same digits below. Apple's exact orders are not public, so the digits a
// real Mac prints will differ from these; the size of the differences is what carries over.
// The same seeded linear layer on both devices:

// %% last_bits requires="mps"
TUTOR_CELL("the same layer on cpu and mps agrees to the last few bits, not bit for bit") {
  torch::manual_seed(0);
  torch::nn::Linear layer(768, 3);
  const auto vectors = torch::randn({32, 768});
  const auto on_cpu = layer(vectors);
  layer->to(torch::Device("mps"));
  const auto on_mps = layer(vectors.to(torch::Device("mps"))).cpu();
  const std::vector<float> a = on_cpu.to_vector<float>(), b = on_mps.to_vector<float>();
  double largest = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    largest = std::max<double>(largest, std::abs(a[i] - b[i]));
  print("equal:", torch::equal(on_cpu, on_mps));
  print(fmt::format("largest difference: {:.1e}", largest));
  print("allclose, default tolerances:", torch::allclose(on_mps, on_cpu));
  print(fmt::format("first logit: cpu {:.9f}, mps {:.9f}", a[0], b[0]));
}
// %% [output]
// equal: False
// largest difference: 9.5e-07
// allclose, default tolerances: True
// first logit: cpu 0.233124241, mps 0.233124256
// %% [python]
// torch.manual_seed(0)
// layer = torch.nn.Linear(768, 3)
// vectors = torch.randn(32, 768)
// on_cpu = layer(vectors)
// layer.to("mps")
// on_mps = layer(vectors.to("mps")).cpu()
// print("equal:", torch.equal(on_cpu, on_mps))
// print(f"largest difference: {(on_cpu - on_mps).abs().max().item():.1e}")
// print("allclose, default tolerances:", torch.allclose(on_mps, on_cpu))
// print(f"first logit: cpu {on_cpu[0, 0].item():.9f}, mps {on_mps[0, 0].item():.9f}")

// %% [markdown]
// `torch.equal` says no; the largest difference is 9.5e-07, in the seventh significant digit.
// Neither device is wrong: each rounded 768 products differently. Compare results across
// devices with `torch.allclose(actual, expected, rtol=1e-05, atol=1e-08)`, which accepts an
// element when
//
//     |actual - expected| <= atol + rtol * |expected|
//
// `rtol` is a relative tolerance, `atol` an absolute floor for values near zero, where any
// relative test fails. The test is not symmetric: the second argument is the reference.

// %% tolerances
TUTOR_CELL("allclose passes when |a - b| <= atol + rtol x |b|") {
  const auto reference = torch::tensor({1.0, 1000.0, 0.0});
  for (const auto& [label, candidate] :
       {std::pair{"off by 1e-6 relative", torch::tensor({1.000001, 1000.001, 0.0})},
        std::pair{"off by 1e-4 relative", torch::tensor({1.0001, 1000.1, 0.0})},
        std::pair{"1e-7 where 0 is expected", torch::tensor({1.0, 1000.0, 1e-7})}}) {
    print(fmt::format("{:<26} default: {:<5}  atol=1e-6: {}", label,
                      py::str(torch::allclose(candidate, reference)),
                      py::str(torch::allclose(candidate, reference, 1e-5, 1e-6))));
  }
}
// %% [output]
// off by 1e-6 relative       default: True   atol=1e-6: True
// off by 1e-4 relative       default: False  atol=1e-6: False
// 1e-7 where 0 is expected   default: False  atol=1e-6: True
// %% [python]
// reference = torch.tensor([1.0, 1000.0, 0.0])
// for label, candidate in [("off by 1e-6 relative", torch.tensor([1.000001, 1000.001, 0.0])),
//                          ("off by 1e-4 relative", torch.tensor([1.0001, 1000.1, 0.0])),
//                          ("1e-7 where 0 is expected", torch.tensor([1.0, 1000.0, 1e-7]))]:
//     print(f"{label:<26} default: {torch.allclose(candidate, reference)!s:<5}  "
//           f"atol=1e-6: {torch.allclose(candidate, reference, 1e-5, 1e-6)}")

// %% [markdown]
// The default `atol` of 1e-8 is tiny: a result that should be zero but comes out as 1e-7, the
// rounding left from a long sum, fails it. Choose the tolerances from the size of the values
// and the length of the sums behind them (an error of a few units in the last place per
// addition, growing with the square root of the number of terms), and write them down with the
// dtype: they are part of the experiment.
//
// Differences also accumulate over training. The same seeded SGD run of the classifier, a
// hundred steps on each device:

// %% loss_drift requires="mps"
TUTOR_CELL("a hundred SGD steps on cpu and mps: the losses drift apart in the last digits") {
  std::vector<float> losses[2];
  torch::Tensor weights[2];
  for (int d = 0; d < 2; ++d) {
    const torch::Device device(d == 0 ? "cpu" : "mps");
    torch::manual_seed(0);
    torch::nn::Linear model(768, 3);
    model->to(device);
    const auto vectors = torch::randn({8, 768}).to(device);
    const auto labels = torch::tensor({0, 2, 1, 0, 1, 2, 2, 0}).to(device);
    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
    for (int step = 0; step < 100; ++step) {
      optimizer.zero_grad();
      const auto loss = F::cross_entropy(model(vectors), labels);
      loss.backward();
      optimizer.step();
      losses[d].push_back(loss.item<float>());
    }
    weights[d] = model->weight.detach().cpu();
  }
  for (const int step : {1, 10, 100}) {
    const float c = losses[0][step - 1], m = losses[1][step - 1];
    print(fmt::format("step {:>3}: cpu {:.9f}  mps {:.9f}  relative difference {:.1e}", step, c, m,
                      std::abs(c - m) / c));
  }
  int differing = 0;
  double largest = 0;
  for (int step = 0; step < 100; ++step) {
    const double c = losses[0][step], m = losses[1][step];
    differing += c != m ? 1 : 0;
    largest = std::max(largest, std::abs(c - m) / c);
  }
  print(fmt::format("steps whose losses differ: {} of 100, by up to {:.1e}", differing, largest));
  print("weights allclose after 100 steps:", torch::allclose(weights[1], weights[0]));
}
// %% [output]
// step   1: cpu 0.958733559  mps 0.958733499  relative difference 6.2e-08
// step  10: cpu 0.079753496  mps 0.079753496  relative difference 0.0e+00
// step 100: cpu 0.007307819  mps 0.007307820  relative difference 1.9e-07
// steps whose losses differ: 84 of 100, by up to 8.7e-07
// weights allclose after 100 steps: True
// %% [python]
// losses, weights = [[], []], [None, None]
// for d, device in enumerate([torch.device("cpu"), torch.device("mps")]):
//     torch.manual_seed(0)
//     model = torch.nn.Linear(768, 3).to(device)
//     vectors = torch.randn(8, 768).to(device)
//     labels = torch.tensor([0, 2, 1, 0, 1, 2, 2, 0]).to(device)
//     optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
//     for step in range(100):
//         optimizer.zero_grad()
//         loss = F.cross_entropy(model(vectors), labels)
//         loss.backward()
//         optimizer.step()
//         losses[d].append(loss.item())
//     weights[d] = model.weight.detach().cpu()
// for step in [1, 10, 100]:
//     c, m = losses[0][step - 1], losses[1][step - 1]
//     print(f"step {step:>3}: cpu {c:.9f}  mps {m:.9f}  relative difference {abs(c - m) / c:.1e}")
// differing = sum(c != m for c, m in zip(*losses))
// largest = max(abs(c - m) / c for c, m in zip(*losses))
// print(f"steps whose losses differ: {differing} of 100, by up to {largest:.1e}")
// print("weights allclose after 100 steps:", torch.allclose(weights[1], weights[0]))

// %% [markdown]
// The first losses differ by 6.2e-08 of their size. From then on each step starts from slightly
// different weights, and the difference wanders instead of settling: at some steps the two
// losses still round to the same float (step 10 here), but 84 of the 100 differ, by up to
// 8.7e-07. For this small convex problem that stays harmless; in a long run of a deep model they can grow until two curves that
// started together look different. So the runbook's third rule asks what the project needs. A
// tolerance on the metrics that matter (validation loss, accuracy) is a sound gate; bitwise
// equality with another platform is not a realistic one, and a project that truly needs it
// must run where its reference runs.
//
// ## The logbook
//
// A speedup quoted without its circumstances cannot be checked. The runbook asks for a record
// of every trial run: the software (PyTorch's version and commit), the workload (batch and
// input size), the peak memory, the fallback setting, and the circumstances that silently move
// timings: the applications left open, whether the laptop ran on battery, Low Power Mode, the
// dataset's checksum. The run can write most of it itself. For the peak memory it reads the
// driver's count after the timed window: the allocator keeps every heap it took until
// `empty_cache()` (or memory pressure) hands it back, so that count only grows during the run,
// and what it holds at the end is the most the run held.

// %% experiment_logbook
TUTOR_CELL("the logbook entry of one trial run, written by the run itself") {
  if (!torch::mps::is_available()) {
    print("no mps device here: log the cpu run alone, and that mps was unavailable");
    return;
  }
  const Workload w{2048, 2048};
  const Timing cpu = time_steps(w, torch::Device("cpu")), mps = time_steps(w, torch::Device("mps"));
  print("machine:          ", sim::machine().summary);
  print("python:           ", py::platform::machine(), "on macOS",
        py::platform::mac_release());
  print("torch:            ", sim::kEmulatedPyTorchVersion, "commit",
        sim::kEmulatedPyTorchCommit.substr(0, 12));
  print("mps:              ", "built", py::torch::backends::mps::is_built(), "available",
        torch::mps::is_available());
  print("workload:         ", fmt::format("batch {}, width {}, float32, AdamW", w.batch, w.width));
  print("window:           ", "steady: 10 steps after 1 warm-up, synchronized");
  print("step:             ", fmt::format("cpu {:.2f} ms, mps {:.2f} ms ({:.2f}x)", cpu.step_ms,
                                          mps.step_ms, cpu.step_ms / mps.step_ms));
  print("GPU busy:         ", py::percent(mps.gpu_busy_ms / mps.step_ms));
  print("peak memory held: ",
        fmt::format("{:.2f} GiB", static_cast<double>(mps.driver_bytes) / (1 << 30)));
  print("fallback variable:", py::os::getenv("PYTORCH_ENABLE_MPS_FALLBACK").value_or("unset"));
  print("by hand:          ",
        "dataset checksum, commit of the code, apps left open, power adapter, Low Power Mode");
}
// %% [output]
// machine:           MacBook Pro, Apple M3 Max (40-core GPU), 64 GB, macOS 15.6.1 (the nanoGPT machine)
// python:            arm64 on macOS 15.6.1
// torch:             2.9 commit 0fabc3ba4482
// mps:               built True available True
// workload:          batch 2048, width 2048, float32, AdamW
// window:            steady: 10 steps after 1 warm-up, synchronized
// step:              cpu 47.81 ms, mps 11.63 ms (4.11x)
// GPU busy:          100%
// peak memory held:  1.02 GiB
// fallback variable: unset
// by hand:           dataset checksum, commit of the code, apps left open, power adapter, Low Power Mode
// %% [output] machine="m1-8gb"
// machine:           MacBook Air, Apple M1 (8-core GPU), 8 GB, macOS 15.5
// python:            arm64 on macOS 15.5
// torch:             2.9 commit 0fabc3ba4482
// mps:               built True available True
// workload:          batch 2048, width 2048, float32, AdamW
// window:            steady: 10 steps after 1 warm-up, synchronized
// step:              cpu 119.52 ms, mps 60.40 ms (1.98x)
// GPU busy:          100%
// peak memory held:  1.02 GiB
// fallback variable: unset
// by hand:           dataset checksum, commit of the code, apps left open, power adapter, Low Power Mode
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// no mps device here: log the cpu run alone, and that mps was unavailable
// %% [python]
// import os
// import platform
//
// if not torch.backends.mps.is_available():
//     print("no mps device here: log the cpu run alone, and that mps was unavailable")
// else:
//     w = Workload(2048, 2048)
//     cpu, mps = time_steps(w, torch.device("cpu")), time_steps(w, torch.device("mps"))
//     print("machine:          ", platform.platform())
//     print("python:           ", platform.machine(), "on macOS", platform.mac_ver()[0])
//     print("torch:            ", torch.__version__, "commit", torch.version.git_version[:12])
//     print("mps:              ", "built", torch.backends.mps.is_built(), "available", torch.backends.mps.is_available())
//     print("workload:         ", f"batch {w.batch}, width {w.width}, float32, AdamW")
//     print("window:           ", "steady: 10 steps after 1 warm-up, synchronized")
//     print("step:             ", f"cpu {cpu.step_ms:.2f} ms, mps {mps.step_ms:.2f} ms ({cpu.step_ms / mps.step_ms:.2f}x)")
//     print("GPU busy:         ", f"{mps.gpu_busy_ms / mps.step_ms:.0%}")
//     print("peak memory held: ", f"{mps.driver_bytes / (1 << 30):.2f} GiB")
//     print("fallback variable:", os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK", "unset"))
//     print("by hand:           dataset checksum, commit of the code, apps left open, power adapter, Low Power Mode")

// %% [markdown]
// Keep the entries next to the code, one per trial, and add the runs that failed: a short list
// of hypotheses you rejected saves the next person the same week. When the job moves to another
// machine, move the environment with it (the same lock file, the same data snapshot, the same
// variables) and run the same sweep there first; a difference you cannot explain by the input
// path, the background load or the temperature is not yet a result.
//
// ## Resuming a run exactly
//
// A trial that stops halfway (a crash, a closed lid, a job moved to another Mac) resumes from
// its checkpoint, and a checkpoint of weights and optimizer alone does not resume the same run:
// the dropout masks, shuffles and augmentations after it are fresh draws. `mps` keeps its own
// generator, apart from the cpu's; `torch.mps.get_rng_state()` copies its state into a small
// cpu tensor to save beside the weights, and `torch.mps.set_rng_state()` puts it back. Seeding
// again is not the same thing: it rewinds to the run's first draws.

// %% resume_from_saved_state requires="mps"
TUTOR_CELL("a run resumed from saved generator state draws what it would have drawn") {
  const torch::Device mps("mps");
  torch::manual_seed(42);
  const auto first = torch::randn({4}, mps);  // the steps before the checkpoint
  const torch::Tensor saved = py::torch::mps::get_rng_state();
  const auto following = torch::randn({4}, mps);  // what the run drew next
  py::torch::mps::set_rng_state(saved);            // the checkpoint, loaded again
  const auto resumed = torch::randn({4}, mps);
  const std::vector<std::uint8_t> bytes = saved.to_vector<std::uint8_t>();
  std::uint64_t seed = 0;  // bytes 28 to 35, after seven 32-bit words: little-endian
  for (int i = 7; i >= 0; --i) seed = seed << 8 | bytes[static_cast<std::size_t>(28 + i)];
  print("state:", saved.numel(), "bytes of", saved.dtype());
  print("seed in the state:", seed);
  print("resumed draws what the run drew next:", torch::equal(resumed.cpu(), following.cpu()));
  torch::manual_seed(42);
  print("seeding again repeats the start:", torch::equal(torch::randn({4}, mps).cpu(), first.cpu()));
}
// %% [output]
// state: 44 bytes of torch.uint8
// seed in the state: 42
// resumed draws what the run drew next: True
// seeding again repeats the start: True
// %% [python]
// torch.manual_seed(42)
// first = torch.randn(4, device="mps")
// saved = torch.mps.get_rng_state()
// following = torch.randn(4, device="mps")
// torch.mps.set_rng_state(saved)
// resumed = torch.randn(4, device="mps")
// print("state:", saved.numel(), "bytes of", saved.dtype)
// print("seed in the state:", int.from_bytes(bytes(saved[28:36].tolist()), "little"))
// print("resumed draws what the run drew next:", torch.equal(resumed, following))
// torch.manual_seed(42)
// print("seeding again repeats the start:", torch.equal(torch.randn(4, device="mps"), first))

// %% [markdown] facts="26 %, 22 %, 18 %"
// The state holds the generator's seed and how far it has drawn, so the same 44 bytes resume
// the run on any Mac. Save the cpu's state too (`torch.get_rng_state()`) when the data loader
// shuffles or augments on the cpu.
//
// ## What to take away
//
// - Measure the whole step on both devices, on the machine that will run the job. Small work
//   loses on `mps` (fixed costs per operation); large work wins, by how much depends on the Mac.
// - A busy GPU is not a fast one: look at what its kernels do, and at whether the host keeps
//   it fed.
// - The runbook's rules, in order: trust (bitwise needs), memory (26 % over ten epochs), then
//   speed (22 %, with the 18 % utilisation check that sends you to the data plane first).
//   MLX, a remote host and CUDA have triggers of their own.
// - Sweep the batch to the memory limit; label first-epoch numbers; compare results with
//   `allclose` and tolerances you chose; keep a logbook; save the generators' states with
//   each checkpoint.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson07`. Practise the runbook's decision in lab 7:
// edit `labs/07_decision/lab.cpp` until `build/course verify 07` passes. Then lesson 8,
// `build/course run 08`, trains nanoGPT's Shakespeare model on the simulated M3 Max and
// reads its timeline.
