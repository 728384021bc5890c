#include "engine/errors.h"

namespace engine {

std::string python_message(const Error& error) {
  std::string line(error.python_type());
  line += ": ";
  line += error.what();
  return line;
}

}  // namespace engine
