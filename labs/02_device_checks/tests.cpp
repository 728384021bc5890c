// Lab 2 · Device checks: the tests. Each one runs your functions on every simulated machine
// (sim::use_machine starts a fresh simulated process there) and holds them to PyTorch's own
// answers, is_built() and is_available().

#include <string>

#include "02_device_checks/lab.h"
#include "harness/check.h"

namespace {

const harness::LessonCell kSanityCheck("02_device_checks", "sanity_check");
const harness::LessonCell kPlacingAnyway("02_device_checks", "placing_on_mps_anyway");
const harness::LessonCell kDeviceIndex("02_device_checks", "device_index");
const harness::LessonCell kEveryMachine("02_device_checks", "every_machine_at_a_glance");

std::string name_of(lab::MpsState state) {
  switch (state) {
    case lab::MpsState::NotBuilt:
      return "not built";
    case lab::MpsState::BuiltButUnavailable:
      return "built but unavailable";
    case lab::MpsState::Available:
      break;
  }
  return "available";
}

// What the machine says when asked PyTorch's two questions.
std::string answers() {
  return std::string("is_built() is ") + (py::torch::backends::mps::is_built() ? "True" : "False") +
         " and is_available() is " + (py::torch::backends::mps::is_available() ? "True" : "False");
}

lab::MpsState state_of_this_machine() {
  if (!py::torch::backends::mps::is_built()) return lab::MpsState::NotBuilt;
  return py::torch::backends::mps::is_available() ? lab::MpsState::Available : lab::MpsState::BuiltButUnavailable;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }
bool mentions(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

}  // namespace

TEST_CASE("mps_state and the diagnosis name each machine's state") {
  for (const sim::MachineProfile* machine : sim::machines()) {
    sim::use_machine(*machine);
    const lab::MpsState expected = state_of_this_machine();
    const std::string prefix = name_of(expected) + ":";
    INFO("on " << machine->name << ", " << answers() << ": the state is \"" << name_of(expected) << "\"");
    const lab::MpsState state = lab::mps_state();
    CHECK_MESSAGE(state == expected,
                  "mps_state() said \"" << name_of(state) << "\"." << harness::why << "Each pair of answers is its "
                  "own state: a build without MPS needs another wheel, while a build with MPS on a machine that "
                  "cannot use it needs another macOS or another Mac, and reinstalling PyTorch will not help."
                      << kEveryMachine);
    const std::string line = lab::diagnosis();
    CHECK_MESSAGE(starts_with(line, prefix),
                  "diagnosis() said \"" << line << "\"; it should start with \"" << prefix << "\"." << kEveryMachine);
  }
}

TEST_CASE("choose_device picks mps exactly where it is available") {
  for (const sim::MachineProfile* machine : sim::machines()) {
    sim::use_machine(*machine);
    const bool available = py::torch::backends::mps::is_available();
    INFO("on " << machine->name << ", " << answers());
    const torch::Device device = lab::choose_device();
    CHECK_MESSAGE(device.type() == (available ? torch::kMPS : torch::kCPU),
                  "choose_device() returned " << device.str() << "." << harness::why << "is_built() is about the "
                  "wheel; only is_available() says whether this process can put a tensor on mps. Anywhere else, "
                  "mps fails at the first tensor." << kSanityCheck << kPlacingAnyway);
    INFO("torch::zeros({2}, choose_device())");
    CHECK_NOTHROW(torch::zeros({2}, device));
  }
}

TEST_CASE("the diagnosis is one line whose fix suits the state it names") {
  for (const sim::MachineProfile* machine : sim::machines()) {
    sim::use_machine(*machine);
    const std::string line = lab::diagnosis();
    INFO("on " << machine->name << ", diagnosis() said \"" << line << "\"");
    REQUIRE_MESSAGE((!line.empty() && !mentions(line, "\n")),
                    harness::why << "A diagnosis is one line, for the top of a log.");
    if (starts_with(line, "not built:")) {
      CHECK_MESSAGE(mentions(line, "arm64"),
                    harness::why << "A build without MPS is fixed by installing the macOS arm64 wheel, from an arm64 "
                    "Python." << kEveryMachine);
    } else if (starts_with(line, "built but unavailable:")) {
      CHECK_MESSAGE((mentions(line, "macOS") && mentions(line, "cpu")),
                    harness::why << "A build with MPS that this machine cannot use needs a newer macOS (or Apple "
                    "silicon); meanwhile the script should train on the cpu." << kEveryMachine);
    } else {
      CHECK_MESSAGE(starts_with(line, "available:"),
                    harness::why << "A diagnosis starts with one of \"not built:\", \"built but unavailable:\", "
                    "\"available:\".");
      CHECK_MESSAGE(mentions(line, "mps"), harness::why << "When MPS is available, the thing to do is to use mps."
                                                        << kSanityCheck);
    }
  }
}

TEST_CASE("on_gpu recognises a tensor on mps although it reports mps:0") {
  sim::use_machine("m3-max-64gb");
  const auto on_mps = torch::ones({2}, torch::Device("mps"));
  CHECK_MESSAGE(lab::on_gpu(on_mps),
                "on_gpu(a tensor created on \"mps\") said false" << harness::why << "A tensor created on \"mps\" "
                "reports its device as mps:0, and torch::Device(\"mps\") has no index, so the two devices are not "
                "equal: compare device types to ask \"on the GPU?\"" << kDeviceIndex);
  CHECK_MESSAGE(!lab::on_gpu(torch::ones({2})), "on_gpu(a tensor on the cpu) said true" << harness::why
                                                    << "A tensor on the cpu is not on the GPU.");
}
