#include "engine/scalar_type.h"

namespace engine {

std::size_t elementSize(ScalarType type) noexcept {
  switch (type) {
    case ScalarType::Float:
      return sizeof(float);
    case ScalarType::Long:
      return sizeof(std::int64_t);
    case ScalarType::Bool:
      return sizeof(bool);
  }
  return 0;
}

std::string_view scalar_type_name(ScalarType type) noexcept {
  switch (type) {
    case ScalarType::Float:
      return "Float";
    case ScalarType::Long:
      return "Long";
    case ScalarType::Bool:
      return "Bool";
  }
  return "";
}

std::string_view python_dtype_name(ScalarType type) noexcept {
  switch (type) {
    case ScalarType::Float:
      return "torch.float32";
    case ScalarType::Long:
      return "torch.int64";
    case ScalarType::Bool:
      return "torch.bool";
  }
  return "";
}

bool is_floating_point(ScalarType type) noexcept { return type == ScalarType::Float; }

}  // namespace engine
