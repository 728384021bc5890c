// torch.mps.compile_shader and the library and kernels it returns (compile_shader.h), over the
// emulator's Metal front end (engine/metal). Sources: torch/mps/__init__.py (compile_shader),
// torch/csrc/mps/Module.cpp (the Python classes), aten/src/ATen/native/mps/OperationUtils.mm
// (MetalShaderLibrary::compileLibrary, getLibraryPipelineState, MetalKernelFunction).

#include <utility>

#include "engine/backends/mps.h"
#include "engine/compile_shader.h"
#include "engine/errors.h"
#include "engine/metal/dispatch.h"
#include "engine/metal/library.h"
#include "machine/process.h"
#include "mps/availability.h"
#include "mps/kernel_call.h"
#include "mps/kernel_launches.h"
#include "mps/stream.h"
#include "trace/trace.h"

namespace engine {

py::arg& py::arg::operator=(std::int64_t value) {
  value_ = value;
  return *this;
}
py::arg& py::arg::operator=(std::initializer_list<std::int64_t> values) {
  value_ = std::vector<std::int64_t>(values);
  return *this;
}
py::arg& py::arg::operator=(std::vector<std::int64_t> values) {
  value_ = std::move(values);
  return *this;
}
py::arg& py::arg::operator=(std::string value) {
  value_ = std::move(value);
  return *this;
}
py::arg& py::arg::operator=(std::map<unsigned, std::string> value) {
  value_ = std::move(value);
  return *this;
}

namespace py::torch::mps {

ShaderLibrary compile_shader(std::string_view source) {
  // torch/mps/__init__.py: a build without MPS has no torch._C._mps_compileShader.
  if (!backends::mps::is_built()) throw Error("MPS is not available");
  detail::Process& p = detail::process();
  const double seconds = detail::shader_compile_seconds(p.machine);
  detail::trace_span(detail::Track::Host, "compile_shader", "compile", p.timeline.host_now,
                     seconds);
  p.timeline.host_now += seconds;
  try {
    return ShaderLibrary(std::make_shared<const metal::Library>(metal::Library::compile(source)));
  } catch (const metal::CompileError& e) {
    throw SyntaxError(e.what());  // compileLibrary: MTLLibraryErrorCompileFailure
  }
}

ShaderLibrary::ShaderLibrary(std::shared_ptr<const metal::Library> library)
    : library_(std::move(library)) {}

MetalKernel ShaderLibrary::attr(std::string_view name) const {
  auto kernel = library_->find_kernel(name);
  // getLibraryPipelineState: newFunctionWithName finds kernel functions only.
  if (!kernel) throw Error("Failed to create function state object for: " + std::string(name));
  if (kernel->threadgroup_memory_length() > metal::kMaxThreadgroupMemoryBytes) {
    throw Error("Failed to created pipeline state object, error: Threadgroup memory size (" +
                std::to_string(kernel->threadgroup_memory_length()) +
                ") exceeds the maximum threadgroup memory allowed (" +
                std::to_string(metal::kMaxThreadgroupMemoryBytes) + ")");
  }
  return MetalKernel(std::move(kernel));
}

std::vector<std::string> ShaderLibrary::dir() const { return library_->function_names(); }

MetalKernel::MetalKernel(std::shared_ptr<const metal::Kernel> kernel)
    : kernel_(std::move(kernel)) {}

std::int64_t MetalKernel::max_threads_per_threadgroup() const {
  return static_cast<std::int64_t>(metal::kMaxThreadsPerThreadgroup);
}
std::int64_t MetalKernel::thread_execution_width() const { return metal::kSimdWidth; }
std::int64_t MetalKernel::static_thread_group_memory_length() const {
  return kernel_->threadgroup_memory_length();
}

void MetalKernel::call(const std::vector<KernelArgument>& arguments) const {
  detail::check_device_usable(Device(DeviceType::MPS), detail::Placement::Allocated);
  detail::KernelCall call = detail::bind_kernel_call(*kernel_, arguments);
  metal::DispatchWork work;
  try {
    work = metal::dispatch(*kernel_, call.bindings, call.grid, call.group);
  } catch (const metal::KernelFault& fault) {
    throw Error(fault.what());
  } catch (const std::invalid_argument& refused) {
    throw Error(refused.what());
  }
  const detail::KernelCost cost{.name = kernel_->name(),
                                .kind = detail::OpKind::ShaderKernel,
                                .bytes = work.device_footprint_bytes,
                                .shader = &work};
  detail::launch(cost, Device(DeviceType::MPS));
  detail::record_kernel_launch(kernel_->name(), work,
                               detail::mps_kernel_seconds(cost, detail::process().machine));
}

}  // namespace py::torch::mps
}  // namespace engine
