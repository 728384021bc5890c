// %% [markdown]
// # 5.2 · Sync points in a training loop
//
// Section 5.1 timed one forward pass. A training loop adds a question: which of its lines make
// the host wait for the GPU, and how often should they?

// %%
#include "shared.h"  // the transformer encoder, built shape-only

// %% [markdown] facts="20 ms"
// ## The hidden sync point in a training loop
//
// Training adds a backward pass and an optimizer step, and a loop around them. Each step
// below also prepares the next batch on the cpu first: reading, tokenizing and padding 32
// reports, pure Python work that takes the host 20 ms here (`py::time::sleep` stands in for it).
// The batch is copied to the GPU, and every step ends with AdamW.
//
// The question is how often the loop reads the loss. `loss.item()` every step is the habit
// most scripts start with, because a progress bar wants a number. But each `item()` makes the
// host wait for the step to finish, so the next batch is prepared while the GPU sits idle.
// Reading it every 50 steps lets the host prepare batch *n + 1* while the GPU still works on
// batch *n*. (Copying that batch to the GPU is a sync point too, but it comes after the
// preparation, so the preparation still overlaps the GPU's work.)

// %%
// Trains `steps` steps and reads the loss every `log_every` steps; returns seconds per step.
double seconds_per_step(int steps, int log_every) {
  py::torch::mps::empty_cache();  // each measurement starts without the last one's cached memory
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  const IssueEncoder encoder = make_encoder(device);
  torch::optim::AdamW optimizer(encoder.parameters());
  const auto labels = torch::zeros({kReports}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  double logged = 0;

  const double start = py::time::perf_counter();
  for (int step = 0; step < steps; ++step) {
    py::time::sleep(0.020);  // prepare the next batch on the cpu
    const auto batch = torch::randn({kReports, kTokens, kWidth}).to(device);
    optimizer.zero_grad();
    const auto loss = F::cross_entropy(forward(encoder, batch), labels);
    loss.backward();
    optimizer.step();
    if ((step + 1) % log_every == 0) logged = loss.item<double>();  // the sync point
  }
  torch::mps::synchronize();
  static_cast<void>(logged);  // shape-only: nan, but the wait was real
  return (py::time::perf_counter() - start) / steps;
}
// %% [python]
// def seconds_per_step(steps, log_every):
//     torch.mps.empty_cache()  # each measurement starts without the last one's cached memory
//     device = torch.device("mps")
//     encoder = IssueEncoder(device)
//     optimizer = torch.optim.AdamW(encoder.parameters())
//     labels = torch.zeros(REPORTS, dtype=torch.int64, device=device)
//     logged = 0.0
//
//     start = time.perf_counter()
//     for step in range(steps):
//         time.sleep(0.020)  # prepare the next batch on the cpu
//         batch = torch.randn(REPORTS, TOKENS, WIDTH).to(device)
//         optimizer.zero_grad()
//         loss = F.cross_entropy(forward(encoder, batch), labels)
//         loss.backward()
//         optimizer.step()
//         if (step + 1) % log_every == 0:
//             logged = loss.item()  # the sync point
//     torch.mps.synchronize()
//     return (time.perf_counter() - start) / steps

// %% hidden_sync_point requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("reading the loss every step costs the overlap of cpu and GPU work") {
  const double every_step = seconds_per_step(100, 1);
  const double every_50 = seconds_per_step(100, 50);
  print("loss.item() every step:    ", ms(every_step), "per step");
  print("loss.item() every 50 steps:", ms(every_50), "per step");
  print("work that no longer overlaps:", ms(every_step - every_50), "per step");
  print(fmt::format("the hidden sync point costs {:.0f} %", 100 * (every_step / every_50 - 1)));
  CHECK(every_step > every_50);
}
// %% [output]
// loss.item() every step:     190.6 ms per step
// loss.item() every 50 steps: 155.5 ms per step
// work that no longer overlaps: 35.1 ms per step
// the hidden sync point costs 23 %
// %% [output] machine="m1-8gb"
// loss.item() every step:     862.8 ms per step
// loss.item() every 50 steps: 823.7 ms per step
// work that no longer overlaps: 39.2 ms per step
// the hidden sync point costs 5 %
// %% [python]
// every_step = seconds_per_step(100, 1)
// every_50 = seconds_per_step(100, 50)
// print("loss.item() every step:    ", ms(every_step), "per step")
// print("loss.item() every 50 steps:", ms(every_50), "per step")
// print("work that no longer overlaps:", ms(every_step - every_50), "per step")
// print(f"the hidden sync point costs {100 * (every_step / every_50 - 1):.0f} %")

// %% [markdown] facts="20 ms"
// The cost is the cpu work that no longer overlaps: the 20 ms of preparation and the time
// `randn` takes to draw the batch's three million values on one cpu core,
// {{hidden_sync_point@m3-max-64gb:no longer overlaps:}} ms per step on the M3 Max. On the M1, in
// the output under this one's, the same work
// ({{hidden_sync_point@m1-8gb:no longer overlaps:}} ms on its slower cores) is only
// {{hidden_sync_point@m1-8gb:costs}} % of a step of {{hidden_sync_point@m1-8gb:every step:}} ms:
// its GPU is slower. A hidden sync point hurts most where the GPU is
// fast and the host has real work to do between steps.
//
// The fix is a logging boundary you choose: keep what you want to report on the device and
// bring it back rarely. A running sum of detached losses costs one tiny kernel per step and
// no waiting; `.detach().cpu().item()` every 50 steps turns it into a number for the log.

// %% logging_boundary
TUTOR_CELL("a running loss stays on the device and is read once per logging interval") {
  const torch::Device device = best_device();
  auto running = torch::zeros({}, device);
  const auto start = torch::full({}, 2.5, device);
  for (int step = 1; step <= 100; ++step) {
    // Stands in for a step's loss, computed on the device as a real one is: torch::tensor(x,
    // device) here would copy from the cpu every step, itself a sync point.
    const auto loss = start - 0.01 * step;
    running = running + loss.detach();
    if (step % 50 == 0) {
      print(fmt::format("step {}: mean loss {:.3f}", step, running.detach().cpu().item<double>() / 50));
      running = torch::zeros({}, device);
    }
  }
}
// %% [output]
// step 50: mean loss 2.245
// step 100: mean loss 1.745
// %% [python]
// device = best_device()
// running = torch.zeros((), device=device)
// start = torch.full((), 2.5, device=device)
// for step in range(1, 101):
//     loss = start - 0.01 * step  # stands in for a step's loss, computed on the device
//     running = running + loss.detach()
//     if step % 50 == 0:
//         print(f"step {step}: mean loss {running.detach().cpu().item() / 50:.3f}")
//         running = torch.zeros((), device=device)

// %% [markdown]
// ## What to take away
//
// - A timer around GPU work measures nothing until the host waits for the device: warm up,
//   `synchronize()`, start, run, `synchronize()`, stop. Or use events.
// - The first call with new shapes is slow: measure after a warm-up, and label first-epoch
//   numbers as such.
// - `item()`, `.cpu()`, printing and copies from the cpu are sync points. Each one in a hot
//   loop removes the overlap between the host's work and the GPU's.
// - Choose the logging boundary: accumulate on the device, read every N steps.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson05`. Practise it in lab 5: edit
// `labs/05_timing/lab.cpp` until `build/course verify 05` passes (`build/course hint 05` gives
// one hint at a time). Then lesson 6, `build/course run 06`, follows where a training step's
// memory goes and what happens when it runs out.
