// %% [markdown]
// # 9.3 · Mixed precision
//
// Everything so far computed in float32. Half precision is the first thing many people try to
// make a run faster or smaller, and PyTorch makes it two lines: `torch.autocast` around the
// forward pass and, for float16, a `GradScaler` around the backward pass. On a Mac it does less
// than on an NVIDIA GPU, and sometimes nothing good. This section shows what the two 16-bit
// formats keep and lose, how autocast chooses per operation, why float16 needs loss scaling,
// what it does to the whole step on two Macs, and how to check that a run in half precision
// still learns what the float32 run learned.

// %%
#include <cmath>
#include <tuple>

#include "shared.h"  // the classifier, its training loop, draw()

// %% [markdown]
// ## Two ways to spend 16 bits
//
// A float32 has 8 bits of exponent and 23 of fraction. float16 keeps 5 and 10: about three
// decimal digits, and nothing above 65504. bfloat16 keeps float32's 8 exponent bits and only 7
// of fraction: the same range as float32, with two or three digits. Both take two bytes an
// element, half of float32's.

// %% two_formats
TUTOR_CELL("float16 overflows past 65504 and loses small numbers; bfloat16 keeps the range") {
  const auto x = torch::tensor({1.0 / 3.0, 70000.0, 1e-8});
  for (const auto dtype : {torch::kFloat32, torch::kFloat16, torch::kBFloat16}) {
    const auto y = x.to(dtype);
    print(y.element_size(), "bytes:", y);
  }
}
// %% [output]
// 4 bytes: tensor([3.3333e-01, 7.0000e+04, 1.0000e-08])
// 2 bytes: tensor([0.3333,    inf, 0.0000], dtype=torch.float16)
// 2 bytes: tensor([3.3398e-01, 7.0144e+04, 1.0012e-08], dtype=torch.bfloat16)
// %% [python]
// x = torch.tensor([1.0 / 3.0, 70000.0, 1e-8])
// for dtype in [torch.float32, torch.float16, torch.bfloat16]:
//     y = x.to(dtype)
//     print(y.element_size(), "bytes:", y)

// %% [markdown]
// float16 turns the large number into `inf` and the small one into 0; bfloat16 keeps both, with
// the third digit already off. Where a float32 run produces values past float16's range (a
// logit, an attention score, a squared activation), float16 breaks and bfloat16 does not.

// %% [markdown]
// ## Loss scaling
//
// The gradients of a deep network are often tiny, and float16 rounds anything below about
// 6e-8 to zero: the weights it belongs to stop learning, silently. A `GradScaler` multiplies
// the loss by a large factor (65536 to start) before `backward()`, so that every gradient is
// that much larger while it is float16, then divides the gradients back in float32 before the
// optimizer's step. When a scaled gradient overflows to `inf`, the step is skipped and the
// scale halved; after 2000 good steps it doubles again. bfloat16 has float32's range and needs
// none of this.

// %% loss_scaling
TUTOR_CELL("a gradient too small for float16 survives when the loss was scaled first") {
  const auto gradient = torch::tensor({2e-8});
  const double kept = gradient.to(torch::kFloat16).to(torch::kFloat32).item<double>();
  print(fmt::format("as it is:         {:.3g}", kept));
  const double scale = 65536;
  const auto scaled = (gradient * scale).to(torch::kFloat16);
  print(fmt::format("scaled, unscaled: {:.3g}", (scaled.to(torch::kFloat32) / scale).item<double>()));
}
// %% [output]
// as it is:         0
// scaled, unscaled: 2e-08
// %% [python]
// gradient = torch.tensor([2e-8])
// kept = gradient.to(torch.float16).to(torch.float32).item()
// print(f"as it is:         {kept:.3g}")
// scale = 65536
// scaled = (gradient * scale).to(torch.float16)
// print(f"scaled, unscaled: {(scaled.to(torch.float32) / scale).item():.3g}")

// %% [markdown]
// The gradient that float16 alone rounds to {{loss_scaling:as it is:}} comes back as
// {{loss_scaling:scaled, unscaled:}} from the scaled copy.

// %% [markdown] facts="14, 0.55"
// ## bfloat16 and macOS
//
// Metal gained bfloat16 with macOS 14 (Sonoma). PyTorch releases that ran on macOS 13 refused a
// bfloat16 tensor on mps there ("MPS BFloat16 is only supported on MacOS 14 or newer"); PyTorch
// 2.9's MPS backend needs macOS 14 itself, so wherever it runs on mps, so does bfloat16. The
// hardware is another matter: the M1 and M2 have no bfloat16 arithmetic, and Metal emulates it,
// at about 0.55 of float32's rate in the engine's cost model; the M3 and later compute it
// natively. float16, native on every Apple GPU, runs at float32's rate: Apple's GPUs gain
// memory and bandwidth from half precision, not arithmetic.

// %% [markdown]
// ## What autocast changes on a step
//
// Inside `torch.autocast("mps", dtype=torch.float16)` each operation follows PyTorch's list for
// mps: matrix products, convolutions and attention run in float16; softmax, layer norm, batch
// norm, the losses and sums are cast back to float32, as their numerics need; everything else
// runs in whatever dtype its inputs have. The weights stay float32 (autocast casts a copy, once
// per forward pass), and so do their gradients and the optimizer's state.
//
// The cell trains the classifier of `shared.h` for a few steps at a batch of 64 on the M3 Max,
// in float32, in float16 with a `GradScaler`, and in bfloat16, and prints each step's time and
// the memory the step held on the GPU before its backward pass.

// %% precision_on_two_macs requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("half precision halves the activations, and speeds a step only where the GPU gains") {
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  const auto images = torch::randn({64, 3, 224, 224}, device);
  const auto labels = torch::zeros({64}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  print("precision     held for backward        step");
  for (const auto& [name, dtype] : {std::tuple{"float32", torch::kFloat32},
                                    std::tuple{"float16", torch::kFloat16},
                                    std::tuple{"bfloat16", torch::kBFloat16}}) {
    const Classifier model = make_classifier(device);
    torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
    py::torch::amp::GradScaler scaler("mps", 65536.0, 2.0, 0.5, 2000, dtype == torch::kFloat16);
    std::int64_t held = 0;
    const torch::ScalarType low = dtype;  // a name the lambda can capture
    const auto step = [&] {
      optimizer.zero_grad();
      torch::Tensor loss;
      {
        const py::torch::autocast region("mps", low, low != torch::kFloat32);
        loss = F::cross_entropy(classify(model, images), labels);
      }
      held = py::torch::mps::current_allocated_memory();
      scaler.scale(loss).backward();
      scaler.step(optimizer);
      scaler.update();
    };
    step();  // warm-up: every kernel built
    torch::mps::synchronize();
    const double start = py::time::perf_counter();
    for (int i = 0; i < 3; ++i) step();
    torch::mps::synchronize();
    print(fmt::format("{:<12} {:>8.2f} GiB {:>14}", name, static_cast<double>(held) / (1ULL << 30),
                      ms((py::time::perf_counter() - start) / 3)));
  }
}
// %% [output]
// precision     held for backward        step
// float32          0.46 GiB        38.5 ms
// float16          0.31 GiB        36.0 ms
// bfloat16         0.31 GiB        35.5 ms
// %% [output] machine="m1-8gb"
// precision     held for backward        step
// float32          0.46 GiB       210.4 ms
// float16          0.31 GiB       192.4 ms
// bfloat16         0.31 GiB       329.6 ms
// %% [python]
// device = torch.device("mps")
// images = torch.randn(64, 3, 224, 224, device=device)
// labels = torch.zeros(64, dtype=torch.int64, device=device)
// print("precision     held for backward        step")
// for name, dtype in [("float32", torch.float32), ("float16", torch.float16), ("bfloat16", torch.bfloat16)]:
//     model = Classifier(device)
//     optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
//     scaler = torch.amp.GradScaler("mps", enabled=dtype == torch.float16)
//     held = 0
//
//     def step():
//         global held
//         optimizer.zero_grad()
//         with torch.autocast("mps", dtype=dtype, enabled=dtype != torch.float32):
//             loss = F.cross_entropy(model(images), labels)
//         held = torch.mps.current_allocated_memory()
//         scaler.scale(loss).backward()
//         scaler.step(optimizer)
//         scaler.update()
//
//     step()  # warm-up: every kernel built
//     torch.mps.synchronize()
//     start = time.perf_counter()
//     for _ in range(3):
//         step()
//     torch.mps.synchronize()
//     print(f"{name:<12} {held / 2**30:>8.2f} GiB {ms((time.perf_counter() - start) / 3):>14}")

// %% [markdown] facts="8 GB"
// On the M3 Max, half precision cuts what the step holds for backward from
// {{precision_on_two_macs@m3-max-64gb:float32}} GiB to {{precision_on_two_macs@m3-max-64gb:float16}}
// GiB, most activations at half their size, and the step only from
// {{precision_on_two_macs@m3-max-64gb:float32...GiB}} ms to
// {{precision_on_two_macs@m3-max-64gb:float16...GiB}} ms: the arithmetic is no faster, only the
// bytes moved are fewer, and autocast's casts take some of that back. On the 8 GB M1 float16
// gains a little more ({{precision_on_two_macs@m1-8gb:float32...GiB}} ms against
// {{precision_on_two_macs@m1-8gb:float16...GiB}} ms), and bfloat16, which its GPU emulates, is the
// slowest of the three at {{precision_on_two_macs@m1-8gb:bfloat16...GiB}} ms. Half precision on a
// Mac is first a way to fit a larger batch or model; measure before expecting speed.

// %% [markdown]
// ## Checking a run in half precision
//
// A loss computed in half precision is not the float32 loss, and never will be bit for bit:
// the runbook's advice is to compare runs by their metrics, with a tolerance, never by their
// exact losses. The cell computes one batch's logits with the float32 weights, in float32 and
// under the cpu's autocast (bfloat16 there), and compares them as a test would.

// %% compare_with_tolerance
TUTOR_CELL("half-precision results match float32 within a tolerance, never bit for bit") {
  torch::manual_seed(0);
  const auto x = torch::randn({8, 64});
  const auto weight = torch::randn({10, 64}) * 0.1;
  const auto exact = F::linear(x, weight);
  torch::Tensor low;
  {
    const py::torch::autocast region("cpu", torch::kBFloat16);
    low = F::linear(x, weight);
  }
  const auto close = low.to(torch::kFloat32);
  print("dtype under autocast:", low.dtype());
  const double rms = std::sqrt(torch::pow(close - exact, 2).mean().item<double>());
  print("rms difference:      ", fmt::format("{:.3f}", rms));
  print("equal:               ", torch::equal(close, exact));
  print("allclose, rtol 5e-2: ", torch::allclose(close, exact, 5e-2, 5e-2));
}
// %% [output]
// dtype under autocast: torch.bfloat16
// rms difference:       0.002
// equal:                False
// allclose, rtol 5e-2:  True
// %% [python]
// torch.manual_seed(0)
// x = torch.randn(8, 64)
// weight = torch.randn(10, 64) * 0.1
// exact = F.linear(x, weight)
// with torch.autocast("cpu", dtype=torch.bfloat16):
//     low = F.linear(x, weight)
// close = low.to(torch.float32)
// print("dtype under autocast:", low.dtype)
// rms = (close - exact).pow(2).mean().item() ** 0.5
// print("rms difference:      ", f"{rms:.3f}")
// print("equal:               ", torch.equal(close, exact))
// print("allclose, rtol 5e-2: ", torch.allclose(close, exact, 5e-2, 5e-2))

// %% [markdown]
// Not one logit is equal, and all of them are close. Choose the tolerance from what the task
// can bear, check the metric that matters (the validation loss over an epoch, the accuracy),
// and record the precision policy beside the result: which operations ran in which dtype.

// %% [markdown]
// ## What to take away
//
// - Autocast runs products, convolutions and attention in half precision and keeps the
//   numerically delicate operations in float32; weights, gradients and the optimizer stay
//   float32.
// - float16 needs a `GradScaler`; bfloat16 does not, but the M1 and M2 emulate it.
// - Compare a half-precision run with its float32 twin by metrics within a tolerance.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson09`.
