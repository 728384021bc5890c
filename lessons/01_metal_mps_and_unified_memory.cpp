// %% [markdown] facts="64 GB"
// # Lesson 1 · Metal, MPS and the `mps` device
//
// This course follows one small training job from an NVIDIA machine onto a Mac with Apple
// silicon: a classifier that sorts developer issue reports into `needs_docs`, `needs_test` and
// `needs_review`. Along the way it shows what changes on Apple's GPUs and what stays exactly
// as it was on CUDA.
//
// **How to read this file.** It is a notebook and a C++ program at once. Prose cells start with
// `// %% [markdown]`; code cells start with `// %%` and a name; what a code cell prints is
// written under it in a `// %% [output]` block. Running the program shows the notebook with
// every cell executed, and `ctest` fails if any cell stops printing exactly what is written
// under it.
//
// **What runs the code.** Not PyTorch itself, but the course's emulator of it. Its API copies
// LibTorch, PyTorch's C++ front end, name for name, so the first code cell calls it `torch`:
// what you read here carries over to LibTorch, and almost word for word to Python. The emulator
// also simulates the computer. By default that is the 64 GB M3 Max MacBook Pro whose nanoGPT
// timings appear later in the course; `--list-machines` shows the others and `--machine NAME`
// picks one. Every code cell starts in a fresh simulated process on that machine. Where the
// prose discusses what other machines print, their documented outputs follow the cell's own,
// each under a `└▷ documented for ...` line; `--compare` shows them under every cell. From
// lesson 3 on, a cell marked `requires mps` runs only where MPS is available; on the machines
// without it, the notebook prints `no mps device here: this cell needs MPS` in its place. That
// line stands for the guard a script of your own would need, `if (!torch::mps::is_available())`,
// which lesson 2 teaches and lesson 5 writes out once.
//
// **The same code in Python.** Most code cells have a twin in PyTorch's Python API, which
// real PyTorch runs in the course's tests: `--python` prints each under its C++. If PyTorch is
// installed on your computer, `course twins 01` runs this lesson's twins with it and sets what
// it printed beside the output documented here; on a Mac with MPS, that is a real GPU. Where
// the emulator's names have no LibTorch counterpart they live apart: `py::` for Python's own
// API, `sim::` for the emulator's controls.
//
// Terms the course uses before it explains them (heap, roofline, AdamW, ...) are in the
// glossary: `lesson01 --glossary`, from any lesson.

// %%
#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines
// %% [python]
// import torch

// %% [markdown]
// ## Three names
//
// - **Metal** is Apple's framework for programming its GPUs, for graphics and for general
//   computation alike.
// - **Metal Performance Shaders (MPS)** is Apple's library of GPU kernels on top of Metal,
//   together with MPSGraph, which runs whole graphs of tensor operations. PyTorch's Apple-GPU
//   backend carries out each tensor operation with these kernels and graphs.
// - **`mps`** is the name PyTorch gives that backend: the device string in `.to("mps")`.
//
// So on a Mac the question is not "CUDA or not?" but "does this PyTorch expose the `mps`
// backend on this machine?" Lesson 2 answers it in code. The device *name* is only a label,
// though, and PyTorch accepts it on any computer, with or without an Apple GPU:

// %% device_names
TUTOR_CELL("a device is a type plus an optional index, and naming one needs no GPU") {
  const torch::Device mps("mps");
  const torch::Device first_mps("mps:0");
  print("device:", mps, "| type:", torch::DeviceTypeName(mps.type(), /*lower_case=*/true), "| index given:",
        mps.has_index());
  print("device:", first_mps, "| type:", torch::DeviceTypeName(first_mps.type(), /*lower_case=*/true),
        "| index:", static_cast<int>(first_mps.index()));
}
// %% [output]
// device: mps | type: mps | index given: False
// device: mps:0 | type: mps | index: 0
// %% [python]
// mps = torch.device("mps")
// first_mps = torch.device("mps:0")
// print("device:", mps, "| type:", mps.type, "| index given:", mps.index is not None)
// print("device:", first_mps, "| type:", first_mps.type, "| index:", first_mps.index)

// %% [markdown]
// ## A beta backend, with a way out
//
// Apple's setup page still calls the MPS backend beta. Not every PyTorch operation has an MPS
// kernel, and calling one that lacks it raises `NotImplementedError`, unless Python was started
// with `PYTORCH_ENABLE_MPS_FALLBACK=1`: then PyTorch runs that one operation on the CPU and
// copies the result back. "MPS is available" therefore promises neither that every model runs
// nor that it runs fast. Lesson 4 puts a price on each detour through the CPU.
//
// ## One pool of memory
//
// On a PC with an NVIDIA card, the GPU has its own video memory (VRAM). `tensor.to("cuda")`
// copies the tensor across the PCIe bus into it, and "how big a batch fits" means "how much
// VRAM is free".
//
// Apple silicon has no separate VRAM. CPU and GPU sit on one chip and use the same physical
// memory, which Apple calls unified memory. Two consequences shape the rest of the course:
//
// 1. There is no private GPU budget. A training run draws on the same memory as macOS, the
//    browser and the editor, and when they all want more than there is, macOS starts to swap.
// 2. Placement is still explicit. To PyTorch, `cpu` and `mps` remain two devices:
//    `tensor.to("mps")` returns a *new* tensor on `mps` and leaves the original where it was.
//    PyTorch gives the new tensor its own GPU buffer, so the move is a real copy, just not one
//    across a bus. Never assume that a device move is free.

// %% to_returns_a_new_tensor compare="linux-x86_64"
TUTOR_CELL("to(device) returns a new tensor and leaves the original on the cpu") {
  const torch::Device device = torch::mps::is_available() ? torch::kMPS : torch::kCPU;
  const auto on_cpu = torch::arange(4, torch::kFloat32);
  const auto moved = on_cpu.to(device);
  print("original lives on:", on_cpu.device());
  print("moved copy lives on:", moved.device());
  print("same tensor:", moved.is_same(on_cpu));
  CHECK(on_cpu.is_cpu());  // the source never moves
}
// %% [output]
// original lives on: cpu
// moved copy lives on: mps:0
// same tensor: False
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// original lives on: cpu
// moved copy lives on: cpu
// same tensor: True
// %% [python]
// device = torch.device("mps") if torch.backends.mps.is_available() else torch.device("cpu")
// on_cpu = torch.arange(4, dtype=torch.float32)
// moved = on_cpu.to(device)
// print("original lives on:", on_cpu.device)
// print("moved copy lives on:", moved.device)
// print("same tensor:", moved is on_cpu)

// %% [markdown] facts="4 GB"
// Without MPS the cell falls back to `cpu`: in the output documented for `linux-x86_64`, under
// this machine's, `.to()` onto the device a tensor is already on returns that very tensor
// instead of a copy, exactly as PyTorch does.
//
// Each simulated computer records its memory and how much of it other programs already hold.
// On Apple silicon the system memory *is* the GPU's memory; on the Intel Mac the GPU has its
// own 4 GB of video memory on top, and the Linux box has no GPU at all. Both machines'
// documented outputs follow this one's:

// %% shared_memory_pool compare="intel-mac-macos12.0,linux-x86_64"
TUTOR_CELL("on Apple silicon the CPU and the GPU share one memory pool") {
  const sim::MachineProfile& computer = sim::machine();
  print("machine:", computer.summary);
  print("unified memory:", computer.unified_memory);
  print(fmt::format("system memory: {} GiB", computer.memory_bytes >> 30));
  print(fmt::format("held by the OS and other apps: {} GiB", computer.other_apps_bytes >> 30));
}
// %% [output]
// machine: MacBook Pro, Apple M3 Max (40-core GPU), 64 GB, macOS 15.6.1 (the nanoGPT machine)
// unified memory: True
// system memory: 64 GiB
// held by the OS and other apps: 8 GiB
// %% [output] machine="m1-8gb"
// machine: MacBook Air, Apple M1 (8-core GPU), 8 GB, macOS 15.5
// unified memory: True
// system memory: 8 GiB
// held by the OS and other apps: 3 GiB
// %% [output] machine="rosetta-x86_64"
// machine: MacBook Air, Apple M2, 16 GB, macOS 14.6, x86_64 Python under Rosetta 2
// unified memory: True
// system memory: 16 GiB
// held by the OS and other apps: 4 GiB
// %% [output] machine="intel-mac-macos12.0"
// machine: MacBook Pro 15-inch (2018), Intel, Radeon Pro Vega 20 4 GB, 16 GB, macOS 12.0
// unified memory: False
// system memory: 16 GiB
// held by the OS and other apps: 4 GiB
// %% [output] machine="m2-max-macos13.7"
// machine: MacBook Pro, Apple M2 Max (38-core GPU), 32 GB, macOS 13.7.4 (too old for 2.9's MPS)
// unified memory: True
// system memory: 32 GiB
// held by the OS and other apps: 6 GiB
// %% [output] machine="linux-x86_64"
// machine: Linux x86_64 box, 2-core AMD EPYC, 24 GB, PyTorch's Linux wheel (no MPS)
// unified memory: False
// system memory: 24 GiB
// held by the OS and other apps: 1 GiB
// %% [python] differs="the cell reads the simulated computer's profile; real Python describes the computer it runs on"
// import os
// import platform
//
// # Real Python can only describe the computer it runs on.
// page = os.sysconf("SC_PAGE_SIZE")
// total, free = page * os.sysconf("SC_PHYS_PAGES"), page * os.sysconf("SC_AVPHYS_PAGES")
// print("machine:", platform.platform())
// print("unified memory:", platform.system() == "Darwin" and platform.machine() == "arm64")
// print(f"system memory: {total >> 30} GiB")
// print(f"held by the OS and other apps: {(total - free) >> 30} GiB")

// %% [markdown] facts="1024 KiB, 1024 MiB, 64 GB, 64 GiB"
// ## A first memory budget
//
// The classifier reads batches of 32 issue reports, each cut into 128 token positions with 768
// features per position: the `(32, 128, 768)` batch the whole course works with. A float32 value
// takes four bytes, so the batch alone is easy to price.
//
// A word on units, once for the whole course. Every size the course computes is in binary
// units, as PyTorch's memory messages print them: KiB is 1024 bytes, MiB 1024 KiB, GiB 1024
// MiB. "GB" appears only in the names machines are sold under: the "64 GB" MacBook Pro has
// 64 GiB of memory.

// %% ticket_batch_bytes
TUTOR_CELL("one float32 batch of shape (32, 128, 768) takes 12 MiB") {
  const std::int64_t batch = 32, tokens = 128, features = 768;
  const std::int64_t bytes_per_float = sizeof(float);
  const std::int64_t batch_bytes = batch * tokens * features * bytes_per_float;
  print("shape:", py::tuple({batch, tokens, features}));
  print(fmt::format("one float32 batch: {:.1f} MiB", batch_bytes / (1024.0 * 1024.0)));
  print("training also keeps weights, activations, gradients, and optimizer state");

  const auto tickets = torch::zeros({batch, tokens, features});  // a real tensor agrees
  CHECK(tickets.numel() * static_cast<std::int64_t>(tickets.element_size()) ==
        batch_bytes);
}
// %% [output]
// shape: (32, 128, 768)
// one float32 batch: 12.0 MiB
// training also keeps weights, activations, gradients, and optimizer state
// %% [python]
// batch, tokens, features = 32, 128, 768
// bytes_per_float = torch.finfo(torch.float32).bits // 8
// batch_bytes = batch * tokens * features * bytes_per_float
// print("shape:", (batch, tokens, features))
// print(f"one float32 batch: {batch_bytes / (1024 * 1024):.1f} MiB")
// print("training also keeps weights, activations, gradients, and optimizer state")
//
// tickets = torch.zeros(batch, tokens, features)  # a real tensor agrees
// assert tickets.numel() * tickets.element_size() == batch_bytes

// %% [markdown]
// Twelve MiB is nothing next to this machine's {{shared_memory_pool:system memory:}} GiB, and
// that is the trap: the batch is the smallest line of a training step's bill. Lesson 6 adds up
// the rest.
//
// ## Before installing anything
//
// Apple's guide to PyTorch on the Mac asks for a Mac with Apple silicon, macOS 14.0 or later,
// Python 3.10 or later and the Xcode command-line tools (`xcode-select --install`). After that
// the ordinary wheel, `pip3 install torch torchvision torchaudio`, has MPS built in. PyTorch
// 2.9, the release this course emulates, draws the same line: it uses MPS only from macOS 14
// (Sonoma), although its error message still names 13.0 (lesson 2 shows that message on a Mac
// running macOS 13). Release numbers move, so verify the backend after installing (lesson 2)
// rather than writing a version into your setup notes.
//
// One trap hides in the word *Python*. An x86_64 Python, say from an old Intel-era installer,
// still runs on an Apple-silicon Mac, translated by Rosetta 2. It is slower, and it can only
// install x86_64 builds of PyTorch: the official ones stopped at 2.2, and builds without MPS
// are common. So ask the interpreter what it runs as: `platform.machine()` must say `arm64`.

// %% requirements_check compare="rosetta-x86_64"
TUTOR_CELL("the requirements check reads the interpreter's architecture and the macOS version") {
  const bool on_macos = py::platform::system() == "Darwin";
  const bool native_arm64 = py::platform::machine() == "arm64";
  print("system:", py::platform::system());
  print("interpreter architecture:", py::platform::machine());
  print("translated by Rosetta:", py::platform::proc_translated());
  print("macOS version:", on_macos ? py::platform::mac_release() : std::string("none"));
  const bool meets = on_macos && native_arm64 && py::torch::backends::mps::is_macos_or_newer(14, 0);
  print("meets Apple's requirements:", meets);
}
// %% [output]
// system: Darwin
// interpreter architecture: arm64
// translated by Rosetta: False
// macOS version: 15.6.1
// meets Apple's requirements: True
// %% [output] machine="m1-8gb"
// system: Darwin
// interpreter architecture: arm64
// translated by Rosetta: False
// macOS version: 15.5
// meets Apple's requirements: True
// %% [output] machine="rosetta-x86_64"
// system: Darwin
// interpreter architecture: x86_64
// translated by Rosetta: True
// macOS version: 14.6
// meets Apple's requirements: False
// %% [output] machine="intel-mac-macos12.0"
// system: Darwin
// interpreter architecture: x86_64
// translated by Rosetta: False
// macOS version: 12.0
// meets Apple's requirements: False
// %% [output] machine="m2-max-macos13.7"
// system: Darwin
// interpreter architecture: arm64
// translated by Rosetta: False
// macOS version: 13.7.4
// meets Apple's requirements: False
// %% [output] machine="linux-x86_64"
// system: Linux
// interpreter architecture: x86_64
// translated by Rosetta: False
// macOS version: none
// meets Apple's requirements: False
// %% [python]
// import platform
// import subprocess
//
//
// def proc_translated():
//     """sysctl.proc_translated is 1 for a process that Rosetta 2 translates."""
//     if platform.system() != "Darwin":
//         return False
//     answer = subprocess.run(["sysctl", "-n", "sysctl.proc_translated"], capture_output=True, text=True)
//     return answer.stdout.strip() == "1"
//
//
// on_macos = platform.system() == "Darwin"
// release = platform.mac_ver()[0] if on_macos else "none"
// print("system:", platform.system())
// print("interpreter architecture:", platform.machine())
// print("translated by Rosetta:", proc_translated())
// print("macOS version:", release)
// new_enough = on_macos and tuple(int(part) for part in release.split(".")[:2]) >= (14, 0)
// print("meets Apple's requirements:", on_macos and platform.machine() == "arm64" and new_enough)

// %% [markdown]
// Look at the output documented for `rosetta-x86_64` (below this machine's, on any other): the
// hardware is an Apple-silicon Mac, yet the check fails, because the interpreter is not native.
// (`lesson01 --machine rosetta-x86_64 --cell requirements_check` runs it there.)
//
// ## What to remember
//
// - Metal is Apple's GPU framework, MPS its library of GPU kernels and graphs, and `mps` the
//   PyTorch device that runs tensor operations through them.
// - The backend is beta: missing kernels fail, or with `PYTORCH_ENABLE_MPS_FALLBACK=1` detour
//   through the CPU.
// - Unified memory removes the separate VRAM, not the device boundary: `.to("mps")` returns a
//   new tensor, and the GPU shares its memory with everything else on the Mac.
// - Check the interpreter's architecture before blaming PyTorch: it must be `arm64`.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson01`. Practise it in lab 1: edit
// `labs/01_preflight/lab.cpp` until `build/course verify 01` passes (`build/course hint 01`
// gives one hint at a time). Then lesson 2, `build/lessons/lesson02`, asks PyTorch itself
// whether MPS can be used, and reads the answer.
