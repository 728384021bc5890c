// %% [markdown]
// # Lesson 2 · Asking PyTorch whether MPS can run
//
// Before any tensor goes near the GPU, a script should find out what the machine offers. PyTorch
// answers with two functions that sound alike and ask different questions:
//
// - `torch.backends.mps.is_built()`: was *this PyTorch build* compiled with the MPS backend?
//   It is a fact about the installed wheel, the same on every computer it is copied to.
// - `torch.backends.mps.is_available()`: can *this process* use an MPS device right now? That
//   needs the build, a recent enough macOS, and a Metal GPU PyTorch accepts. PyTorch computes
//   the answer once and caches it for the life of the process.
//
// Together they give three states, and each calls for something different:
//
// 1. not built: the wrong PyTorch for a Mac GPU (a Linux or CPU-only build);
// 2. built but unavailable: the backend is there, this machine or process cannot use it;
// 3. available: model and tensors can go to `mps`.
//
// Terms the course uses before explaining them are in its glossary: `lesson02 --glossary`.

// %%
#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines
// %% [python]
// import torch

// %% [markdown]
// ## The sanity check
//
// This check is worth keeping at the top of every training script on a Mac. It records both
// answers, picks `mps` only when it is usable and `cpu` otherwise, and pushes a tiny batch
// through a tiny model on the chosen device, so that a broken setup fails here rather than an
// hour into training. (In Python, scripts that must also run on PyTorch older than 1.12 first
// test `hasattr(torch.backends, "mps")`; LibTorch has no such gap to guard.)

// %% sanity_check compare="linux-x86_64,intel-mac-macos12.0"
TUTOR_CELL("the sanity check selects mps only when the backend is built and available") {
  const bool mps_built = py::torch::backends::mps::is_built();
  const bool mps_available = py::torch::backends::mps::is_available();
  const torch::Device device = mps_available ? torch::Device("mps") : torch::Device("cpu");

  const auto x = torch::arange(6, torch::kFloat32).reshape({2, 3}).to(device);
  torch::nn::Linear model(3, 2);
  model->to(device);
  const auto y = model(x);

  print("mps built:", mps_built);
  print("mps available:", mps_available);
  print("selected device:", device);
  print("output shape:", py::tuple(y.sizes()));
  CHECK(y.device() == model->weight.device());  // the output lands where the model is
}
// %% [output]
// mps built: True
// mps available: True
// selected device: mps
// output shape: (2, 2)
// %% [output] machine="linux-x86_64,rosetta-x86_64"
// mps built: False
// mps available: False
// selected device: cpu
// output shape: (2, 2)
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7"
// mps built: True
// mps available: False
// selected device: cpu
// output shape: (2, 2)
// %% [python]
// mps_built = torch.backends.mps.is_built()
// mps_available = torch.backends.mps.is_available()
// device = torch.device("mps") if mps_available else torch.device("cpu")
//
// x = torch.arange(6, dtype=torch.float32).reshape(2, 3).to(device)
// model = torch.nn.Linear(3, 2)
// model.to(device)
// y = model(x)
//
// print("mps built:", mps_built)
// print("mps available:", mps_available)
// print("selected device:", device)
// print("output shape:", tuple(y.shape))
// assert y.device == model.weight.device  # the output lands where the model is

// %% [markdown]
// The outputs documented for the other machines, under this one's, show the other two states:
// `linux-x86_64` prints what real PyTorch prints on Linux, where the wheels are built without
// MPS, and `intel-mac-macos12.0` shows a build that has the backend on a Mac whose macOS is
// older than PyTorch 2.9 accepts. `lesson02 --machine NAME` runs the whole lesson on one of them.
//
// ## Placing a tensor on `mps` anyway
//
// Skipping the check does not make the GPU appear. Each state that lacks MPS fails in its own
// words, and so does each way of putting a tensor there: copying one (`.to()`, and likewise
// `torch.tensor(..., device=...)` and `Module.to()`) or making one there (a factory such as
// `zeros` with `device=`). The words tell you which state you are in:

// %% placing_on_mps_anyway compare="linux-x86_64,intel-mac-macos12.0"
TUTOR_CELL("placing a tensor on mps anyway fails in words that name the machine's state and the route") {
  const torch::Device mps("mps");
  const auto first_sentence = [](const std::string& text) {
    const auto end = text.find(". ");
    return end == std::string::npos ? text : text.substr(0, end + 1);
  };
  const std::vector<std::pair<std::string, std::function<torch::Tensor()>>> routes = {
      {".to(mps):", [&] { return torch::ones({2}).to(mps); }},
      {"zeros(2, device=mps):", [&] { return torch::zeros({2}, mps); }}};
  for (const auto& [route, place] : routes) {
    try {
      print(route, "placed on", place().device());
    } catch (const torch::Error& error) {
      print(route, first_sentence(py::format_exception_only(error)));
    }
  }
}
// %% [output]
// .to(mps): placed on mps:0
// zeros(2, device=mps): placed on mps:0
// %% [output] machine="linux-x86_64,rosetta-x86_64"
// .to(mps): RuntimeError: PyTorch is not linked with support for mps devices
// zeros(2, device=mps): NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'MPS' backend.
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7"
// .to(mps): RuntimeError: The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using `sw_vers`
// zeros(2, device=mps): RuntimeError: The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using `sw_vers`
// %% [python]
// def first_sentence(text):
//     end = text.find(". ")
//     return text if end < 0 else text[:end + 1]
//
// for route, place in [(".to(mps):", lambda: torch.ones(2).to("mps")),
//                      ("zeros(2, device=mps):", lambda: torch.zeros(2, device="mps"))]:
//     try:
//         print(route, "placed on", place().device)
//     except RuntimeError as error:  # NotImplementedError is a RuntimeError too
//         print(route, first_sentence(f"{type(error).__name__}: {error}"))

// %% [markdown]
// This machine places both; the error texts documented under it, for the machines without a
// usable MPS, are PyTorch's own. Where the build has no MPS backend, the two routes fail
// differently. A copy first asks for the device's guard, and none is registered: `RuntimeError:
// PyTorch is not linked with support for mps devices`. A factory goes straight to the
// dispatcher, which finds no kernel for the MPS backend: a `NotImplementedError` whose first
// sentence is above and whose rest lists every backend that does have one, with where each
// registered it, some sixty lines (PyTorch 1.13 and 2.11 print the same sentences; the list
// grows with each release). Both say "this PyTorch has no MPS", whatever the wording.
//
// On a Mac whose PyTorch has the backend but cannot use it, both routes print the "supported on
// MacOS" text. It is printed for *any* built-but-unavailable case, whatever the cause, and it
// has lagged behind the rules it states. PyTorch 2.5.1 still said 12.3+ when 2.5 needed 13.0;
// 2.6 to 2.9 print it as above, missing space included. 2.9 then began to require macOS 14
// without touching the message, so a Mac on macOS 13 is told it needs a version it already
// runs: `lesson02 --machine m2-max-macos13.7` is that Mac, an M2 Max on macOS 13.7.4. Newer
// releases name 14.0. The text also misleads in one more known case: a process inside a macOS
// sandbox that hides the GPU gets it on a perfectly modern Mac. Read it as "built but
// unavailable here", then check the macOS version against the release notes yourself.
//
// ## `mps` is not `mps:0`
//
// A tensor on the MPS backend reports its device with an index, `mps:0`, because the backend
// has exactly one device. The device you asked for, `torch.device("mps")`, has no index, and
// PyTorch does not consider the two equal. Compare device *types* when you mean "is it on the
// GPU?":

// %% device_index
TUTOR_CELL("a tensor on mps reports mps:0, which does not equal the device named mps") {
  if (!torch::mps::is_available()) {
    print("no mps device on this machine: nothing to compare");
    return;
  }
  const torch::Device requested("mps");
  const auto t = torch::ones({1}, requested);
  print("requested:", requested);
  print("tensor reports:", t.device());
  print("devices equal:", t.device() == requested);
  print("device types equal:", t.device().type() == requested.type());
}
// %% [output]
// requested: mps
// tensor reports: mps:0
// devices equal: False
// device types equal: True
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// no mps device on this machine: nothing to compare
// %% [python]
// if not torch.backends.mps.is_available():
//     print("no mps device on this machine: nothing to compare")
// else:
//     requested = torch.device("mps")
//     t = torch.ones(1, device=requested)
//     print("requested:", requested)
//     print("tensor reports:", t.device)
//     print("devices equal:", t.device == requested)
//     print("device types equal:", t.device.type == requested.type)

// %% [markdown]
// ## Reading the answer as a diagnosis
//
// The states are not steps to walk through in order; each one, once observed, says what to fix.
//
// | `is_built()` | `is_available()` | what it means | what to do |
// |---|---|---|---|
// | False | False | this PyTorch has no MPS: a Linux or CPU-only build, or an x86_64 build under Rosetta | install the macOS arm64 wheel from an arm64 Python |
// | True | False | the build has MPS, this process cannot use it: macOS too old (2.9 needs 14), no suitable GPU, or a sandbox | update macOS, use Apple silicon, run outside the sandbox; use `cpu` meanwhile |
// | True | True | MPS is usable | put the model and the batch on `mps`, together |
//
// Why is the Intel Mac's PyTorch built with MPS while the x86_64 one under Rosetta is not? Both
// are x86_64 builds, but not the same ones. PyTorch's official x86_64 macOS wheels, the last of
// them 2.2, included MPS for Macs with AMD GPUs, and the course's Intel Mac stands for such a
// build. (The emulator answers in PyTorch 2.9's words on every machine, this one too; a real 2.2
// wheel names macOS 12.3+ in its message.) No later release has an official x86_64 macOS wheel, so
// an x86_64 Python on an Apple-silicon Mac ends up with an old release or a build from elsewhere,
// which may lack MPS: the course's Rosetta machine has one without it. The fix there is a native
// arm64 Python.
//
// The emulator can run the same question on each of the course's computers. `sim::use_machine`
// is not PyTorch: it starts a fresh simulated process on another machine, which is how the
// table below is made in one cell.

// %% every_machine_at_a_glance
TUTOR_CELL("the course's machines cover all three states") {
  for (const sim::MachineProfile* machine : sim::machines()) {
    if (machine->name == "host") continue;  // this computer's answer depends on where you are
    sim::use_machine(*machine);
    print(fmt::format("{:<20} built={:<5} available={:<5} device_count={}", machine->name,
                      py::str(py::torch::backends::mps::is_built()),
                      py::str(py::torch::backends::mps::is_available()), py::torch::mps::device_count()));
  }
}
// %% [output]
// m3-max-64gb          built=True  available=True  device_count=1
// m1-8gb               built=True  available=True  device_count=1
// intel-mac-macos12.0  built=True  available=False device_count=0
// m2-max-macos13.7     built=True  available=False device_count=0
// linux-x86_64         built=False available=False device_count=0
// rosetta-x86_64       built=False available=False device_count=0
// m1-pro-16gb          built=True  available=True  device_count=1
// m1-max-64gb          built=True  available=True  device_count=1
// m1-ultra-64gb        built=True  available=True  device_count=1
// m2-16gb              built=True  available=True  device_count=1
// m2-pro-16gb          built=True  available=True  device_count=1
// m2-max-32gb          built=True  available=True  device_count=1
// m3-16gb              built=True  available=True  device_count=1
// m3-pro-18gb          built=True  available=True  device_count=1
// m3-ultra-96gb        built=True  available=True  device_count=1
// m4-16gb              built=True  available=True  device_count=1
// m4-pro-24gb          built=True  available=True  device_count=1
// m4-max-128gb         built=True  available=True  device_count=1
// %% [python] differs="the emulator starts a process on each simulated computer; real Python answers for its own only"
// import platform
//
// # Real Python can ask only the computer it runs on.
// name = f"{platform.system().lower()}-{platform.machine()}"
// built, available = torch.backends.mps.is_built(), torch.backends.mps.is_available()
// print(f"{name:<20} built={built!s:<5} available={available!s:<5} device_count={int(built and available)}")

// %% [markdown]
// ## Check your reasoning
//
// A colleague's script prints `mps built: True` and `mps available: False`. Is their PyTorch
// the wrong build? Decide before you read on.
//
// No. `is_built()` answered "does this wheel know about MPS?" with yes; the build is fine. What
// failed is `is_available()`: "can this machine, in this process, use it right now?". Look at
// the macOS version, the hardware and any sandbox, not at the wheel. Keeping the two questions
// apart is the whole point of having two functions.
//
// ## What to remember
//
// - `is_built()` is about the wheel; `is_available()` is about this machine and process.
// - Three states, three fixes; only the available state puts work on `mps`.
// - An unusable `mps` fails loudly with a message that names the state.
// - Tensors report `mps:0`; compare device types, not devices, to ask "on the GPU?".
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson02`. Practise it in lab 2: edit
// `labs/02_device_checks/lab.cpp` until `build/course verify 02` passes (`build/course hint 02`
// gives one hint at a time). Then lesson 3, `build/lessons/lesson03`, moves a model and a batch
// to `mps` together and runs a training step.
