// `course plan` as a terminal shows it: the config's first line and its defaults, then per
// machine a row of the table (the memory beside it where the terminal has room, under it where it
// has not, each number on a line of its own where even the table is too wide) and the verdict;
// or, for --sweep batch, each machine's sweep.

#include <fmt/format.h>

#include "engine/notebook/terminal_text.h"
#include "family_registry.h"
#include "plan_output.h"
#include "planner/recommendation.h"
#include "planner/training_step.h"

namespace planner {
namespace {

using engine::notebook::wrap;

// "10.65M" (or "174.57B"), or the count itself where two decimals of millions would hide it.
std::string millions(std::int64_t count) {
  if (count < 10'000) return std::to_string(count);
  if (count >= 1'000'000'000) return fmt::format("{:.2f}B", static_cast<double>(count) / 1e9);
  return fmt::format("{:.2f}M", static_cast<double>(count) / 1e6);
}

// ", training the last 2 layers and the head (14.18M of them)", where the config freezes some;
// ", training 0.30M of them", where a traced model's frozen parameters do.
std::string frozen_text(const ModelConfig& c) {
  if (c.trainable_layers < 0) {
    const std::int64_t trained = parameter_count(c, true);
    return trained == parameter_count(c) ? ""
                                         : fmt::format(", training {} of them", millions(trained));
  }
  const std::string unit = family_of(c).block_name(c);
  std::string which = "training the head alone";
  if (c.trainable_layers == 1) which = fmt::format("training the last {} and the head", unit);
  if (c.trainable_layers > 1)
    which = fmt::format("training the last {} {}s and the head", c.trainable_layers, unit);
  return fmt::format(", {} ({} of them)", which, millions(parameter_count(c, true)));
}

// At least three significant figures, so that the ratio printed beside short steps can be checked.
std::string ms(std::optional<double> seconds) {
  if (!seconds) return "-";
  const double milliseconds = *seconds * 1e3;
  return fmt::format("{:.{}f}", milliseconds, milliseconds < 10 ? 2 : milliseconds < 100 ? 1 : 0);
}

// Where the step's time goes on mps, where it runs, else on the cpu: "mps step: host 1.21 +
// waiting for the GPU 0.30 ms; GPU busy 0.31 ms, idle 79 %: host-bound". The parts before the ";"
// add up to the step; the GPU works while the host does.
std::string split_text(const Prediction& p) {
  const StepSplit& s = p.mps_split ? *p.mps_split : *p.cpu_split;
  std::vector<std::string> parts;
  if (s.input > 0) parts.push_back("input " + ms(s.input));
  parts.push_back("host " + ms(s.host()));
  if (s.wait_for_gpu > 0) parts.push_back("waiting for the GPU " + ms(s.wait_for_gpu));
  if (!s.on_gpu) parts.push_back("compute " + ms(s.compute));
  std::string text = std::string(s.on_gpu ? "mps" : "cpu") + " step: ";
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : " + ") + parts[i];
  text += " ms";
  if (s.on_gpu)
    text += fmt::format("; GPU busy {} ms, idle {:.0f} %", ms(s.gpu), 100 * s.gpu_idle());
  return text + ": " + s.bound_name();
}

// What hides an input-bound mps step: "input-bound: num_workers = 4 would hide it (a step of
// 98.2 ms) and hold 1.60 GiB more"; or that no number of workers of the sweep `steps` does.
std::string workers_fix_text(const std::vector<WorkersStep>& steps,
                             const std::optional<WorkersStep>& fix) {
  if (!fix) {
    const WorkersStep& most = steps.back();
    return fmt::format(
        "input-bound: even num_workers = {} (the machine's performance cores) leaves the step "
        "waiting for its batches ({} ms); samples that cost less to load (stored smaller, "
        "decoded ahead) would",
        most.num_workers, ms(most.mps.mps_seconds()));
  }
  return fmt::format(
      "input-bound: num_workers = {} would hide it (a step of {} ms, {}), its worker processes "
      "holding {:.2f} GiB of the unified memory",
      fix->num_workers, ms(fix->mps.mps_seconds()), fix->mps.mps_split->bound_name(),
      static_cast<double>(fix->mps.worker_bytes) / (1LL << 30));
}

std::string memory_text(const Prediction& p) {
  const double gib = 1LL << 30;
  switch (p.memory) {
    case MpsMemory::Unavailable:
      return "no MPS";
    case MpsMemory::OutOfMemory:
      return fmt::format("out of memory (limit {:.2f} GiB)", allocator_limit(*p.machine) / gib);
    case MpsMemory::BufferTooLarge:
      return "a tensor too large for Metal";
    case MpsMemory::Unsupported:
      return "an operator MPS does not implement for these sizes";
    case MpsMemory::Raises:
      return "the step raises an error, not for lack of memory";
    case MpsMemory::Swaps:
    case MpsMemory::Fits:
      break;
  }
  const std::string workers =
      p.worker_bytes > 0
          ? fmt::format(" + workers {:.2f}", static_cast<double>(p.worker_bytes) / gib)
          : "";
  return fmt::format("{:.2f}{} of {:.1f} GiB free: {}", static_cast<double>(p.mps_bytes) / gib,
                     workers, static_cast<double>(free_memory(*p.machine)) / gib,
                     p.memory == MpsMemory::Fits ? "fits" : "swaps");
}

// The precision a step runs in, after its description: nothing for float32.
std::string precision_text(const ModelConfig& config) {
  if (config.autocast == "off") return "";
  return ", its forward pass under torch.autocast(dtype=torch." + config.autocast + ")" +
         (config.autocast == "float16" ? " with a GradScaler" : "");
}

// How often the step reads its loss, after its description, and whether it recomputes its
// blocks.
std::string logging_text(const ModelConfig& config) {
  return (config.log_interval == 1
              ? ", the loss read with item() every step"
              : fmt::format(", the loss read with item() every {} steps", config.log_interval)) +
         (config.gradient_checkpointing
              ? ", each " + family_of(config).block_name(config) +
                    " checkpointed (its activations recomputed in the backward pass)"
              : "");
}

// The config's first line and the values it took from defaults.
void print_config(const ModelConfig& config, std::ostream& out, std::size_t width) {
  const Family& family = family_of(config);
  out << wrap(config.name + ": " + family.summary(config) + "; " +
                  millions(parameter_count(config)) + " parameters" + frozen_text(config),
              width);
  for (const std::string& note : family.notes(config)) out << wrap(note, width, "  ", "  ");
  const std::vector<std::string> defaults = defaulted_fields(config);
  if (!defaults.empty()) {
    std::string list;
    for (const std::string& d : defaults) list += (list.empty() ? "" : ", ") + d;
    out << wrap("not in the file, so " + family.defaults_source(config) + ": " + list, width, "  ",
                "  ");
  }
}

// One machine's row: its numbers, its memory and the verdict with its reasons.
void print_row(const ModelConfig& config, const Prediction& p, std::ostream& out, std::size_t width,
               bool table, bool memory_beside) {
  const std::string speedup = p.cpu_seconds() && p.mps_seconds()
                                  ? fmt::format("{:.2f}x", *p.cpu_seconds() / *p.mps_seconds())
                                  : "-";
  if (table) {
    out << fmt::format("{:<20} {:>8} {:>8} {:>9} {:>8}", p.machine->name, ms(p.cpu_seconds()),
                       ms(p.mps_seconds()), ms(p.compiled_seconds), speedup);
  } else {
    out << fmt::format(
        "{}\n  cpu ms      {:>8}\n  mps ms      {:>8}\n  compiled ms {:>8}\n  cpu/mps     {:>8}",
        p.machine->name, ms(p.cpu_seconds()), ms(p.mps_seconds()), ms(p.compiled_seconds), speedup);
  }
  const std::string indent = table ? "     " : "  ";
  out << (memory_beside ? "  " + memory_text(p) + "\n"
                        : "\n" + wrap("mps memory: " + memory_text(p), width, indent, "     "));
  if (p.cpu == CpuRun::Swaps) {
    out << wrap(
        fmt::format("cpu memory: {}, more than the {:.1f} GiB free: swaps", model_state_text(p),
                    static_cast<double>(free_memory(*p.machine)) / (1LL << 30)),
        width, indent, "     ");
  }
  if (p.mps_split || p.cpu_split) out << wrap(split_text(p), width, indent, "     ");
  const std::vector<WorkersStep> workers = input_bound_sweep(config, p);
  const auto fix = measured_workers_fix(config, workers);
  if (!workers.empty()) out << wrap(workers_fix_text(workers, fix), width, indent, "     ");
  const auto recipe = memory_fix(config, p);
  const Recommendation r =
      recommend(p, memory_knobs(config), fix ? &*fix : nullptr, recipe ? &*recipe : nullptr);
  out << wrap("-> " + r.lane + ": " + r.reasons.front(), width, "  ", "     ");
  for (std::size_t i = 1; i < r.reasons.size(); ++i)
    out << wrap(r.reasons[i], width, "     ", "     ");
}

// What bounds the sweep's steps, in runs of batch sizes: "the step is host-bound at batch_size 1
// to 2, GPU-bound at batch_size 4 to 64".
std::string bounds_text(const std::vector<SweepStep>& steps) {
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> runs;
  for (const SweepStep& s : steps) {
    if (!s.mps.mps_split) continue;
    const std::string bound = s.mps.mps_split->bound_name();
    if (runs.empty() || runs.back().first != bound) runs.push_back({bound, {}});
    runs.back().second.push_back(s.batch_size);
  }
  std::string text;
  for (const auto& [bound, sizes] : runs) {
    text += text.empty() ? "the step is " : ", ";
    text += bound + (sizes.size() == 1
                         ? fmt::format(" at batch_size {}", sizes.front())
                         : fmt::format(" at batch_size {} to {}", sizes.front(), sizes.back()));
  }
  return text;
}

// One machine's sweep: a row per batch_size, then the largest that fits without swap.
void print_machine_sweep(const ModelConfig& config, const engine::MachineProfile& machine,
                         std::ostream& out, std::size_t width) {
  const std::vector<SweepStep> steps = sweep_batch(config, machine);
  if (steps.front().mps.memory == MpsMemory::Unavailable ||
      steps.front().mps.memory == MpsMemory::Unsupported) {
    out << wrap("no sweep: " + steps.front().mps.why, width, "  ", "  ");
    return;
  }
  // The memory column beside the numbers where the terminal has room for it (27 columns:
  // "6.09 of 56.0 GiB free: fits"), else under them.
  constexpr std::size_t kNumbers = 30;  // "{:>7} {:>9} {:>10}  "
  const bool memory_beside = width >= kNumbers + 27;
  out << fmt::format("{:>7} {:>9} {:>10}{}\n", "batch", "mps ms", "samples/s",
                     memory_beside ? "  mps memory" : "");
  for (const SweepStep& s : steps) {
    const std::string rate =
        s.mps.mps_seconds() ? fmt::format("{:.1f}", samples_per_second(config, s)) : "-";
    out << fmt::format("{:>7} {:>9} {:>10}", s.batch_size, ms(s.mps.mps_seconds()), rate);
    if (memory_beside) {
      out << "  " << wrap(memory_text(s.mps), width - kNumbers, "", std::string(kNumbers, ' '));
    } else {
      out << "\n" << wrap("mps memory: " + memory_text(s.mps), width, "    ", "      ");
    }
  }
  for (const SweepStep& s : steps) {
    if (s.mps.memory == MpsMemory::Raises)
      out << wrap(fmt::format("batch_size {} raises: {}", s.batch_size, s.mps.why), width, "  ",
                  "    ");
  }
  if (steps.back().mps.memory == MpsMemory::Raises) {
    out << wrap("the sweep stops where two batch sizes in a row raise", width, "  ", "  ");
    return;
  }
  out << wrap(bounds_text(steps), width, "  ", "  ");
  const auto largest = largest_without_swap(steps);
  const bool capped = steps.back().mps.memory == MpsMemory::Fits;  // never swapped
  const Prediction& last = steps.back().mps;
  const bool state_too_large = last.state_bytes > free_memory(machine);
  out << wrap(largest           ? fmt::format("largest batch_size without swap: {}{}", *largest,
                                    capped ? " (the sweep stops there)" : "")
              : state_too_large ? "even batch_size 1 does not fit without swap: " +
                                      model_state_text(last) + ", more than the machine has free"
                                : std::string("even batch_size 1 does not fit without swap"),
              width, "  ", "  ");
}

// One machine's workers sweep: a row per num_workers, then the fewest that hide the input.
void print_machine_workers_sweep(const ModelConfig& config, const engine::MachineProfile& machine,
                                 std::ostream& out, std::size_t width) {
  const std::vector<WorkersStep> steps = sweep_workers(config, machine);
  const Prediction& first = steps.front().mps;
  if (!first.mps_split && first.memory != MpsMemory::Raises) {
    out << wrap("no sweep: " + first.why, width, "  ", "  ");
    return;
  }
  // "{:>7} {:>9} {:>9}  {:<13}": the numbers and the bound, then the memory where it fits
  constexpr std::size_t kNumbers = 42;
  const bool memory_beside = width >= kNumbers + 43;
  // the bound padded to the memory's column where the memory is beside it
  const std::size_t bound_width = memory_beside ? 13 : 0;
  out << fmt::format("{:>7} {:>9} {:>9}  {:<{}}{}\n", "workers", "mps ms", "input ms", "bound",
                     bound_width, memory_beside ? "  mps memory" : "");
  for (const WorkersStep& s : steps) {
    const auto& split = s.mps.mps_split;
    out << fmt::format("{:>7} {:>9} {:>9}  {:<{}}", s.num_workers, ms(s.mps.mps_seconds()),
                       split ? ms(split->input) : "-", split ? split->bound_name() : "-",
                       bound_width);
    if (memory_beside) {
      out << "  " << memory_text(s.mps) << "\n";
    } else {
      out << "\n" << wrap("mps memory: " + memory_text(s.mps), width, "    ", "      ");
    }
    if (s.mps.memory == MpsMemory::Raises)
      out << wrap("it raises: " + s.mps.why, width, "    ", "      ");
  }
  const auto fix = workers_hiding_input(steps);
  std::string last = workers_fix_text(steps, fix);
  if (fix && fix->num_workers == 0) last = "the step is not input-bound even without workers";
  if (fix && fix->num_workers > 0)
    last = fmt::format("the fewest workers that keep the step from waiting on its input: {}",
                       fix->num_workers);
  out << wrap(last, width, "  ", "  ");
}

// A sweep: the config, what the sweep does, then each machine's.
void print_sweeps(const ModelConfig& config, const Machines& machines, std::ostream& out,
                  std::size_t width, const std::string& what,
                  void (*print_machine)(const ModelConfig&, const engine::MachineProfile&,
                                        std::ostream&, std::size_t)) {
  print_config(config, out, width);
  out << wrap(what, width);
  for (const engine::MachineProfile* machine : machines) {
    out << "\n" << machine->name << "\n";
    print_machine(config, *machine, out, width);
  }
}

}  // namespace

void print_plan(const ModelConfig& config, const Machines& machines, std::ostream& out,
                std::size_t width) {
  print_config(config, out, width);
  out << wrap(family_of(config).step_description(config) + precision_text(config) +
                  logging_text(config) +
                  ", in milliseconds, as the course's cost model predicts it",
              width)
      << "\n";
  const std::string columns =
      fmt::format("{:<20} {:>8} {:>8} {:>9} {:>8}", "machine", "cpu", "mps", "compiled", "cpu/mps");
  const bool table = width >= columns.size();
  const bool memory_beside = width >= columns.size() + 2 + 32;
  if (table) out << columns << (memory_beside ? "  mps memory" : "") << "\n";
  for (const engine::MachineProfile* machine : machines)
    print_row(config, predict(config, *machine), out, width, table, memory_beside);
}

void print_sweep(const ModelConfig& config, const Machines& machines, std::ostream& out,
                 std::size_t width) {
  print_sweeps(config, machines, out, width,
               "the runbook's batch sweep: batch_size doubled from 1 until the GPU swaps or runs "
               "out of memory; a steady iteration (not compiled) on mps" +
                   precision_text(config) +
                   ", the Metal memory it holds, and what bounds it. That memory grows in heaps, "
                   "as PyTorch's MPS allocator takes it from Metal (a buffer of 10 MiB or more "
                   "goes into a 1 GiB heap), so it rises in steps and can dip where a larger "
                   "batch packs its buffers into fewer heaps",
               print_machine_sweep);
}

void print_workers_sweep(const ModelConfig& config, const Machines& machines, std::ostream& out,
                         std::size_t width) {
  print_sweeps(config, machines, out, width,
               "the DataLoader's workers, doubled from none up to the machine's performance cores "
               "(more only share them): a steady iteration (not compiled) on mps" +
                   precision_text(config) +
                   ", the part of it spent waiting for batches, what bounds it, and the memory "
                   "the GPU and the worker processes hold",
               print_machine_workers_sweep);
}

}  // namespace planner
