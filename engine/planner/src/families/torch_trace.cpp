#include "families/torch_trace.h"

#include <fmt/format.h>

#include <algorithm>

#include "planner/config_error.h"
#include "size_limits.h"

namespace planner {
namespace {

// The trace format this planner reads (python/trace_model.py's TRACE_FORMAT).
constexpr int kFormat = 1;

// The table of every tensor: id -> [shape, dtype], each within the limit of one tensor.
std::unordered_map<std::int64_t, TracedTensor> tensors_of(const nlohmann::json& table) {
  std::unordered_map<std::int64_t, TracedTensor> tensors;
  for (const auto& [key, described] : table.items()) {
    TracedTensor t{std::stoll(key), described.at(0).get<std::vector<std::int64_t>>(),
                   described.at(1).get<std::string>()};
    double elements = 1;
    for (const std::int64_t size : t.shape) {
      if (size < 0) throw std::invalid_argument("a tensor of a negative size");
      elements *= static_cast<double>(size);
    }
    if (elements > limits::kTensorElements) {
      throw std::invalid_argument(fmt::format(
          "a tensor of {:.3g} elements; the planner takes tensors of up to 2^37, 512 GiB in "
          "float32, the memory of the largest Mac",
          elements));
    }
    tensors.emplace(t.id, std::move(t));
  }
  return tensors;
}

std::vector<TracedTensor> tensors_of(const nlohmann::json& ids, const Trace& trace) {
  std::vector<TracedTensor> out;
  for (const auto& id : ids) out.push_back(trace.tensor(id.get<std::int64_t>()));
  return out;
}

std::vector<TracedParameter> parameters_of(const nlohmann::json& j, const Trace& trace,
                                           bool buffers) {
  std::vector<TracedParameter> out;
  for (const auto& p : j) {
    out.push_back({trace.tensor(p.at("id").get<std::int64_t>()), p.at("name").get<std::string>(),
                   !buffers && p.at("requires_grad").get<bool>()});
  }
  return out;
}

// A setting of an optimizer's group, if it is a number (betas: a pair of them).
double number_or(const nlohmann::json& group, const char* key, double fallback) {
  const auto it = group.find(key);
  return it != group.end() && it->is_number() ? it->get<double>() : fallback;
}

void read_optimizer(const nlohmann::json& j, Trace& trace) {
  trace.optimizer = j.at("class").get<std::string>();
  for (const auto& group : j.at("groups")) {
    TracedOptimizerGroup g;
    g.parameters = group.at("params").get<std::vector<std::int64_t>>();
    g.momentum = number_or(group, "momentum", 0);
    g.weight_decay = number_or(group, "weight_decay", 0);
    if (const auto betas = group.find("betas"); betas != group.end() && betas->size() == 2) {
      g.beta1 = (*betas)[0].get<double>();
      g.beta2 = (*betas)[1].get<double>();
    }
    trace.groups.push_back(std::move(g));
  }
}

void read_steps(const nlohmann::json& j, Trace& trace) {
  for (const auto& c : j.at("calls")) {
    trace.calls.push_back({c.at("function").get<std::string>(), c.at("module").get<std::string>(),
                           c.at("arguments"), c.at("keywords"),
                           tensors_of(c.at("outputs"), trace)});
  }
  for (const auto& o : j.at("ops")) {
    TracedOp op{o.at("op").get<std::string>(),     o.at("phase").get<std::string>(),
                o.at("module").get<std::string>(), std::nullopt,
                tensors_of(o.at("inputs"), trace), tensors_of(o.at("outputs"), trace)};
    if (const auto call = o.find("call"); call != o.end()) {
      op.call = call->get<std::size_t>();
      if (*op.call >= trace.calls.size()) throw std::invalid_argument("an operator of no call");
    }
    trace.ops.push_back(std::move(op));
  }
  if (trace.count("forward") > limits::kTracedOperators) {
    throw std::invalid_argument("a forward pass of " + std::to_string(trace.count("forward")) +
                                " operators; a plan runs at most " +
                                std::to_string(limits::kTracedOperators) +
                                ", so that it takes seconds a machine");
  }
}

Trace parse(const nlohmann::json& j) {
  if (j.at("format").get<int>() != kFormat) {
    throw std::invalid_argument("a trace of format " + j.at("format").dump() +
                                "; this planner reads format " + std::to_string(kFormat) +
                                " (is the tracer the course's own?)");
  }
  Trace trace;
  trace.file = j.at("file").get<std::string>();
  trace.torch = j.at("torch").get<std::string>();
  trace.python = j.at("python").get<std::string>();
  trace.model = j.at("model").get<std::string>();
  trace.batch_size = j.at("batch_size").get<std::int64_t>();
  trace.tensors = tensors_of(j.at("tensors"));
  trace.parameters = parameters_of(j.at("parameters"), trace, false);
  trace.buffers = parameters_of(j.at("buffers"), trace, true);
  trace.inputs = tensors_of(j.at("inputs"), trace);
  if (!j.at("targets").is_null()) trace.targets = trace.tensor(j.at("targets").get<std::int64_t>());
  trace.loss = trace.tensor(j.at("loss").get<std::int64_t>());
  read_optimizer(j.at("optimizer"), trace);
  if (const auto clip = j.find("clip_grad_norm"); clip != j.end() && clip->is_number())
    trace.clip_grad_norm = clip->get<double>();
  read_steps(j, trace);
  return trace;
}

}  // namespace

std::int64_t Trace::count(std::string_view phase) const {
  return std::count_if(ops.begin(), ops.end(), [&](const TracedOp& o) { return o.phase == phase; });
}

const TracedTensor& Trace::tensor(std::int64_t id) const { return tensors.at(id); }

Trace read_trace(std::string_view text, const std::string& source) {
  try {
    return parse(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& error) {
    throw ConfigError(source, 0,
                      std::string("the tracer's output is not a trace: ") + error.what());
  } catch (const std::invalid_argument& error) {
    throw ConfigError(source, 0, std::string("the trace holds ") + error.what());
  } catch (const std::out_of_range&) {
    throw ConfigError(source, 0, "the trace names a tensor its table does not hold");
  }
}

}  // namespace planner
