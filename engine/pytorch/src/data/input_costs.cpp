// The input pipeline's costs. Each step is counted in cycles of one performance core, measured
// on an Apple chip and scaled to the simulated machine's clock. Sources, by the tag in each
// comment:
//   [imread]   ternaus/imread_benchmark (V. Iglovikov, "Need for Speed: A Comprehensive
//              Benchmark of JPEG Decoders in Python", arXiv:2501.13131): Pillow decodes ImageNet's
//              validation JPEGs, "~500x400px", into RGB arrays at 611.94 images/s on an M2 Pro
//              (output/darwin_Apple-M2-Pro/pillow_results.json) and 774.55 on an M4 Max
//              (output/darwin/pillow_results.json), one thread: 5.70 and 5.81 million cycles at
//              3.49 and 4.5 GHz, 28.5 and 29.0 per pixel
//   [albu]     albumentations-team/benchmark, output/torchvision_results.json: torchvision 0.20.1
//              with one thread on a 16-core Apple-silicon Mac on macOS 15.1 (an M4 Max, by its
//              core count and the author's other runs: 4.5 GHz assumed), on ImageNet's images:
//              RandomResizedCrop to 512 x 512 at 836.95 images/s (20.5 cycles per output
//              pixel), HorizontalFlip at 2485.92 (9.1 per pixel of a ~500 x 400 image), Normalize
//              at 1017.57 (22.1 per pixel), RandomCrop to 128 x 128 at 31449.59 (8.7 per output
//              pixel)
//   [tiktoken] rasbt/LLMs-from-scratch, ch02/02_bonus_bytepair-encoder/compare-bpe-tiktoken.ipynb:
//              tiktoken's GPT-2 encoding of the-verdict.txt, 5145 tokens, in 1.75 ms on a Mac
//              (its paths are macOS's; the chip is not given: 3.2 GHz assumed), 1090 cycles a
//              token
//   [import]   pytorch/executorch#8611: importing torch "took over 1 second on my M1 Mac Pro";
//              a spawned worker imports it before its first batch
//   [spawn]    metatensor/metatrain#1229: a DataLoader worker started with 'spawn' holds 0.4 GiB
//              (measured on a GH200 node: Python and torch, before its batches)
//   [cow]      pytorch/pytorch#13246: a forked worker shares its parent's pages until it
//              writes them, and reading a Python object writes its reference count, so the
//              dataset's objects it reads become copies of its own
//   [estimate] a plausible figure with no published measurement behind it

#include "data/input_costs.h"

namespace engine::detail {
namespace {

constexpr double kDecodeCyclesPerPixel = 29;        // [imread]
constexpr double kResizeCyclesPerPixel = 20.5;      // [albu] RandomResizedCrop, per output pixel
constexpr double kFlipCyclesPerPixel = 9.1;         // [albu]
constexpr double kCropCyclesPerPixel = 8.7;         // [albu] RandomCrop
constexpr double kToTensorCyclesPerPixel = 22.1;    // [albu] Normalize, which ToTensor's pass joins
constexpr double kTokenizeCyclesPerToken = 1090;    // [tiktoken]
constexpr double kImportTorchCycles = 1.0 * 3.2e9;  // [import] a second at the M1's 3.2 GHz
// [estimate] Python's __getitem__, the transforms' calls and the collate's per-sample work: a
// few dozen interpreted calls of a microsecond each.
constexpr double kSampleOverheadCycles = 30e-6 * 3.2e9;
constexpr double kForkSeconds = 5e-3;  // [estimate] fork() of a Python process on macOS
constexpr std::uint64_t kSpawnedWorkerBytes = 429496730;  // [spawn] 0.4 GiB
// [estimate] unpickling a batch's handle and mapping its shared memory, per tensor
constexpr double kReceiveSecondsPerTensor = 50e-6;
constexpr std::uint64_t kPathEntryBytes = 250;  // [estimate] a str path, an int, their tuple

double core_hz(const MachineProfile& m) {
  return m.cpu_core_hz > 0 ? m.cpu_core_hz : m.cpu_fp32_flops / 32;
}

double seconds_of(double cycles, const MachineProfile& m) { return cycles / core_hz(m); }

// Pickling or unpickling `bytes` of a dataset: a copy at the rate the cpu streams memory.
double pickle_seconds(double bytes, const MachineProfile& m) {
  return m.cpu_memory_bandwidth > 0 ? bytes / m.cpu_memory_bandwidth : 0.0;
}

}  // namespace

double jpeg_decode_seconds(double pixels, const MachineProfile& m) {
  return seconds_of(pixels * kDecodeCyclesPerPixel, m);
}
double resize_seconds(double pixels, const MachineProfile& m) {
  return seconds_of(pixels * kResizeCyclesPerPixel, m);
}
double flip_seconds(double pixels, const MachineProfile& m) {
  return seconds_of(pixels * kFlipCyclesPerPixel, m);
}
double crop_seconds(double pixels, const MachineProfile& m) {
  return seconds_of(pixels * kCropCyclesPerPixel, m);
}
double to_tensor_seconds(double pixels, const MachineProfile& m) {
  return seconds_of(pixels * kToTensorCyclesPerPixel, m);
}
double tokenize_seconds(double tokens, const MachineProfile& m) {
  return seconds_of(tokens * kTokenizeCyclesPerToken, m);
}
double sample_overhead_seconds(const MachineProfile& m) {
  return seconds_of(kSampleOverheadCycles, m);
}

double parent_start_seconds(StartMethod method, double dataset_bytes, const MachineProfile& m) {
  // 'spawn' and 'forkserver' pickle the dataset for the child; fork copies nothing yet [cow].
  return method == StartMethod::Fork ? kForkSeconds : pickle_seconds(dataset_bytes, m);
}

double worker_start_seconds(StartMethod method, double dataset_bytes, const MachineProfile& m) {
  if (method == StartMethod::Fork) return 0;  // the child runs the parent's imported torch
  return seconds_of(kImportTorchCycles, m) + pickle_seconds(dataset_bytes, m);
}

std::uint64_t worker_base_bytes(StartMethod method) {
  return method == StartMethod::Fork ? 0 : kSpawnedWorkerBytes;  // [cow]: fork shares the rest
}

double batch_receive_seconds(const MachineProfile& /*machine*/) { return kReceiveSecondsPerTensor; }

std::uint64_t path_entry_bytes() { return kPathEntryBytes; }

}  // namespace engine::detail
