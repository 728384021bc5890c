#pragma once
// What `course plan` prints: the plan, the batch sweep or the workers sweep, as text laid out for a terminal
// (plan_text.cpp) or as JSON (plan_json.cpp).

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "planner/model_config.h"
#include "planner/prediction.h"

namespace planner {

using Machines = std::vector<const engine::MachineProfile*>;

void print_plan(const ModelConfig& config, const Machines& machines, std::ostream& out,
                std::size_t width);
void print_sweep(const ModelConfig& config, const Machines& machines, std::ostream& out,
                 std::size_t width);
// --sweep workers, for a config with an input pipeline.
void print_workers_sweep(const ModelConfig& config, const Machines& machines, std::ostream& out,
                         std::size_t width);
void print_workers_sweep_json(const ModelConfig& config, const Machines& machines,
                              std::ostream& out);
void print_plan_json(const ModelConfig& config, const Machines& machines, std::ostream& out);
void print_sweep_json(const ModelConfig& config, const Machines& machines, std::ostream& out);

}  // namespace planner
