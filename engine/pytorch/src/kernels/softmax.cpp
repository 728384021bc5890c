#include <algorithm>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/portable_math.h"

namespace engine::kernels {

// Subtracting the maximum first keeps exp() from overflowing, as PyTorch's kernel does.
void log_softmax(const float* in, float* out, std::int64_t outer, std::int64_t n,
                 std::int64_t inner) {
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      const float* x = in + o * n * inner + i;
      float* y = out + o * n * inner + i;
      float max = -std::numeric_limits<float>::infinity();
      for (std::int64_t j = 0; j < n; ++j) max = std::max(max, x[j * inner]);
      double total = 0;
      for (std::int64_t j = 0; j < n; ++j) total += portable::exp(x[j * inner] - max);
      const auto log_total = static_cast<float>(portable::log(total));
      for (std::int64_t j = 0; j < n; ++j) y[j * inner] = x[j * inner] - max - log_total;
    }
  }
}

void softmax(const float* in, float* out, std::int64_t outer, std::int64_t n, std::int64_t inner) {
  log_softmax(in, out, outer, n, inner);
  for (std::int64_t i = 0; i < outer * n * inner; ++i) out[i] = portable::expf(out[i]);
}

void softmax_backward(const float* grad_out, const float* out, float* grad_in, std::int64_t outer,
                      std::int64_t n, std::int64_t inner) {
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      const std::int64_t base = o * n * inner + i;
      double dot = 0;
      for (std::int64_t j = 0; j < n; ++j)
        dot += grad_out[base + j * inner] * out[base + j * inner];
      for (std::int64_t j = 0; j < n; ++j) {
        const std::int64_t at = base + j * inner;
        grad_in[at] = out[at] * (grad_out[at] - static_cast<float>(dot));
      }
    }
  }
}

void log_softmax_backward(const float* grad_out, const float* out, float* grad_in,
                          std::int64_t outer, std::int64_t n, std::int64_t inner) {
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      const std::int64_t base = o * n * inner + i;
      double total = 0;
      for (std::int64_t j = 0; j < n; ++j) total += grad_out[base + j * inner];
      for (std::int64_t j = 0; j < n; ++j) {
        const std::int64_t at = base + j * inner;
        grad_in[at] = grad_out[at] - portable::expf(out[at]) * static_cast<float>(total);
      }
    }
  }
}

}  // namespace engine::kernels
