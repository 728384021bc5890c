// %% [markdown]
// # Lesson 4 · Unsupported operations and the CPU fallback
//
// PyTorch has thousands of operators, and the MPS backend implements most, but not all, of
// them. When a script calls an operator that has no MPS kernel on an `mps` tensor, PyTorch by
// default stops with a `NotImplementedError` that names the operator. Set the environment
// variable `PYTORCH_ENABLE_MPS_FALLBACK=1` before starting Python and the same operator runs
// on the cpu instead: PyTorch copies its inputs to the cpu (which first waits for the GPU to
// finish everything queued), runs the cpu kernel, and copies the result back to `mps`. The
// script survives. Whether it stays fast is another question, and this lesson measures it.
//
// Two details trip people up. PyTorch reads the variable once, when `torch` is imported, so
// setting `os.environ["PYTORCH_ENABLE_MPS_FALLBACK"]` later in the script changes nothing.
// And the fallback warns only once per process, for the first operator that falls back; every
// later fallback, of that operator or any other, is silent.
//
// **What the emulator models.** Its operator registry lists the operators it implements that
// PyTorch 2.9 has no MPS kernel for. Here that is the bag-of-words lookup
// `torch.nn.EmbeddingBag`: its forward operator `aten::_embedding_bag` and its backward
// `aten::_embedding_bag_dense_backward` gained MPS kernels only in the 2.10 development cycle
// (pytorch/pytorch#162270, #163012, #163931). Python also prints the file and line that raised
// a warning; the emulator prints just the warning.
//
// Terms the course uses before explaining them are in its glossary: `lesson04 --glossary`.

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

// "a -> b -> c"
std::string joined(const std::vector<std::string>& stages) {
  std::string text;
  for (const std::string& stage : stages) text += (text.empty() ? "" : " -> ") + stage;
  return text;
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

// %% [markdown]
// ## Counting the boundaries
//
// Before any operator is involved, the cost of a fallback can be reasoned about on paper.
// Write down where each stage of a step runs; every change of backend is a boundary where data
// moves or the host waits:

// %% fallback_boundary_count
TUTOR_CELL("a fallback in the middle of the hot path adds two of the four backend changes") {
  const std::vector<std::string> path = {"host batch", "mps forward", "fallback op", "mps classifier", "host log"};
  std::vector<std::string> backends;
  for (const std::string& stage : path) backends.push_back(stage.substr(0, stage.find(' ')));
  int switches = 0;
  for (std::size_t i = 1; i < backends.size(); ++i) switches += backends[i] != backends[i - 1];
  print(joined(path));
  print("backend changes:", switches);
  print("fix target: remove fallback from hot path");
}
// %% [output]
// host batch -> mps forward -> fallback op -> mps classifier -> host log
// backend changes: 4
// fix target: remove fallback from hot path
// %% [python]
// path = ["host batch", "mps forward", "fallback op", "mps classifier", "host log"]
// backends = [stage.split(" ")[0] for stage in path]
// switches = sum(a != b for a, b in zip(backends, backends[1:]))
// print(" -> ".join(path))
// print("backend changes:", switches)
// print("fix target: remove fallback from hot path")

// %% [markdown]
// Moving the batch in at the start and bringing a number out for the log at the end are
// boundaries you choose. The two around the fallback are the ones to remove.
//
// ## A classifier with a hole in its hot path
//
// A classic text classifier skips attention entirely: it looks up a vector for every token,
// averages each report's vectors, and classifies the average. `nn.EmbeddingBag` does the
// lookup and the averaging in one operator, which is exactly why people reach for it, and
// why it lands in the hot path. The tokens come from a 30,000-word vocabulary; the batch is 32
// reports of 128 tokens. The model is built **shape-only** (`sim::ShapeOnlyGuard`): its tensors
// have shapes, devices and costs on the simulated Mac, but no values, much like PyTorch's
// `meta` tensors. The cells below need the step's timeline, not its numbers, and shape-only
// tensors give the timeline without computing anything. Lesson 5 uses them for a model far
// larger than this one.

// %%
constexpr std::int64_t kVocabulary = 30000, kWidth = 768, kReports = 32, kTokens = 128;

struct BagClassifier {
  torch::nn::EmbeddingBag bag{kVocabulary, kWidth};  // the average of each report's token vectors
  torch::nn::Linear head{kWidth, 3};

  std::vector<torch::Tensor> parameters() const { return {bag->weight, head->weight, head->bias}; }
  void to(torch::Device device) {
    bag->to(device);
    head->to(device);
  }
};

// Token ids as a tokenizer hands them over: int64 on the cpu.
torch::Tensor tokenized_batch() { return torch::zeros({kReports, kTokens}, torch::kInt64); }

// The classifier on `device` with its optimizer and labels, built shape-only: the cells below
// need its timeline, not its numbers.
struct Trainer {
  sim::ShapeOnlyGuard shape_only;
  torch::Device device;
  BagClassifier model;
  torch::optim::SGD optimizer{model.parameters(), torch::optim::SGDOptions(0.1)};
  torch::Tensor labels = torch::zeros({kReports}, torch::TensorOptions().dtype(torch::kInt64).device(device));

  explicit Trainer(torch::Device where) : device(where) { model.to(device); }

  // One SGD step on a freshly tokenized batch; the loss stays on the device. With `rewritten`,
  // the bag lookup is embedding + mean instead of nn.EmbeddingBag.
  torch::Tensor step(bool rewritten = false) {
    const auto ids = tokenized_batch().to(device);
    optimizer.zero_grad();
    const auto vectors = rewritten ? F::embedding(ids, model.bag->weight).mean({1}) : model.bag(ids);
    const auto loss = F::cross_entropy(model.head(vectors), labels);
    loss.backward();
    optimizer.step();
    return loss;
  }
};
// %% [python]
// VOCABULARY, WIDTH, REPORTS, TOKENS = 30000, 768, 32, 128
//
//
// class BagClassifier(torch.nn.Module):
//     def __init__(self):
//         super().__init__()
//         self.bag = torch.nn.EmbeddingBag(VOCABULARY, WIDTH)  # mode="mean": each report's average
//         self.head = torch.nn.Linear(WIDTH, 3)
//
//
// def tokenized_batch():
//     """Token ids as a tokenizer hands them over: int64 on the cpu."""
//     return torch.zeros(REPORTS, TOKENS, dtype=torch.int64)
//
//
// class Trainer:
//     def __init__(self, device):
//         self.device = device
//         self.model = BagClassifier().to(device)
//         self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
//         self.labels = torch.zeros(REPORTS, dtype=torch.int64, device=device)
//
//     def step(self, rewritten=False):
//         """One SGD step on a freshly tokenized batch; with `rewritten`, embedding + mean."""
//         ids = tokenized_batch().to(self.device)
//         self.optimizer.zero_grad()
//         if rewritten:
//             vectors = F.embedding(ids, self.model.bag.weight).mean(1)
//         else:
//             vectors = self.model.bag(ids)
//         loss = F.cross_entropy(self.model.head(vectors), self.labels)
//         loss.backward()
//         self.optimizer.step()
//         return loss

// %% [markdown]
// Run one step on `mps` the way a script starts by default, without the variable:

// %% without_fallback
TUTOR_CELL("without PYTORCH_ENABLE_MPS_FALLBACK the missing operator stops the step") {
  // A process started without the variable, even if your shell exports it: the emulator's
  // `env -u PYTORCH_ENABLE_MPS_FALLBACK python train.py`.
  sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", std::nullopt}});
  Trainer trainer(best_device());
  try {
    trainer.step();
    print("the step ran on", trainer.device);
  } catch (const torch::Error& error) {
    print(py::format_exception_only(error));
  }
}
// %% [output]
// NotImplementedError: The operator 'aten::_embedding_bag' is not currently implemented for the MPS device. If you want this op to be considered for addition please comment on https://github.com/pytorch/pytorch/issues/141287 and mention use-case, that resulted in missing op as well as commit hash 0fabc3ba44823f257e70ce397d989c8de5e362c1. As a temporary fix, you can set the environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: this will be slower than running natively on MPS.
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// the step ran on cpu
// %% [python]
// # Started as `env -u PYTORCH_ENABLE_MPS_FALLBACK python train.py`.
// trainer = Trainer(best_device())
// try:
//     trainer.step()
//     print("the step ran on", trainer.device)
// except NotImplementedError as error:
//     print(f"{type(error).__name__}: {error}")

// %% [markdown]
// The message names the operator, the release it came from (the commit hash) and the way out.
// On a machine without MPS the script runs on the cpu, where every operator has a kernel, and
// nothing is wrong. A CI box without a Mac never sees this error.
//
// Now the same script started as `PYTORCH_ENABLE_MPS_FALLBACK=1 python train.py`. A cell
// cannot change how its own process started, so it starts a new one with the variable set
// (`sim::restart_with_environment`), then trains three steps and asks the emulator what
// happened: how often each operator fell back, and where the work of the last step ran.

// %% with_fallback
TUTOR_CELL("with the fallback the step completes, warns once, and counts every detour") {
  sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});
  Trainer trainer(best_device());
  for (int step = 0; step < 3; ++step) {
    sim::clear_backend_path();  // watch the last step only
    trainer.step().item<double>();     // train, and log the loss
  }
  print("steps completed: 3");
  for (const auto& [op, count] : sim::fallback_counts()) print(" ", op, "fell back", count, "times");
  print("one step's backend path:", joined(sim::backend_path()));
  print("backend changes per step:", sim::backend_path().size() - 1);
}
// %% [output]
// UserWarning: The operator 'aten::_embedding_bag' is not currently supported on the MPS backend and will fall back to run on the CPU. This may have performance implications.
// steps completed: 3
//   aten::_embedding_bag fell back 3 times
//   aten::_embedding_bag_dense_backward fell back 3 times
// one step's backend path: cpu -> mps -> cpu fallback -> mps -> cpu fallback -> mps -> cpu
// backend changes per step: 6
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// steps completed: 3
// one step's backend path: cpu
// backend changes per step: 0
// %% [python] differs="the emulator counts each fallback and records where the work ran; PyTorch keeps no such counters (its profiler shows the same story)"
// # Started as `PYTORCH_ENABLE_MPS_FALLBACK=1 python train.py`.
// trainer = Trainer(best_device())
// for step in range(3):
//     trainer.step().item()  # train, and log the loss
// print("steps completed: 3")

// %% [markdown]
// ### What counts as "set"
//
// PyTorch does not compare the variable with `1`. On a build with MPS, `import torch` reads it
// with C++'s `std::stoi`, which takes the leading whole number and ignores the rest, and turns
// the fallback on for anything but 0. So `0.0` and ` 0` mean off, `1.5` means on, and a value
// that does not start with a number, such as `true` or an empty string, makes `std::stoi`
// throw inside PyTorch's start-up code: the process dies with a C++ message before the first
// line of the script, with no Python traceback to explain it. A PyTorch without MPS (Linux, or
// an x86_64 build under Rosetta) never reads the variable at all. Later PyTorch code compares
// the text with `0` instead (only `0` means off, and nothing aborts), so write exactly `1`
// and do not build on what other values happen to do.
//
// The warning below names `aten::_embedding_bag_forward_only`: when the table needs no gradient,
// `embedding_bag` calls a forward-only operator, which has no MPS kernel in 2.9 either.

// %% fallback_variable_values
TUTOR_CELL("the fallback variable is read as a whole number, and text kills the import") {
  for (const char* value : {"0.0", " 0", "1.5", "true", ""}) {
    const std::string label = fmt::format("{:<6}", fmt::format("'{}'", value));
    try {
      sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", std::string(value)}});
    } catch (const sim::ProcessAborted& crash) {
      print(label, "import torch aborts:", crash.what());
      continue;
    }
    if (!torch::mps::is_available()) {
      print(label, "no mps device here: nothing to fall back from");
      continue;
    }
    print(label, "running an operator without an MPS kernel:");
    const auto ids = torch::zeros({1, 2}, torch::TensorOptions().dtype(torch::kInt64).device("mps"));
    try {
      F::embedding_bag(ids, torch::zeros({3, 2}, torch::Device("mps")));
      print("       the fallback ran it on the cpu");
    } catch (const torch::Error& error) {
      print("      ", error.python_type(), "(the fallback is off)");
    }
  }
}
// %% [output]
// '0.0'  running an operator without an MPS kernel:
//        NotImplementedError (the fallback is off)
// ' 0'   running an operator without an MPS kernel:
//        NotImplementedError (the fallback is off)
// '1.5'  running an operator without an MPS kernel:
// UserWarning: The operator 'aten::_embedding_bag_forward_only' is not currently supported on the MPS backend and will fall back to run on the CPU. This may have performance implications.
//        the fallback ran it on the cpu
// 'true' import torch aborts: libc++abi: terminating due to uncaught exception of type std::invalid_argument: stoi: no conversion
// ''     import torch aborts: libc++abi: terminating due to uncaught exception of type std::invalid_argument: stoi: no conversion
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7"
// '0.0'  no mps device here: nothing to fall back from
// ' 0'   no mps device here: nothing to fall back from
// '1.5'  no mps device here: nothing to fall back from
// 'true' import torch aborts: libc++abi: terminating due to uncaught exception of type std::invalid_argument: stoi: no conversion
// ''     import torch aborts: libc++abi: terminating due to uncaught exception of type std::invalid_argument: stoi: no conversion
// %% [output] machine="linux-x86_64,rosetta-x86_64"
// '0.0'  no mps device here: nothing to fall back from
// ' 0'   no mps device here: nothing to fall back from
// '1.5'  no mps device here: nothing to fall back from
// 'true' no mps device here: nothing to fall back from
// ''     no mps device here: nothing to fall back from
// %% [python]
// probe = """
// import torch
// if not torch.backends.mps.is_available():
//     print("no mps device here: nothing to fall back from")
// else:
//     print("running an operator without an MPS kernel:", flush=True)
//     ids = torch.zeros(1, 2, dtype=torch.int64, device="mps")
//     try:
//         torch.nn.functional.embedding_bag(ids, torch.zeros(3, 2, device="mps"))
//         print("       the fallback ran it on the cpu")
//     except NotImplementedError as error:
//         print("      ", type(error).__name__, "(the fallback is off)")
// """
// for value in ["0.0", " 0", "1.5", "true", ""]:
//     label = f"{repr(value):<6}"
//     run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
//                          env=dict(os.environ, PYTORCH_ENABLE_MPS_FALLBACK=value))
//     if run.returncode < 0:  # killed by a signal: abort() after an uncaught C++ exception
//         print(label, "import torch aborts:", run.stderr.strip().splitlines()[0])
//     else:
//         print(label, run.stdout.strip())

// %% [markdown]
// ## What the detour costs
//
// A fallback is not just a slower kernel. The copy to the cpu has to wait until the GPU has
// finished everything queued before it, so the host can no longer run ahead; the cpu does the
// lookup and, in the backward pass, builds a gradient as large as the whole 30,000-row table;
// and both results are copied back. The fix here is a rewrite with operators that do have MPS
// kernels: `nn.EmbeddingBag` in mean mode is `embedding` followed by `mean` over the tokens.

// %%
// Seconds per step over ten steps after one warm-up step, with the bag lookup either through
// nn.EmbeddingBag (and its fallback) or rewritten as embedding + mean.
double seconds_per_step(bool rewritten) {
  sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});
  Trainer trainer(torch::Device("mps"));
  trainer.step(rewritten);  // warm-up
  torch::mps::synchronize();
  const double start = py::time::perf_counter();
  for (int i = 0; i < 10; ++i) trainer.step(rewritten);
  torch::mps::synchronize();
  return (py::time::perf_counter() - start) / 10;
}
// %% [python]
// def seconds_per_step(rewritten):
//     """Seconds per step over ten steps after one warm-up step; the script was started with
//     PYTORCH_ENABLE_MPS_FALLBACK=1."""
//     trainer = Trainer(torch.device("mps"))
//     trainer.step(rewritten)  # warm-up
//     torch.mps.synchronize()
//     start = time.perf_counter()
//     for _ in range(10):
//         trainer.step(rewritten)
//     torch.mps.synchronize()
//     return (time.perf_counter() - start) / 10

// %% fallback_step_time requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("removing the fallback from the hot path makes the step faster") {
  const double with_fallback = seconds_per_step(false);
  const double rewritten = seconds_per_step(true);
  print(fmt::format("EmbeddingBag with the cpu fallback: {:.2f} ms per step", with_fallback * 1e3));
  print(fmt::format("rewritten as embedding + mean:      {:.2f} ms per step", rewritten * 1e3));
  print(fmt::format("the fallback made each step {:.1f}x slower", with_fallback / rewritten));
  CHECK(with_fallback > rewritten);
}
// %% [output]
// UserWarning: The operator 'aten::_embedding_bag' is not currently supported on the MPS backend and will fall back to run on the CPU. This may have performance implications.
// EmbeddingBag with the cpu fallback: 4.71 ms per step
// rewritten as embedding + mean:      2.25 ms per step
// the fallback made each step 2.1x slower
// %% [output] machine="m1-8gb"
// UserWarning: The operator 'aten::_embedding_bag' is not currently supported on the MPS backend and will fall back to run on the CPU. This may have performance implications.
// EmbeddingBag with the cpu fallback: 12.34 ms per step
// rewritten as embedding + mean:      10.39 ms per step
// the fallback made each step 1.2x slower
// %% [python]
// with_fallback = seconds_per_step(False)
// rewritten = seconds_per_step(True)
// print(f"EmbeddingBag with the cpu fallback: {with_fallback * 1e3:.2f} ms per step")
// print(f"rewritten as embedding + mean:      {rewritten * 1e3:.2f} ms per step")
// print(f"the fallback made each step {with_fallback / rewritten:.1f}x slower")

// %% [markdown] facts="88 MiB"
// On the M3 Max the detour stretches a step from
// {{fallback_step_time@m3-max-64gb:rewritten as embedding + mean:}} ms to
// {{fallback_step_time@m3-max-64gb:with the cpu fallback:}} ms, more than doubling it. The lookup
// itself is a small part of it: most of the time goes to copying the 88 MiB table to the cpu,
// building its 88 MiB gradient on the cpu and copying that back, every step, with the GPU idle
// while the host waits. The larger the table, the larger the bill; on the M1, whose GPU takes longer over
// the rest of the step, the same detour weighs less (its documented output is under this
// one's).
//
// Other ways out, in the order to try them: upgrade PyTorch (2.10 has MPS kernels for this
// operator), rewrite the layer with supported operators as above, or, if the operator is
// outside the hot path (evaluation, preprocessing), accept the cpu path there and keep it out of
// the training loop. Leave the variable on while you look for the operators that need it;
// don't mistake a script that survives for a script that is fast.
//
// ## CPU work that is not fallback
//
// Not everything that runs on the cpu is a fallback. Tokenizing reports and assembling the
// batch happen on the cpu on every platform, before `.to("mps")`, and reading the loss for the
// log brings a number back. Those are the deliberate boundaries of the path above. With the
// rewritten model the emulator counts no fallback at all:

// %% cpu_work_is_not_fallback
TUTOR_CELL("tokenizing on the cpu before .to(device) is ordinary cpu work, not fallback") {
  sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});
  Trainer trainer(best_device());
  const BagClassifier& model = trainer.model;
  sim::clear_backend_path();  // from here on: one forward pass
  const auto ids = tokenized_batch().to(trainer.device);  // the tokenizer's output, moved once
  const auto logits = model.head(F::embedding(ids, model.bag->weight).mean({1}));
  logits.sum().item<double>();  // the number for the log
  print("backend path:", joined(sim::backend_path()));
  print("fallbacks:", sim::fallback_counts().size());
}
// %% [output]
// backend path: cpu -> mps -> cpu
// fallbacks: 0
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// backend path: cpu
// fallbacks: 0
// %% [python] differs="the emulator records where the work ran and counts fallbacks; PyTorch keeps no such record (its profiler shows the same story)"
// # Started as `PYTORCH_ENABLE_MPS_FALLBACK=1 python train.py`.
// trainer = Trainer(best_device())
// model = trainer.model
// ids = tokenized_batch().to(trainer.device)  # the tokenizer's output, moved once
// logits = model.head(F.embedding(ids, model.bag.weight).mean(1))
// logits.sum().item()  # the number for the log

// %% [markdown]
// ## What to take away
//
// - An operator without an MPS kernel raises `NotImplementedError` naming it. That is useful:
//   it tells you exactly what to rewrite, upgrade or move.
// - `PYTORCH_ENABLE_MPS_FALLBACK=1`, set before Python starts, turns the error into a cpu
//   detour and one warning for the whole process. Treat it as a debugging aid.
// - Each fallback waits for the GPU, copies its inputs out and its results back. In a hot loop
//   that costs more than the operator itself, every step.
// - Tokenizing and batch assembly on the cpu are not fallback; they are the boundaries you
//   chose.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson04`. Practise it in lab 4: edit
// `labs/04_fallback/lab.cpp` until `build/course verify 04` passes (`build/course hint 04`
// gives one hint at a time). Then lesson 5, `build/course run 05`, times GPU work honestly
// and finds the sync points that hide in a training loop.
