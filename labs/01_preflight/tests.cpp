// Lab 1 · Preflight: the tests. The preflight runs on every simulated machine and is held to
// what the machine's interpreter reports (py::platform: its system, architecture and version)
// and to the engine's own test of the macOS release.

#include <cstdio>
#include <string>
#include <vector>

#include "01_preflight/lab.h"
#include "harness/check.h"

namespace {

const harness::LessonCell kRequirementsCheck("01_metal_mps_and_unified_memory", "requirements_check");
const harness::LessonCell kBatchBytes("01_metal_mps_and_unified_memory", "ticket_batch_bytes");

bool any_mentions(const std::vector<std::string>& lines, const std::string& word) {
  for (const std::string& line : lines) {
    if (line.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "\n  " + line;
  return lines.empty() ? " (none)" : text;
}

}  // namespace

TEST_CASE("macOS releases compare as numbers and not as text") {
  struct Case {
    std::string release;
    int major, minor;
    bool newer;
  };
  for (const Case& c : {Case{"15.6.1", 14, 0, true}, Case{"14", 14, 0, true}, Case{"14.0", 14, 0, true},
                        Case{"13.10", 13, 4, true}, Case{"13.4", 13, 10, false}, Case{"9.6", 14, 0, false},
                        Case{"12.0", 14, 0, false}, Case{"10.15.7", 10, 15, true}, Case{"", 14, 0, false}}) {
    CHECK_MESSAGE(lab::macos_at_least(c.release, c.major, c.minor) == c.newer,
                  "macos_at_least(\"" << c.release << "\", " << c.major << ", " << c.minor << ") should be "
                  << std::string(c.newer ? "true" : "false") << harness::why << "A release is a list of numbers: as "
                  "text \"13.10\" sorts before \"13.4\" and \"9.6\" after \"14.0\", so compare the major, then the minor, "
                  "as numbers." << kRequirementsCheck);
  }
}

TEST_CASE("the preflight names each unmet requirement on every machine") {
  for (const sim::MachineProfile* machine : sim::machines()) {
    sim::use_machine(*machine);
    const bool on_macos = py::platform::system() == "Darwin";
    const bool translated = py::platform::proc_translated();
    const bool x86_64 = py::platform::machine() != "arm64";
    const std::string release = py::platform::mac_release();
    const bool too_old = on_macos && !py::torch::backends::mps::is_macos_or_newer(14, 0);
    INFO("on " << machine->name << " (system " << py::platform::system() << ", interpreter "
         << py::platform::machine() << std::string(translated ? " under Rosetta" : "") << " Python "
         << py::platform::python_version() << ", macOS " << (on_macos ? release : "none") << ")");
    const std::vector<std::string> problems = lab::preflight_problems();
    INFO("the preflight said:" << joined(problems));
    if (!on_macos) {
      CHECK_MESSAGE(any_mentions(problems, "macOS"),
                    harness::why << "This is not a Mac: say so (mention macOS)." << kRequirementsCheck);
      continue;
    }
    CHECK_MESSAGE(any_mentions(problems, "Rosetta") == translated,
                  harness::why << std::string(translated ? "The interpreter is x86_64, translated by Rosetta 2 on an "
                                "Apple-silicon Mac. The hardware is fine, the interpreter is not: it can only install "
                                "x86_64 builds, usually without MPS. Ask the interpreter (platform::machine(), "
                                "proc_translated())."
                              : "Only an interpreter under Rosetta is a Rosetta problem.")
                      << kRequirementsCheck);
    if (x86_64 && !translated) {
      CHECK_MESSAGE(any_mentions(problems, "x86_64"),
                    harness::why << "An x86_64 interpreter on an Intel Mac: mention x86_64." << kRequirementsCheck);
    }
    CHECK_MESSAGE(any_mentions(problems, release) == too_old,
                  ("macOS " + release + (too_old ? " is older than Apple's 14.0" : " meets Apple's 14.0"))
                      << harness::why
                      << std::string(too_old ? "Name the release among the problems." : "It is no release problem.")
                      << kRequirementsCheck);
    const std::string python = py::platform::python_version();
    int python_major = 0, python_minor = 0;
    std::sscanf(python.c_str(), "%d.%d", &python_major, &python_minor);
    const bool old_python = python_major < 3 || (python_major == 3 && python_minor < 10);
    CHECK_MESSAGE(any_mentions(problems, "Python " + python) == old_python,
                  ("Python " + python + (old_python ? " is older than the 3.10 Apple asks for" : " meets Apple's 3.10"))
                      << harness::why
                      << std::string(old_python ? "Name the interpreter's version among the problems "
                                                  "(py::platform::python_version()): the wheels need 3.10."
                                                : "It is no Python problem.")
                      << kRequirementsCheck);
    const bool no_tools = py::platform::xcode_select_path().empty();
    CHECK_MESSAGE(any_mentions(problems, "xcode-select") == no_tools,
                  std::string(no_tools ? "xcode-select -p finds no developer tools here"
                                       : "xcode-select -p finds the developer tools")
                      << harness::why
                      << std::string(no_tools ? "Apple's setup asks for Xcode's command-line tools (pip builds some "
                                                "packages with their compiler): say how to install them, "
                                                "xcode-select --install (py::platform::xcode_select_path() is \"\" "
                                                "where they are missing)."
                                              : "It is no developer-tools problem.")
                      << kRequirementsCheck);
    if (!x86_64 && !too_old && !old_python && !no_tools) {
      CHECK_MESSAGE(problems.empty(),
                    harness::why << "This Mac meets every requirement: nothing to say." << kRequirementsCheck);
    }
  }
}

TEST_CASE("a batch's bytes count the width of each element") {
  struct Case {
    std::vector<std::int64_t> shape;
    torch::ScalarType dtype;
    std::string what;
  };
  const sim::ShapeOnlyGuard shape_only;  // the sizes, without allocating the values
  for (const Case& c : {Case{{32, 128, 768}, torch::kFloat32, "the float32 batch of lesson 1"},
                        Case{{32}, torch::kInt64, "its int64 labels"}, Case{{7, 3}, torch::kFloat32, "a small float32 tensor"}}) {
    const auto tensor = torch::zeros(c.shape, torch::TensorOptions().dtype(c.dtype));
    const std::int64_t expected = tensor.numel() * static_cast<std::int64_t>(torch::elementSize(c.dtype));
    const std::int64_t bytes = lab::batch_bytes(c.shape, c.dtype);
    CHECK_MESSAGE(bytes == expected, c.what << ": batch_bytes said " << bytes << ", but " << tensor.numel()
                                            << " elements of " << torch::elementSize(c.dtype)
                                            << " bytes each take " << expected << "." << harness::why
                                            << "A float32 is 4 bytes, an int64 8: the element count alone "
                                            "underestimates the bill." << kBatchBytes);
  }
}
