// %% [markdown]
// # Lesson 3 · One batch, one training step, one device
//
// The classifier of this course is small on purpose. A batch holds 32 issue reports, each one
// 128 token positions of 768 features: a `(32, 128, 768)` tensor. The model averages the token
// positions into one 768-feature vector per report, and a single linear layer turns that
// vector into three logits, one each for `needs_docs`, `needs_test` and `needs_review`.
//
// This lesson runs that model on `mps` for one training step, and then breaks its placement
// on purpose, to read the errors PyTorch gives.
//
// ## Narrate the batch before you run it
//
// For every step of training, be able to say where the tensor lives, where the work runs,
// whether the host has to wait, and what is likely to go wrong:
//
// | step | the tensor lives on | the work runs on | does the host wait? | what goes wrong first |
// |---|---|---|---|---|
// | assemble the batch | cpu | cpu: tokenizer, collation, padding | no | too large a batch |
// | `.to("mps")` | cpu, then a new copy on mps | a copy into a GPU buffer | yes, for a copy from the cpu | forgetting to move it |
// | forward pass | mps | GPU kernels, launched by the host | no: launches are queued | model and batch on different devices |
// | read the loss | mps, then a Python float | the GPU must finish first | yes: `.item()` waits | logging every step stalls the loop |
// | backward pass | mps: activations, gradients | GPU kernels | no | memory for activations and gradients |
// | optimizer step | mps: parameters, optimizer state | GPU kernels | no | a model that slipped back to cpu |
//
// Lesson 5 measures the waiting, and lesson 6 the memory. Here we get the placement right.
//
// Terms the course uses before explaining them are in its glossary: `lesson03 --glossary`.

// %%
#include <cmath>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines
namespace F = engine::nn::functional;

// The device a script should use: mps when it works here, the cpu otherwise.
torch::Device best_device() {
  return torch::mps::is_available() ? torch::Device("mps") : torch::Device("cpu");
}

// The classifier and one batch, both placed on `device`. The model is created before the batch,
// as in the Python listings, so a seeded run draws the same numbers.
struct PlacedClassifier {
  torch::nn::Linear model;
  torch::Tensor batch;           // (32, 128, 768)
  torch::Tensor ticket_vectors;  // (32, 768): the token positions averaged
};

PlacedClassifier place_classifier(const torch::Device& device) {
  torch::nn::Linear model(768, 3);
  model->to(device);
  const auto batch = torch::randn({32, 128, 768}).to(device);
  return {model, batch, batch.mean({1})};
}
// %% [python]
// import math
//
// import torch
// import torch.nn.functional as F
//
//
// def best_device():
//     return torch.device("mps") if torch.backends.mps.is_available() else torch.device("cpu")
//
//
// def place_classifier(device):
//     """The ticket classifier and a (32, 128, 768) batch on `device`, and the batch averaged."""
//     model = torch.nn.Linear(768, 3)
//     model.to(device)
//     batch = torch.randn(32, 128, 768).to(device)
//     return model, batch, batch.mean(1)

// %% [markdown]
// ## Same device rules as CUDA
//
// Unified memory tempts one to think "one chip, one memory, one device". PyTorch does not see
// it that way: `cpu` and `mps` are two devices, and a forward pass needs the model's parameters
// and the batch on the same one. The pattern is the one from CUDA: choose the device once,
// move the model and the batch to it, and check that the output is there too.

// %% mps_device_placement
TUTOR_CELL("model, batch and logits end up on the same device") {
  const torch::Device device = best_device();
  const PlacedClassifier c = place_classifier(device);
  const auto logits = c.model(c.ticket_vectors);
  const bool devices_match =
      c.model->weight.device() == c.batch.device() && c.batch.device() == logits.device();
  print("model and batch agree:", devices_match);
  print("logits shape:", py::tuple(logits.sizes()));
}
// %% [output]
// model and batch agree: True
// logits shape: (32, 3)
// %% [python]
// device = best_device()
// model, batch, ticket_vectors = place_classifier(device)
// logits = model(ticket_vectors)
// devices_match = model.weight.device == batch.device == logits.device
// print("model and batch agree:", devices_match)
// print("logits shape:", tuple(logits.shape))

// %% [markdown]
// ## One optimizer step
//
// Training continues from the placed classifier: cross-entropy on the first four reports, a
// backward pass (autograd walks back through the operations that made the loss), one SGD step.
// The labels are created on the same device as the logits, and the loss comes back to the host
// only at the end, through `.detach().cpu().item()`: outside the gradient computation, at a
// boundary you chose.

// %% one_mps_ticket_step
TUTOR_CELL("one SGD step on the chosen device changes the weights and gives a finite loss") {
  const torch::Device device = best_device();
  PlacedClassifier c = place_classifier(device);
  torch::optim::SGD optimizer(c.model->parameters(), torch::optim::SGDOptions(0.1));
  const auto labels = torch::tensor({0, 2, 1, 0}, device);
  const auto weights_before = c.model->weight.detach().clone();

  optimizer.zero_grad();
  const auto loss = F::cross_entropy(c.model(c.ticket_vectors.slice(0, 0, 4)), labels);
  loss.backward();
  optimizer.step();
  const double logged_loss = loss.detach().cpu().item<double>();

  print("weights changed:", !torch::equal(weights_before, c.model->weight.detach()));
  print("finite loss:", std::isfinite(logged_loss));
  CHECK(c.model->weight.grad().device() == c.model->weight.device());  // gradients stay put
}
// %% [output]
// weights changed: True
// finite loss: True
// %% [python]
// device = best_device()
// model, batch, ticket_vectors = place_classifier(device)
// optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
// labels = torch.tensor([0, 2, 1, 0], device=device)
// weights_before = model.weight.detach().clone()
//
// optimizer.zero_grad()
// loss = F.cross_entropy(model(ticket_vectors[0:4]), labels)
// loss.backward()
// optimizer.step()
// logged_loss = loss.detach().cpu().item()
//
// print("weights changed:", not torch.equal(weights_before, model.weight.detach()))
// print("finite loss:", math.isfinite(logged_loss))
// assert model.weight.grad.device == model.weight.device  # gradients stay put

// %% [markdown]
// `c.ticket_vectors.slice(0, 0, 4)` is LibTorch's spelling of Python's `ticket_vectors[:4]`.
// Without a seed the numbers change from run to run, which is why the cell prints only facts
// that hold every time. With `manual_seed(0)` the step is reproducible, and its numbers are
// those real PyTorch prints for the same script (the course's tests compare them to 1e-6):

// %% seeded_step
TUTOR_CELL("with manual_seed(0) the step gives PyTorch's loss and weight change") {
  torch::manual_seed(0);
  PlacedClassifier c = place_classifier(best_device());
  torch::optim::SGD optimizer(c.model->parameters(), torch::optim::SGDOptions(0.1));
  const auto weights_before = c.model->weight.detach().clone();
  const auto loss = F::cross_entropy(c.model(c.ticket_vectors.slice(0, 0, 4)),
                                     torch::tensor({0, 2, 1, 0}, best_device()));
  loss.backward();
  optimizer.step();
  const auto change = c.model->weight.detach() - weights_before;
  print(fmt::format("loss: {:.4f}", loss.item<double>()));
  print(fmt::format("size of the weight change: {:.4f}", std::sqrt((change * change).sum().item<double>())));
}
// %% [output]
// loss: 1.1035
// size of the weight change: 0.1005
// %% [python]
// torch.manual_seed(0)
// model, batch, ticket_vectors = place_classifier(best_device())
// optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
// weights_before = model.weight.detach().clone()
// loss = F.cross_entropy(model(ticket_vectors[0:4]), torch.tensor([0, 2, 1, 0], device=best_device()))
// loss.backward()
// optimizer.step()
// change = model.weight.detach() - weights_before
// print(f"loss: {loss.item():.4f}")
// print(f"size of the weight change: {math.sqrt((change * change).sum().item()):.4f}")

// %% [markdown]
// The weight change is the learning rate times the gradient's size (0.1 × 1.005): one plain
// SGD step, exactly as the formula says.
//
// The recipe draws its random numbers on the cpu and then moves them. That is what keeps it
// reproducible across devices: `manual_seed` also seeds a generator of `mps`'s own, but numbers
// drawn there (`randn(..., device="mps")`) come from a different algorithm, so a Mac's values
// differ from the cpu's, and drawing them leaves the cpu's stream where it was. (The emulator
// keeps the two streams apart too, but fills the `mps` one with the cpu's algorithm.)
//
// ## The logging boundary
//
// A loss that lives on `mps` is not a number the host can print. `.item()` copies the value
// back, and to do so the host waits until the GPU has finished the work that produces it.
// Chaining `.detach().cpu().item()` makes that boundary explicit. (In Python, NumPy needs the
// same step: `t.numpy()` on an `mps` tensor raises a `TypeError` that tells you to call
// `.cpu()` first.)

// %% mps_logging_boundary
TUTOR_CELL("a loss on the device is read on the host through detach, cpu and item") {
  const auto loss = torch::tensor(2.5, best_device());
  const double reported_loss = loss.detach().cpu().item<double>();
  print(fmt::format("reported loss: {:.1f}", reported_loss));
}
// %% [output]
// reported loss: 2.5
// %% [python]
// loss = torch.tensor(2.5, device=best_device())
// reported_loss = loss.detach().cpu().item()
// print(f"reported loss: {reported_loss:.1f}")

// %% [markdown]
// ## When placement goes wrong
//
// If the model and the batch do not agree, fix the placement before looking for anything
// deeper. A cheap guard at the top of a training loop catches it before a long run. Write it
// with lesson 2's `device_index` in mind: a tensor on the GPU reports `mps:0`, which does not
// equal the `mps` you moved the model to, so a guard that compares devices with `!=` fires on
// every correct batch. Compare device *types*:

// %% catch_mps_mismatch
TUTOR_CELL("a placement guard compares device types, since a batch on mps reports mps:0") {
  auto require_same_device = [](const torch::Device& model_device, const torch::Tensor& batch) {
    if (batch.device().type() != model_device.type()) {
      throw std::runtime_error("batch is on " + batch.device().str() + ", the model on " + model_device.str());
    }
  };
  const torch::Device device = best_device();
  const auto placed = torch::randn({8, 4}).to(device);
  const auto left_behind = torch::randn({8, 4});  // forgot .to(device)
  print("placed batch on", placed.device(), "| equal to", device, "?", placed.device() == device,
        "| same type?", placed.device().type() == device.type());
  for (const torch::Tensor& batch : {placed, left_behind}) {
    try {
      require_same_device(device, batch);
      print("guard passed a batch on", batch.device());
    } catch (const std::runtime_error& error) {
      print("caught:", error.what());
    }
  }
}
// %% [output]
// placed batch on mps:0 | equal to mps ? False | same type? True
// guard passed a batch on mps:0
// caught: batch is on cpu, the model on mps
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// placed batch on cpu | equal to cpu ? True | same type? True
// guard passed a batch on cpu
// guard passed a batch on cpu
// %% [python]
// def require_same_device(model_device, batch):
//     if batch.device.type != model_device.type:
//         raise RuntimeError(f"batch is on {batch.device}, the model on {model_device}")
//
//
// device = best_device()
// placed = torch.randn(8, 4).to(device)
// left_behind = torch.randn(8, 4)  # forgot .to(device)
// print("placed batch on", placed.device, "| equal to", device, "?", placed.device == device,
//       "| same type?", placed.device.type == device.type)
// for batch in (placed, left_behind):
//     try:
//         require_same_device(device, batch)
//         print("guard passed a batch on", batch.device)
//     except RuntimeError as error:
//         print("caught:", error)

// %% [markdown]
// Without a guard, PyTorch itself refuses, and its message names the argument that is on the
// wrong device. Forgetting to move the batch is the classic case:

// %% batch_left_on_cpu compare="linux-x86_64"
TUTOR_CELL("a model on mps fed a batch left on the cpu fails naming the input") {
  torch::nn::Linear model(768, 3);
  model->to(best_device());
  const auto ticket_vectors = torch::randn({32, 768});  // forgot .to(device)
  try {
    const auto logits = model(ticket_vectors);
    print("forward ran on", logits.device());
  } catch (const torch::Error& error) {
    print(py::format_exception_only(error));
  }
}
// %% [output]
// RuntimeError: Tensor for argument input is on cpu but expected on mps
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// forward ran on cpu
// %% [python]
// model = torch.nn.Linear(768, 3)
// model.to(best_device())
// ticket_vectors = torch.randn(32, 768)  # forgot .to(device)
// try:
//     logits = model(ticket_vectors)
//     print("forward ran on", logits.device)
// except RuntimeError as error:
//     print(f"{type(error).__name__}: {error}")

// %% [markdown]
// Look at the output documented for `linux-x86_64` (below this machine's, on any other): on a
// computer without MPS the same bug runs without complaint, because `best_device()` chose `cpu`
// and everything is there anyway. A placement bug can pass every test on a Linux CI box and fail
// on the first Mac. The mirror image, moving the batch and forgetting the model, names the weight
// instead:

// %% model_left_on_cpu requires="mps"
TUTOR_CELL("a batch on mps fed to a model left on the cpu fails naming the weight") {
  torch::nn::Linear model(768, 3);  // forgot model->to(device)
  const auto ticket_vectors = torch::randn({32, 768}).to(torch::Device("mps"));
  try {
    model(ticket_vectors);
  } catch (const torch::Error& error) {
    print(py::format_exception_only(error));
  }
}
// %% [output]
// RuntimeError: Tensor for argument weight is on cpu but expected on mps
// %% [python]
// model = torch.nn.Linear(768, 3)  # forgot model.to(device)
// ticket_vectors = torch.randn(32, 768).to("mps")
// try:
//     model(ticket_vectors)
// except RuntimeError as error:
//     print(f"{type(error).__name__}: {error}")

// %% [markdown]
// Elementwise arithmetic has its own message, and it puts the GPU device first whichever
// operand is on it. One exception is allowed: a 0-dim cpu tensor, a single number, may meet an
// `mps` tensor, and PyTorch treats it like a Python scalar.

// %% mixing_devices_in_arithmetic requires="mps"
TUTOR_CELL("elementwise arithmetic across mps and cpu fails in either order, except for a scalar") {
  const auto on_mps = torch::ones({4}, torch::Device("mps"));
  const auto on_cpu = torch::ones({4});
  for (const auto& [a, b] : {std::pair{on_mps, on_cpu}, std::pair{on_cpu, on_mps}}) {
    try {
      a + b;
    } catch (const torch::Error& error) {
      print(py::format_exception_only(error));
    }
  }
  print("with a 0-dim cpu tensor the result is on", (on_mps * torch::tensor(0.5)).device());
}
// %% [output]
// RuntimeError: Expected all tensors to be on the same device, but found at least two devices, mps:0 and cpu!
// RuntimeError: Expected all tensors to be on the same device, but found at least two devices, mps:0 and cpu!
// with a 0-dim cpu tensor the result is on mps:0
// %% [python]
// on_mps, on_cpu = torch.ones(4, device="mps"), torch.ones(4)
// for a, b in [(on_mps, on_cpu), (on_cpu, on_mps)]:
//     try:
//         a + b
//     except RuntimeError as error:
//         print(f"{type(error).__name__}: {error}")
// print("with a 0-dim cpu tensor the result is on", (on_mps * torch.tensor(0.5)).device)

// %% [markdown]
// ## Move them together
//
// The fix for every case above is the same: move the model and the batch in one place, to one
// device, before the forward pass. A small helper makes it impossible to do one without the
// other:

// %% move_together
TUTOR_CELL("moving the model and the batch in one place keeps them together") {
  const torch::Device device = best_device();
  auto place = [&device](torch::nn::Linear& model, const torch::Tensor& batch) {
    model->to(device);
    return batch.to(device);
  };
  torch::nn::Linear model(768, 3);
  const auto ticket_vectors = place(model, torch::randn({32, 768}));
  const auto logits = model(ticket_vectors);
  print("weights on:", model->weight.device(), "| batch on:", ticket_vectors.device(),
        "| logits on:", logits.device());
}
// %% [output]
// weights on: mps:0 | batch on: mps:0 | logits on: mps:0
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// weights on: cpu | batch on: cpu | logits on: cpu
// %% [python]
// device = best_device()
//
//
// def place(model, batch):
//     model.to(device)
//     return batch.to(device)
//
//
// model = torch.nn.Linear(768, 3)
// ticket_vectors = place(model, torch.randn(32, 768))
// logits = model(ticket_vectors)
// print("weights on:", model.weight.device, "| batch on:", ticket_vectors.device, "| logits on:", logits.device)

// %% [markdown]
// ## What to remember
//
// - Narrate each step: where the tensor lives, where the work runs, when the host waits, what
//   fails first.
// - `cpu` and `mps` are different devices even on one chip: move the model and the batch
//   together, and expect the output where they are.
// - Bring a value back to the host deliberately, with `.detach().cpu().item()`, outside the
//   gradient computation.
// - A placement error names the culprit: `argument input` means the batch was left behind,
//   `argument weight` the model; the elementwise message always lists `mps:0` first.
// - A machine without MPS hides placement bugs: test on the device you will train on.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson03`. Practise it in lab 3: edit
// `labs/03_placement/lab.cpp` until `build/course verify 03` passes (`build/course hint 03`
// gives one hint at a time). Then lesson 4, `build/lessons/lesson04`, looks at operations that
// have no MPS kernel at all.
