// harness::todo: a TODO reached throws TodoReached, and the run remembers it for the report.

#include "harness/todo.h"

#include <algorithm>
#include <utility>

#include "open_todo.h"

namespace harness {
namespace {

std::vector<OpenTodo>& mutable_reached() {
  static std::vector<OpenTodo> reached;
  return reached;
}

}  // namespace

TodoReached::TodoReached(OpenTodo todo)
    : todo_(std::move(todo)), message_("TODO " + todo_.id + " is still open: " + todo_.what) {}

const std::vector<OpenTodo>& reached_todos() { return mutable_reached(); }

void todo(const char* file, int line, const char* id, const char* what) {
  OpenTodo todo{file, line, id, what};
  auto& reached = mutable_reached();
  const bool seen = std::any_of(reached.begin(), reached.end(), [&](const OpenTodo& t) {
    return t.file == todo.file && t.line == todo.line;
  });
  if (!seen) reached.push_back(todo);
  throw TodoReached(std::move(todo));
}

}  // namespace harness
