#pragma once
// Internal: what a TODO throws, and the record of every TODO the tests reached, from which the
// report names the first one still open.

#include <exception>
#include <string>
#include <vector>

namespace harness {

struct OpenTodo {
  std::string file;  // as the compiler saw it; the report shortens it
  int line = 0;
  std::string id;    // "5.1"
  std::string what;  // what to write there
};

class TodoReached : public std::exception {
 public:
  explicit TodoReached(OpenTodo todo);
  const char* what() const noexcept override { return message_.c_str(); }
  const OpenTodo& todo() const noexcept { return todo_; }

 private:
  OpenTodo todo_;
  std::string message_;
};

// Each distinct TODO reached in this run, in the order first reached.
const std::vector<OpenTodo>& reached_todos();

}  // namespace harness
