// Lab 2 · Device checks: your code. Replace each TODO line with the code it asks for; lab.h
// says what each function must do. `build/course verify 02` runs the tests.

#include "02_device_checks/lab.h"

namespace lab {

MpsState mps_state() {
  TODO("2.1", "ask py::torch::backends::mps::is_built() and is_available() which state this is");
}

torch::Device choose_device() {
  TODO("2.2", "return mps when this process can use it, the cpu otherwise");
}

std::string diagnosis() {
  TODO("2.3", "return one line: the state's name, a colon, then what to do (see lab.h)");
}

bool on_gpu(const torch::Tensor& t) {
  TODO("2.4", "ask whether t's device is an mps device, whatever its index");
}

}  // namespace lab
