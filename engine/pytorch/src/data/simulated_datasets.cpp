// sim::data's datasets (engine/simulated_data.h): each sample spends the cpu time its real
// counterpart's code spends (data/input_costs.cpp), then returns values that are a function of
// its index. Random augmentations draw from the running process's generator, as torchvision's
// do: a worker's own, or the main process's without workers.

#include <algorithm>

#include "data/input_costs.h"
#include "engine/sim.h"
#include "engine/simulated_data.h"
#include "machine/process.h"
#include "tensor/tensor_impl.h"
#include "trace/trace.h"

namespace engine::sim {
namespace data {
namespace {

// A cpu tensor of `sizes` filled with `value`, made without an operation: the dataset's Python
// code builds it, and spend_cpu has charged its time.
template <typename T>
Tensor filled(std::vector<std::int64_t> sizes, ScalarType dtype, T value) {
  Tensor t = detail::allocate(std::move(sizes), dtype, Device(DeviceType::CPU));
  if (t.impl().has_values()) std::fill_n(t.impl().data<T>(), t.numel(), value);
  return t;
}

Tensor label(std::size_t index, std::int64_t classes) {
  return filled<std::int64_t>({}, ScalarType::Long, static_cast<std::int64_t>(index) % classes);
}

// RandomHorizontalFlip(p=0.5)'s draw.
bool flips() { return (detail::process().cpu_generator.random() & 1U) != 0; }

}  // namespace

Sample JpegImageFolder::get(std::size_t index) {
  const MachineProfile& m = machine();
  const auto stored = static_cast<double>(options_.stored_width * options_.stored_height);
  const auto side = options_.output_size;
  const auto out = static_cast<double>(side * side);
  spend_cpu("decode JPEG", detail::jpeg_decode_seconds(stored, m));
  spend_cpu(options_.augment ? "RandomResizedCrop" : "Resize", detail::resize_seconds(out, m));
  if (options_.augment && flips()) spend_cpu("RandomHorizontalFlip", detail::flip_seconds(out, m));
  spend_cpu("ToTensor, Normalize", detail::to_tensor_seconds(out, m));
  return {filled<float>({3, side, side}, ScalarType::Float, static_cast<float>(index % 256) / 255),
          label(index, options_.classes)};
}

std::uint64_t JpegImageFolder::in_memory_bytes() const {
  return options_.images * detail::path_entry_bytes();
}

Sample InMemoryImages::get(std::size_t index) {
  const MachineProfile& m = machine();
  const auto side = options_.side;
  // in RGB pixels' worth, which the costs are measured in
  const auto pixels = static_cast<double>(side * side * options_.channels) / 3;
  if (options_.augment) {
    spend_cpu("RandomCrop", detail::crop_seconds(pixels, m));
    if (flips()) spend_cpu("RandomHorizontalFlip", detail::flip_seconds(pixels, m));
  }
  spend_cpu("ToTensor, Normalize", detail::to_tensor_seconds(pixels, m));
  return {filled<float>({options_.channels, side, side}, ScalarType::Float,
                        static_cast<float>(index % 256) / 255),
          label(index, options_.classes)};
}

std::uint64_t InMemoryImages::in_memory_bytes() const {
  const auto side = static_cast<std::uint64_t>(options_.side);
  const auto channels = static_cast<std::uint64_t>(options_.channels);
  return options_.images * (side * side * channels + 8);  // the uint8 array, the list of labels
}

Sample TokenizedTexts::get(std::size_t index) {
  spend_cpu("tokenize", detail::tokenize_seconds(static_cast<double>(options_.tokens), machine()));
  Tensor ids = filled<std::int64_t>({options_.tokens}, ScalarType::Long, 0);
  if (ids.impl().has_values()) {
    std::int64_t* id = ids.impl().data<std::int64_t>();
    for (std::int64_t j = 0; j < options_.tokens; ++j)
      id[j] = (static_cast<std::int64_t>(index) + j) % 50257;  // GPT-2's vocabulary
  }
  return {ids, label(index, options_.classes)};
}

std::uint64_t TokenizedTexts::in_memory_bytes() const {
  return options_.texts * (options_.bytes_per_text + 49);  // a Python str's header: 49 bytes
}

}  // namespace data

void spend_cpu(std::string_view what, double seconds) {
  detail::Timeline& t = detail::process().timeline;
  detail::trace_span(detail::Track::Host, what, "data", t.host_now, seconds);
  t.host_now += seconds;
}

MemoryUse memory_use() {
  const detail::Process& p = detail::process();
  return {.mps_driver = p.mps_allocator ? p.mps_allocator->driver_allocated() : 0,
          .dataloader_workers = *p.worker_resident_bytes,
          .other_apps = p.machine.other_apps_bytes,
          .machine = p.machine.memory_bytes};
}

}  // namespace engine::sim
