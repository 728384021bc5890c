#pragma once
// Internal: the emulated MPS stream (aten/src/ATen/mps/MPSStream.mm): one queue, in order.
// Launching an mps operation costs the host its encoding time and queues a kernel that runs on
// the device timeline when the device is free; nothing waits for it. Only sync points make the
// host wait: synchronize(), reading a value (item(), cpu(), printing), blocking copies from the
// cpu, empty_cache(), and event waits (reference: PyTorch's MPSStream commit semantics). A wait
// commits the command buffer and sleeps until Metal reports it complete, which costs the
// machine's sync latency on top of the GPU's remaining work.

#include <string_view>

#include "engine/device.h"
#include "machine/cost_model.h"

namespace engine::detail {

// One operation on `device`: on mps, host encoding plus a device kernel; on cpu, host compute.
void launch(const KernelCost& cost, Device device);
// An operation that only changes metadata (a view): the host's dispatch cost, no kernel.
void dispatch_view(std::string_view name, Device device);
// Host time the framework spends beside kernels (autograd's bookkeeping, an optimizer's Python
// loop), on either device; none inside a compiled graph, which runs as one autograd node.
void spend_framework(std::string_view name, FrameworkWork work);
// The host commits the queue and waits until everything on it has finished.
void wait_for_device(std::string_view reason);
// Whether a copy between the cpu and mps makes the host wait for it (COMMIT_AND_WAIT), or is
// only committed (non_blocking=True: MPSStream::copy_and_sync with SyncType::COMMIT).
enum class CopySync { Wait, Queue };
// A copy from one device to another (Tensor::to), blocking unless asked not to.
void copy_between(Device from, Device to, double bytes, CopySync sync = CopySync::Wait);

}  // namespace engine::detail
