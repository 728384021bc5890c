#include "ops/broadcast.h"

#include <algorithm>
#include <string>

#include "engine/errors.h"

namespace engine::detail {

std::vector<std::int64_t> broadcast_shape(IntArrayRef a, IntArrayRef b) {
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<std::int64_t> shape(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    const std::int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    if (da != db && da != 1 && db != 1) {
      throw Error("The size of tensor a (" + std::to_string(da) +
                  ") must match the size of tensor b (" + std::to_string(db) +
                  ") at non-singleton dimension " + std::to_string(i));
    }
    shape[i] = da == 1 ? db : da;
  }
  return shape;
}

std::vector<std::int64_t> broadcast_strides(IntArrayRef shape,
                                            const std::vector<std::int64_t>& out) {
  std::vector<std::int64_t> strides(out.size(), 0);
  std::int64_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i + out.size() - shape.size()] = shape[i] == 1 ? 0 : step;
    step *= shape[i];
  }
  return strides;
}

}  // namespace engine::detail
