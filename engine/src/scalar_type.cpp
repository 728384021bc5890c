#include "engine/scalar_type.h"

namespace engine {

std::size_t element_size(ScalarType type) noexcept {
  return type == ScalarType::Float ? sizeof(float) : sizeof(std::int64_t);
}

std::string_view scalar_type_name(ScalarType type) noexcept {
  return type == ScalarType::Float ? "Float" : "Long";
}

std::string_view python_dtype_name(ScalarType type) noexcept {
  return type == ScalarType::Float ? "torch.float32" : "torch.int64";
}

bool is_floating_point(ScalarType type) noexcept { return type == ScalarType::Float; }

}  // namespace engine
