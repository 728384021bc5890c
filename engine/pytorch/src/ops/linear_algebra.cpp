// torch.matmul (aten/src/ATen/native/LinearAlgebra.cpp): 1-D operands are promoted to matrices
// and the added dimension dropped from the result; dimensions before the last two are batch
// dimensions and broadcast. Gradients: dA = dC B^T and dB = A^T dC, summed over broadcasting.
// Note [matmul's device errors]: torch.matmul is composite (_matmul_impl). By the operands'
// ranks it calls dot, mv, mm or bmm, or folds a batch into mm or mv, and each of those MPS
// kernels checks devices its own way; the first that fails is what the user sees.

#include <algorithm>
#include <string>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "kernels/kernels.h"
#include "kernels/mps_kernels.h"
#include "mps/stream.h"
#include "ops/matmul_dtypes.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// The batch dimensions (all but the last two) of two operands, broadcast: each padded with
// leading 1s to the rank of the result.
struct Batches {
  std::vector<std::int64_t> out, a, b;
};

Batches broadcast_batches(const std::vector<std::int64_t>& a_shape,
                          const std::vector<std::int64_t>& b_shape) {
  const std::size_t rank = std::max(a_shape.size(), b_shape.size()) - 2;
  Batches batches{std::vector<std::int64_t>(rank), std::vector<std::int64_t>(rank, 1),
                  std::vector<std::int64_t>(rank, 1)};
  std::copy(a_shape.begin(), a_shape.end() - 2, batches.a.end() - (a_shape.size() - 2));
  std::copy(b_shape.begin(), b_shape.end() - 2, batches.b.end() - (b_shape.size() - 2));
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = batches.a[i], db = batches.b[i];
    if (da != db && da != 1 && db != 1) {
      throw Error("The size of tensor a (" + std::to_string(da) +
                  ") must match the size of tensor b (" + std::to_string(db) +
                  ") at non-singleton dimension " + std::to_string(i));
    }
    batches.out[i] = std::max(da, db);
  }
  return batches;
}

// The flat batch number of `index` in an operand whose batch sizes are `dims` (1 = broadcast).
std::int64_t batch_number(const std::vector<std::int64_t>& index,
                          const std::vector<std::int64_t>& dims) {
  std::int64_t number = 0;
  for (std::size_t i = 0; i < dims.size(); ++i)
    number = number * dims[i] + (dims[i] == 1 ? 0 : index[i]);
  return number;
}

// An operand as _matmul_impl routes it: its tensor (device, requires_grad) and its shape, which
// may have lost a leading batch of one.
struct MatmulOperand {
  const Tensor& tensor;
  std::vector<std::int64_t> sizes;
  std::int64_t dim() const { return static_cast<std::int64_t>(sizes.size()); }
};

// should_fold: a rank >= 3 operand times a matrix or vector folds its batch into mm or mv when
// the smaller one requires grad, or when folding needs no copy. Engine tensors are contiguous,
// so the first operand always folds freely; the second is folded as its transpose, which is
// free only with one row.
bool should_fold(const MatmulOperand& t1, const MatmulOperand& t2) {
  const bool first_larger = t1.dim() >= t2.dim();
  const MatmulOperand& large = first_larger ? t1 : t2;
  const MatmulOperand& small = first_larger ? t2 : t1;
  if (!(large.dim() >= 3 && small.dim() <= 2)) return false;
  if (small.tensor.requires_grad()) return true;
  if (t1.dim() == 2) return false;
  if (product(large.sizes) == 0) return true;
  return first_larger || t2.sizes[t2.sizes.size() - 2] == 1;
}

// What the operation _matmul_impl routes two operands to says when their inner sizes differ:
// dot, mv, or mm, with a batch folded into the rows (the second operand's transposed, so that
// its last size counts its rows). Operands that go to bmm fail later, once their batches are
// broadcast (throw_bmm_mismatch).
[[noreturn]] void throw_shape_mismatch(const MatmulOperand& t1, const MatmulOperand& t2) {
  const auto mm = [](std::int64_t r1, std::int64_t c1, std::int64_t r2, std::int64_t c2) {
    return Error("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(r1) + "x" +
                 std::to_string(c1) + " and " + std::to_string(r2) + "x" + std::to_string(c2) +
                 ")");
  };
  const auto mv = [](std::int64_t rows, std::int64_t cols, std::int64_t vec) {
    return Error("size mismatch, got input (" + std::to_string(rows) + "), mat (" +
                 std::to_string(rows) + "x" + std::to_string(cols) + "), vec (" +
                 std::to_string(vec) + ")");
  };
  const std::int64_t d1 = t1.dim(), d2 = t2.dim();
  const std::int64_t k = t1.sizes.back(),
                     k2 = d2 == 1 ? t2.sizes[0] : t2.sizes[t2.sizes.size() - 2];
  if (d1 == 1 && d2 == 1) {
    throw Error("inconsistent tensor size, expected tensor [" + std::to_string(k) + "] and src [" +
                std::to_string(k2) + "] to have the same number of elements, but got " +
                std::to_string(k) + " and " + std::to_string(k2) + " elements respectively");
  }
  if (d1 == 2 && d2 == 1) throw mv(t1.sizes[0], k, k2);
  if (d1 <= 2 && d2 == 2) throw mm(d1 == 1 ? 1 : t1.sizes[0], k, k2, t2.sizes[1]);
  if (d1 >= d2) {  // t1 folded: all its leading sizes become rows
    const std::int64_t rows = product(IntArrayRef(t1.sizes.data(), t1.sizes.size() - 1));
    throw d2 == 2 ? mm(rows, k, k2, t2.sizes[1]) : mv(rows, k, k2);
  }
  // t2 transposed and folded: its batches times its columns become rows; t1 follows, transposed.
  const std::int64_t rows =
      product(IntArrayRef(t2.sizes.data(), t2.sizes.size() - 2)) * t2.sizes.back();
  throw d1 == 2 ? mm(rows, k2, k, t1.sizes[0]) : mv(rows, k2, k);
}

// bmm's check (common_checks_baddbmm_bmm), on the operands expanded to their broadcast batch.
[[noreturn]] void throw_bmm_mismatch(const Batches& batches, std::int64_t k, std::int64_t k2) {
  const std::string batch = std::to_string(product(IntArrayRef(batches.out)));
  throw Error("Expected size for first two dimensions of batch2 tensor to be: [" + batch + ", " +
              std::to_string(k) + "] but got: [" + batch + ", " + std::to_string(k2) + "].");
}

// mm_out_mps_impl allocates its output on mps and runs checkAllSameGPU("mm", out, mat1, mat2).
void check_mm_devices(const Tensor& mat1, const Tensor& mat2) {
  detail::check_all_same_gpu("mm", {{Device(DeviceType::MPS, 0), "out", 0},
                                    {mat1.device(), "mat1", 1},
                                    {mat2.device(), "mat2", 2}});
}

// mv is addmv_(empty on vec's device, mat, vec); addmv_out_mps_impl checks mat, then vec, with
// bare TORCH_CHECKs (operations/Blas.mm).
void check_mv_devices(const Tensor& mat, const Tensor& vec) {
  detail::torch_check_is_mps(mat, "mat");
  detail::torch_check_is_mps(vec, "vec");
}

void check_matmul_devices(const MatmulOperand& t1, const MatmulOperand& t2) {
  const std::int64_t d1 = t1.dim(), d2 = t2.dim();
  if (d1 == 1 && d2 == 1) return detail::dot_check_devices(t1.tensor, t2.tensor);
  if (d1 == 2 && d2 == 1) return check_mv_devices(t1.tensor, t2.tensor);
  if (d1 <= 2 && d2 == 2)
    return check_mm_devices(t1.tensor, t2.tensor);  // a vector becomes one row
  if (should_fold(t1, t2)) {
    // The larger operand (transposed when second) is folded into mat1 or mat, the other follows.
    const bool second_larger = d2 > d1;
    const Tensor& folded = second_larger ? t2.tensor : t1.tensor;
    const Tensor& other = second_larger ? t1.tensor : t2.tensor;
    return other.dim() == 2 ? check_mm_devices(folded, other) : check_mv_devices(folded, other);
  }
  if (d1 == 3 && d2 == 3 &&
      t1.sizes[0] != t2.sizes[0]) {  // a batch of one requiring grad is squeezed
    auto squeezed = [](const MatmulOperand& t) {
      return MatmulOperand{t.tensor, {t.sizes.begin() + 1, t.sizes.end()}};
    };
    if (t1.sizes[0] == 1 && t1.tensor.requires_grad())
      return check_matmul_devices(squeezed(t1), t2);
    if (t2.sizes[0] == 1 && t2.tensor.requires_grad())
      return check_matmul_devices(t1, squeezed(t2));
  }
  detail::check_placeholder_storage({&t1.tensor, &t2.tensor});  // bmm_out_mps_impl: batch1, batch2
}

// a (..., m, k) @ b (..., k, n), both at least 2-D and on one device, batches broadcast.
Tensor batched_matmul(const Tensor& a, const Tensor& b, const Batches& batches) {
  const std::vector<std::int64_t> a_shape = a.sizes().vec(), b_shape = b.sizes().vec();
  const std::int64_t m = a_shape[a_shape.size() - 2], k = a_shape.back(), n = b_shape.back();
  const Device device = a.device();
  std::vector<std::int64_t> out_shape = batches.out;
  out_shape.push_back(m);
  out_shape.push_back(n);
  Tensor out = detail::allocate(out_shape, a.scalar_type(), device, detail::have_values({&a, &b}));
  const std::int64_t count = product(batches.out);
  // A batch times one shared matrix (b has no batch dimensions) is folded into one product by
  // torch.matmul; MPS runs it as such, and measurably slower than a batch of equal products.
  const bool shared = count > 1 && product(IntArrayRef(batches.b)) == 1;
  detail::launch(detail::matmul_cost(count > 1 && !shared ? "aten::bmm" : "aten::mm",
                                     {.m = static_cast<double>(m),
                                      .n = static_cast<double>(n),
                                      .k = static_cast<double>(k),
                                      .batch = static_cast<double>(count),
                                      .broadcast = shared},
                                     detail::nbytes(a) + detail::nbytes(b) + detail::nbytes(out),
                                     a.scalar_type()),
                 device);
  if (!out.impl().has_values()) return out;
  // Note [Half precision computes in float32]: float16 and bfloat16 products accumulate in
  // float32, in the device's order, and round once; float64 and integers take the plain loop.
  detail::dispatch_compute(a.scalar_type(), [&](auto tag) {
    using C = decltype(tag);
    if constexpr (!std::is_same_v<C, bool>) {
      const detail::ValuesAs<C> va(a), vb(b);
      detail::ResultAs<C> vc(out);
      std::vector<std::int64_t> index(batches.out.size(), 0);
      for (std::int64_t step = 0; step < count; ++step) {
        const C* pa = va.data() + batch_number(index, batches.a) * m * k;
        const C* pb = vb.data() + batch_number(index, batches.b) * k * n;
        if constexpr (std::is_same_v<C, float>) {
          kernels::summation_on(device).matmul(pa, pb, vc.data() + step * m * n, m, k, n);
        } else {
          kernels::matmul_generic(pa, pb, vc.data() + step * m * n, m, k, n);
        }
        for (std::size_t i = index.size(); i-- > 0;) {  // the next batch index, row-major
          if (++index[i] < batches.out[i]) break;
          index[i] = 0;
        }
      }
      vc.store();
    }
  });
  return out;
}

const char* node_name(std::int64_t a_dim, std::int64_t b_dim) {
  if (a_dim == 1 && b_dim == 1) return "DotBackward0";
  if (a_dim == 2 && b_dim == 1) return "MvBackward0";
  if (a_dim == 2 && b_dim == 2) return "MmBackward0";
  if (a_dim == 1 && b_dim == 2)
    return "SqueezeBackward4";  // a.unsqueeze(0).mm(b).squeeze_(0) (1.13: ...3)
  return "UnsafeViewBackward0";
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::Matmul, {a, b})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return matmul(cast->inputs[0], cast->inputs[1]);
  }
  if (a.dim() == 0 || b.dim() == 0) {
    throw Error("both arguments to matmul need to be at least 1D, but they are " +
                std::to_string(a.dim()) + "D and " + std::to_string(b.dim()) + "D");
  }
  const bool a_vector = a.dim() == 1, b_vector = b.dim() == 1;
  const std::int64_t k = a.size(-1), k2 = b_vector ? b.size(0) : b.size(-2);
  detail::check_matmul_dtypes(a, b);
  const MatmulOperand t1{a, a.sizes().vec()}, t2{b, b.sizes().vec()};
  const bool batched = (a.dim() > 2 || b.dim() > 2) && !should_fold(t1, t2);
  if (k != k2 && !batched) throw_shape_mismatch(t1, t2);
  // Promote vectors to matrices, multiply, then drop the added dimensions.
  const Tensor a2 = a_vector ? detail::share_values(a, {1, k}) : a;
  const Tensor b2 = b_vector ? detail::share_values(b, {k2, 1}) : b;
  const Batches batches =
      broadcast_batches(a2.sizes().vec(), b2.sizes().vec());  // expand fails first
  if (k != k2) throw_bmm_mismatch(batches, k, k2);
  if (a.device() != b.device()) check_matmul_devices({a, a.sizes().vec()}, {b, b.sizes().vec()});
  const Tensor product = batched_matmul(a2, b2, batches);
  std::vector<std::int64_t> out_shape = product.sizes().vec();
  if (b_vector) out_shape.pop_back();
  if (a_vector) out_shape.erase(out_shape.end() - 1 - (b_vector ? 0 : 1));
  Tensor out = detail::share_values(product, out_shape);
  if (!detail::should_record({&a, &b})) return out;
  const std::vector<std::int64_t> full = product.sizes().vec();
  detail::record(out, node_name(a.dim(), b.dim()), {a, b}, [a2, b2, a, b, full](const Tensor& g) {
    const Tensor g2 = g.reshape(full);
    const Tensor ga = matmul(g2, b2.transpose(-1, -2));
    const Tensor gb = matmul(a2.transpose(-1, -2), g2);
    return std::vector<Tensor>{detail::sum_to(ga, a2.sizes()).reshape(a.sizes()),
                               detail::sum_to(gb, b2.sizes()).reshape(b.sizes())};
  });
  return out;
}

Tensor Tensor::matmul(const Tensor& other) const { return engine::matmul(*this, other); }

namespace detail {

void check_matmul_dtypes(const Tensor& a, const Tensor& b) {
  const ScalarType ta = a.scalar_type(), tb = b.scalar_type();
  if (ta != tb) {
    if (a.dim() == 1 && b.dim() == 1) {
      throw Error("dot : expected both vectors to have same dtype, but found " +
                  std::string(scalar_type_name(ta)) + " and " + std::string(scalar_type_name(tb)));
    }
    throw Error("expected m1 and m2 to have the same dtype, but got: " +
                std::string(type_meta_name(ta)) + " != " + std::string(type_meta_name(tb)));
  }
  if (ta == ScalarType::Bool)  // AT_DISPATCH's TORCH_CHECK_NOT_IMPLEMENTED
    throw NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'");
}

}  // namespace detail

}  // namespace engine
