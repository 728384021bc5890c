// Statements in lockstep (Note [Lockstep threadgroups] in executor.h): a threadgroup's threads
// start together; control flow splits them and joins them again; a barrier must see them all.

#include <algorithm>
#include <utility>

#include "executor.h"

namespace engine::metal::detail {
namespace {

// A loop that has run this many iterations, or this many summed over its threads, has probably
// no end; on a GPU the command buffer would time out (the emulator stops it sooner, within a
// few seconds). A naive matrix product's loop over k = 16384 for 1,024 threads stays within.
constexpr std::uint64_t kMaxLoopIterations = std::uint64_t{1} << 20;
constexpr std::uint64_t kMaxLoopThreadIterations = std::uint64_t{1} << 24;

std::string position_text(std::uint64_t x, std::uint64_t y, std::uint64_t z, const Size3& dims) {
  if (dims.height == 1 && dims.depth == 1) return std::to_string(x);
  std::string text = "(" + std::to_string(x) + ", " + std::to_string(y);
  if (dims.depth > 1) text += ", " + std::to_string(z);
  return text + ")";
}

}  // namespace

Executor::Executor(const Program& program, const Function& kernel,
                   std::span<const BufferBinding> buffers, Size3 grid, Size3 group,
                   DispatchWork& work)
    : program_(program),
      kernel_(kernel),
      grid_(grid),
      group_(group),
      counter_(work, buffers),
      memory_(program, kernel, buffers, grid, group, counter_) {}

std::string Executor::describe_thread(std::uint16_t lane) const {
  const auto [lx, ly, lz] = local_position(lane);
  return "thread " + memory_.grid_position(global_ids_[lane]) + " of the grid (thread " +
         position_text(lx, ly, lz, grid_) + " of threadgroup " +
         position_text(position_.width, position_.height, position_.depth, grid_) + ")";
}

void Executor::run(Size3 position) {
  Lanes all = start(position);
  bind_parameters();
  Call kernel_call{&kernel_, {}};
  calls_.push_back(&kernel_call);
  exec(*kernel_.body, all);
  calls_.pop_back();
}

Lanes Executor::start(Size3 position) {
  position_ = position;
  size_ = {std::min(group_.width, grid_.width - position.width * group_.width),
           std::min(group_.height, grid_.height - position.height * group_.height),
           std::min(group_.depth, grid_.depth - position.depth * group_.depth)};
  threads_ = size_.count();
  global_ids_.resize(threads_);
  Lanes all;
  for (std::size_t l = 0; l < threads_; ++l) {
    const auto [x, y, z] = grid_position(l);
    global_ids_[l] = static_cast<std::uint32_t>(x + grid_.width * (y + grid_.height * z));
    all.ids.push_back(static_cast<std::uint16_t>(l));
  }
  all.recount();
  const Size3 groups = threadgroups_in(grid_, group_);
  registers_.reset(threads_);
  memory_.start_threadgroup(
      threads_, global_ids_,
      static_cast<std::uint32_t>(
          position.width + groups.width * (position.height + groups.height * position.depth)));
  returned_at_.assign(threads_, 0);
  return all;
}

void Executor::exec(const Stmt& stmt, Lanes& active) {
  switch (stmt.kind) {
    case Stmt::Kind::Block:
      for (const auto& inner : stmt.body) {
        if (active.empty()) return;
        exec(*inner, active);
      }
      return;
    case Stmt::Kind::Declaration:
      return declare(stmt, active);
    case Stmt::Kind::Expression:
      eval(*stmt.expression, active);
      return;
    case Stmt::Kind::If:
      return branch(stmt, active);
    case Stmt::Kind::For:
    case Stmt::Kind::While:
    case Stmt::Kind::DoWhile:
      return loop(stmt, active);
    case Stmt::Kind::Break:
      loops_.back()->broken = merge(loops_.back()->broken, active);
      active = {};
      return;
    case Stmt::Kind::Continue:
      loops_.back()->continued = merge(loops_.back()->continued, active);
      active = {};
      return;
    case Stmt::Kind::Return: {
      Call& call = *calls_.back();
      if (stmt.expression) {
        const Operand value = eval(*stmt.expression, active);
        Word* slot = memory_.thread_column(call.function->return_slot->address);
        for (int c = 0; c < value.width(); ++c) {
          for (const std::uint16_t l : active.ids)
            slot[static_cast<std::size_t>(c) * threads_ + l] = value.component(c)[l];
        }
      }
      for (const std::uint16_t l : active.ids)
        returned_at_[l] = static_cast<std::uint32_t>(stmt.where.line);
      call.returned = merge(call.returned, active);
      active = {};
      return;
    }
    case Stmt::Kind::Empty:
      return;
  }
}

void Executor::declare(const Stmt& stmt, const Lanes& active) {
  if (stmt.space == AddressSpace::Threadgroup)
    return;  // laid out by the checker, undefined until written
  for (const Declarator& d : stmt.declarators) {
    const Variable& v = *d.variable;
    Word* column = memory_.thread_column(v.address);
    const int words = words_of(*v.type);
    if (!d.initializer) {  // zero, so that a read before a write gives the same value everywhere
      for (int c = 0; c < words; ++c) {
        for (const std::uint16_t l : active.ids)
          column[static_cast<std::size_t>(c) * threads_ + l] = 0;
      }
      continue;
    }
    const Operand value = eval(*d.initializer, active);
    for (int c = 0; c < words; ++c) {
      for (const std::uint16_t l : active.ids)
        column[static_cast<std::size_t>(c) * threads_ + l] = value.component(c)[l];
    }
  }
}

void Executor::branch(const Stmt& stmt, Lanes& active) {
  const Operand condition = eval(*stmt.condition, active);
  counter_.alu(static_cast<double>(Cost::Simple), active.simd_groups);
  Lanes taken, other;
  for (const std::uint16_t l : active.ids)
    (condition.component(0)[l] ? taken : other).ids.push_back(l);
  taken.recount();
  other.recount();
  if (!taken.empty()) {
    branches_.push_back({stmt.where, &taken, "the if"});
    exec(*stmt.body[0], taken);
    branches_.pop_back();
  }
  if (stmt.body.size() > 1 && !other.empty()) {
    branches_.push_back({stmt.where, &other, "the else"});
    exec(*stmt.body[1], other);
    branches_.pop_back();
  }
  active = merge(taken, other);
}

void Executor::loop(const Stmt& stmt, Lanes& active) {
  if (stmt.init) exec(*stmt.init, active);
  Lanes running = std::move(active);
  Lanes finished;
  Loop state;
  loops_.push_back(&state);
  std::uint64_t iterations = 0, thread_iterations = 0;
  for (bool first = true; !running.empty(); first = false) {
    if (stmt.condition && !(stmt.kind == Stmt::Kind::DoWhile && first)) {
      const Operand condition = eval(*stmt.condition, running);
      counter_.alu(static_cast<double>(Cost::Simple), running.simd_groups);
      const Word* holds = condition.component(0);
      const bool all_stay = std::all_of(running.ids.begin(), running.ids.end(),
                                        [&](std::uint16_t l) { return holds[l] != 0; });
      if (!all_stay) {  // the common case, every thread staying, needs no new sets
        Lanes stay, leave;
        for (const std::uint16_t l : running.ids) (holds[l] ? stay : leave).ids.push_back(l);
        stay.recount();
        leave.recount();
        finished = merge(finished, leave);
        running = std::move(stay);
        if (running.empty()) break;
      }
    }
    thread_iterations += running.size();
    if (++iterations > kMaxLoopIterations || thread_iterations > kMaxLoopThreadIterations) {
      throw ThreadFault{stmt.where, running.ids.front(),
                        "the loop has run " + std::to_string(iterations - 1) +
                            " times without ending for this thread: a loop that never ends? (on "
                            "a GPU, the command buffer would time out)"};
    }
    branches_.push_back({stmt.where, &running, "the loop"});
    exec(*stmt.body[0], running);
    branches_.pop_back();
    if (!state.continued.empty()) {
      running = merge(running, state.continued);
      state.continued = {};
    }
    if (stmt.kind == Stmt::Kind::For && stmt.expression && !running.empty())
      eval(*stmt.expression, running);
  }
  loops_.pop_back();
  active = merge(finished, state.broken);
}

}  // namespace engine::metal::detail
