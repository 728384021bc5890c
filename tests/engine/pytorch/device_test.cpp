#include "engine/device.h"

#include <doctest/doctest.h>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/notebook/doctest_printing.h"

using engine::Device;
using engine::DeviceType;

TEST_CASE("a device string names a type and an optional index, as c10::Device parses it") {
  CHECK(Device("cpu").type() == DeviceType::CPU);
  CHECK_FALSE(Device("cpu").has_index());
  CHECK(Device("mps").is_mps());
  CHECK_FALSE(Device("mps").has_index());
  CHECK(Device("mps:0").index() == 0);
  CHECK(Device("cuda:1").index() == 1);
  CHECK(Device("meta").is_meta());
}

TEST_CASE("devices print as str(torch.device(...)) does") {
  CHECK(Device("mps").str() == "mps");
  CHECK(Device("mps:0").str() == "mps:0");
  CHECK(Device("cpu").str() == "cpu");
  CHECK(Device(DeviceType::MPS, 0).str() == "mps:0");
}

TEST_CASE("mps without an index is not equal to mps:0") {
  CHECK(Device("mps") != Device("mps:0"));
  CHECK(Device("mps") == Device(engine::kMPS));
  CHECK(Device("cpu") != Device("mps"));
}

TEST_CASE("invalid device strings raise PyTorch's messages") {
  CHECK_THROWS_WITH_AS(
      Device("metal"),
      "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
      "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device "
      "type at start of device string: metal",
      engine::Error);
  CHECK_THROWS_WITH(Device("MPS"), doctest::Contains("device string: MPS"));  // case matters
  CHECK_THROWS_WITH(Device("mps:x"), "Invalid device string: 'mps:x'");
  CHECK_THROWS_WITH(Device("cuda:-1"), "Invalid device string: 'cuda:-1'");
  CHECK_THROWS_WITH(Device("mps:01"), "Invalid device string: 'mps:01'");
  CHECK_THROWS_WITH(Device("mps0"), "Invalid device string: 'mps0'");
  CHECK_THROWS_WITH(Device(""), "Device string must not be empty");
  // c10::Device checks a cpu index only in debug builds: PyTorch's wheels accept "cpu:1", and
  // a tensor asked for there lands on the cpu (PyTorch 2.11 printed no error:
  // tests/data/pytorch-2.11/probes.json, device_cpu_index).
  CHECK(Device("cpu:1").index() == 1);
  CHECK(engine::ones({1}, Device("cpu:1")).device().str() == "cpu");
  CHECK_THROWS_WITH(Device(engine::DeviceType::CPU, -2), "Device index must not be negative");
}

TEST_CASE("a real PyTorch device type the engine does not model is refused, not accepted") {
  CHECK_THROWS_WITH_AS(Device("xpu"), doctest::Contains("does not emulate"), engine::Error);
}
