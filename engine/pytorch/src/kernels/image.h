#pragma once
// Internal: the kernels of the image operators (convolution, batch norm, pooling), on
// contiguous NCHW float32 data. Each adds in an order fixed here, one element after another
// (sums in double, rounded once, as the cpu's reductions are), so the same bits come out on
// every host; a convolution's products go through the device's matrix kernels
// (mps_kernels.h), so they add in that device's order.

#include <cstdint>

namespace engine::kernels {

// One image plane's geometry: channels, input height and width, kernel, stride, padding,
// dilation, and the output height and width they give.
struct Window {
  std::int64_t channels, height, width;
  std::int64_t kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  std::int64_t out_h, out_w;
};

// The windows along one side: `room` is the padded length less the kernel's extent, so a
// negative room leaves none (division rounding down, not toward zero).
inline std::int64_t window_count(std::int64_t room, std::int64_t stride) {
  return room < 0 ? 0 : room / stride + 1;
}

// im2col: cols (channels * kernel_h * kernel_w, out_h * out_w) of one image, zero where the
// window reaches into the padding.
void im2col(const float* image, float* cols, const Window& w);
// col2im: the transpose, each column's value added into the pixel it came from (in column
// order), into `image`, which the caller has zeroed or holds earlier contributions.
void col2im_add(const float* cols, float* image, const Window& w);

// max_pool2d over `planes` planes of w's geometry (channels ignored): out and the flat index of
// each maximum within its plane (the first of equal maxima, as PyTorch's cpu kernel keeps).
void max_pool2d(const float* in, float* out, std::int64_t* indices, std::int64_t planes,
                const Window& w);
// grad_in (zeroed by the caller) += grad_out at each saved index.
void max_pool2d_backward(const float* grad_out, const std::int64_t* indices, float* grad_in,
                         std::int64_t planes, const Window& w);

// adaptive_avg_pool2d: output cell (i, j) averages rows [floor(i H / oh), ceil((i + 1) H / oh))
// and the columns likewise (aten/src/ATen/native/AdaptiveAveragePooling.cpp, start_index and
// end_index).
void adaptive_avg_pool2d(const float* in, float* out, std::int64_t planes, std::int64_t height,
                         std::int64_t width, std::int64_t out_h, std::int64_t out_w);
void adaptive_avg_pool2d_backward(const float* grad_out, float* grad_in, std::int64_t planes,
                                  std::int64_t height, std::int64_t width, std::int64_t out_h,
                                  std::int64_t out_w);

// Per channel of an (n, channels, spatial) tensor: the mean and the biased variance.
void channel_moments(const float* x, float* mean, float* variance, std::int64_t n,
                     std::int64_t channels, std::int64_t spatial);
// y = (x - mean) * rstd * weight + bias per channel; weight and bias may be null.
void batch_norm_apply(const float* x, const float* mean, const float* rstd, const float* weight,
                      const float* bias, float* y, std::int64_t n, std::int64_t channels,
                      std::int64_t spatial);
// The gradient of batch_norm_apply. In training (mean and rstd the batch's own), dx also flows
// through the statistics: dx = w rstd (g - mean(g) - xhat mean(g xhat)); in evaluation
// dx = w rstd g. dweight = sum(g xhat) and dbias = sum(g) per channel, where not null.
void batch_norm_backward(const float* g, const float* x, const float* mean, const float* rstd,
                         const float* weight, bool training, float* dx, float* dweight,
                         float* dbias, std::int64_t n, std::int64_t channels, std::int64_t spatial);

}  // namespace engine::kernels
