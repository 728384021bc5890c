// repr(tensor) as torch/_tensor_str.py writes it with the default print options (precision 4,
// line width 80, summarised above 1000 elements with 3 edge items), every dtype's values through
// the same formatter as exact doubles, a dtype other than float32, int64 and bool named after
// them ("dtype=torch.float16"). Printing a tensor on mps
// copies its values to the host, so it waits for the device like .cpu() does.

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/python_format.h"
#include "engine/tensor.h"
#include "tensor/tensor_impl.h"

namespace engine::py {
namespace {

constexpr std::int64_t kThreshold = 1000, kEdgeItems = 3, kLineWidth = 80;

// The formatter of _tensor_str.py: int mode (whole floats print as "3."), fixed point with 4
// decimals, or scientific notation when magnitudes span more than 1000x or leave [1e-4, 1e8].
class Formatter {
 public:
  Formatter(const std::vector<double>& values, ScalarType dtype)
      : floating_(is_floating_point(dtype)), bool_(dtype == ScalarType::Bool) {
    if (!floating_) {
      for (double v : values) width_ = std::max(width_, format(v, false).size());
      return;
    }
    std::vector<double> shown;
    for (double v : values) {
      if (std::isfinite(v) && v != 0) shown.push_back(v);
    }
    if (shown.empty()) return;
    double lo = std::abs(shown.front()), hi = lo;
    for (double v : shown) {
      lo = std::min(lo, std::abs(v));
      hi = std::max(hi, std::abs(v));
      int_mode_ = int_mode_ && v == std::ceil(v);
    }
    sci_mode_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
    for (double v : shown) {
      const std::size_t extra = int_mode_ && !sci_mode_ ? 1 : 0;  // the "." of int mode
      width_ = std::max(width_, format(v, false).size() + extra);
    }
  }

  std::size_t width() const { return width_; }

  std::string format(double v, bool pad = true) const {
    std::string text;
    if (bool_) {
      text = v != 0 ? "True" : "False";
    } else if (!floating_) {
      text = std::to_string(static_cast<std::int64_t>(v));
    } else if (!std::isfinite(v)) {
      text = std::isnan(v) ? "nan"
             : v > 0       ? "inf"
                           : "-inf";  // never "-nan": Python shows no NaN sign
    } else if (sci_mode_) {
      text = fmt::format("{:.4e}", v);
    } else if (int_mode_) {
      text = fmt::format("{:.0f}", v) + (pad ? "." : "");
    } else {
      text = fmt::format("{:.4f}", v);
    }
    return pad && text.size() < width_ ? std::string(width_ - text.size(), ' ') + text : text;
  }

 private:
  bool floating_, bool_;
  bool int_mode_ = true, sci_mode_ = false;
  std::size_t width_ = 1;
};

struct View {
  const std::vector<double>& values;
  const std::vector<std::int64_t>& sizes;
};

// Offsets (in elements) of the sub-tensors along dimension `dim` that are printed.
std::vector<std::int64_t> shown_indices(std::int64_t size, bool summarize) {
  std::vector<std::int64_t> indices;
  const bool cut = summarize && size > 2 * kEdgeItems;
  for (std::int64_t i = 0; i < size; ++i) {
    if (cut && i == kEdgeItems) {
      indices.push_back(-1);  // the "..." marker
      i = size - kEdgeItems;
    }
    indices.push_back(i);
  }
  return indices;
}

std::int64_t stride_of(const std::vector<std::int64_t>& sizes, std::size_t dim) {
  std::int64_t stride = 1;
  for (std::size_t d = dim + 1; d < sizes.size(); ++d) stride *= sizes[d];
  return stride;
}

// Every value that would be printed, for the formatter (get_summarized_data).
void collect_shown(const View& v, std::size_t dim, std::int64_t base, bool summarize,
                   std::vector<double>& out) {
  for (std::int64_t i : shown_indices(v.sizes[dim], summarize)) {
    if (i < 0) continue;
    const std::int64_t at = base + i * stride_of(v.sizes, dim);
    if (dim + 1 == v.sizes.size()) {
      out.push_back(v.values[static_cast<std::size_t>(at)]);
    } else {
      collect_shown(v, dim + 1, at, summarize, out);
    }
  }
}

std::string vector_str(const View& v, std::int64_t base, std::size_t indent, bool summarize,
                       const Formatter& f) {
  const auto per_line = std::max<std::int64_t>(1, (kLineWidth - static_cast<std::int64_t>(indent)) /
                                                      static_cast<std::int64_t>(f.width() + 2));
  std::vector<std::string> items;
  for (std::int64_t i : shown_indices(v.sizes.back(), summarize)) {
    items.push_back(i < 0 ? " ..." : f.format(v.values[static_cast<std::size_t>(base + i)]));
  }
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0)
      text += static_cast<std::int64_t>(i) % per_line == 0 ? ",\n" + std::string(indent + 1, ' ')
                                                           : ", ";
    text += items[i];
  }
  return text + "]";
}

std::string tensor_str(const View& v, std::size_t dim, std::int64_t base, std::size_t indent,
                       bool summarize, const Formatter& f) {
  if (dim + 1 == v.sizes.size()) return vector_str(v, base, indent, summarize, f);
  const std::string separator =
      "," + std::string(v.sizes.size() - dim - 1, '\n') + std::string(indent + 1, ' ');
  std::string text = "[";
  bool first = true;
  for (std::int64_t i : shown_indices(v.sizes[dim], summarize)) {
    if (!first) text += separator;
    first = false;
    text += i < 0 ? "..."
                  : tensor_str(v, dim + 1, base + i * stride_of(v.sizes, dim), indent + 1,
                               summarize, f);
  }
  return text + "]";
}

std::vector<double> host_values(const Tensor& t) {
  const Tensor on_cpu = t.cpu();  // waits for the device when t lives on mps
  detail::require_values(on_cpu, "printing a tensor");
  std::vector<double> values(static_cast<std::size_t>(t.numel()));
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* data = on_cpu.impl().data<T>();
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = detail::cast_value<double>(data[i]);
  });
  return values;
}

}  // namespace

std::string repr(const Tensor& t) {
  const std::string prefix = "tensor(";
  const std::size_t indent = prefix.size();
  const std::vector<double> values = host_values(t);
  const std::vector<std::int64_t> sizes = t.sizes().vec();
  std::vector<std::string> suffixes;
  // torch/_tensor_str.py _str_intern: the device first, then what an empty tensor cannot show.
  if (!t.is_cpu()) suffixes.push_back("device='" + t.device().str() + "'");
  const std::string dtype_suffix = "dtype=" + std::string(python_dtype_name(t.scalar_type()));
  std::string body;
  if (t.numel() == 0) {
    body = "[]";
    if (t.dim() != 1) suffixes.push_back("size=" + py::tuple(t.sizes()));
    // No element shows the dtype, so anything but the default float32 is named.
    if (t.scalar_type() != ScalarType::Float) suffixes.push_back(dtype_suffix);
  } else {
    if (t.dim() == 0) {
      body = Formatter(values, t.scalar_type()).format(values[0]);
    } else {
      const bool summarize = t.numel() > kThreshold;
      const View view{values, sizes};
      std::vector<double> shown;
      collect_shown(view, 0, 0, summarize, shown);
      body = tensor_str(view, 0, 0, indent, summarize, Formatter(shown, t.scalar_type()));
    }
    // _str_intern's has_default_dtype: float32, int64 and bool go unnamed; the rest show theirs.
    const ScalarType dtype = t.scalar_type();
    if (dtype != ScalarType::Float && dtype != ScalarType::Long && dtype != ScalarType::Bool)
      suffixes.push_back(dtype_suffix);
  }
  if (t.grad_fn()) {
    suffixes.push_back("grad_fn=<" + t.grad_fn()->name() + ">");
  } else if (t.requires_grad()) {
    suffixes.push_back("requires_grad=True");
  }
  std::string text = prefix + body;
  // _add_suffixes: len(s) - s.rfind("\n") + 1, where rfind gives -1 for a single line.
  const std::size_t newline = text.rfind('\n');
  std::size_t last_line =
      newline == std::string::npos ? text.size() + 2 : text.size() - newline + 1;
  for (const std::string& suffix : suffixes) {
    if (last_line + suffix.size() + 2 > kLineWidth) {
      text += ",\n" + std::string(indent, ' ') + suffix;
      last_line = indent + suffix.size();
    } else {
      text += ", " + suffix;
      last_line += suffix.size() + 2;
    }
  }
  return text + ")";
}

std::string str(const Tensor& t) { return repr(t); }

}  // namespace engine::py
