// %% [markdown]
// # 6.1 · The bill and the limits
//
// How much memory one training step holds, how to watch PyTorch's allocator hold it, and where
// MPS stops: a batch that outgrows the machine and a tensor that outgrows any batch.

// %%
#include "shared.h"  // best_device() and size_text()

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
// optimizer step:           12.23 MiB in use, +144.00 KiB
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

// %% [markdown] facts="9 KiB, 16 KiB, 12 MiB, 96 KiB, 162 MiB"
// Read it as a bill. The weights are two tiny tensors (9 KiB and 12 bytes), but each buffer
// takes at least one 16 KiB page. The batch is the bulk: 32 × 128 × 768 floats are 12 MiB, plus
// a page for the labels. The forward pass adds what autograd keeps for the backward pass (the
// averaged reports, the logits' log-probabilities) and the loss; the backward pass frees what
// autograd kept and adds one gradient per parameter; Adam's first step adds two running
// averages per parameter, twice the weights again, yet the counter grows by more: the allocator
// serves each request from the smallest cached buffer that fits, and once the 16 KiB ones are
// taken, the last of the four averages (the bias's, 12 bytes) lands in a 96 KiB buffer the
// backward pass had freed.
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

// %% [markdown] facts="4 MiB, 32 MiB"
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

// %% [markdown] facts="8 GB, 5.33 GiB, 9.07 GiB"
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

// %% [markdown] facts="10 MiB, 1 GiB, 32 MiB, 2 MiB, 256 MiB, 3 GiB, 8 GiB, 64 GiB, 4 GiB, 8 GB"
// Read the sweep from the top. After each step four tensors the size of the batch are live:
// the input and the three ReLU outputs, which the backward pass will need. The linear layers'
// outputs are gone, because a ReLU keeps its result for the backward pass, not its input. The
// "held" column, the driver's count, is larger: it includes the step's peak (a linear output
// and the next ReLU's result exist together for a moment) and it grows in heap-sized steps.
// Buffers from 10 MiB to half a GiB are carved out of shared 1 GiB heaps (smaller ones out of
// heaps of 8 and 32 MiB), so {{batch_sweep@m3-max-64gb:256 reports:}} MiB of tensors hold a
// whole GiB; from 2048 reports on each buffer gets a heap of its own, rounded up to 2 MiB.
//
// While everything fits, the time per report changes little: the GPU does the same work per
// report at any size. (The one step up, at 1024 reports on the M1, is where each layer's result
// passes 256 MiB, and MPS computes and writes results that large in passes that do not
// overlap.) Then the cliff. On the M1 (its output is shown with the M3 Max's), 4096 reports hold
// {{batch_sweep@m1-8gb:4096 reports:...live,}} GiB, and with 3 GiB taken by macOS and the other applications that is more than the machine's 8 GiB: macOS
// pages part of the GPU's memory out to the SSD, and the time per report jumps. The next
// doubling is refused: the error names "MPS allocated" (the allocator's heaps, cached buffers
// included), the "max allowed" high watermark, and the request that failed. On the M3 Max the
// same happens at a larger scale: {{batch_sweep@m3-max-64gb:32768 reports:...live,}} GiB held
// beside 8 GiB of other applications spill past 64 GiB, and the next doubling crosses the
// {{batch_sweep@m3-max-64gb:max allowed:}} GiB limit.
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
// On the M1 (both machines' outputs are shown) a
// {{one_tensor_too_large@m1-8gb:Invalid buffer size:}} GiB batch is refused although the
// allocator's limit is {{batch_sweep@m1-8gb:max allowed:}} GiB; on the M3 Max a
// {{one_tensor_too_large@m3-max-64gb:Invalid buffer size:}} GiB one is refused with
// {{batch_sweep@m3-max-64gb:max allowed:}} GiB allowed. The message does not
// mention memory at all, and no watermark variable changes it: split the tensor (a smaller
// batch, or the work in chunks) instead.
