// %% [markdown]
// # 7.1 · Speed: the same step on six Macs
//
// Is the GPU faster for this job at all, and why? This section times one training step on both
// devices, on six Macs, then looks inside the step for the reason the winner wins.

// %%
#include "shared.h"  // the model, the workloads and the honest timing of a step

// %% [markdown]
// ## The same step on both devices
//
// Start with the measurement the whole decision rests on: one training step of the same model,
// timed the honest way (warm-up, synchronize, ten steps, synchronize), on the cpu and on `mps`.
// The model is lesson 3's classifier with two hidden layers of `width` features; the table
// grows the batch and the width. The last column is the speedup, the cpu's step time over the
// GPU's: above 1 the GPU wins.

// %% same_step_both_devices requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("the same step on cpu and mps: mps loses on small work and wins on large") {
  print(" batch  width    cpu ms    mps ms  cpu/mps");
  for (const std::int64_t width : {256, 1024, 4096}) {
    for (const std::int64_t batch : {16, 256, 4096}) {
      const double cpu = time_steps({batch, width}, torch::Device("cpu")).step_ms;
      const double mps = time_steps({batch, width}, torch::Device("mps")).step_ms;
      print(fmt::format("{:>6} {:>6} {:>9.2f} {:>9.2f} {:>7.2f}x", batch, width, cpu, mps,
                        cpu / mps));
    }
  }
}
// %% [output]
//  batch  width    cpu ms    mps ms  cpu/mps
//     16    256      0.32      0.85    0.38x
//    256    256      0.42      0.88    0.48x
//   4096    256      2.04      1.47    1.39x
//     16   1024      2.10      1.49    1.41x
//    256   1024      3.26      1.73    1.88x
//   4096   1024     23.32      6.17    3.78x
//     16   4096     30.43     10.02    3.04x
//    256   4096     47.50     13.55    3.50x
//   4096   4096    345.31     73.14    4.72x
// %% [output] machine="m1-8gb"
//  batch  width    cpu ms    mps ms  cpu/mps
//     16    256      0.50      1.15    0.43x
//    256    256      0.74      1.30    0.57x
//   4096    256      4.67      3.90    1.20x
//     16   1024      4.85      4.45    1.09x
//    256   1024      7.80      5.87    1.33x
//   4096   1024     57.85     30.11    1.92x
//     16   4096     74.09     56.51    1.31x
//    256   4096    118.18     74.64    1.58x
//   4096   4096    869.03    401.95    2.16x
// %% [python]
// print(" batch  width    cpu ms    mps ms  cpu/mps")
// for width in [256, 1024, 4096]:
//     for batch in [16, 256, 4096]:
//         cpu = time_steps(Workload(batch, width), torch.device("cpu")).step_ms
//         mps = time_steps(Workload(batch, width), torch.device("mps")).step_ms
//         print(f"{batch:>6} {width:>6} {cpu:>9.2f} {mps:>9.2f} {cpu / mps:>7.2f}x")

// %% [markdown] facts="8 GB"
// Read the corners. A batch of 16 at width 256 takes {{same_step_both_devices@m3-max-64gb:16    256}} ms on the M3
// Max's cpu and {{same_step_both_devices@m3-max-64gb:16    256#2}} ms on its GPU: a speedup of
// {{same_step_both_devices@m3-max-64gb:16    256#3}}x, the GPU is *slower*. A batch of 4096 at width 4096 takes
// {{same_step_both_devices@m3-max-64gb:4096   4096}} ms on the cpu and {{same_step_both_devices@m3-max-64gb:4096   4096#2}} ms on the GPU,
// {{same_step_both_devices@m3-max-64gb:4096   4096#3}}x faster. Between them the speedup climbs with both the batch
// and the width. On the 8 GB M1 (its output is shown too) the pattern is the same, with a smaller
// GPU: it never gets past {{same_step_both_devices@m1-8gb:4096   4096#3}}x.
//
// The speedup differs from Mac to Mac, because their cpus and GPUs do not grow together. The
// emulator can run the same two steps on several of its machines in one cell (a real script
// can time only the computer it runs on):

// %% every_machine_one_step
TUTOR_CELL("the speedup of one small and one large step on six Macs") {
  const char* machines[] = {"m1-8gb",  "m1-pro-16gb", "m2-max-32gb",
                            "m3-16gb", "m3-max-64gb", "m4-max-128gb"};
  print("                   small step, ms           large step, ms");
  print(fmt::format("{:<14} {:>6} {:>6} {:>8}  {:>8} {:>7} {:>8}", "machine", "cpu", "mps", "cpu/mps", "cpu",
                    "mps", "cpu/mps"));
  for (const char* name : machines) {
    sim::use_machine(name);
    const Workload small{32, 256}, large{2048, 2048};
    const double small_cpu = time_steps(small, torch::Device("cpu")).step_ms;
    const double small_mps = time_steps(small, torch::Device("mps")).step_ms;
    const double large_cpu = time_steps(large, torch::Device("cpu")).step_ms;
    const double large_mps = time_steps(large, torch::Device("mps")).step_ms;
    print(fmt::format("{:<14} {:>6.2f} {:>6.2f} {:>7.2f}x  {:>8.1f} {:>7.1f} {:>7.2f}x", name, small_cpu,
                      small_mps, small_cpu / small_mps, large_cpu, large_mps, large_cpu / large_mps));
  }
}
// %% [output]
//                    small step, ms           large step, ms
// machine           cpu    mps  cpu/mps       cpu     mps  cpu/mps
// m1-8gb           0.52   1.18    0.44x     119.5    60.4    1.98x
// m1-pro-16gb      0.36   0.83    0.43x      59.4    27.7    2.15x
// m2-max-32gb      0.36   0.86    0.42x      53.9    12.1    4.44x
// m3-16gb          0.46   0.98    0.47x      95.4    43.2    2.21x
// m3-max-64gb      0.33   0.87    0.37x      47.8    11.6    4.11x
// m4-max-128gb     0.27   0.71    0.38x      39.6     9.4    4.21x
// %% [python] differs="the emulator times six simulated Macs; real Python can time only the computer it runs on"
// # Real Python can time only the computer it runs on, and only the small step in a moment.
// small = Workload(32, 256)
// cpu = time_steps(small, torch.device("cpu")).step_ms
// if torch.backends.mps.is_available():
//     mps = time_steps(small, torch.device("mps")).step_ms
//     print(f"this machine: small step cpu {cpu:.2f} ms, mps {mps:.2f} ms, {cpu / mps:.2f}x")
// else:
//     print(f"this machine: small step cpu {cpu:.2f} ms, no mps")

// %% [markdown]
// The small step loses on every Mac ({{every_machine_one_step:m3-max-64gb#3}}x to
// {{every_machine_one_step:m3-16gb#3}}x), most clearly on the Pro and Max chips, whose cpus run
// small work fastest, while a GPU's fixed cost per kernel hardly changes from chip to chip. The
// large step wins everywhere, by {{every_machine_one_step:m1-8gb#6}}x on the M1 and up to
// {{every_machine_one_step:m2-max-32gb#6}}x on the M2 Max, whose cpu is slower than the M3 Max's
// next to a GPU of nearly the same size. A speedup measured on one Mac does not transfer to
// another; measure on the machine that will run the job.
//
// ## Why small work loses: fixed costs per operation
//
// The step is the same 69 operations whatever its size: three layers forward and backward,
// the loss, and AdamW's update of six tensors. Each one costs the `mps` path a fixed amount
// before any arithmetic: the host encodes it into a command buffer, and the GPU starts a kernel
// that, with little work, cannot fill its cores. The cpu's fixed cost per operation is much
// smaller: the M3 Max's ran all 69 in {{every_machine_one_step:m3-max-64gb}} ms. The emulator's timeline shows where the GPU step's time
// goes:

// %% where_a_small_step_goes requires="mps" compare="m3-max-64gb"
TUTOR_CELL("a small step's time is fixed costs per kernel, a large one's is arithmetic") {
  for (const Workload& w : {Workload{32, 256}, Workload{2048, 2048}}) {
    const Timing t = time_steps(w, torch::Device("mps"));
    print(fmt::format("batch {}, width {}: step {:.2f} ms", w.batch, w.width, t.step_ms));
    print(
        fmt::format("  host encoding {:.2f} ms; GPU busy {:.2f} ms ({}): {:.0f} kernels of {:.1f} "
                    "µs on average",
                    t.encode_ms, t.gpu_busy_ms, py::percent(t.gpu_busy_ms / t.step_ms), t.kernels,
                    t.gpu_busy_ms * 1e3 / t.kernels));
  }
}
// %% [output]
// batch 32, width 256: step 0.87 ms
//   host encoding 0.47 ms; GPU busy 0.84 ms (96%): 69 kernels of 12.2 µs on average
// batch 2048, width 2048: step 11.63 ms
//   host encoding 0.47 ms; GPU busy 11.59 ms (100%): 69 kernels of 168.0 µs on average
// %% [output] machine="m1-8gb"
// batch 32, width 256: step 1.18 ms
//   host encoding 0.60 ms; GPU busy 1.15 ms (97%): 69 kernels of 16.6 µs on average
// batch 2048, width 2048: step 60.40 ms
//   host encoding 0.60 ms; GPU busy 60.36 ms (100%): 69 kernels of 874.8 µs on average
// %% [python]
// # Kernel counts and encoding times come from Instruments' Metal System Trace; events give
// # the GPU's time between the first and the last kernel.
// for w in [Workload(32, 256), Workload(2048, 2048)]:
//     t = time_steps(w, torch.device("mps"))
//     print(f"batch {w.batch}, width {w.width}: step {t.step_ms:.2f} ms")
//     print(f"  GPU busy {t.gpu_busy_ms:.2f} ms ({t.gpu_busy_ms / t.step_ms:.0%})")

// %% [markdown]
// Both steps keep the GPU busy nearly all the time, but busy with different things. On the M3
// Max the small step's 69 kernels average {{where_a_small_step_goes@m3-max-64gb:kernels of}} µs each: starting them, not
// computing. The large one's average {{where_a_small_step_goes@m3-max-64gb:batch 2048...kernels of}} µs, nearly all
// arithmetic. A busy GPU is therefore not proof that the GPU is the right device: the small step
// keeps the M3 Max's GPU {{where_a_small_step_goes@m3-max-64gb:GPU busy...ms (}} % busy and still loses to the cpu. The
// host's encoding ({{where_a_small_step_goes@m3-max-64gb:host encoding}} ms per step there) is the other fixed cost: on a faster GPU it would
// be the limit. Work of this size is called *dispatch-bound*: what it costs is set by the
// number of operations, not their size, and only larger operations (a bigger batch, a wider
// model, fused operations) move it into the *compute-bound* regime, where the GPU's arithmetic
// sets the time and its larger peak pays off. (The emulator prices a kernel with a *roofline*:
// the larger of its arithmetic at the GPU's peak rate and its memory traffic at the peak
// bandwidth, each at a share that grows with the size of the work, plus the fixed costs above.
// A kernel that moves many bytes for each operation is *memory-bound*, under the roof's slope.)

// %% [markdown]
// ## A convolution on the cpu: a cliff at a batch of 16
//
// Everything above is a stack of linear layers. The runbook names vision models as the place
// where the Mac's GPU pays most, and part of the reason is on the cpu side. PyTorch's Mac
// wheels are built without oneDNN, the library that runs convolutions fast on Intel and Linux
// cpus. From a batch of 16 images on, a convolution goes forward through NNPACK instead, and
// backward through a loop that takes the images one at a time. For each image the loop unfolds
// the image into a matrix of columns (*im2col*), multiplies, and folds the gradient back onto
// the image (*col2im*). Those two copies run on a single core, however many the chip has.
//
// The cell times one of VGG's convolutions (64 channels in and out, 56 x 56 images, 3 x 3),
// forward and backward, on the M1 Pro and on the M1 Ultra, whose cpu has twice the cores, with
// the GPU's time beside it:

// %% convolution_on_the_cpu
TUTOR_CELL("a convolution on a Mac's cpu: NNPACK from a batch of 16, its backward on one core") {
  const auto step_ms = [](std::int64_t batch, torch::Device device) {
    sim::ShapeOnlyGuard shape_only;
    const auto images = torch::randn({batch, 64, 56, 56}, device).requires_grad_(true);
    const auto weight = torch::randn({64, 64, 3, 3}, device).requires_grad_(true);
    const auto step = [&] {
      F::conv2d(images, weight, F::Conv2dFuncOptions().padding(1)).sum().backward();
    };
    step();  // warm-up
    if (device.is_mps()) torch::mps::synchronize();
    const double start = py::time::perf_counter();
    step();
    if (device.is_mps()) torch::mps::synchronize();
    return (py::time::perf_counter() - start) * 1e3;
  };
  print("machine        batch   cpu ms  per image   mps ms  cpu/mps");
  for (const char* name : {"m1-pro-16gb", "m1-ultra-64gb"}) {
    sim::use_machine(name);
    for (const std::int64_t batch : {8, 15, 16, 32}) {
      const double cpu = step_ms(batch, torch::Device("cpu"));
      const double mps = step_ms(batch, torch::Device("mps"));
      print(fmt::format("{:<14} {:>5} {:>8.1f} {:>10.2f} {:>8.1f} {:>7.1f}x", name, batch, cpu,
                        cpu / static_cast<double>(batch), mps, cpu / mps));
    }
  }
}
// %% [output]
// machine        batch   cpu ms  per image   mps ms  cpu/mps
// m1-pro-16gb        8      3.6       0.44      2.6     1.4x
// m1-pro-16gb       15      6.6       0.44      4.5     1.5x
// m1-pro-16gb       16     29.4       1.84      4.8     6.2x
// m1-pro-16gb       32     58.7       1.84      9.0     6.5x
// m1-ultra-64gb      8      1.8       0.23      1.2     1.6x
// m1-ultra-64gb     15      3.4       0.23      1.8     1.9x
// m1-ultra-64gb     16     25.8       1.61      1.9    13.8x
// m1-ultra-64gb     32     51.5       1.61      3.2    15.9x
// %% [python] differs="the emulator times two simulated Macs; real Python times this computer, whose PyTorch may have oneDNN and so no cliff"
// def step_ms(batch, device):
//     images = torch.randn(batch, 64, 56, 56, device=device, requires_grad=True)
//     weight = torch.randn(64, 64, 3, 3, device=device, requires_grad=True)
//     def step():
//         F.conv2d(images, weight, padding=1).sum().backward()
//     step()  # warm-up
//     start = time.perf_counter()
//     step()
//     return (time.perf_counter() - start) * 1e3
//
// print("batch   cpu ms  per image")
// for batch in [8, 15, 16, 32]:
//     cpu = step_ms(batch, torch.device("cpu"))
//     print(f"{batch:>5} {cpu:>8.1f} {cpu / batch:>10.2f}")

// %% [markdown] facts="4.7 s"
// Up to 15 images, the M1 Pro's cpu spends {{convolution_on_the_cpu:m1-pro-16gb       15#2}} ms on each. From 16
// it spends {{convolution_on_the_cpu:m1-pro-16gb       16#2}} ms, four times as much, and the GPU's lead jumps
// from {{convolution_on_the_cpu:m1-pro-16gb       15#4}}x to {{convolution_on_the_cpu:m1-pro-16gb       16#4}}x. Doubling the
// cores barely helps past the cliff. At a batch of 8 the M1 Ultra halves the M1 Pro's time; at
// 32 it takes {{convolution_on_the_cpu:m1-ultra-64gb     32}} ms against {{convolution_on_the_cpu:m1-pro-16gb       32}},
// because the backward's single-core copies now dominate. A published run shows the same thing
// on a whole network: VGG-16 with batch norm, at a batch of 32, trained on the cpu in 4.7 s per
// step on both an M1 Pro and an M1 Ultra. The emulator's copy
// costs are fitted to the M1 Pro's run, and the M1 Ultra's run checks them. So a vision model
// is a stronger case for `mps` on a Mac than its arithmetic alone suggests.
//
// PyTorch lets a script turn NNPACK off (`torch.backends.nnpack.set_flags(False)`), which sends
// every batch down the faster path; some libraries do so on Macs. The emulator does not model
// that switch.
