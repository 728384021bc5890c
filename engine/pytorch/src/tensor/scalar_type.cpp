#include "engine/scalar_type.h"

namespace engine {
namespace {

struct TypeInfo {
  std::size_t size;
  std::string_view c10_name, python_name;
};

// c10/core/ScalarType.h's AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS, for these types.
constexpr TypeInfo kTypes[] = {
    {1, "Byte", "torch.uint8"},        {1, "Char", "torch.int8"},      {2, "Short", "torch.int16"},
    {4, "Int", "torch.int32"},         {8, "Long", "torch.int64"},     {2, "Half", "torch.float16"},
    {4, "Float", "torch.float32"},     {8, "Double", "torch.float64"}, {1, "Bool", "torch.bool"},
    {2, "BFloat16", "torch.bfloat16"},
};

const TypeInfo& info(ScalarType type) { return kTypes[static_cast<std::size_t>(type)]; }

}  // namespace

std::size_t elementSize(ScalarType type) noexcept { return info(type).size; }

std::string_view scalar_type_name(ScalarType type) noexcept { return info(type).c10_name; }

std::string_view python_dtype_name(ScalarType type) noexcept { return info(type).python_name; }

bool is_floating_point(ScalarType type) noexcept {
  return type == ScalarType::Half || type == ScalarType::Float || type == ScalarType::Double ||
         type == ScalarType::BFloat16;
}

bool isIntegralType(ScalarType type, bool include_bool) noexcept {
  if (type == ScalarType::Bool) return include_bool;
  return !is_floating_point(type);
}

bool isReducedFloatingType(ScalarType type) noexcept {
  return type == ScalarType::Half || type == ScalarType::BFloat16;
}

}  // namespace engine
