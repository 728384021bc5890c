#pragma once
// Models c10::Device (c10/core/Device.h): a device type plus an optional index.
// Note [Device index]: torch.device("mps") has no index and is not equal to "mps:0"; a tensor
// created on "mps" reports "mps:0" because the MPS backend has exactly one device, index 0
// (MPSGuardImpl). CPU tensors report "cpu", without an index.

#include <cstdint>
#include <string>
#include <string_view>

namespace engine {

// The device types the course engine models. PyTorch knows more (xpu, hip, ...); parsing one
// of those is reported as beyond the course rather than silently accepted.
enum class DeviceType : std::int8_t { CPU, CUDA, MPS, Meta };

inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;
inline constexpr DeviceType kMPS = DeviceType::MPS;
inline constexpr DeviceType kMeta = DeviceType::Meta;

// c10::DeviceTypeName: "CPU", "CUDA", "MPS", "META", or in lower case "cpu", ... (how a device
// prints).
std::string DeviceTypeName(DeviceType type, bool lower_case = false);

class Device {
 public:
  // NOLINTNEXTLINE(google-explicit-constructor): implicit like c10::Device, so f(kMPS) works.
  Device(DeviceType type, std::int8_t index = -1);
  // Parses "cpu", "mps", "mps:0", "cuda:1", with PyTorch's error texts for anything else.
  Device(const std::string& spec);  // NOLINT(google-explicit-constructor)
  Device(const char* spec);         // NOLINT(google-explicit-constructor)

  DeviceType type() const noexcept { return type_; }
  std::int8_t index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ >= 0; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_mps() const noexcept { return type_ == DeviceType::MPS; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }

  // "mps", "mps:0", "cpu": what str(torch.device(...)) prints.
  std::string str() const;

  bool operator==(const Device&) const = default;

 private:
  DeviceType type_;
  std::int8_t index_;
};

}  // namespace engine
