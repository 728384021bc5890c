// %% [markdown] facts="16 GB"
// # Lesson 9 · The whole step
//
// Every step timed so far started with its batch already on the GPU. A real training step
// starts earlier: files are read and decoded, images are cropped and flipped, texts are
// tokenized, samples are stacked into a batch, and the batch is copied to the device. On a Mac
// all of that runs on the cpu cores, and the processes that do it (a `DataLoader`'s workers)
// live in the same unified memory as the model. A fast GPU waiting for a slow input pipeline is
// the most common way a Mac's training run disappoints, and a profile of the GPU's kernels
// alone never shows it.
//
// The engine runs the input pipeline too, with LibTorch's datasets and samplers where LibTorch
// has them. Python's `DataLoader`, which LibTorch has no equal of, is
// `py::torch::utils::data::DataLoader`, with Python's options, defaults and errors. Its
// workers are simulated processes: each starts as macOS starts them, holds its own memory, and
// runs on a clock and a timeline track of its own. `sim::data` holds datasets whose samples cost
// what decoding a JPEG with Pillow, torchvision's transforms or a tokenizer cost on an Apple
// core, from published measurements.
//
// The lesson is in sections, each a program of its own (`course run 09` runs them in order):
//
// 1. **The input pipeline**: read a loop's timeline, split data from compute as the runbook
//    says, hide the loading behind the GPU with workers, and choose how many a 16 GB Mac can
//    hold.
// 2. **The host's habits and the memory recipes**: the sync left in the loop, gradient
//    accumulation and the loss it must divide, activation checkpointing, each with its cost,
//    and giving memory back at an epoch's end.
// 3. **Mixed precision**: float16 and bfloat16, autocast and loss scaling, what half precision
//    does to a step on two Macs, and how to compare a half-precision run with float32.
//
// What follows is what the sections share: a small image classifier, the training loop around
// a `DataLoader`, and a way to draw a timeline in the terminal.
//
// Terms the course uses before explaining them are in its glossary: `lesson09_1 --glossary`.

// %%
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::utils::data
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines, datasets
namespace F = engine::nn::functional;
using py::torch::utils::data::DataLoader;

// A duration from perf_counter() differences, printed in milliseconds.
std::string ms(double seconds) { return fmt::format("{:.1f} ms", seconds * 1e3); }
// %% [python]
// import time
//
// import torch
// import torch.nn.functional as F
// from torch.utils.data import DataLoader
//
//
// def ms(seconds):
//     return f"{seconds * 1e3:.1f} ms"

// %% [markdown]
// ## The model and its loop
//
// The classifier is a small convolutional network for 224 x 224 photos: a strided stem, three
// more strided convolutions, an average over the image and a linear layer onto 1000 classes.
// It is built **shape-only** (lesson 5): every kernel is timed on the simulated GPU, and no
// arithmetic is done, so a cell runs in a moment.
//
// `train` runs the loop every PyTorch script has: take a batch from the loader, move it to the
// GPU, and step. It reads the loss every `log_every` steps only (lesson 5's logging boundary),
// and returns the seconds per step over the steps after `warmup`, with the timeline of those
// steps recorded.

// %%
struct Classifier {
  std::vector<torch::Tensor> convs;  // weights: (out, in, k, k)
  torch::Tensor head, head_bias;
  std::vector<torch::Tensor> parameters() const {
    std::vector<torch::Tensor> all = convs;
    all.push_back(head);
    all.push_back(head_bias);
    return all;
  }
};

Classifier make_classifier(torch::Device device) {
  const auto weight = [&](std::int64_t out, std::int64_t in, std::int64_t k) {
    return (torch::randn({out, in, k, k}, device) * 0.05).requires_grad_();
  };
  return {{weight(64, 3, 7), weight(128, 64, 3), weight(256, 128, 3), weight(512, 256, 3)},
          (torch::randn({1000, 512}, device) * 0.05).requires_grad_(),
          torch::zeros({1000}, device).requires_grad_()};
}

torch::Tensor classify(const Classifier& m, torch::Tensor x) {
  x = F::relu(F::conv2d(x, m.convs[0], F::Conv2dFuncOptions().stride(2).padding(3)));
  for (std::size_t i = 1; i < m.convs.size(); ++i)
    x = F::relu(F::conv2d(x, m.convs[i], F::Conv2dFuncOptions().stride(2).padding(1)));
  return F::linear(x.mean({2, 3}), m.head, m.head_bias);  // the average over the image
}

struct Measured {
  double seconds_per_step = 0;
  std::vector<sim::Span> timeline;  // the whole run's
  double from = 0, to = 0;          // the measured steps, on the timeline's clock
};

// Trains on `loader`'s batches, moved to mps, for `warmup` steps and then `steps` more, which it
// times; the timeline covers the whole run.
Measured train(DataLoader& loader, int warmup, int steps, bool non_blocking = false,
               int log_every = 50) {
  sim::TimelineRecording recording;
  const torch::Device device("mps");
  const Classifier model = make_classifier(device);
  torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  int step = 0;
  double start = 0;
  for (const auto& batch : loader) {
    if (step == warmup) {
      torch::mps::synchronize();
      start = py::time::perf_counter();
    }
    if (step == warmup + steps) break;
    const auto images = batch.data.to(device, non_blocking);
    const auto labels = batch.target.to(device, non_blocking);
    optimizer.zero_grad();
    const auto loss = F::cross_entropy(classify(model, images), labels);
    loss.backward();
    optimizer.step();
    if (++step % log_every == 0) static_cast<void>(loss.item<double>());
  }
  torch::mps::synchronize();
  const double end = py::time::perf_counter();
  return {(end - start) / steps, recording.spans(), start, end};
}
// %% [python]
// class Classifier(torch.nn.Module):
//     def __init__(self, device):
//         super().__init__()
//         shapes = [(64, 3, 7), (128, 64, 3), (256, 128, 3), (512, 256, 3)]
//         self.convs = torch.nn.ParameterList(
//             torch.nn.Parameter(torch.randn(o, i, k, k, device=device) * 0.05) for o, i, k in shapes)
//         self.head = torch.nn.Parameter(torch.randn(1000, 512, device=device) * 0.05)
//         self.head_bias = torch.nn.Parameter(torch.zeros(1000, device=device))
//
//     def forward(self, x):
//         x = F.relu(F.conv2d(x, self.convs[0], stride=2, padding=3))
//         for w in self.convs[1:]:
//             x = F.relu(F.conv2d(x, w, stride=2, padding=1))
//         return F.linear(x.mean((2, 3)), self.head, self.head_bias)  # the average over the image
//
//
// def train(loader, warmup, steps, non_blocking=False, log_every=50):
//     device = torch.device("mps")
//     model = Classifier(device)
//     optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
//     start = 0.0
//     for step, (images, labels) in enumerate(loader):
//         if step == warmup:
//             torch.mps.synchronize()
//             start = time.perf_counter()
//         if step == warmup + steps:
//             break
//         images = images.to(device, non_blocking=non_blocking)
//         labels = labels.to(device, non_blocking=non_blocking)
//         optimizer.zero_grad()
//         loss = F.cross_entropy(model(images), labels)
//         loss.backward()
//         optimizer.step()
//         if (step + 1) % log_every == 0:
//             loss.item()
//     torch.mps.synchronize()
//     return (time.perf_counter() - start) / steps

// %% [markdown]
// ## A timeline in the terminal
//
// `--trace` writes every span for Perfetto (lesson 5). For a glance, `draw` prints one line per
// track of a recording: the host, the GPU, then each worker. Each character is an equal slice
// of the time, marked by what filled most of it: `#` a kernel or a copy on the GPU, `d` loading
// data, `w` waiting, `=` the host's other work (dispatching, Python, the optimizer), `s`
// starting a worker, and `.` nothing at all. `gpu_busy` is the share of the time the GPU
// worked.

// %%
char mark(const sim::Span& span) {
  if (span.category == "kernel" || span.category == "copy") return '#';
  if (span.category == "data") return 'd';
  if (span.category == "wait") return 'w';
  if (span.category == "startup") return 's';
  return span.category == "event" ? '.' : '=';
}

// The time of each span within [from, to], summed per mark, for each of `columns` slices.
std::string lane(const std::vector<sim::Span>& spans, const std::string& track, double from,
                 double to, int columns) {
  std::vector<std::map<char, double>> filled(static_cast<std::size_t>(columns));
  const double width = (to - from) / columns;
  for (const sim::Span& s : spans) {
    if (s.track != track || mark(s) == '.') continue;
    for (int c = 0; c < columns; ++c) {
      const double lo = from + c * width, hi = lo + width;
      const double overlap = std::min(hi, s.start + s.duration) - std::max(lo, s.start);
      if (overlap > 0) filled[static_cast<std::size_t>(c)][mark(s)] += overlap;
    }
  }
  std::string line;
  for (const auto& slice : filled) {
    char best = '.';
    double most = 0.5 * width;  // a slice more than half empty is idle
    for (const auto& [m, seconds] : slice) {
      if (seconds > most) best = m, most = seconds;
    }
    line += best;
  }
  return line;
}

// The share of [from, to] in which the GPU worked.
double gpu_busy(const std::vector<sim::Span>& spans, double from, double to) {
  double busy = 0;
  for (const sim::Span& s : spans) {
    if (s.track == "mps device" && mark(s) == '#')
      busy += std::max(0.0, std::min(to, s.start + s.duration) - std::max(from, s.start));
  }
  return busy / (to - from);
}

// The tracks of a run over its measured steps.
void draw(const Measured& run, int columns = 40) {
  std::vector<std::string> workers;
  for (const sim::Span& s : run.timeline) {
    if (s.track.rfind("worker", 0) == 0 &&
        std::find(workers.begin(), workers.end(), s.track) == workers.end())
      workers.push_back(s.track);
  }
  std::sort(workers.begin(), workers.end());
  print(fmt::format("{:<10} each character: 1/{} of {}", "", columns, ms(run.to - run.from)));
  for (const std::string& track : {std::string("host"), std::string("mps device")})
    print(fmt::format("{:<10}|{}|", track, lane(run.timeline, track, run.from, run.to, columns)));
  for (const std::string& track : workers)
    print(fmt::format("{:<10}|{}|", track, lane(run.timeline, track, run.from, run.to, columns)));
  print(fmt::format("the GPU worked {:.0f} % of the time",
                    100 * gpu_busy(run.timeline, run.from, run.to)));
}
// %% [python]
// # On a Mac, torch.profiler records the host's side and Instruments' Metal System Trace the
// # GPU's; the emulator's recording has both, and the workers, on one clock.
