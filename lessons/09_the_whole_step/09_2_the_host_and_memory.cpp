// %% [markdown]
// # 9.2 · The host's habits and the memory recipes
//
// Section 9.1 fed the GPU. This one looks at two more things a whole step carries: what the
// host does in the loop besides dispatching, and what to do when the step does not fit in the
// Mac's memory at the batch size you want.

// %%
#include <cmath>
#include <tuple>

#include "shared.h"  // the classifier, its training loop, draw()

// %% [markdown]
// ## The sync in the loop
//
// Lesson 5 found `loss.item()` every step in a loop that prepared its batches itself. The
// loop of 9.1 does the same thing in another form: without workers, the host loads batch
// n + 1 while the GPU runs step n, and a sync at the end of each step would wait for the GPU
// before the loading starts. With workers the host has almost nothing of its own to overlap.
// The cell runs the four combinations.

// %% sync_in_the_loop requires="mps" compare="m3-max-64gb"
TUTOR_CELL("item() every step costs the overlap of whatever the host does with the GPU's work") {
  torch::manual_seed(0);  // the random crops and flips, the same in every run
  sim::ShapeOnlyGuard shape_only;
  for (const std::int64_t workers : {0, 6}) {
    for (const int log_every : {1, 50}) {
      DataLoader loader(sim::data::JpegImageFolder(),
                        {.batch_size = 64, .shuffle = true, .num_workers = workers,
                         .persistent_workers = workers > 0});
      const Measured run = train(loader, 4 * static_cast<int>(workers) + 2, 6,
                                 /*non_blocking=*/true, log_every);
      print(fmt::format("{} workers, loss.item() every {:>2} steps: {} per step", workers,
                        log_every, ms(run.seconds_per_step)));
    }
  }
}
// %% [output]
// 0 workers, loss.item() every  1 steps: 170.2 ms per step
// 0 workers, loss.item() every 50 steps: 131.3 ms per step
// 6 workers, loss.item() every  1 steps: 38.9 ms per step
// 6 workers, loss.item() every 50 steps: 38.6 ms per step
// %% [output] machine="m1-8gb"
// 0 workers, loss.item() every  1 steps: 378.1 ms per step
// 0 workers, loss.item() every 50 steps: 211.0 ms per step
// 6 workers, loss.item() every  1 steps: 211.3 ms per step
// 6 workers, loss.item() every 50 steps: 211.0 ms per step
// %% [python]
// from torchvision import datasets, transforms
//
// torch.manual_seed(0)  # the random crops and flips, the same in every run
// augment = transforms.Compose([
//     transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
//     transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
// for workers in [0, 6]:
//     for log_every in [1, 50]:
//         loader = DataLoader(datasets.ImageFolder("imagenet/train", augment), batch_size=64,
//                             shuffle=True, num_workers=workers, persistent_workers=workers > 0)
//         per_step = train(loader, 4 * workers + 2, 6, non_blocking=True, log_every=log_every)
//         print(f"{workers} workers, loss.item() every {log_every:>2} steps: {ms(per_step)} per step")

// %% [markdown]
// Without workers, a sync every step turns {{sync_in_the_loop@m3-max-64gb:0 workers, loss.item() every 50 steps:}}
// ms into {{sync_in_the_loop@m3-max-64gb:0 workers, loss.item() every  1 steps:}} ms on the M3
// Max: loading and computing now take turns. With workers, the host's own share of a step is
// dispatching and taking batches off the queue, and the same sync costs only that:
// {{sync_in_the_loop@m3-max-64gb:6 workers, loss.item() every  1 steps:}} ms against
// {{sync_in_the_loop@m3-max-64gb:6 workers, loss.item() every 50 steps:}}. Workers hide a
// careless sync as well as the loading; the habit of reading the loss every N steps costs
// nothing, and it keeps the loop fast when the workers are not enough.

// %% [markdown]
// ## Gradient accumulation: a large batch in small pieces
//
// When a batch of 256 does not fit, four micro-batches of 64 can stand in for it: run forward
// and backward on each, let the gradients add up in `.grad`, and step once. The catch is in
// the loss. `cross_entropy` averages over its batch, so each micro-batch's loss is an average
// over 64; four of them summed into `.grad` give four times the gradient of one average over
// 256. Dividing each micro-batch's loss by the number of micro-batches makes the sum the
// average again. Forgetting it is silent: training goes on, with a learning rate four times
// the one you chose.
//
// The cell compares the gradient of one batch of 8 with that of four micro-batches of 2, with
// the loss divided and not, on a small linear classifier, with real values.

// %% accumulate_gradients
TUTOR_CELL("accumulating micro-batches gives the large batch's gradient only with the loss divided") {
  torch::manual_seed(0);
  const auto x = torch::randn({8, 16});
  const auto y = torch::tensor({0, 3, 1, 2, 2, 0, 1, 3}).to(torch::kInt64);
  const auto weight = (torch::randn({4, 16}) * 0.1).requires_grad_();
  const auto gradient = [&](int micro_batches, bool divide) {
    weight.set_grad(torch::Tensor());  // weight.grad = None
    const std::int64_t size = 8 / micro_batches;
    for (int i = 0; i < micro_batches; ++i) {
      const auto part = x.slice(0, i * size, (i + 1) * size);
      auto loss = F::cross_entropy(F::linear(part, weight), y.slice(0, i * size, (i + 1) * size));
      if (divide) loss = loss / micro_batches;
      loss.backward();
    }
    return std::sqrt(torch::pow(weight.grad(), 2).sum().item<double>());  // its norm
  };
  const double whole = gradient(1, false);
  print(fmt::format("one batch of 8:                       gradient norm {:.4f}", whole));
  print(fmt::format("4 micro-batches of 2, loss divided:   gradient norm {:.4f}", gradient(4, true)));
  print(fmt::format("4 micro-batches of 2, loss as it is:  gradient norm {:.4f}", gradient(4, false)));
}
// %% [output]
// one batch of 8:                       gradient norm 1.2780
// 4 micro-batches of 2, loss divided:   gradient norm 1.2780
// 4 micro-batches of 2, loss as it is:  gradient norm 5.1121
// %% [python]
// torch.manual_seed(0)
// x = torch.randn(8, 16)
// y = torch.tensor([0, 3, 1, 2, 2, 0, 1, 3]).to(torch.int64)
// weight = (torch.randn(4, 16) * 0.1).requires_grad_()
//
//
// def gradient(micro_batches, divide):
//     weight.grad = None
//     size = 8 // micro_batches
//     for i in range(micro_batches):
//         part = x[i * size:(i + 1) * size]
//         loss = F.cross_entropy(F.linear(part, weight), y[i * size:(i + 1) * size])
//         if divide:
//             loss = loss / micro_batches
//         loss.backward()
//     return weight.grad.pow(2).sum().item() ** 0.5  # its norm
//
//
// whole = gradient(1, False)
// print(f"one batch of 8:                       gradient norm {whole:.4f}")
// print(f"4 micro-batches of 2, loss divided:   gradient norm {gradient(4, True):.4f}")
// print(f"4 micro-batches of 2, loss as it is:  gradient norm {gradient(4, False):.4f}")

// %% [markdown] facts="8 GB"
// ## Checkpointing: memory for time
//
// Accumulation shrinks the batch; activation checkpointing shrinks what each batch keeps.
// Backward needs the activations forward computed, so a normal forward pass keeps every one
// of them until backward uses it, and at large batches they are most of a step's memory.
// `torch.utils.checkpoint.checkpoint(fn, x, use_reentrant=False)` runs `fn` without keeping
// anything but its input, and runs it again during backward to get the activations back.
//
// The cell runs the classifier's steps at a batch of 256 on the 8 GB M1, three ways: as it
// is, with its convolutions checkpointed, and as four accumulated micro-batches of 64. For
// each it prints what the step held on the GPU between its (last) forward pass and its
// backward pass, where activations are at their most, and the time the step took.

// %% checkpoint_or_accumulate requires="mps" compare="m1-8gb"
TUTOR_CELL("checkpointing and accumulation both cut a step's peak memory, at a price in time") {
  sim::use_machine("m1-8gb");
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  const Classifier model = make_classifier(device);
  torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const auto convolutions = [&](const std::vector<torch::Tensor>& args) {
    torch::Tensor x = F::relu(F::conv2d(args[0], model.convs[0], F::Conv2dFuncOptions().stride(2).padding(3)));
    for (std::size_t i = 1; i < model.convs.size(); ++i)
      x = F::relu(F::conv2d(x, model.convs[i], F::Conv2dFuncOptions().stride(2).padding(1)));
    return x;
  };
  // Returns the bytes allocated between the last forward pass and its backward pass.
  const auto step = [&](std::int64_t batch, int micro_batches, bool checkpointed) {
    std::int64_t held = 0;
    const auto images = torch::randn({batch / micro_batches, 3, 224, 224}, device);
    const auto labels = torch::zeros({batch / micro_batches}, torch::TensorOptions().dtype(torch::kInt64).device(device));
    optimizer.zero_grad();
    for (int i = 0; i < micro_batches; ++i) {
      const auto features = checkpointed ? py::torch::utils::checkpoint::checkpoint(convolutions, {images}, false)
                                         : convolutions({images});
      const auto logits = F::linear(features.mean({2, 3}), model.head, model.head_bias);
      const auto loss = F::cross_entropy(logits, labels) / micro_batches;
      held = py::torch::mps::current_allocated_memory();
      loss.backward();
    }
    optimizer.step();
    return held;
  };
  print("batch of 256           held for backward        step");
  for (const auto& [name, micro_batches, checkpointed] :
       {std::tuple{"as it is", 1, false}, std::tuple{"checkpointed", 1, true},
        std::tuple{"4 x 64 accumulated", 4, false}}) {
    step(256, micro_batches, checkpointed);  // warm-up: every kernel built
    torch::mps::synchronize();
    const double start = py::time::perf_counter();
    const std::int64_t held = step(256, micro_batches, checkpointed);
    torch::mps::synchronize();
    print(fmt::format("{:<22} {:>12.2f} GiB {:>12}", name, static_cast<double>(held) / (1ULL << 30),
                      ms(py::time::perf_counter() - start)));
  }
}
// %% [output]
// batch of 256           held for backward        step
// as it is                       1.60 GiB    1209.5 ms
// checkpointed                   0.26 GiB    1668.5 ms
// 4 x 64 accumulated             0.45 GiB    1081.1 ms
// %% [python]
// from torch.utils.checkpoint import checkpoint
//
// device = torch.device("mps")
// model = Classifier(device)
// optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
//
//
// def convolutions(x):
//     x = F.relu(F.conv2d(x, model.convs[0], stride=2, padding=3))
//     for w in model.convs[1:]:
//         x = F.relu(F.conv2d(x, w, stride=2, padding=1))
//     return x
//
//
// def step(batch, micro_batches, checkpointed):
//     held = 0
//     images = torch.randn(batch // micro_batches, 3, 224, 224, device=device)
//     labels = torch.zeros(batch // micro_batches, dtype=torch.int64, device=device)
//     optimizer.zero_grad()
//     for _ in range(micro_batches):
//         features = checkpoint(convolutions, images, use_reentrant=False) if checkpointed else convolutions(images)
//         logits = F.linear(features.mean((2, 3)), model.head, model.head_bias)
//         loss = F.cross_entropy(logits, labels) / micro_batches
//         held = torch.mps.current_allocated_memory()
//         loss.backward()
//     optimizer.step()
//     return held
//
//
// print("batch of 256           held for backward        step")
// for name, micro_batches, checkpointed in [("as it is", 1, False), ("checkpointed", 1, True),
//                                           ("4 x 64 accumulated", 4, False)]:
//     step(256, micro_batches, checkpointed)  # warm-up: every kernel built
//     torch.mps.synchronize()
//     start = time.perf_counter()
//     held = step(256, micro_batches, checkpointed)
//     torch.mps.synchronize()
//     print(f"{name:<22} {held / 2**30:>12.2f} GiB {ms(time.perf_counter() - start):>12}")

// %% [markdown]
// Checkpointing the convolutions cuts what the step holds for backward from
// {{checkpoint_or_accumulate@m1-8gb:as it is}} GiB to {{checkpoint_or_accumulate@m1-8gb:checkpointed}} GiB,
// and the step grows from {{checkpoint_or_accumulate@m1-8gb:as it is...GiB}} ms to
// {{checkpoint_or_accumulate@m1-8gb:checkpointed...GiB}} ms: the convolutions' forward pass runs
// twice. Accumulation holds {{checkpoint_or_accumulate@m1-8gb:4 x 64 accumulated}} GiB, one
// micro-batch's activations, and on this GPU its four batches of 64 take
// {{checkpoint_or_accumulate@m1-8gb:4 x 64 accumulated...GiB}} ms, no longer than one of 256. Its price
// is elsewhere: four times the host's dispatching, and a batch too small to fill a larger GPU.
// The two combine: a model that does not fit at all can often be trained with both.

// %% [markdown] facts="8 GB"
// ## The epoch boundary: give memory back
//
// Between epochs a script often validates, and the runbook's habit there is two calls:
// `gc.collect()`, then `torch.mps.empty_cache()`. The second hands the allocator's cached, unused
// buffers back to macOS, where the next phase, another process or the rest of the Mac can use
// them. It can only hand back buffers that no tensor holds, and a validation loop easily holds
// more than it seems: a loss kept as a tensor (to average later) keeps its whole graph, every
// activation of its forward pass, until the tensor goes. `gc.collect()` frees what Python keeps
// only through reference cycles; a name that still points at the tensors keeps them whatever
// it does. The C++ cell has no counterpart call: C++ frees a tensor when its last handle goes,
// so there is nothing for a collector to find.
//
// The cell ends an epoch on the 8 GB M1: three training steps, then three validation batches
// run without `no_grad`, their losses kept in a list. It prints what live tensors hold and
// what Metal holds for the process at each point of the boundary.

// %% epoch_boundary requires="mps" compare="m1-8gb"
TUTOR_CELL("empty_cache() gives back only the buffers no tensor holds: drop the references first") {
  sim::use_machine("m1-8gb");
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  const auto report = [](const char* when) {
    const auto gib = [](std::int64_t bytes) { return static_cast<double>(bytes) / (1ULL << 30); };
    print(fmt::format("{:<28} tensors {:>5.2f} GiB, Metal holds {:>5.2f} GiB", when,
                      gib(py::torch::mps::current_allocated_memory()),
                      gib(py::torch::mps::driver_allocated_memory())));
  };
  const Classifier model = make_classifier(device);
  torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const auto labels = torch::zeros({128}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  for (int step = 0; step < 3; ++step) {  // the epoch's last training steps
    const auto images = torch::randn({128, 3, 224, 224}, device);
    optimizer.zero_grad();
    const auto loss = F::cross_entropy(classify(model, images), labels);
    loss.backward();
    optimizer.step();
  }
  std::vector<torch::Tensor> validation_losses;  // averaged at the end of the epoch
  for (int batch = 0; batch < 3; ++batch) {
    const auto images = torch::randn({128, 3, 224, 224}, device);
    validation_losses.push_back(F::cross_entropy(classify(model, images), labels));
  }
  report("losses kept as tensors");
  py::torch::mps::empty_cache();
  report("empty_cache()");
  validation_losses.clear();  // del validation_losses
  report("losses dropped");
  py::torch::mps::empty_cache();
  report("empty_cache() again");
}
// %% [output]
// losses kept as tensors       tensors  2.45 GiB, Metal holds  3.05 GiB
// empty_cache()                tensors  2.45 GiB, Metal holds  3.05 GiB
// losses dropped               tensors  0.03 GiB, Metal holds  3.05 GiB
// empty_cache() again          tensors  0.03 GiB, Metal holds  0.04 GiB
// %% [python]
// import gc
//
//
// def report(when):
//     print(f"{when:<28} tensors {torch.mps.current_allocated_memory() / 2**30:>5.2f} GiB, "
//           f"Metal holds {torch.mps.driver_allocated_memory() / 2**30:>5.2f} GiB")
//
//
// device = torch.device("mps")
// model = Classifier(device)
// optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
// labels = torch.zeros(128, dtype=torch.int64, device=device)
// for step in range(3):  # the epoch's last training steps
//     images = torch.randn(128, 3, 224, 224, device=device)
//     optimizer.zero_grad()
//     loss = F.cross_entropy(model(images), labels)
//     loss.backward()
//     optimizer.step()
// validation_losses = []  # averaged at the end of the epoch
// for batch in range(3):
//     images = torch.randn(128, 3, 224, 224, device=device)
//     validation_losses.append(F.cross_entropy(model(images), labels))
// report("losses kept as tensors")
// torch.mps.empty_cache()
// report("empty_cache()")
// del validation_losses
// gc.collect()
// report("losses dropped")
// torch.mps.empty_cache()
// report("empty_cache() again")

// %% [markdown]
// With three losses kept, live tensors hold {{epoch_boundary@m1-8gb:losses kept as tensors}} GiB,
// nearly all of it their graphs' activations, and `empty_cache()` gives nothing back while they
// live: Metal still holds
// {{epoch_boundary@m1-8gb:empty_cache()...Metal holds}} GiB. The free buffers the training steps
// left behind lie in the same heaps as the kept activations, and the allocator returns a heap to
// macOS only when every buffer in it is free. Dropping the losses makes their memory free, not
// returned ({{epoch_boundary@m1-8gb:losses dropped...Metal holds}} GiB still held); only the
// second `empty_cache()` brings Metal's share down to
// {{epoch_boundary@m1-8gb:empty_cache() again...Metal holds}} GiB. The order is the recipe: drop
// the references (`del`, `gc.collect()` for cycles), then empty the cache. And keep a loss as a
// number, `loss.item()`, or validate under `torch.no_grad()`, and there is no graph to drop.

// %% [markdown]
// ## What to take away
//
// - Read the loss every N steps, on every loop: a sync in the loop stops the host from
//   queueing ahead.
// - Accumulate micro-batches to reach a batch size that does not fit, and divide each
//   micro-batch's loss by their number; without it the gradient is that many times too large.
// - Checkpointing trades a second forward pass of the checkpointed region for the activations
//   it would keep; accumulation trades one large batch for several small ones, whose cost
//   depends on how full a small batch keeps the GPU.
// - At an epoch's end, drop what still points at tensors, then call `empty_cache()`: it returns
//   only heaps that nothing holds. A loss kept as a tensor keeps its graph's activations.
//
// ## Next
//
// Section 9.3 computes the step in half precision.
