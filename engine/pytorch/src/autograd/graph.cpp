// Recording nodes and running backward (torch/csrc/autograd/engine.cpp in spirit): gradients
// flow from the root in reverse topological order; a node's gradient is complete before it
// runs; leaves accumulate into .grad.

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/ops.h"
#include "mps/compiled_region.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"

namespace engine::detail {
namespace {

using autograd::Node;

void accumulate(std::unordered_map<Node*, Tensor>& pending, Node* node, const Tensor& grad) {
  auto [it, inserted] = pending.try_emplace(node, grad);
  if (!inserted) it->second = it->second + grad;
}

// Whether only `handles` handles reference `grad`, and nothing else its memory.
bool held_only_by(const Tensor& grad, std::size_t handles) {
  const TensorImpl& impl = grad.impl();
  return grad.use_count() <= handles && (!impl.storage || impl.storage.use_count() == 1) &&
         (!impl.buffer || impl.buffer.use_count() == 1);
}

// A leaf's AccumulateGrad: its first gradient becomes .grad as it is when nothing else holds it,
// as PyTorch's steals it (utils::clone_obey_contract only for a shared one); later ones are
// added to it. `handles`: the caller's own references to `grad`.
void accumulate_into_leaf(const Tensor& leaf, const Tensor& grad, std::size_t handles) {
  TensorImpl& impl = leaf.impl();
  if (impl.grad.defined()) {
    impl.grad = impl.grad + grad;
  } else {
    impl.grad = held_only_by(grad, handles) ? grad : grad.clone();
  }
}

// Every node reachable from `root`, each after all the nodes whose gradients feed it. Owning
// pointers: releasing a node's edges may drop the last other reference to a node below.
std::vector<std::shared_ptr<Node>> reverse_topological_order(const std::shared_ptr<Node>& root) {
  std::vector<std::shared_ptr<Node>> post_order;
  std::unordered_set<Node*> seen{root.get()};
  std::vector<std::pair<std::shared_ptr<Node>, std::size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    const std::shared_ptr<Node> node = stack.back().first;
    const std::size_t next = stack.back().second++;
    if (next < node->edges().size()) {
      const std::shared_ptr<Node>& child = node->edges()[next].grad_fn;
      if (child != nullptr && seen.insert(child.get()).second) stack.emplace_back(child, 0);
    } else {
      post_order.push_back(node);
      stack.pop_back();
    }
  }
  std::reverse(post_order.begin(), post_order.end());
  return post_order;
}

}  // namespace

bool should_record(std::initializer_list<const Tensor*> inputs) {
  if (!GradMode::is_enabled()) return false;
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const Tensor* t) { return t->defined() && t->requires_grad(); });
}

void record(const Tensor& result, std::string name, const std::vector<Tensor>& inputs,
            Node::Backward backward, Saves saves) {
  spend_framework(name, FrameworkWork::RecordNode);
  std::vector<autograd::Edge> edges;
  edges.reserve(inputs.size());
  for (const Tensor& input : inputs) {
    autograd::Edge& edge = edges.emplace_back();
    if (!input.defined()) continue;  // an optional argument left out (a bias, say)
    edge.device = input.device();
    edge.dtype = input.scalar_type();
    if (input.grad_fn()) {
      edge.grad_fn = input.grad_fn();
    } else if (input.requires_grad()) {
      edge.leaf = input;
    }
  }
  TensorImpl& impl = result.impl();
  impl.requires_grad = true;
  const bool eager = current_compiled_graph() == nullptr && !dynamo_tracing();
  impl.grad_fn = std::make_shared<Node>(std::move(name), std::move(edges),
                                        within_compiled_graph(std::move(backward)),
                                        saves == Saves::Tensors, eager);
}

Tensor sum_to(const Tensor& grad, IntArrayRef shape) {
  if (grad.sizes() == shape) return grad;
  const std::int64_t lead = grad.dim() - static_cast<std::int64_t>(shape.size());
  std::vector<std::int64_t> dims;
  for (std::int64_t d = 0; d < grad.dim(); ++d) {
    if (d < lead || shape[static_cast<std::size_t>(d - lead)] == 1) dims.push_back(d);
  }
  return grad.sum(dims, true).reshape(shape);
}

void run_backward(const Tensor& root) {
  if (!root.requires_grad()) {
    throw Error("element 0 of tensors does not require grad and does not have a grad_fn");
  }
  if (root.numel() != 1) throw Error("grad can be implicitly created only for scalar outputs");
  run_backward(root, Tensor());
}

void run_backward(const Tensor& root, const Tensor& gradient) {
  NoGradGuard no_grad;  // gradients are computed without recording new nodes
  spend_framework("backward", FrameworkWork::BackwardCall);
  // backward()'s implicit gradient is made after the call's own cost, as PyTorch makes it.
  const Tensor seed = gradient.defined() ? gradient : ones_like(root);
  if (root.is_leaf()) {
    spend_framework("torch::autograd::AccumulateGrad", FrameworkWork::BackwardNode);
    accumulate_into_leaf(root, seed, 1);
    return;
  }
  const std::vector<std::shared_ptr<Node>> order = reverse_topological_order(root.grad_fn());
  std::unordered_map<Node*, Tensor> pending{{order.front().get(), seed}};
  std::unordered_set<const TensorImpl*> accumulated;  // leaves whose AccumulateGrad has run
  for (const std::shared_ptr<Node>& node : order) {
    if (node->released()) {
      throw Error(
          "Trying to backward through the graph a second time (or directly access saved tensors "
          "after they have already been freed). Saved intermediate values of the graph are freed "
          "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
          "backward through the graph a second time or if you need to access saved tensors after "
          "calling backward.");
    }
    const auto it = pending.find(node.get());
    if (it == pending.end()) {  // no gradient reached it (e.g. through integer paths)
      node->release();
      continue;
    }
    // Running a node costs autograd's engine its bookkeeping, beside the kernels it launches.
    if (node->eager()) spend_framework(node->name(), FrameworkWork::BackwardNode);
    std::vector<Tensor> grads = node->apply(it->second);
    pending.erase(it);
    for (std::size_t i = 0; i < grads.size(); ++i) {
      const autograd::Edge& edge = node->edges()[i];
      if (!grads[i].defined() || !edge.leads_anywhere()) continue;
      // A 0-dim cpu operand of an mps operation gets its gradient back on the cpu, and an operand
      // of another dtype its gradient in that dtype (the engine's validate_outputs). Taken out of
      // `grads`, so that a leaf can tell whether anything else still holds it.
      Tensor grad = std::move(grads[i]);
      if (grad.scalar_type() != edge.dtype) grad = grad.to(edge.dtype);
      if (grad.device() != edge.device) grad = grad.to(edge.device);
      if (edge.grad_fn) {
        accumulate(pending, edge.grad_fn.get(), grad);
      } else {
        // PyTorch's engine runs each leaf's AccumulateGrad node once, its gradients summed first.
        if (accumulated.insert(&edge.leaf.impl()).second)
          spend_framework("torch::autograd::AccumulateGrad", FrameworkWork::BackwardNode);
        accumulate_into_leaf(edge.leaf, grad, 1);
      }
    }
    // As PyTorch's engine does without retain_graph: a node's saved tensors and its incoming
    // gradient are freed as soon as it has run, so backward's peak memory stays near forward's.
    node->release();
  }
}

}  // namespace engine::detail

namespace engine::autograd {

Node::~Node() {
  std::vector<std::shared_ptr<Node>> stack;
  release_into(stack);
  while (!stack.empty()) {
    const std::shared_ptr<Node> node = std::move(stack.back());
    stack.pop_back();
    node->release_into(stack);
  }  // each node is freed here, at the end of its turn, with nothing below it left to free
}

void Node::release_into(std::vector<std::shared_ptr<Node>>& stack) {
  // The saved tensors first: a saved input's node is also its edge's, so this frees no node.
  backward_ = nullptr;
  for (Edge& edge : edges_) {
    if (edge.grad_fn.use_count() == 1) stack.push_back(std::move(edge.grad_fn));
    edge.grad_fn.reset();
  }
}

}  // namespace engine::autograd
