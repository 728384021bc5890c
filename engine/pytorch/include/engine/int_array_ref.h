#pragma once
// Models c10::IntArrayRef: a non-owning view of int64 sizes, constructible from a braced list
// so that zeros({2, 3}) reads as it does in LibTorch. Like c10's, it must not outlive the
// list or vector it views.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace engine {

class IntArrayRef {
 public:
  constexpr IntArrayRef() = default;
// The view of a braced list is valid for the full expression it appears in, which is how a
// size list is used (zeros({2, 3})); GCC warns regardless, so the warning is silenced here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr IntArrayRef(std::initializer_list<std::int64_t> values)  // NOLINT: implicit, as c10
      : data_(values.begin()), size_(values.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  IntArrayRef(const std::vector<std::int64_t>& values)  // NOLINT: implicit, as c10
      : data_(values.data()), size_(values.size()) {}
  constexpr IntArrayRef(std::span<const std::int64_t> values)  // NOLINT: implicit, as c10
      : data_(values.data()), size_(values.size()) {}
  constexpr IntArrayRef(const std::int64_t* data, std::size_t size) : data_(data), size_(size) {}

  constexpr const std::int64_t* begin() const noexcept { return data_; }
  constexpr const std::int64_t* end() const noexcept { return data_ + size_; }
  constexpr const std::int64_t* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr std::int64_t operator[](std::size_t i) const noexcept { return data_[i]; }
  std::vector<std::int64_t> vec() const { return {begin(), end()}; }

  friend bool operator==(IntArrayRef a, IntArrayRef b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (a.data_[i] != b.data_[i]) return false;
    }
    return true;
  }

 private:
  const std::int64_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace engine
