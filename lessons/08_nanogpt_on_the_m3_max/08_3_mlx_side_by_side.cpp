// %% [markdown]
// # 8.3 · MLX side by side, and what to take away
//
// Sections 8.1 and 8.2 ran nanoGPT the way PyTorch runs it. This last section sets Apple's own
// framework beside it, on the same model (`shared.h`), then gathers what the lesson and the
// course have shown.

// %%
#include "shared.h"  // the model, its training loop, the measurements

// %% [markdown]
// ## MLX side by side
//
// Apple's own framework, MLX, would run the same model under different rules. Two of them
// change what this course has been teaching. The emulator models PyTorch, not MLX: it has no
// MLX kernels and no MLX costs, so the cells below show *when* work happens under each model,
// never how fast MLX would be.
//
// **No device to move to.** An MLX array is not on the cpu or the GPU; it lives in unified
// memory, and each operation says where it runs (`mx.add(a, b, stream=mx.cpu)`, the GPU by
// default). There is no `.to()` and no second copy. PyTorch keeps its device model on the Mac as
// on CUDA, so moving a batch of nanoGPT's activations' size to `mps` is a real allocation and a
// copy the host waits for:

// %% a_copy_mlx_does_not_make requires="mps" compare="m3-max-64gb"
TUTOR_CELL("PyTorch's .to(\"mps\") allocates and copies even on unified memory") {
  sim::ShapeOnlyGuard shape_only;
  const auto activations = torch::randn({64, 256, 384});
  const std::int64_t before = py::torch::mps::current_allocated_memory();
  const double t0 = py::time::perf_counter();
  const auto on_gpu = activations.to(torch::Device("mps"));
  const double waited = py::time::perf_counter() - t0;
  print(fmt::format(
      "allocated on mps: {:.2f} MiB",
      static_cast<double>(py::torch::mps::current_allocated_memory() - before) / (1 << 20)));
  print(fmt::format("the host waited {:.3f} ms for the copy", waited * 1e3));
  print("same storage as the cpu tensor:", on_gpu.is_same(activations));
}
// %% [output]
// allocated on mps: 24.00 MiB
// the host waited 0.381 ms for the copy
// same storage as the cpu tensor: False
// %% [output] machine="m1-8gb"
// allocated on mps: 24.00 MiB
// the host waited 0.737 ms for the copy
// same storage as the cpu tensor: False
// %% [python]
// activations = torch.randn(64, 256, 384)
// before = torch.mps.current_allocated_memory()
// t0 = time.perf_counter()
// on_gpu = activations.to("mps")
// waited = time.perf_counter() - t0
// print(f"allocated on mps: {(torch.mps.current_allocated_memory() - before) / (1 << 20):.2f} MiB")
// print(f"the host waited {waited * 1e3:.3f} ms for the copy")
// print("same storage as the cpu tensor:", on_gpu.data_ptr() == activations.data_ptr())
// # In MLX the array would simply be used by a GPU operation: mx.matmul(a, w, stream=mx.gpu).

// %% [markdown]
// On the M3 Max, {{a_copy_mlx_does_not_make@m3-max-64gb:allocated on mps:}} MiB allocated and {{a_copy_mlx_does_not_make@m3-max-64gb:waited}} ms of waiting, for
// a tensor the GPU could have read where it was. In MLX nothing would be allocated or copied: the GPU operation reads the array in place.
// It also removes a class of bugs this course spent lesson 3 on: with no devices, there is no
// placement to get wrong and no device-mismatch error.
//
// **Lazy evaluation, and `eval` as the sync point.** PyTorch's `mps` backend is *eager*: each
// line encodes its kernel at once and the GPU starts as soon as it can, while the host goes on
// to the next line (lesson 5). The emulator's timeline of three lines and an `item()`:

// %% eager_timeline requires="mps" compare="m3-max-64gb"
TUTOR_CELL("PyTorch's eager mps: each line queues its kernel at once, and item() waits") {
  sim::ShapeOnlyGuard shape_only;
  const torch::Device mps("mps");
  const auto x = torch::randn({64, 256, 384}, mps);
  const auto w = torch::randn({384, 1536}, mps);
  F::gelu(x.matmul(w)).sum().item<float>();  // warm-up: the graphs exist from here on
  sim::TimelineRecording timeline;
  const double start = py::time::perf_counter();
  const auto h = F::gelu(x.matmul(w));
  const auto total = h.sum();
  total.item<float>();
  std::vector<sim::Span> spans = timeline.spans();
  std::stable_sort(spans.begin(), spans.end(),
                   [](const auto& a, const auto& b) { return a.start < b.start; });
  for (const auto& span : spans) {
    print(fmt::format("{:>6.3f} ms  {:<10} {:<8} {:<22} {:>6.3f} ms", (span.start - start) * 1e3,
                      span.track, span.category, span.name, span.duration * 1e3));
  }
}
// %% [output]
//  0.000 ms  host       dispatch aten::mm                0.016 ms
//  0.016 ms  mps device kernel   aten::mm                5.731 ms
//  0.016 ms  host       dispatch aten::gelu              0.016 ms
//  0.032 ms  host       dispatch aten::sum.dim_IntList   0.016 ms
//  0.048 ms  host       dispatch copy mps -> cpu         0.001 ms
//  0.049 ms  host       wait     wait: copy to cpu       6.868 ms
//  5.747 ms  mps device kernel   aten::gelu              0.570 ms
//  6.317 ms  mps device kernel   aten::sum.dim_IntList   0.290 ms
//  6.606 ms  mps device copy     copy mps -> cpu         0.010 ms
// %% [output] machine="m1-8gb"
//  0.000 ms  host       dispatch aten::mm                0.020 ms
//  0.020 ms  mps device kernel   aten::mm               31.170 ms
//  0.020 ms  host       dispatch aten::gelu              0.020 ms
//  0.040 ms  host       dispatch aten::sum.dim_IntList   0.020 ms
//  0.061 ms  host       dispatch copy mps -> cpu         0.001 ms
//  0.062 ms  host       wait     wait: copy to cpu      36.550 ms
// 31.190 ms  mps device kernel   aten::gelu              3.402 ms
// 34.593 ms  mps device kernel   aten::sum.dim_IntList   1.707 ms
// 36.300 ms  mps device copy     copy mps -> cpu         0.012 ms
// %% [python]
// # The host's side, timed from Python; the GPU's side is in Instruments, recorded with
// # torch.mps.profiler.profile().
// x, w = torch.randn(64, 256, 384, device="mps"), torch.randn(384, 1536, device="mps")
// F.gelu(x @ w).sum().item()  # warm-up
// start = time.perf_counter()
// h = F.gelu(x @ w)
// total = h.sum()
// queued = time.perf_counter()
// total.item()
// print(f"queued in {(queued - start) * 1e3:.3f} ms, then waited {(time.perf_counter() - queued) * 1e3:.3f} ms")

// %% [markdown]
// On the M3 Max the host encodes each operation in {{eager_timeline@m3-max-64gb:dispatch aten::mm}} ms, and the GPU
// starts the product as soon as it is encoded, while the host is still encoding the GELU: host
// and device overlap. Then the host waits {{eager_timeline@m3-max-64gb:wait: copy to cpu}} ms in `item()` for the GPU
// to finish. Eager means every line you write is computed,
// whether or not anything reads its result.
//
// MLX records instead. `h = mx.matmul(x, w)` returns at once with an array that has not been
// computed; each further operation adds a node to a graph; `mx.eval(total)` (or anything that
// needs the values: `item()`, printing, conversion to NumPy) computes what `total` depends on, and
// waits for it. `eval` is MLX's sync point. The sketch below imitates that model on top of the
// engine, to show its consequences; it is a short class of this lesson, not MLX: its kernels
// and their costs are still PyTorch's.

// %%
// A sketch of MLX's evaluation model: an operation records how to compute its result and
// returns at once; eval() computes what is needed, once, and waits for the device.
class Lazy {
 public:
  explicit Lazy(torch::Tensor value) : node_(std::make_shared<Node>(Node{std::move(value), {}})) {}
  explicit Lazy(std::function<torch::Tensor()> compute)
      : node_(std::make_shared<Node>(Node{{}, std::move(compute)})) {}

  torch::Tensor eval() const {
    const torch::Tensor value = compute();
    if (value.is_mps()) torch::mps::synchronize();
    return value;
  }

 private:
  struct Node {
    torch::Tensor value;
    std::function<torch::Tensor()> compute;
  };
  torch::Tensor compute() const {
    if (!node_->value.defined()) node_->value = node_->compute();
    return node_->value;
  }
  friend Lazy lazy(std::function<torch::Tensor(const std::vector<torch::Tensor>&)> op,
                   std::vector<Lazy> inputs);
  std::shared_ptr<Node> node_;
};

Lazy lazy(std::function<torch::Tensor(const std::vector<torch::Tensor>&)> op,
          std::vector<Lazy> inputs) {
  return Lazy([op = std::move(op), inputs = std::move(inputs)] {
    std::vector<torch::Tensor> values;
    for (const Lazy& input : inputs) values.push_back(input.compute());
    return op(values);
  });
}
// %% [python]
// class Lazy:
//     """A sketch of MLX's evaluation model: an operation records how to compute its result and
//     returns at once; eval() computes what is needed, once, and waits for the device."""
//
//     def __init__(self, value=None, compute=None):
//         self.value, self._compute = value, compute
//
//     def compute(self):
//         if self.value is None:
//             self.value = self._compute()
//         return self.value
//
//     def eval(self):
//         value = self.compute()
//         if value.device.type == "mps":
//             torch.mps.synchronize()
//         return value
//
//
// def lazy(op, *inputs):
//     return Lazy(compute=lambda: op(*[i.compute() for i in inputs]))

// %% lazy_until_eval requires="mps"
TUTOR_CELL(
    "under lazy evaluation nothing runs until eval, and what eval does not need never runs") {
  sim::ShapeOnlyGuard shape_only;
  const torch::Device mps("mps");
  const Lazy x(torch::randn({64, 256, 384}, mps)), w(torch::randn({384, 1536}, mps));
  torch::mps::synchronize();
  sim::TimelineRecording timeline;
  const Lazy h = lazy([](const auto& v) { return F::gelu(v[0].matmul(v[1])); }, {x, w});
  const Lazy unused = lazy([](const auto& v) { return v[0].matmul(v[1].transpose(0, 1)); }, {h, w});
  const Lazy total = lazy([](const auto& v) { return v[0].sum(); }, {h});
  print("spans recorded before eval:", timeline.spans().size());
  total.eval();
  std::string kernels;
  for (const auto& span : timeline.spans()) {
    if (span.category == "kernel") kernels += (kernels.empty() ? "" : ", ") + span.name;
  }
  print("kernels eval ran:", kernels);
  static_cast<void>(unused);
}
// %% [output]
// spans recorded before eval: 0
// kernels eval ran: aten::mm, aten::gelu, aten::sum.dim_IntList
// %% [python]
// x, w = Lazy(torch.randn(64, 256, 384, device="mps")), Lazy(torch.randn(384, 1536, device="mps"))
// h = lazy(lambda a, b: F.gelu(a @ b), x, w)
// unused = lazy(lambda a, b: a @ b.T, h, w)
// total = lazy(lambda a: a.sum(), h)
// total.eval()  # on a Mac, Instruments shows the two kernels this runs, and none for `unused`
// print("evaluated:", tuple(total.value.shape))

// %% [markdown] facts="8 GB, 6 GiB"
// Before `eval`, nothing: three lines built a graph, and neither track recorded a span. `eval`
// ran the product, the GELU and the sum, and not `unused`, which nothing asked for; eager
// PyTorch would have run it. Laziness moves costs and errors too: a shape error or a slow
// operation surfaces at `eval`, not on the line that caused it, and a loop that never evaluates
// builds an ever larger graph. MLX training loops therefore call `mx.eval` on the loss and the
// updated parameters once per step: the step's sync point, as `item()` is PyTorch's. With
// whole graphs in view MLX can also compile and fuse them (`mx.compile`); how fast that runs
// nanoGPT is a measurement this course cannot make for you.
//
// ## What to take away
//
// - nanoGPT's Shakespeare model trains on the M3 Max's GPU about nine times faster than on its
//   cpu; on the 8 GB M1 its 6 GiB of GPU memory swap, and the GPU loses its lead.
// - The first iteration is an evaluation of 400 batches, not a warm-up; label it.
// - nanoGPT's MFU is measured against an A100's bfloat16 peak. On a Mac it is a ratio to a
//   foreign machine; compare with the Mac's own float32 peak, and look at where the rest goes.
// - `torch.compile` can lose on `mps`: a one-time compile, then generated kernels that (in the
//   course's model, fitted to the published run) move less memory but move it more slowly.
// - Extrapolate from a window that contains everything the run does (evaluations included), log
//   the step time to the end, and keep the logbook: a plan from the first hundred iterations,
//   evaluations included, accounted for half of the hour the published run took.
// - Utilisation says the GPU works; a timeline says on what.
// - MLX differs in kind: arrays without devices, and lazy graphs that run at `eval`.
//
// ## Five questions to take back to any GPU
//
// The course moved one training job from CUDA habits to a Mac, and the habits held: what changed
// were the answers, never the questions. Ask these five of any script before trusting its numbers,
// on `mps`, on CUDA or on whatever comes next:
//
// 1. **Where does each tensor live?** The model's weights and every batch, checked where the
//    batch enters the step, comparing device types (lessons 2 and 3).
// 2. **Where does the forward pass run?** On the GPU throughout, or partly on the cpu because an
//    operator has no kernel there (lesson 4)?
// 3. **What makes the host wait?** Every `item()`, `.cpu()`, print and `synchronize()`; a timer
//    that does not wait measures the queue, not the work (lesson 5).
// 4. **Which step brings data back to the cpu?** Logging, metrics and checkpoints: one boundary,
//    placed deliberately, not a copy in every step (lessons 3 and 5).
// 5. **Which part of memory grows?** Live tensors, the allocator's cache, or tensors kept by
//    accident; on a Mac the answer is shared with every other application (lesson 6).
//
// Lesson 7's runbook and this lesson's measurements are those answers put to work.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson08`. Then take the course's mastery check,
// `build/quizzes/quiz take mastery` (ten of its twelve questions right pass). For a model of
// your own, `build/course plan CONFIG` runs this lesson's measurements on every simulated Mac and
// applies lesson 7's runbook to them. It reads nanoGPT's config files and Hugging Face's
// `config.json` as they are, and knows torchvision's ResNets and VGGs and MLP classifiers too.
