// Library::compile: source to checked program, each phase stopping at its first error with
// Metal's diagnostic form (source_text.h).

#include "engine/metal/library.h"

#include <utility>

#include "ast.h"
#include "checker.h"
#include "lexer.h"
#include "parser.h"

namespace engine::metal {

Kernel::Kernel(std::shared_ptr<const detail::Program> program, const detail::Function* function)
    : program_(std::move(program)), function_(function) {}

const std::string& Kernel::name() const { return function_->name; }
const std::vector<BufferParameter>& Kernel::buffers() const { return function_->buffers; }
std::int64_t Kernel::threadgroup_memory_length() const { return function_->threadgroup_memory; }

Library::Library(std::shared_ptr<const detail::Program> program) : program_(std::move(program)) {}

Library Library::compile(std::string_view source) {
  auto program = std::make_shared<detail::Program>(source);
  try {
    detail::parse(detail::tokenize(source), *program);
    detail::check(*program);
  } catch (const detail::SourceError& error) {
    throw CompileError(program->text.diagnostic(error.where, error.message, error.severity));
  }
  return Library(std::move(program));
}

std::vector<std::string> Library::function_names() const {
  std::vector<std::string> names;
  for (const auto& fn : program_->functions) {
    if (fn->is_kernel) names.push_back(fn->name);
  }
  return names;
}

std::shared_ptr<const Kernel> Library::find_kernel(std::string_view name) const {
  for (const auto& fn : program_->functions) {
    if (fn->is_kernel && fn->name == name)
      return std::make_shared<const Kernel>(program_, fn.get());
  }
  return nullptr;
}

}  // namespace engine::metal
