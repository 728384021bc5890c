#include "lanes.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace engine::metal::detail {

void Lanes::recount() {
  simd_groups = 0;
  int last = -1;
  for (const std::uint16_t id : ids) {
    const int group = id / kSimdWidth;
    if (group != last) ++simd_groups;
    last = group;
  }
}

Lanes merge(const Lanes& a, const Lanes& b) {
  Lanes out;
  out.ids.reserve(a.size() + b.size());
  std::merge(a.ids.begin(), a.ids.end(), b.ids.begin(), b.ids.end(), std::back_inserter(out.ids));
  out.recount();
  return out;
}

void RegisterPool::reset(std::size_t threads) {
  if (threads != stride_) {
    blocks_.clear();
    free_.clear();
    stride_ = threads;
  }
}

Word* RegisterPool::acquire() {
  if (free_.empty()) {
    blocks_.push_back(std::make_unique<Word[]>(4 * stride_));
    return blocks_.back().get();
  }
  Word* block = free_.back();
  free_.pop_back();
  return block;
}

void RegisterPool::release(Word* block) { free_.push_back(block); }

Operand::Operand(RegisterPool& pool, int width) : pool_(&pool) {
  value_ = {.data = pool.acquire(), .width = width, .stride = pool.stride()};
}

Operand::Operand(Operand&& other) noexcept
    : value_(std::exchange(other.value_, {})), pool_(std::exchange(other.pool_, nullptr)) {}

Operand& Operand::operator=(Operand&& other) noexcept {
  if (this != &other) {
    if (pool_) pool_->release(value_.data);
    value_ = std::exchange(other.value_, {});
    pool_ = std::exchange(other.pool_, nullptr);
  }
  return *this;
}

Operand::~Operand() {
  if (pool_) pool_->release(value_.data);
}

}  // namespace engine::metal::detail
