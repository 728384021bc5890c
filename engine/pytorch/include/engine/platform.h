#pragma once
// What a script on the simulated machine learns from Python's platform module, from
// `sysctl -n sysctl.proc_translated`, the usual way to ask whether Rosetta 2 translates it, and
// from `xcode-select -p`, the usual way to ask whether Xcode's command-line tools are installed.

#include <string>

namespace engine::py::platform {

std::string system();       // platform.system(): "Darwin" or "Linux"
std::string machine();      // platform.machine(): the interpreter's architecture, "arm64"/"x86_64"
std::string mac_release();  // platform.mac_ver()[0]: "15.6.1", or "" when not on macOS
std::string python_version();  // platform.python_version(): the interpreter's, "3.12.4"
bool proc_translated();        // sysctl.proc_translated == 1: an x86_64 process under Rosetta 2
// `xcode-select -p`'s output: the active developer directory, "" where the command fails (no
// developer tools installed; off macOS there is no xcode-select at all).
std::string xcode_select_path();

}  // namespace engine::py::platform
