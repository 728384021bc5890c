// Kernels that compile both as Metal and, through the shim (metal_stdlib beside this file), as
// C++; tests/engine/metal/shim_test.cpp runs both and compares. No barriers or SIMD-group
// functions: the C++ runs one thread at a time.
#include <metal_stdlib>
using namespace metal;

kernel void saxpy(const device float* x, device float* y, constant float& a, constant uint& n,
                  uint i [[thread_position_in_grid]]) {
  if (i >= n) return;
  y[i] = fma(a, x[i], y[i]);
}

// Steps of the Collatz sequence from i + 1, and a polynomial in f by Horner's rule: loops,
// integer wrapping, conditions, a helper function, break and continue.
int collatz_steps(uint v) {
  int steps = 0;
  while (v != 1u) {
    v = (v % 2u == 0u) ? v / 2u : 3u * v + 1u;
    steps++;
    if (steps > 500) break;
  }
  return steps;
}

kernel void mixed(const device float* f, device int* steps, device float* poly, device uint* hash,
                  uint i [[thread_position_in_grid]]) {
  steps[i] = collatz_steps(i + 1u);
  float p = 0.0f;
  for (int k = 5; k >= 0; --k) {
    if (k == 2) continue;
    p = p * f[i] + float(k) * 0.25f;
  }
  poly[i] = max(min(p, 100.0f), -100.0f) + sqrt(abs(int(i) - 7) * 1.0f);
  uint h = i * 2654435761u;
  h ^= h >> 13;
  hash[i] = h * 0x5bd1e995u + uint(steps[i]);
}

// A matrix product, one thread per element of the result: a two-dimensional grid.
kernel void matmul(const device float* a, const device float* b, device float* c,
                   constant uint& k_size, constant uint& n_size, uint2 gid [[thread_position_in_grid]]) {
  float sum = 0.0f;
  for (uint k = 0; k < k_size; ++k) sum += a[gid.y * k_size + k] * b[k * n_size + gid.x];
  c[gid.y * n_size + gid.x] = sum / float(k_size);
}
