#pragma once
// Internal: the dtype check of matrix products (matmul, linear).

#include "engine/tensor.h"

namespace engine::detail {

// The operands' dtypes must match, as dot's and mm's checks say (aten/src/ATen/native/
// LinearAlgebra.cpp, Blas.cpp), mm naming them as caffe2's TypeMeta prints them ("float !=
// c10::Half"); a bool product has no kernel ("addmm_impl_cpu_" not implemented for 'Bool').
void check_matmul_dtypes(const Tensor& a, const Tensor& b);

}  // namespace engine::detail
