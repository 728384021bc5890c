// dispatch(): the launch checks Metal makes, then the threadgroups in order, and a fault
// reported as a debugger reports where a thread stopped.

#include "engine/metal/dispatch.h"

#include <stdexcept>
#include <string>

#include "ast.h"
#include "executor.h"

namespace engine::metal {
namespace {

// The emulator numbers a dispatch's threads with 32 bits; far more threads than it could run in
// reasonable time anyway.
constexpr std::uint64_t kMaxThreadsPerDispatch = std::uint64_t{1} << 30;

// What Metal refuses to launch, and what the emulator cannot run.
void check_launch(const detail::Function& fn, std::span<const BufferBinding> buffers, Size3 grid,
                  Size3 group) {
  if (group.width == 0 || group.height == 0 || group.depth == 0)
    throw std::invalid_argument("a threadgroup must have at least one thread in each dimension");
  if (group.count() > kMaxThreadsPerThreadgroup) {
    throw std::invalid_argument("a threadgroup of " + std::to_string(group.count()) +
                                " threads is more than the 1024 an Apple GPU runs");
  }
  if (fn.threadgroup_memory > kMaxThreadgroupMemoryBytes) {
    throw std::invalid_argument(
        "kernel '" + fn.name + "' needs " + std::to_string(fn.threadgroup_memory) +
        " bytes of threadgroup memory, more than the 32768 an Apple GPU has");
  }
  if (grid.count() > kMaxThreadsPerDispatch) {
    throw std::invalid_argument("a grid of " + std::to_string(grid.count()) +
                                " threads is more than the emulator runs in one dispatch (2^30)");
  }
  for (const BufferParameter& param : fn.buffers) {
    const auto index = static_cast<std::size_t>(param.index);
    if (index >= buffers.size() || !buffers[index].bound) {
      throw std::invalid_argument("buffer(" + std::to_string(param.index) + ") of kernel '" +
                                  fn.name + "' (" + param.declaration + ") is not bound");
    }
  }
}

}  // namespace

DispatchWork dispatch(const Kernel& kernel, std::span<const BufferBinding> buffers, Size3 grid,
                      Size3 group) {
  const detail::Function& fn = kernel.function();
  check_launch(fn, buffers, grid, group);
  DispatchWork work;
  work.grid = grid;
  work.group = group;
  work.threadgroup_memory = fn.threadgroup_memory;
  if (grid.count() == 0) return work;
  detail::Executor executor(kernel.program(), fn, buffers, grid, group, work);
  const Size3 groups = threadgroups_in(grid, group);
  try {
    for (std::uint64_t z = 0; z < groups.depth; ++z) {
      for (std::uint64_t y = 0; y < groups.height; ++y) {
        for (std::uint64_t x = 0; x < groups.width; ++x) {
          executor.run({x, y, z});
          ++work.threadgroups;
        }
      }
    }
  } catch (const detail::ThreadFault& fault) {
    throw KernelFault(kernel.program().text.diagnostic(
        fault.where, executor.describe_thread(fault.lane) + ": " + fault.message));
  }
  executor.finish();
  return work;
}

}  // namespace engine::metal
