#pragma once
// What a script on the simulated machine learns from Python's platform module and from
// `sysctl -n sysctl.proc_translated`, the usual way to ask whether Rosetta 2 translates it.

#include <string>

namespace engine::py::platform {

std::string system();       // platform.system(): "Darwin" or "Linux"
std::string machine();      // platform.machine(): the interpreter's architecture, "arm64"/"x86_64"
std::string mac_release();  // platform.mac_ver()[0]: "15.6.1", or "" when not on macOS
std::string python_version();  // platform.python_version(): the interpreter's, "3.12.4"
bool proc_translated();        // sysctl.proc_translated == 1: an x86_64 process under Rosetta 2

}  // namespace engine::py::platform
