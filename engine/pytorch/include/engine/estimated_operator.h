#pragma once
// sim::estimated_operator: an operator the engine does not implement, run for its cost and its
// memory only. `course plan --torch` replays a traced PyTorch model through the engine's own
// operators; one the engine lacks (an upsampling, an average pool) is priced as the nearest
// class of operator the cost model has sourced constants for, and the plan lists it as
// estimated. Simplification: such an operator is taken to have an MPS kernel (the engine knows
// PyTorch 2.9's MPS coverage only for the operators it implements).

#include <string>
#include <vector>

#include "engine/device.h"
#include "engine/int_array_ref.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace engine::sim {

enum class OperatorClass {
  View,         // metadata only (a slice, an expand): the host's dispatch, no kernel, no memory
  Elementwise,  // memory traffic: its inputs read and its result written
  Reduction,    // a sum, a norm, a pooling window's maximum: its inputs read
  Product,      // a matrix product: its flops and its operands' traffic
  Convolution,  // a convolution, priced as the product it unfolds into (im2col)
};

// A product's work, or a convolution's unfolded into one: `batch` products of (m, depth) x
// (depth, n); for a convolution, m = images x output pixels, n = output channels and depth =
// input channels a group x kernel area.
struct ProductShape {
  double m = 0, n = 0, depth = 0, batch = 1;
};

// A shape-only result of `sizes` and `dtype` on `device` (the engine cannot compute its values),
// priced as an operator of `kind` named `name` ("aten::upsample_nearest2d"). A View shares the
// first input's memory. Where an input requires grad, autograd records a node
// that saves the inputs and gives each such input a gradient of its shape, priced as the same
// class (a product or a convolution: one product of the same size for each gradient).
Tensor estimated_operator(const std::string& name, OperatorClass kind,
                          const std::vector<Tensor>& inputs, IntArrayRef sizes, ScalarType dtype,
                          Device device, ProductShape product = {});

}  // namespace engine::sim
