#pragma once
// Internal: what the stream and autograd need to know about engine::compile (engine/compile.h):
// whether the kernels being launched belong to a compiled graph, and whether they are only
// being traced.

#include <memory>

#include "engine/autograd.h"

namespace engine::detail {

struct CompiledGraph;

// The compiled graph whose kernels run now (its forward, or the backward of what its forward
// computed); null when running eagerly.
const CompiledGraph* current_compiled_graph();
// Called for every launch: true while Dynamo traces a forward, which only counts the ops.
bool count_traced_op();
// Whether Dynamo is tracing a forward now (counting nothing).
bool dynamo_tracing();
// The first kernel of a graph's backward pays for compiling the backward.
void compile_backward_if_needed();
// A node recorded inside a compiled forward runs its backward inside the same graph.
autograd::Node::Backward within_compiled_graph(autograd::Node::Backward backward);

}  // namespace engine::detail
