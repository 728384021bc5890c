#include "kernels/image.h"

#include <algorithm>
#include <cmath>

namespace engine::kernels {
namespace {

// The input row or column a kernel tap reads, or -1 in the padding.
std::int64_t source(std::int64_t out, std::int64_t tap, std::int64_t stride, std::int64_t pad,
                    std::int64_t dilation, std::int64_t size) {
  const std::int64_t at = out * stride - pad + tap * dilation;
  return at >= 0 && at < size ? at : -1;
}

std::int64_t start_index(std::int64_t i, std::int64_t out, std::int64_t in) {
  return (i * in) / out;
}
std::int64_t end_index(std::int64_t i, std::int64_t out, std::int64_t in) {
  return ((i + 1) * in + out - 1) / out;
}

}  // namespace

void im2col(const float* image, float* cols, const Window& w) {
  const std::int64_t plane = w.out_h * w.out_w;
  for (std::int64_t c = 0; c < w.channels; ++c) {
    for (std::int64_t kh = 0; kh < w.kernel_h; ++kh) {
      for (std::int64_t kw = 0; kw < w.kernel_w; ++kw) {
        float* row = cols + ((c * w.kernel_h + kh) * w.kernel_w + kw) * plane;
        for (std::int64_t oh = 0; oh < w.out_h; ++oh) {
          const std::int64_t ih = source(oh, kh, w.stride_h, w.pad_h, w.dilation_h, w.height);
          for (std::int64_t ow = 0; ow < w.out_w; ++ow) {
            const std::int64_t iw = source(ow, kw, w.stride_w, w.pad_w, w.dilation_w, w.width);
            row[oh * w.out_w + ow] =
                ih < 0 || iw < 0 ? 0.0f : image[(c * w.height + ih) * w.width + iw];
          }
        }
      }
    }
  }
}

void col2im_add(const float* cols, float* image, const Window& w) {
  const std::int64_t plane = w.out_h * w.out_w;
  for (std::int64_t c = 0; c < w.channels; ++c) {
    for (std::int64_t kh = 0; kh < w.kernel_h; ++kh) {
      for (std::int64_t kw = 0; kw < w.kernel_w; ++kw) {
        const float* row = cols + ((c * w.kernel_h + kh) * w.kernel_w + kw) * plane;
        for (std::int64_t oh = 0; oh < w.out_h; ++oh) {
          const std::int64_t ih = source(oh, kh, w.stride_h, w.pad_h, w.dilation_h, w.height);
          for (std::int64_t ow = 0; ow < w.out_w; ++ow) {
            const std::int64_t iw = source(ow, kw, w.stride_w, w.pad_w, w.dilation_w, w.width);
            if (ih >= 0 && iw >= 0)
              image[(c * w.height + ih) * w.width + iw] += row[oh * w.out_w + ow];
          }
        }
      }
    }
  }
}

void max_pool2d(const float* in, float* out, std::int64_t* indices, std::int64_t planes,
                const Window& w) {
  for (std::int64_t p = 0; p < planes; ++p) {
    const float* plane = in + p * w.height * w.width;
    for (std::int64_t oh = 0; oh < w.out_h; ++oh) {
      for (std::int64_t ow = 0; ow < w.out_w; ++ow) {
        float best = -INFINITY;
        std::int64_t where = -1;
        for (std::int64_t kh = 0; kh < w.kernel_h; ++kh) {
          const std::int64_t ih = source(oh, kh, w.stride_h, w.pad_h, w.dilation_h, w.height);
          for (std::int64_t kw = 0; ih >= 0 && kw < w.kernel_w; ++kw) {
            const std::int64_t iw = source(ow, kw, w.stride_w, w.pad_w, w.dilation_w, w.width);
            if (iw < 0) continue;
            const float v = plane[ih * w.width + iw];
            if (where < 0 || v > best || std::isnan(v)) best = v, where = ih * w.width + iw;
          }
        }
        const std::int64_t at = (p * w.out_h + oh) * w.out_w + ow;
        out[at] = best;
        indices[at] = where;
      }
    }
  }
}

void max_pool2d_backward(const float* grad_out, const std::int64_t* indices, float* grad_in,
                         std::int64_t planes, const Window& w) {
  const std::int64_t cells = w.out_h * w.out_w;
  for (std::int64_t p = 0; p < planes; ++p) {
    for (std::int64_t i = 0; i < cells; ++i)
      grad_in[p * w.height * w.width + indices[p * cells + i]] += grad_out[p * cells + i];
  }
}

void adaptive_avg_pool2d(const float* in, float* out, std::int64_t planes, std::int64_t height,
                         std::int64_t width, std::int64_t out_h, std::int64_t out_w) {
  for (std::int64_t p = 0; p < planes; ++p) {
    const float* plane = in + p * height * width;
    for (std::int64_t i = 0; i < out_h; ++i) {
      const std::int64_t h0 = start_index(i, out_h, height), h1 = end_index(i, out_h, height);
      for (std::int64_t j = 0; j < out_w; ++j) {
        const std::int64_t w0 = start_index(j, out_w, width), w1 = end_index(j, out_w, width);
        double sum = 0;
        for (std::int64_t h = h0; h < h1; ++h) {
          for (std::int64_t c = w0; c < w1; ++c) sum += plane[h * width + c];
        }
        out[(p * out_h + i) * out_w + j] =
            static_cast<float>(sum / static_cast<double>((h1 - h0) * (w1 - w0)));
      }
    }
  }
}

void adaptive_avg_pool2d_backward(const float* grad_out, float* grad_in, std::int64_t planes,
                                  std::int64_t height, std::int64_t width, std::int64_t out_h,
                                  std::int64_t out_w) {
  std::fill_n(grad_in, planes * height * width, 0.0f);
  for (std::int64_t p = 0; p < planes; ++p) {
    float* plane = grad_in + p * height * width;
    for (std::int64_t i = 0; i < out_h; ++i) {
      const std::int64_t h0 = start_index(i, out_h, height), h1 = end_index(i, out_h, height);
      for (std::int64_t j = 0; j < out_w; ++j) {
        const std::int64_t w0 = start_index(j, out_w, width), w1 = end_index(j, out_w, width);
        const float share =
            grad_out[(p * out_h + i) * out_w + j] / static_cast<float>((h1 - h0) * (w1 - w0));
        for (std::int64_t h = h0; h < h1; ++h) {
          for (std::int64_t c = w0; c < w1; ++c) plane[h * width + c] += share;
        }
      }
    }
  }
}

void channel_moments(const float* x, float* mean, float* variance, std::int64_t n,
                     std::int64_t channels, std::int64_t spatial) {
  const auto count = static_cast<double>(n * spatial);
  for (std::int64_t c = 0; c < channels; ++c) {
    double sum = 0;
    for (std::int64_t b = 0; b < n; ++b) {
      const float* row = x + (b * channels + c) * spatial;
      for (std::int64_t s = 0; s < spatial; ++s) sum += row[s];
    }
    const double m = sum / count;
    double squares = 0;
    for (std::int64_t b = 0; b < n; ++b) {
      const float* row = x + (b * channels + c) * spatial;
      for (std::int64_t s = 0; s < spatial; ++s) squares += (row[s] - m) * (row[s] - m);
    }
    mean[c] = static_cast<float>(m);
    variance[c] = static_cast<float>(squares / count);
  }
}

void batch_norm_apply(const float* x, const float* mean, const float* rstd, const float* weight,
                      const float* bias, float* y, std::int64_t n, std::int64_t channels,
                      std::int64_t spatial) {
  for (std::int64_t b = 0; b < n; ++b) {
    for (std::int64_t c = 0; c < channels; ++c) {
      const float scale = rstd[c] * (weight != nullptr ? weight[c] : 1.0f);
      const float shift = bias != nullptr ? bias[c] : 0.0f;
      const std::int64_t at = (b * channels + c) * spatial;
      for (std::int64_t s = 0; s < spatial; ++s) y[at + s] = (x[at + s] - mean[c]) * scale + shift;
    }
  }
}

void batch_norm_backward(const float* g, const float* x, const float* mean, const float* rstd,
                         const float* weight, bool training, float* dx, float* dweight,
                         float* dbias, std::int64_t n, std::int64_t channels,
                         std::int64_t spatial) {
  const auto count = static_cast<double>(n * spatial);
  for (std::int64_t c = 0; c < channels; ++c) {
    double sum_g = 0, sum_g_xhat = 0;
    for (std::int64_t b = 0; b < n; ++b) {
      const std::int64_t at = (b * channels + c) * spatial;
      for (std::int64_t s = 0; s < spatial; ++s) {
        sum_g += g[at + s];
        sum_g_xhat += static_cast<double>(g[at + s]) * (x[at + s] - mean[c]) * rstd[c];
      }
    }
    if (dweight != nullptr) dweight[c] = static_cast<float>(sum_g_xhat);
    if (dbias != nullptr) dbias[c] = static_cast<float>(sum_g);
    if (dx == nullptr) continue;
    const double scale = static_cast<double>(rstd[c]) * (weight != nullptr ? weight[c] : 1.0f);
    for (std::int64_t b = 0; b < n; ++b) {
      const std::int64_t at = (b * channels + c) * spatial;
      for (std::int64_t s = 0; s < spatial; ++s) {
        double d = g[at + s];
        if (training) {
          const double xhat = (x[at + s] - mean[c]) * static_cast<double>(rstd[c]);
          d -= sum_g / count + xhat * sum_g_xhat / count;
        }
        dx[at + s] = static_cast<float>(scale * d);
      }
    }
  }
}

}  // namespace engine::kernels
