#include "families/torch_arguments.h"

#include <algorithm>

namespace planner {

const nlohmann::json* Arguments::find(std::size_t position, const char* keyword) const {
  if (position < call_.arguments.size()) return &call_.arguments[position];
  const auto it = call_.keywords.find(keyword);
  return it == call_.keywords.end() ? nullptr : &*it;
}

bool Arguments::given(std::size_t position, const char* keyword) const {
  const nlohmann::json* j = find(position, keyword);
  return j != nullptr && !j->is_null();
}

bool Arguments::is_tensor(std::size_t position, const char* keyword) const {
  const nlohmann::json* j = find(position, keyword);
  return j != nullptr && j->is_object() && j->contains("tensor");
}

engine::Tensor Arguments::tensor_of(const nlohmann::json& argument) const {
  if (!argument.is_object() || !argument.contains("tensor")) throw Unsupported();
  return tensors_.get(argument["tensor"].get<std::int64_t>());
}

engine::Tensor Arguments::tensor(std::size_t position, const char* keyword) const {
  return given(position, keyword) ? tensor_of(*find(position, keyword)) : engine::Tensor();
}

std::vector<engine::Tensor> Arguments::tensors(std::size_t position, const char* keyword) const {
  const nlohmann::json* j = find(position, keyword);
  if (j == nullptr || !j->is_array()) throw Unsupported();
  std::vector<engine::Tensor> out;
  for (const nlohmann::json& item : *j) out.push_back(tensor_of(item));
  return out;
}

double Arguments::number(std::size_t position, const char* keyword, double fallback) const {
  if (!given(position, keyword)) return fallback;
  const nlohmann::json& j = *find(position, keyword);
  require(j.is_number());
  return j.get<double>();
}

bool Arguments::boolean(std::size_t position, const char* keyword, bool fallback) const {
  if (!given(position, keyword)) return fallback;
  const nlohmann::json& j = *find(position, keyword);
  require(j.is_boolean());
  return j.get<bool>();
}

std::string Arguments::text(std::size_t position, const char* keyword, std::string fallback) const {
  if (!given(position, keyword)) return fallback;
  const nlohmann::json& j = *find(position, keyword);
  require(j.is_string());
  return j.get<std::string>();
}

std::vector<std::int64_t> Arguments::sizes(std::size_t position, const char* keyword,
                                           std::vector<std::int64_t> fallback) const {
  if (!given(position, keyword)) return fallback;
  const nlohmann::json& j = *find(position, keyword);
  if (j.is_number_integer()) return {j.get<std::int64_t>(), j.get<std::int64_t>()};
  require(j.is_array() &&
          std::all_of(j.begin(), j.end(), [](const auto& v) { return v.is_number_integer(); }));
  return j.get<std::vector<std::int64_t>>();
}

void require(bool supported) {
  if (!supported) throw Unsupported();
}

engine::ExpandingArray<2> pair(const std::vector<std::int64_t>& sizes) {
  if (sizes.size() == 1) return sizes[0];
  require(sizes.size() == 2);
  return {sizes[0], sizes[1]};
}

std::int64_t dimension(std::int64_t dim, std::int64_t dims) {
  require(dim >= -dims && dim < dims);
  return dim < 0 ? dim + dims : dim;
}

}  // namespace planner
