// A kernel's parameters at the start of each threadgroup: each buffer a pointer to its binding,
// each input attribute its value for each thread (MSL specification, section 5.2.3.6). The
// threadgroups at the grid's far edges may be smaller: threads_per_threadgroup is their own
// size there, dispatch_threads_per_threadgroup the size the dispatch asked for.

#include <algorithm>

#include "executor.h"

namespace engine::metal::detail {

std::array<std::uint64_t, 3> Executor::local_position(std::size_t lane) const {
  return {lane % size_.width, lane / size_.width % size_.height,
          lane / (size_.width * size_.height)};
}

std::array<std::uint64_t, 3> Executor::grid_position(std::size_t lane) const {
  const auto [x, y, z] = local_position(lane);
  return {position_.width * group_.width + x, position_.height * group_.height + y,
          position_.depth * group_.depth + z};
}

std::array<std::uint64_t, 3> Executor::input_value(KernelInput input, std::size_t lane) const {
  const auto of = [](const Size3& s) {
    return std::array<std::uint64_t, 3>{s.width, s.height, s.depth};
  };
  switch (input) {
    case KernelInput::ThreadPositionInGrid:
      return grid_position(lane);
    case KernelInput::ThreadPositionInThreadgroup:
      return local_position(lane);
    case KernelInput::ThreadgroupPositionInGrid:
      return of(position_);
    case KernelInput::ThreadsPerThreadgroup:
      return of(size_);
    case KernelInput::DispatchThreadsPerThreadgroup:
      return of(group_);
    case KernelInput::ThreadsPerGrid:
      return of(grid_);
    case KernelInput::ThreadgroupsPerGrid:
      return of(threadgroups_in(grid_, group_));
    case KernelInput::ThreadIndexInThreadgroup:
      return {lane, 0, 0};
    case KernelInput::ThreadIndexInSimdgroup:
      return {lane % kSimdWidth, 0, 0};
    case KernelInput::SimdgroupIndexInThreadgroup:
      return {lane / kSimdWidth, 0, 0};
    case KernelInput::ThreadsPerSimdgroup:
      return {kSimdWidth, 0, 0};
    case KernelInput::SimdgroupsPerThreadgroup:
      return {(threads_ + kSimdWidth - 1) / kSimdWidth, 0, 0};
  }
  return {0, 0, 0};
}

void Executor::bind_parameters() {
  for (const Parameter& p : kernel_.params) {
    Word* column = memory_.thread_column(p.variable->address);
    if (p.buffer_index >= 0) {
      const AddressSpace space =
          p.type->is(Type::Kind::Pointer) ? p.type->space : p.reference_space;
      const Word pointer =
          encode({space == AddressSpace::Constant ? PointerTag::Constant : PointerTag::Device,
                  static_cast<std::uint32_t>(p.buffer_index), 0});
      std::fill(column, column + threads_, pointer);
      continue;
    }
    for (std::size_t l = 0; l < threads_; ++l) {
      const auto value = input_value(p.input, l);
      for (int c = 0; c < words_of(*p.type); ++c)
        column[static_cast<std::size_t>(c) * threads_ + l] =
            integer_word(p.type->scalar, value[static_cast<std::size_t>(c)]);
    }
  }
}

}  // namespace engine::metal::detail
