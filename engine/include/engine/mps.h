#pragma once
// torch.mps (torch/mps/__init__.py, torch/mps/event.py): the MPS device module.

#include <cstdint>

namespace engine::mps {

// 1 when MPS is built and available, else 0: the backend has at most one device.
std::int64_t device_count();
bool is_available();
// Waits until every kernel queued on the MPS device has finished: the host catches up with the
// device. "Cannot execute deviceSynchronize() without MPS backend." on a build without MPS.
void synchronize();

// torch.mps.Event: a marker in the MPS stream. record() places it behind the work queued so
// far; query() says whether that work has finished (False if never recorded); synchronize()
// makes the host wait for it; elapsed_time() gives the milliseconds between two timed events,
// after waiting for the device.
class Event {
 public:
  explicit Event(bool enable_timing = false);
  void record();
  // Later work on the stream waits for the event; with one stream, order already does.
  void wait();
  bool query() const;
  void synchronize();
  double elapsed_time(const Event& end) const;
  std::int64_t id() const noexcept { return id_; }

 private:
  std::int64_t id_;
  bool enable_timing_;
  bool recorded_ = false;
  double completes_at_ = 0;  // when the work before the marker finishes, on the device timeline
};

}  // namespace engine::mps
