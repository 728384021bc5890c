#include "engine/autograd.h"

namespace engine {
namespace {

thread_local bool g_grad_enabled = true;

}  // namespace

bool GradMode::is_enabled() { return g_grad_enabled; }
void GradMode::set_enabled(bool enabled) { g_grad_enabled = enabled; }

NoGradGuard::NoGradGuard() : previous_(GradMode::is_enabled()) { GradMode::set_enabled(false); }
NoGradGuard::~NoGradGuard() { GradMode::set_enabled(previous_); }

}  // namespace engine
