#include "engine/errors.h"

namespace engine {

std::string py::format_exception_only(const Error& error) {
  std::string line(error.python_type());
  line += ": ";
  line += error.what();
  return line;
}

}  // namespace engine
