// %% [markdown]
// # 9.1 · The input pipeline
//
// A training loop on photos: ImageNet-style JPEGs of about 500 x 400 pixels, decoded with
// Pillow, cropped at random to 224 x 224, flipped half the time, converted to tensors and
// normalised, 64 to a batch, for the classifier of `shared.h`. First as most scripts start:
// `DataLoader(dataset, batch_size=64, shuffle=True)`, which loads every batch in the training
// process itself.

// %%
#include "shared.h"  // the classifier, its training loop, draw()

// %% input_bound requires="mps" compare="m3-max-64gb"
TUTOR_CELL("without workers, the GPU waits for every batch the host decodes") {
  torch::manual_seed(0);  // the random crops and flips, the same in every run
  sim::ShapeOnlyGuard shape_only;
  DataLoader loader(sim::data::JpegImageFolder(), {.batch_size = 64, .shuffle = true});
  const Measured run = train(loader, 2, 3);
  print("per step:", ms(run.seconds_per_step));
  draw(run);
}
// %% [output]
// per step: 132.7 ms
//            each character: 1/40 of 398.1 ms
// host      |dddddddddddddddddddddddddddddddddddddddd|
// mps device|####.........####..........####.........|
// the GPU worked 29 % of the time
// %% [output] machine="m1-8gb"
// per step: 211.7 ms
//            each character: 1/40 of 635.0 ms
// host      |dddddddddddwwdddddddddddwwwddddddddddwww|
// mps device|########################################|
// the GPU worked 100 % of the time
// %% [python]
// from torchvision import datasets, transforms
//
// torch.manual_seed(0)  # the random crops and flips, the same in every run
// augment = transforms.Compose([
//     transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
//     transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
// loader = DataLoader(datasets.ImageFolder("imagenet/train", augment), batch_size=64, shuffle=True)
// print("per step:", ms(train(loader, 2, 3)))
// # The timeline: torch.profiler for the host, Instruments' Metal System Trace for the GPU.

// %% [markdown]
// The host's line is mostly `d`: decoding and transforming the next batch. Only when that is
// done does it dispatch the step, and the GPU's line shows the step as one short run of `#`
// between long idle stretches. A profile of the GPU alone would call this a fast model; the
// step is {{input_bound@m3-max-64gb:per step:}} ms because of its input.
//
// ## Data only, compute only
//
// A timeline shows the problem, but the runbook's first move is cheaper and works in any
// script: time the two halves of the step apart. Iterate the loader and do nothing with the
// batches: that is the data's time. Then run the model on one batch that is already on the GPU,
// forward only and as a whole step: that is the compute's time. Whichever is larger bounds the
// step, and the other hides behind it only if the two overlap.

// %% data_only_compute_only requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("the runbook's split: the data alone against the compute alone") {
  torch::manual_seed(0);  // the random crops and flips, the same in every run
  sim::ShapeOnlyGuard shape_only;
  const int batches = 3;
  DataLoader loader(sim::data::JpegImageFolder(), {.batch_size = 64, .shuffle = true});
  double start = py::time::perf_counter();
  int seen = 0;
  for (const auto& batch : loader) {
    static_cast<void>(batch);
    if (++seen == batches) break;
  }
  const double data = (py::time::perf_counter() - start) / batches;

  const torch::Device device("mps");
  const Classifier model = make_classifier(device);
  torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const auto images = torch::randn({64, 3, 224, 224}, device);
  const auto labels = torch::zeros({64}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  const auto step = [&] {
    optimizer.zero_grad();
    F::cross_entropy(classify(model, images), labels).backward();
    optimizer.step();
  };
  step();  // warm-up: the first step builds every kernel
  torch::mps::synchronize();
  start = py::time::perf_counter();
  {
    const torch::NoGradGuard no_grad;
    classify(model, images);
  }
  torch::mps::synchronize();
  const double forward = py::time::perf_counter() - start;
  start = py::time::perf_counter();
  step();
  torch::mps::synchronize();
  const double whole = py::time::perf_counter() - start;

  print("data only:   ", ms(data), "per batch");
  print("forward only:", ms(forward), "per batch");
  print("whole step:  ", ms(whole), "per batch, its batch already on the GPU");
  print(fmt::format("{}: the data takes {:.1f}x the step", data > whole ? "input-bound" : "compute-bound",
                    data / whole));
  CHECK(forward < whole);
}
// %% [output]
// data only:    131.3 ms per batch
// forward only: 13.7 ms per batch
// whole step:   38.7 ms per batch, its batch already on the GPU
// input-bound: the data takes 3.4x the step
// %% [output] machine="m1-8gb"
// data only:    166.7 ms per batch
// forward only: 74.0 ms per batch
// whole step:   210.6 ms per batch, its batch already on the GPU
// compute-bound: the data takes 0.8x the step
// %% [python]
// from torchvision import datasets, transforms
//
// torch.manual_seed(0)  # the random crops and flips, the same in every run
// augment = transforms.Compose([
//     transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
//     transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
// loader = DataLoader(datasets.ImageFolder("imagenet/train", augment), batch_size=64, shuffle=True)
// batches = 3
// start = time.perf_counter()
// for seen, batch in enumerate(loader, 1):
//     if seen == batches:
//         break
// data = (time.perf_counter() - start) / batches
//
// device = torch.device("mps")
// model = Classifier(device)
// optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
// images = torch.randn(64, 3, 224, 224, device=device)
// labels = torch.zeros(64, dtype=torch.int64, device=device)
//
// def step():
//     optimizer.zero_grad()
//     F.cross_entropy(model(images), labels).backward()
//     optimizer.step()
//
// step()  # warm-up: the first step builds every kernel
// torch.mps.synchronize()
// start = time.perf_counter()
// with torch.no_grad():
//     model(images)
// torch.mps.synchronize()
// forward = time.perf_counter() - start
// start = time.perf_counter()
// step()
// torch.mps.synchronize()
// whole = time.perf_counter() - start
//
// print("data only:   ", ms(data), "per batch")
// print("forward only:", ms(forward), "per batch")
// print("whole step:  ", ms(whole), "per batch, its batch already on the GPU")
// print(f"{'input-bound' if data > whole else 'compute-bound'}: the data takes {data / whole:.1f}x the step")

// %% [markdown]
// The data alone takes {{data_only_compute_only@m3-max-64gb:data only:}} ms a batch, the whole step on a
// batch already there {{data_only_compute_only@m3-max-64gb:whole step:}} ms: on the M3 Max no
// change to the model can make this loop faster, and a faster GPU would only idle longer. The
// M1, in the output under this one's, tells the other story with the same code: its slower GPU
// takes {{data_only_compute_only@m1-8gb:whole step:}} ms for the step, longer than its cores
// take for the data, and the loop is bound by its compute. Whether a loop is input-bound is a
// property of the pair, the model and the machine. The forward pass alone is the number to
// compare with published inference timings, and a third of the step or so, as the backward
// pass does about twice its work.
//
// ## Workers: loading while the GPU works
//
// `num_workers=N` moves the loading into N worker processes. Batch k goes to worker k mod N,
// each worker keeps `prefetch_factor` batches (2 by default) asked of it ahead, and the loop
// takes them in order, waiting only for one that is not ready yet. Three more settings belong
// with workers on a Mac:
//
// - `persistent_workers=True` keeps the workers from one epoch to the next. macOS starts them
//   with `spawn`: each is a fresh Python that imports torch and unpickles the dataset before
//   its first batch, which costs about a second every epoch otherwise.
// - `non_blocking=True` on the batch's `.to("mps")` queues the copy behind the GPU's work
//   instead of waiting for it to land.
// - `pin_memory=True` does nothing for `mps`: PyTorch warns that it is not supported there,
//   as unified memory has nothing to pin.
//
// How many workers? Enough that N workers load N batches in the time the GPU takes for N
// steps: the data-only time over the step's time, rounded up, and one more for slack. Each
// worker is a process that needs a performance core of its own to keep its pace.

// %% workers_hide_it requires="mps" compare="m3-max-64gb"
TUTOR_CELL("with workers loading ahead, the GPU stays busy") {
  torch::manual_seed(0);  // the random crops and flips, the same in every run
  sim::ShapeOnlyGuard shape_only;
  const std::int64_t workers = 6;
  DataLoader loader(sim::data::JpegImageFolder(),
                    {.batch_size = 64, .shuffle = true, .num_workers = workers,
                     .persistent_workers = true});
  const Measured run = train(loader, 4 * workers, 12, /*non_blocking=*/true);
  print("per step:", ms(run.seconds_per_step));
  draw(run);
  CHECK(gpu_busy(run.timeline, run.from, run.to) > 0.8);
}
// %% [output]
// per step: 38.5 ms
//            each character: 1/40 of 462.5 ms
// host      |.wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww|
// mps device|########################################|
// worker 0  |ddddddddddddddddddddddd.................|
// worker 1  |ddddddddddddddddddddddd.................|
// worker 2  |ddddddddddddddddddddddd.................|
// worker 3  |ddddddddddddddddddddddd.................|
// worker 4  |ddddddddddddddddddddddd.................|
// worker 5  |ddddddddddddddddddddddd.................|
// the GPU worked 100 % of the time
// %% [output] machine="m1-8gb"
// per step: 211.0 ms
//            each character: 1/40 of 2531.5 ms
// host      |wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww|
// mps device|########################################|
// worker 0  |ddddddddd...............................|
// worker 1  |ddddddddd...............................|
// worker 2  |ddddddddd...............................|
// worker 3  |ddddddddd...............................|
// worker 4  |ddddddddd...............................|
// worker 5  |ddddddddd...............................|
// the GPU worked 100 % of the time
// %% [python]
// from torchvision import datasets, transforms
//
// torch.manual_seed(0)  # the random crops and flips, the same in every run
// augment = transforms.Compose([
//     transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
//     transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
// workers = 6
// loader = DataLoader(datasets.ImageFolder("imagenet/train", augment), batch_size=64, shuffle=True,
//                     num_workers=workers, persistent_workers=True)
// print("per step:", ms(train(loader, 4 * workers, 12, non_blocking=True)))

// %% [markdown] facts="16 GB, 10 GiB"
// Six workers bring the step to {{workers_hide_it@m3-max-64gb:per step:}} ms on the M3 Max, the
// time of the step on a batch already there. The host's line is now dispatching and waiting for
// the GPU; each worker loads until it has its two batches ready ahead of the loop, then waits
// for the loop to take one; and the GPU never stops. The loop is bound by its compute again,
// which is where a model's speed can be tuned.
//
// ## How many workers a 16 GB Mac holds
//
// Workers are not free on a Mac. Each spawned worker is a Python process with torch imported,
// its own copy of the dataset's index and the batches it holds for the loop, all in the same
// unified memory as the model's tensors on the GPU. When everything together passes the
// machine's memory, macOS pages out, and the GPU's memory with it.
//
// The cell takes a 16 GB MacBook Air with an M2 (four performance cores, four efficiency
// cores) and a training run that holds 10 GiB on the GPU, and tries more and more workers:
// the data's time per batch, the workers' memory, and the machine's.

// %% workers_against_memory
TUTOR_CELL("on a 16 GB M2, workers speed the data up to its cores and cost memory past them") {
  sim::use_machine("m2-16gb");
  torch::manual_seed(0);  // the random crops and flips, the same in every run
  sim::ShapeOnlyGuard shape_only;
  // Stands in for a bigger model's weights, gradients, optimizer state and activations: 10 GiB
  // in five buffers (a Mac's largest buffer is smaller than its memory).
  std::vector<torch::Tensor> training;
  for (int i = 0; i < 5; ++i) training.push_back(torch::zeros({1LL << 29}, torch::Device("mps")));
  print("N workers: the data's time, the workers' memory, in use");
  for (const std::int64_t workers : {0, 2, 3, 4, 6, 8}) {
    DataLoader loader(sim::data::JpegImageFolder(),
                      {.batch_size = 64, .num_workers = workers, .persistent_workers = workers > 0});
    // Past the workers' start and the batches they had ready by then, the steady pace.
    const int skipped = 4 + 4 * static_cast<int>(workers), timed = 24;
    double start = 0;
    int seen = 0;
    for (const auto& batch : loader) {
      static_cast<void>(batch);
      if (++seen == skipped) start = py::time::perf_counter();
      if (seen == skipped + timed) break;
    }
    const double per_batch = (py::time::perf_counter() - start) / timed;
    const sim::MemoryUse memory = sim::memory_use();
    print(fmt::format("{} workers: {} a batch, {:.1f} GiB, {:.1f} of {:.0f} GiB{}", workers, ms(per_batch),
                      static_cast<double>(memory.dataloader_workers) / (1ULL << 30),
                      static_cast<double>(memory.in_use()) / (1ULL << 30),
                      static_cast<double>(memory.machine) / (1ULL << 30), memory.swaps() ? ": swaps" : ""));
  }
}
// %% [output]
// N workers: the data's time, the workers' memory, in use
// 0 workers: 152.8 ms a batch, 0.0 GiB, 13.0 of 16 GiB
// 2 workers: 76.3 ms a batch, 1.0 GiB, 14.0 of 16 GiB
// 3 workers: 50.9 ms a batch, 1.5 GiB, 14.5 of 16 GiB
// 4 workers: 47.8 ms a batch, 1.9 GiB, 14.9 of 16 GiB
// 6 workers: 44.6 ms a batch, 2.9 GiB, 15.9 of 16 GiB
// 8 workers: 43.0 ms a batch, 3.9 GiB, 16.9 of 16 GiB: swaps
// %% [python] differs="the emulator times and weighs a simulated 16 GB M2; real Python times this computer's workers on stand-in images, and its memory is for psutil to read"
// torch.manual_seed(0)  # the random crops and flips, the same in every run
// class Photos(torch.utils.data.Dataset):  # stands in for ImageFolder and its transforms
//     def __len__(self):
//         return 50000
//
//     def __getitem__(self, index):
//         return torch.zeros(3, 224, 224), index % 1000
//
//
// for workers in [0, 2, 3, 4, 6, 8]:
//     loader = DataLoader(Photos(), batch_size=64, num_workers=workers, persistent_workers=workers > 0)
//     # past the workers' start and the batches they had ready by then, the steady pace
//     skipped, timed = 4 + 4 * workers, 24
//     start = 0.0
//     for seen, batch in enumerate(loader, 1):
//         if seen == skipped:
//             start = time.perf_counter()
//         if seen == skipped + timed:
//             break
//     print(f"{workers} workers: {ms((time.perf_counter() - start) / timed)} a batch")

// %% [markdown] facts="64 GB"
// The data's time falls from {{workers_against_memory:0 workers:}} ms a batch to
// {{workers_against_memory:3 workers:}} ms with three workers. Past them the M2 has no
// performance core left: each further worker shares one and adds little, six reach
// {{workers_against_memory:6 workers:}} ms. Each spawned worker holds about half a gigabyte of
// its own, mostly Python and torch, and eight of them take
// {{workers_against_memory:8 workers:#2}} GiB, enough to push this Mac into swap, which
// would slow every step on the GPU too. Three or four workers is the answer here; on a 64 GB
// machine with twelve performance cores, the same arithmetic allows many more.
//
// ## Spawn, not fork
//
// Those workers were started the macOS way: since Python 3.8 its default start method is
// `spawn`, a fresh interpreter that imports torch again (the start-up on the timelines above).
// Linux's default, `fork`, copies the running process and starts at once, and scripts written
// on Linux sometimes ask for it by name. On a Mac whose process has already used mps, a forked
// worker inherits Metal's and Objective-C's state without being able to use it, and the run
// hangs, at the first batch or many batches later. The emulator does not hang: it stops and
// says why.

// %% fork_after_mps requires="mps"
TUTOR_CELL("a worker forked after mps has started hangs a real run; the emulator stops and says why") {
  const auto weights = torch::ones({1}, torch::Device("mps"));  // from here on, mps has started
  for (const char* method : {"spawn", "fork"}) {
    DataLoader loader(sim::data::JpegImageFolder(),
                      {.batch_size = 64, .num_workers = 2, .multiprocessing_context = method});
    try {
      for (const auto& batch : loader) {
        static_cast<void>(batch);
        break;
      }
      print(fmt::format("{}: the first batch arrived", method));
    } catch (const sim::DataLoaderHang& hang) {
      print(fmt::format("{}: stopped. {}", method, hang.what()));
    }
  }
}
// %% [output]
// spawn: the first batch arrived
// fork: stopped. DataLoader worker 0 was started with fork() after MPS initialised in this process. On macOS a forked child cannot use the Metal and Objective-C state it inherits (torch.mps._is_in_bad_fork() is True in it), and real runs hang or crash here, at once or some batches later (pytorch/pytorch#78924). The emulator stops instead of hanging. Keep macOS's default start method, 'spawn' (leave multiprocessing_context unset), or start the workers before anything touches mps.
// %% [python]
// weights = torch.ones(1, device="mps")  # from here on, mps has started
// loader = DataLoader(Photos(), batch_size=64, num_workers=2, multiprocessing_context="spawn")
// next(iter(loader))
// print("spawn: the first batch arrived")
// # the twin starts no forked worker: on a Mac it would hang, at once or some batches later

// %% [markdown]
// Keep the default: leave `multiprocessing_context` unset on a Mac, or, if a library forks
// for you, start its workers before the first tensor reaches mps.
//
// ## What to take away
//
// - A step is its input too. Time the data alone and the compute alone before tuning either:
//   the larger one bounds the step.
// - Workers hide the loading behind the GPU when there are enough of them, as many as the
//   data's time over the step's, and cores to run them.
// - On a Mac, keep `persistent_workers=True` (each `spawn` start imports torch again), use
//   `non_blocking=True` for the batch's copy, and leave `pin_memory` off.
// - Every worker is a resident process in the GPU's memory. Past the performance cores more
//   workers add little speed, and past the memory they make everything page.
// - Never fork a worker after mps has started: the run hangs. macOS's default, `spawn`, is
//   safe.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson09`.
