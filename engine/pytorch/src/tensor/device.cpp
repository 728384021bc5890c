#include "engine/device.h"

#include <array>
#include <cctype>
#include <string>

#include "engine/errors.h"

namespace engine {
namespace {

// c10::DeviceType's names in the order PyTorch 2.x lists them in its parse error.
constexpr std::array<std::string_view, 20> kPyTorchDeviceNames = {
    "cpu",  "cuda", "ipu", "xpu",  "mkldnn", "opengl", "opencl", "ideep", "hip",  "ve",
    "fpga", "maia", "xla", "lazy", "vulkan", "mps",    "meta",   "hpu",   "mtia", "privateuseone"};

std::string joined_device_names() {
  std::string names;
  for (std::string_view name : kPyTorchDeviceNames) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

DeviceType parse_type(const std::string& name) {
  if (name == "cpu") return DeviceType::CPU;
  if (name == "cuda") return DeviceType::CUDA;
  if (name == "mps") return DeviceType::MPS;
  if (name == "meta") return DeviceType::Meta;
  for (std::string_view known : kPyTorchDeviceNames) {
    if (known == name) {
      throw Error("'" + name +
                  "' is a PyTorch device type the course engine does not emulate; "
                  "it models cpu, cuda, mps and meta");
    }
  }
  throw Error("Expected one of " + joined_device_names() +
              " device type at start of device string: " + name);
}

// The grammar of c10::Device(const std::string&): ([a-zA-Z_]+)(?::([1-9]\d*|0))?
Device parse_device(const std::string& spec) {
  if (spec.empty()) throw Error("Device string must not be empty");
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string index = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto is_name_char = [](unsigned char c) { return std::isalpha(c) || c == '_'; };
  auto is_digit = [](unsigned char c) { return std::isdigit(c) != 0; };
  bool valid = !name.empty();
  for (unsigned char c : name) valid = valid && is_name_char(c);
  if (colon != std::string::npos) {
    valid = valid && !index.empty() && (index == "0" || index[0] != '0');
    for (unsigned char c : index) valid = valid && is_digit(c);
  }
  if (!valid) throw Error("Invalid device string: '" + spec + "'");
  int parsed_index = -1;
  if (!index.empty()) {
    if (index.size() > 3 || std::stoi(index) > 127) {
      throw Error("Could not parse device index '" + index + "' in device string '" + spec + "'");
    }
    parsed_index = std::stoi(index);
  }
  return Device(parse_type(name), static_cast<std::int8_t>(parsed_index));
}

}  // namespace

std::string DeviceTypeName(DeviceType type, bool lower_case) {
  const auto named = [lower_case](std::string_view upper, std::string_view lower) {
    return std::string(lower_case ? lower : upper);
  };
  switch (type) {
    case DeviceType::CPU:
      return named("CPU", "cpu");
    case DeviceType::CUDA:
      return named("CUDA", "cuda");
    case DeviceType::MPS:
      return named("MPS", "mps");
    case DeviceType::Meta:
      return named("META", "meta");
  }
  return "unknown";
}

// torch.device(type, index) refuses a negative index (torch/csrc/Device.cpp); c10::Device's own
// checks, of -1 and of a cpu index above 0, run only in debug builds, so a release accepts
// "cpu:1" and places its tensors on the cpu.
Device::Device(DeviceType type, std::int8_t index) : type_(type), index_(index) {
  if (index < -1) throw Error("Device index must not be negative");
}

Device::Device(const std::string& spec) : Device(parse_device(spec)) {}

Device::Device(const char* spec) : Device(std::string(spec)) {}

std::string Device::str() const {
  std::string text = DeviceTypeName(type_, /*lower_case=*/true);
  if (has_index()) text += ":" + std::to_string(index_);
  return text;
}

}  // namespace engine
