// The allocation algorithm of MPSHeapAllocatorImpl::alloc_buffer_block, step for step: reuse a
// cached buffer, else (collecting garbage first under memory pressure) allocate from a heap with
// room or a new heap, else release cached buffers of the pool, else release every cached buffer
// (after waiting for the device), else fail with PyTorch's out-of-memory message.

#include "mps/allocator.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "engine/errors.h"
#include "mps/stream.h"

namespace engine::detail {
namespace {

constexpr std::size_t kMiB = 1 << 20;
constexpr std::size_t kMaxSmallAlloc = 1 * kMiB;   // largest "small" buffer
constexpr std::size_t kMinLargeAlloc = 10 * kMiB;  // below this, 32 MiB heaps
constexpr std::size_t kRoundLarge = 2 * kMiB;      // dedicated heaps round to 2 MiB
constexpr std::size_t kSmallHeap = 8 * kMiB;
constexpr std::size_t kLargeHeap = 32 * kMiB;
constexpr std::size_t kXLargeHeapDiscrete = 128 * kMiB;
constexpr std::size_t kXLargeHeapUnified = 1024 * kMiB;
constexpr std::size_t kMaxScalarAlloc = 8;  // sizeof(int64_t)
constexpr double kDefaultHighRatio = 1.7;
constexpr double kDefaultLowRatioUnified = 1.4;
constexpr double kDefaultLowRatioDiscrete = 1.0;
constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

// A double as C++ streams print it into TORCH_CHECK messages: "1.4", "0.7", "2.5".
std::string stream_format(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// getenv + strtod, as init_allocator reads the ratios: unset gives the default, and text that
// is not a number reads as 0.
double ratio_from(const std::map<std::string, std::string>& environment, const char* name,
                  double fallback) {
  const auto it = environment.find(name);
  return it == environment.end() ? fallback : std::strtod(it->second.c_str(), nullptr);
}

}  // namespace

std::string format_size(std::uint64_t bytes) {
  std::ostringstream out;
  out.precision(2);
  out << std::fixed;
  if (bytes <= 1024) {
    out << bytes << " bytes";
  } else if (bytes <= 1048576) {
    out << static_cast<double>(bytes) / 1024.0 << " KiB";
  } else if (bytes <= 1073741824ULL) {
    out << static_cast<double>(bytes) / 1048576.0 << " MiB";
  } else {
    out << static_cast<double>(bytes) / 1073741824.0 << " GiB";
  }
  return out.str();
}

MpsAllocator::MpsAllocator(const MachineProfile& machine,
                           const std::map<std::string, std::string>& environment)
    : unified_(machine.unified_memory),
      page_(machine.cpu_architecture == Architecture::Arm64 ? 16384 : 4096),  // vm_page_size
      recommended_max_(machine.recommended_working_set_bytes),
      max_buffer_length_(machine.max_buffer_length) {
  // setHighWatermarkRatio allows up to twice the recommended working set, discrete GPU or not.
  const double high_upper_bound = 2.0;
  high_ratio_ = ratio_from(environment, "PYTORCH_MPS_HIGH_WATERMARK_RATIO", kDefaultHighRatio);
  if (!(high_ratio_ >= 0.0 && high_ratio_ <= high_upper_bound)) {
    throw Error("invalid high watermark ratio " + stream_format(high_ratio_));
  }
  max_total_ = high_ratio_ == 0.0
                   ? kUnlimited
                   : static_cast<std::size_t>(high_ratio_ * static_cast<double>(recommended_max_));
  const double high_limit = high_ratio_ == 0.0 ? high_upper_bound : high_ratio_;
  low_ratio_ = ratio_from(environment, "PYTORCH_MPS_LOW_WATERMARK_RATIO",
                          unified_ ? kDefaultLowRatioUnified : kDefaultLowRatioDiscrete);
  if (!(low_ratio_ >= 0.0 && low_ratio_ <= high_limit)) {
    throw Error("invalid low watermark ratio " + stream_format(low_ratio_));
  }
  low_limit_ = low_ratio_ == 0.0
                   ? kUnlimited
                   : static_cast<std::size_t>(low_ratio_ * static_cast<double>(recommended_max_));
}

void MpsAllocator::set_high_watermark_ratio(double ratio) {
  if (!(ratio >= 0.0 && ratio <= 2.0))
    throw Error("invalid high watermark ratio " + stream_format(ratio));
  max_total_ = ratio == 0.0
                   ? kUnlimited
                   : static_cast<std::size_t>(ratio * static_cast<double>(recommended_max_));
  high_ratio_ = ratio;
}

// Metal's heapBufferSizeAndAlign: page-granular sizes (an assumption; the exact values are not
// published).
std::size_t MpsAllocator::aligned_size(std::size_t bytes) const {
  return (bytes + page_ - 1) / page_ * page_;
}

MpsAllocator::Pool& MpsAllocator::pool_for(std::size_t requested, std::size_t aligned) {
  if (requested <= kMaxScalarAlloc && unified_) return shared_small_;
  return aligned <= kMaxSmallAlloc ? private_small_ : private_large_;
}

// MiB left below the low watermark; 0 once it is reached (memory pressure).
std::ptrdiff_t MpsAllocator::low_watermark_mib() const {
  if (low_ratio_ == 0.0) return std::numeric_limits<std::ptrdiff_t>::max();
  const auto left =
      static_cast<std::ptrdiff_t>(low_limit_) - static_cast<std::ptrdiff_t>(driver_allocated());
  return std::max<std::ptrdiff_t>(0, left / static_cast<std::ptrdiff_t>(kMiB));
}

bool MpsAllocator::over_high_watermark(std::size_t size) const {
  return max_total_ != kUnlimited && driver_allocated() + size > max_total_;
}

std::uint64_t MpsAllocator::malloc(std::size_t bytes) {
  // alloc_buffer_block's first check, before any watermark: Metal cannot make one buffer this
  // large, however much memory is free.
  if (bytes >= max_buffer_length_) throw Error("Invalid buffer size: " + format_size(bytes));
  const std::size_t size = aligned_size(bytes);
  Pool& pool = pool_for(bytes, size);
  Request r{size, &pool, !pool.small && low_watermark_mib() <= 0};
  if (!take_cached_buffer(r)) {
    if (r.memory_pressure && size < pool.cached_size) collect_garbage(r);
    const bool found = allocate_buffer(r) || (release_cached_buffers_of(r) && allocate_buffer(r)) ||
                       (release_all_cached_buffers() && allocate_buffer(r));
    if (!found) out_of_memory(r);
  }
  r.found->in_use = true;
  current_allocated_ += r.found->size;
  return r.found->id;
}

void MpsAllocator::free(std::uint64_t id) {
  const auto it = buffers_.find(id);
  if (it == buffers_.end() || !it->second->in_use) return;
  Buffer* b = it->second.get();
  b->in_use = false;
  b->heap->pool->cached.insert(b);
  b->heap->pool->cached_size += b->size;
  current_allocated_ -= b->size;
}

void MpsAllocator::empty_cache() { release_all_cached_buffers(); }

// get_free_buffer: the best-fitting cached buffer, unless it is so much larger than the request
// (by more than a 32 MiB heap) that its space is better returned to its heap.
bool MpsAllocator::take_cached_buffer(Request& r) {
  if (over_high_watermark(r.size)) return false;
  Pool& pool = *r.pool;
  if (low_ratio_ > 0.0 && !pool.small) {
    for (Buffer* b : pool.cached) ++b->gc_count;  // ages, for garbage collection
  }
  Buffer key{0, r.size, nullptr};
  const auto it = pool.cached.lower_bound(&key);
  if (it != pool.cached.end()) {
    Buffer* b = *it;
    if (b->size <= r.size + kLargeHeap) {
      r.found = b;
    } else if (heap_with_room(r) == nullptr) {
      release_buffer(b, false);  // make room in its heap for the smaller buffer
      r.memory_pressure = false;
    }
  }
  if (r.found == nullptr) return false;
  pool.cached.erase(r.found);
  pool.cached_size -= r.found->size;
  r.found->gc_count = 0;
  return true;
}

MpsAllocator::Heap* MpsAllocator::heap_with_room(Request& r) {
  Heap key{0, 0, r.size, true, nullptr};
  const auto it = r.pool->heaps.lower_bound(&key);
  return it == r.pool->heaps.end() ? nullptr : *it;
}

// alloc_buffer: a new buffer in the fullest heap that still has room, or in a new heap.
bool MpsAllocator::allocate_buffer(Request& r) {
  if (over_high_watermark(r.size)) return false;
  Pool& pool = *r.pool;
  Heap* heap = heap_with_room(r);
  if (heap != nullptr) {
    pool.heaps.erase(heap);
  } else {
    const std::size_t xlarge = unified_ ? kXLargeHeapUnified : kXLargeHeapDiscrete;
    std::size_t heap_size = kSmallHeap;
    bool split = true;
    if (r.size > kMaxSmallAlloc && r.size < kMinLargeAlloc) {
      heap_size = kLargeHeap;
    } else if (r.size >= kMinLargeAlloc && r.size < xlarge / 2 && !r.memory_pressure) {
      heap_size = xlarge;
    } else if (r.size >= kMinLargeAlloc) {
      heap_size = (r.size + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
      split = false;
    }
    auto owned = std::make_unique<Heap>(Heap{next_id_++, heap_size, heap_size, split, &pool});
    heap = owned.get();
    heaps_.emplace(heap->id, std::move(owned));
    heaps_total_ += heap_size;
  }
  heap->available -= r.size;
  ++heap->buffers;
  pool.heaps.insert(heap);
  auto owned = std::make_unique<Buffer>(Buffer{next_id_++, r.size, heap});
  r.found = owned.get();
  buffers_.emplace(r.found->id, std::move(owned));
  return true;
}

void MpsAllocator::release_buffer(Buffer* b, bool remove_empty_heap) {
  Heap* heap = b->heap;
  Pool& pool = *heap->pool;
  pool.cached.erase(b);
  pool.cached_size -= b->size;
  pool.heaps.erase(heap);
  heap->available += b->size;
  --heap->buffers;
  buffers_.erase(b->id);
  if (remove_empty_heap && heap->buffers == 0) {
    heaps_total_ -= heap->total;
    heaps_.erase(heap->id);
  } else {
    pool.heaps.insert(heap);
  }
}

// release_available_cached_buffers: the smallest cached buffer that is large enough, or else
// the largest ones until their sizes add up to the request.
bool MpsAllocator::release_cached_buffers_of(Request& r) {
  Pool& pool = *r.pool;
  if (pool.cached.empty()) return false;
  Buffer key{0, r.size, nullptr};
  const auto it = pool.cached.lower_bound(&key);
  if (it != pool.cached.end()) {
    release_buffer(*it);
    return true;
  }
  std::size_t released = 0;
  while (released < r.size && !pool.cached.empty()) {
    Buffer* largest = *std::prev(pool.cached.end());
    released += largest->size;
    release_buffer(largest);
  }
  return released >= r.size;
}

// release_cached_buffers: the stream must finish first (COMMIT_AND_WAIT), then every free
// buffer of every pool goes back to Metal, and so does every heap left empty.
bool MpsAllocator::release_all_cached_buffers() {
  wait_for_device("release cached buffers");
  for (Pool* pool : {&private_large_, &private_small_, &shared_small_}) {
    while (!pool->cached.empty()) release_buffer(*pool->cached.begin());
  }
  return true;
}

// garbage_collect_cached_buffers: above the low watermark, free the cached buffers that have
// waited longest (at least the average age) until the process is back under it.
void MpsAllocator::collect_garbage(Request& r) {
  if (driver_allocated() < low_limit_) return;
  const std::size_t target = driver_allocated() - low_limit_;
  Pool& pool = *r.pool;
  double total_age = 0;
  std::size_t freeable = pool.cached.size(), reclaimed = 0;
  for (const Buffer* b : pool.cached) total_age += b->gc_count;
  bool freed = true;
  while (reclaimed < target && freed && freeable > 0) {
    const double threshold = total_age / static_cast<double>(freeable);
    freed = false;
    for (auto it = pool.cached.begin(); it != pool.cached.end() && reclaimed < target;) {
      Buffer* b = *it++;
      if (b->gc_count < threshold) continue;
      freed = true;
      reclaimed += b->size;
      total_age -= b->gc_count;
      --freeable;
      release_buffer(b, !b->heap->split);
    }
  }
}

void MpsAllocator::out_of_memory(const Request& r) const {
  const std::string pool = r.pool->shared ? "shared" : "private";
  std::string message = "MPS backend out of memory (MPS allocated: " + format_size(heaps_total_) +
                        ", other allocations: " + format_size(driver_allocated() - heaps_total_);
  if (high_ratio_ > 0.0) {
    message += ", max allowed: " + format_size(max_total_) + "). Tried to allocate " +
               format_size(r.size) + " on " + pool +
               " pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory "
               "allocations (may cause system failure).";
  } else {
    message += "). Tried to allocate " + format_size(r.size) + " on " + pool + " pool.";
  }
  throw Error(message);
}

DeviceBuffer::~DeviceBuffer() {
  if (const auto allocator = owner_.lock()) allocator->free(id_);
}

}  // namespace engine::detail
