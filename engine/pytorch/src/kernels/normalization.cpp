#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"

namespace engine::kernels {

void layer_norm(const float* x, const float* weight, const float* bias, float* y, float* mean,
                float* rstd, std::int64_t rows, std::int64_t n, float eps) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * n;
    double sum = 0, squares = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      sum += row[i];
      squares += static_cast<double>(row[i]) * row[i];
    }
    const double mu = sum / static_cast<double>(n);
    const double var =
        std::max(squares / static_cast<double>(n) - mu * mu, 0.0);  // biased, as PyTorch
    mean[r] = static_cast<float>(mu);
    rstd[r] = static_cast<float>(1.0 / std::sqrt(var + eps));
    for (std::int64_t i = 0; i < n; ++i) {
      float v = (row[i] - mean[r]) * rstd[r];
      if (weight != nullptr) v *= weight[i];
      if (bias != nullptr) v += bias[i];
      y[r * n + i] = v;
    }
  }
}

void layer_norm_backward(const float* g, const float* x, const float* weight, const float* mean,
                         const float* rstd, float* dx, float* dweight, float* dbias,
                         std::int64_t rows, std::int64_t n) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* gr = g + r * n;
    const float* xr = x + r * n;
    double mean_gw = 0, mean_gw_xhat = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const float xhat = (xr[i] - mean[r]) * rstd[r];
      const float gw = gr[i] * (weight != nullptr ? weight[i] : 1.0f);
      mean_gw += gw;
      mean_gw_xhat += static_cast<double>(gw) * xhat;
      if (dweight != nullptr) dweight[i] += gr[i] * xhat;
      if (dbias != nullptr) dbias[i] += gr[i];
    }
    mean_gw /= static_cast<double>(n);
    mean_gw_xhat /= static_cast<double>(n);
    for (std::int64_t i = 0; i < n; ++i) {
      const float xhat = (xr[i] - mean[r]) * rstd[r];
      const float gw = gr[i] * (weight != nullptr ? weight[i] : 1.0f);
      dx[r * n + i] =
          rstd[r] * (gw - static_cast<float>(mean_gw) - xhat * static_cast<float>(mean_gw_xhat));
    }
  }
}

}  // namespace engine::kernels
