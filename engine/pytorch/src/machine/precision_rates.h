#pragma once
// Internal: how fast each processor computes in each dtype, relative to float32: Note [Precision
// on Apple GPUs] (precision_rates.cpp). Memory traffic needs no table: a kernel's bytes count each
// element at its dtype's size, so half-precision tensors stream in half the time everywhere.

#include "engine/scalar_type.h"

namespace engine::detail {

// The share of the GPU's float32 arithmetic rate a kernel computing in `dtype` reaches, on a GPU
// of Apple family `family` (7 = M1, 8 = M2, 9 = M3 and M4).
double gpu_arithmetic_rate(int family, ScalarType dtype);
// The share of the AMX units' float32 matrix rate that Accelerate reaches in `dtype`, or 0 where
// PyTorch's cpu products do not call Accelerate for it.
double amx_rate(ScalarType dtype);
// The share of the cores' float32 vector rate the cpu's own product kernels reach in `dtype`.
double cpu_vector_rate(ScalarType dtype);

}  // namespace engine::detail
