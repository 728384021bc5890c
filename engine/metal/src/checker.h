#pragma once
// Internal: the checker. It resolves names, gives every expression its type (inserting the
// implicit conversions as Convert nodes), checks what MSL requires of kernels (a void result,
// parameters that are buffers or carry a kernel-input attribute of the right type) and lays out
// memory: every local's word in thread memory (functions get fixed frames: MSL has no
// recursion), every threadgroup variable's offset in its kernel's threadgroup memory.
// Throws SourceError at the first error, in clang's words where clang has them.

#include "ast.h"

namespace engine::metal::detail {

void check(Program& program);

}  // namespace engine::metal::detail
