#include "engine/os.h"

#include "machine/process.h"

extern char** environ;  // POSIX: this program's environment

namespace engine {

std::map<std::string, std::string> detail::program_environment() {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const auto equals = text.find('=');
    if (equals != std::string::npos)
      variables.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return variables;
}

namespace py::os {

std::optional<std::string> getenv(const std::string& name) {
  const auto& environment = detail::process().environment;
  const auto it = environment.find(name);
  if (it == environment.end()) return std::nullopt;
  return it->second;
}

void setenv(const std::string& name, const std::string& value) {
  detail::process().environment[name] = value;
}

void unsetenv(const std::string& name) { detail::process().environment.erase(name); }

}  // namespace py::os
}  // namespace engine
