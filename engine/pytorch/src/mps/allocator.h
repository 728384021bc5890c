#pragma once
// Internal: the MPS caching allocator, modelled on PyTorch's MPSHeapAllocatorImpl
// (aten/src/ATen/mps/MPSAllocator.h and .mm). Buffers are carved out of Metal heaps whose size
// depends on the request (8 MiB heaps for small buffers, 32 MiB, 1 GiB on unified memory, or a
// dedicated heap rounded to 2 MiB); a freed buffer stays cached in its pool and is reused by
// best fit; the high watermark is a hard cap and the low watermark triggers garbage collection.
// Simplifications: no buffer is ever busy in a command buffer when the allocator looks at it,
// heaps do not fragment (their free space is their size minus their buffers), buffer sizes
// round up to the page size, and command buffers are not committed adaptively.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "engine/machine.h"

namespace engine::detail {

// "4.00 MiB": c10::CachingAllocator::format_size, as PyTorch's memory messages print sizes.
std::string format_size(std::uint64_t bytes);

class MpsAllocator {
 public:
  // Reads PYTORCH_MPS_HIGH_WATERMARK_RATIO and PYTORCH_MPS_LOW_WATERMARK_RATIO from the process
  // environment and validates them as PyTorch does; throws Error("invalid ... ratio r").
  MpsAllocator(const MachineProfile& machine,
               const std::map<std::string, std::string>& environment);

  // A buffer for `bytes` (> 0), or Error with PyTorch's text: "Invalid buffer size: ..." for
  // a buffer at or above Metal's maxBufferLength, else the out-of-memory message.
  std::uint64_t malloc(std::size_t bytes);
  void free(std::uint64_t buffer);
  // Waits for the device, then releases every cached (free) buffer and every emptied heap.
  void empty_cache();
  // torch.mps.set_per_process_memory_fraction's effect: a new high watermark ratio.
  void set_high_watermark_ratio(double ratio);

  std::size_t current_allocated() const noexcept { return current_allocated_; }  // in-use buffers
  std::size_t driver_allocated() const noexcept { return heaps_total_ + kDriverOverhead; }
  std::size_t heaps_total() const noexcept { return heaps_total_; }
  std::size_t recommended_max() const noexcept { return recommended_max_; }

 private:
  struct Pool;
  struct Heap {
    std::uint64_t id;
    std::size_t total, available;
    bool split;
    Pool* pool;
    int buffers = 0;
  };
  struct Buffer {
    std::uint64_t id;
    std::size_t size;
    Heap* heap;
    std::uint32_t gc_count = 0;
    bool in_use = false;
  };
  struct BySize {
    bool operator()(const Buffer* a, const Buffer* b) const {
      return a->size != b->size ? a->size < b->size : a->id < b->id;
    }
  };
  struct ByAvailable {
    bool operator()(const Heap* a, const Heap* b) const {
      return a->available != b->available ? a->available < b->available : a->id < b->id;
    }
  };
  struct Pool {
    bool small, shared;
    std::set<Heap*, ByAvailable> heaps;
    std::set<Buffer*, BySize> cached;  // free buffers, ready for reuse
    std::size_t cached_size = 0;
  };
  struct Request {
    std::size_t size;
    Pool* pool;
    bool memory_pressure;
    Buffer* found = nullptr;
  };

  // Memory Metal holds for MPS and MPSGraph themselves, outside the allocator's heaps ("other
  // allocations" in the out-of-memory message): 384 KiB, as a fresh process reports it.
  static constexpr std::size_t kDriverOverhead = 384 * 1024;

  Pool& pool_for(std::size_t requested, std::size_t aligned);
  std::size_t aligned_size(std::size_t bytes) const;
  std::ptrdiff_t low_watermark_mib() const;
  bool over_high_watermark(std::size_t size) const;
  bool take_cached_buffer(Request& r);
  bool allocate_buffer(Request& r);
  Heap* heap_with_room(Request& r);
  void release_buffer(Buffer* b, bool remove_empty_heap = true);
  bool release_cached_buffers_of(Request& r);
  bool release_all_cached_buffers();
  void collect_garbage(Request& r);
  [[noreturn]] void out_of_memory(const Request& r) const;

  bool unified_;
  std::size_t page_;
  std::size_t recommended_max_;
  std::size_t max_buffer_length_;  // MTLDevice.maxBufferLength
  double high_ratio_, low_ratio_;
  std::size_t max_total_, low_limit_;
  std::size_t heaps_total_ = 0, current_allocated_ = 0;
  Pool private_small_{true, false, {}, {}}, private_large_{false, false, {}, {}};
  Pool shared_small_{true, true, {}, {}};
  std::map<std::uint64_t, std::unique_ptr<Heap>> heaps_;
  std::map<std::uint64_t, std::unique_ptr<Buffer>> buffers_;
  std::uint64_t next_id_ = 1;
};

// A tensor's hold on its buffer: freed back to the allocator when the last view of the tensor
// goes, unless its simulated process has ended since.
class DeviceBuffer {
 public:
  DeviceBuffer(std::weak_ptr<MpsAllocator> owner, std::uint64_t id)
      : owner_(std::move(owner)), id_(id) {}
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

 private:
  std::weak_ptr<MpsAllocator> owner_;
  std::uint64_t id_;
};

}  // namespace engine::detail
