// torch.backends.mps and torch.mps availability for the emulated release. Sources:
// torch/backends/mps/__init__.py (is_built = torch._C._has_mps, is_available lru_cached),
// aten/src/ATen/mps/MPSDevice.mm (the OS probe; low-power and non-Metal-2 GPUs are skipped).
// Note [macOS minimum of 2.9]: PyTorch 2.9 uses MPS only from macOS 14 (Sonoma): its maintainers
// wrote that "in 2.9+ MPS is only supported on MacOS Sonoma+" (pytorch/pytorch#162921, #163515),
// and MPSDevice probes an MPSGraph method introduced in 14.0. The error text was not updated
// with it and still names 13.0, so an Apple-silicon Mac on macOS 13 is told it needs a version
// it already has (a 2.10 nightly on macOS 13.7.4 printed exactly that, pytorch/pytorch#164943).

#include "mps/availability.h"

#include <string>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/mps.h"
#include "engine/sim.h"
#include "machine/process.h"
#include "mps/missing_backend.h"

namespace engine {
namespace {

constexpr OsVersion kMinimumMacOS{14, 0, 0};  // Note [macOS minimum of 2.9]

bool probe_mps(const MachineProfile& m) {
  return m.torch_built_with_mps && m.os == OperatingSystem::MacOS &&
         m.os_version >= kMinimumMacOS && m.gpu.has_value() && !m.gpu->low_power &&
         m.gpu->supports_mac2_family;
}

}  // namespace

namespace py::torch::backends::mps {

bool is_built() { return detail::process().machine.torch_built_with_mps; }

bool is_available() {
  auto& cached = detail::process().mps_available;
  if (!cached) cached = probe_mps(detail::process().machine);
  return *cached;
}

bool is_macos_or_newer(int major, int minor) {
  const MachineProfile& m = detail::process().machine;
  return m.os == OperatingSystem::MacOS && m.os_version >= OsVersion{major, minor, 0};
}

}  // namespace py::torch::backends::mps

bool sim::mps_available_on(const MachineProfile& machine) { return probe_mps(machine); }

namespace py::torch::mps {

std::int64_t device_count() {
  return backends::mps::is_built() && backends::mps::is_available() ? 1 : 0;
}

}  // namespace py::torch::mps

bool mps::is_available() { return py::torch::mps::device_count() > 0; }

namespace detail {

Device check_device_usable(Device device, Placement placement) {
  switch (device.type()) {
    case DeviceType::CPU:
      return Device(DeviceType::CPU);
    case DeviceType::CUDA:
      // torch.cuda._lazy_init, raised on any machine of the course: none has CUDA.
      throw AssertionError("Torch not compiled with CUDA enabled");
    case DeviceType::Meta:
      throw Error("the course engine does not create meta (shape-only) tensors");
    case DeviceType::MPS:
      break;
  }
  if (!py::torch::backends::mps::is_built()) {
    if (placement == Placement::Allocated)
      throw NotImplementedError(std::string(no_mps_kernel_for_empty()));
    // c10/core/impl/DeviceGuardImplInterface.h: no guard is registered for the device type.
    throw Error("PyTorch is not linked with support for mps devices");
  }
  if (!py::torch::backends::mps::is_available()) {
    // aten/src/ATen/mps/EmptyTensor.cpp, MPS_ERROR_RUNTIME_TOO_LOW as PyTorch 2.6-2.9 print it
    // (no space after the first period). 2.5.1 still said "12.3+" (pytorch/pytorch#139425;
    // changed by #139427); later releases say "14.0+. Current ...". Note [macOS minimum of 2.9]
    // says why 13.0 is not the real minimum.
    throw Error(
        "The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using "
        "`sw_vers`");
  }
  if (device.index() > 0) {
    throw Error("the MPS backend has a single device, mps:0; got " + device.str());
  }
  return Device(DeviceType::MPS, 0);  // Note [Device index]
}

}  // namespace detail
}  // namespace engine
