"""The shapes of what ATen operators return where PyTorch 1.13 has no meta kernel for them: the
tracer (trace_model.py) makes their results itself, as later releases' meta kernels make them."""

import torch


def _like(tensor, shape=None):
    return torch.empty(shape if shape is not None else tensor.shape, dtype=tensor.dtype,
                       device="meta")


def _convolution_backward(args):
    grad_output, inputs, weight, bias_sizes = args[0], args[1], args[2], args[3]
    mask = args[10]
    return (_like(inputs) if mask[0] else None, _like(weight) if mask[1] else None,
            _like(grad_output, bias_sizes) if mask[2] and bias_sizes is not None else None)


MISSING_META_KERNELS = {
    "aten.convolution_backward.default": _convolution_backward,
    "aten.max_pool2d_with_indices_backward.default": lambda args: _like(args[1]),
    "aten.avg_pool2d_backward.default": lambda args: _like(args[1]),
    "aten._adaptive_avg_pool2d_backward.default": lambda args: _like(args[1]),
    "aten.native_batch_norm_backward.default": lambda args: (
        _like(args[1]), _like(args[2]) if args[2] is not None else None,
        _like(args[2]) if args[2] is not None else None),
    "aten.embedding_dense_backward.default": lambda args: _like(args[0], (args[2], args[0].shape[-1])),
    "aten.upsample_nearest2d_backward.default": lambda args: _like(args[0], args[2]),
    "aten.upsample_bilinear2d_backward.default": lambda args: _like(args[0], args[2]),
    # (the loss, the weight it totals), per pixel where the reduction is none (0)
    "aten.nll_loss2d_forward.default": lambda args: (
        _like(args[0], () if args[3] != 0 else args[1].shape), _like(args[0], ())),
    "aten.nll_loss2d_backward.default": lambda args: _like(args[1]),
}
