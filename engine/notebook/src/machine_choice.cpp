#include "engine/notebook/machine_choice.h"

#include <algorithm>
#include <ostream>
#include <vector>

#include "engine/machine.h"
#include "engine/notebook/documented_machines.h"
#include "engine/notebook/spelling.h"
#include "engine/notebook/terminal_text.h"

namespace engine::notebook {
namespace {

constexpr std::size_t kMostNamed = 4;  // more names than this starting alike: the list is better

std::string either(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

std::vector<std::string> names_of(std::span<const MachineProfile* const> machines) {
  std::vector<std::string> names;
  for (const MachineProfile* machine : machines) names.emplace_back(machine->name);
  return names;
}

std::vector<std::string> starting_with(const std::vector<std::string>& names,
                                       std::string_view typed) {
  std::vector<std::string> found;
  for (const std::string& name : names) {
    if (!typed.empty() && name.starts_with(typed)) found.push_back(name);
  }
  return found;
}

std::vector<std::string> parts(std::string_view name) {
  std::vector<std::string> found;
  for (std::size_t start = 0; start <= name.size();) {
    const std::size_t dash = std::min(name.find('-', start), name.size());
    found.emplace_back(name.substr(start, dash - start));
    start = dash + 1;
  }
  return found;
}

// The names that have every part of `typed` ("m3-max-30gpu-36gb" is in m3-max-14cpu-30gpu-36gb):
// a configuration named without one of its parts.
std::vector<std::string> having_every_part(const std::vector<std::string>& names,
                                           std::string_view typed) {
  const std::vector<std::string> wanted = parts(typed);
  std::vector<std::string> found;
  for (const std::string& name : names) {
    const std::vector<std::string> have = parts(name);
    if (std::all_of(wanted.begin(), wanted.end(), [&](const std::string& part) {
          return std::find(have.begin(), have.end(), part) != have.end();
        }))
      found.push_back(name);
  }
  return found;
}

}  // namespace

std::string unknown_machine(std::string_view typed) {
  const std::vector<std::string> course = names_of(machines());
  const std::vector<std::string> sold = names_of(apple_silicon_configurations());
  const std::string unknown = "unknown machine '" + std::string(typed) + "'";
  const std::vector<std::string> course_starting = starting_with(course, typed);
  const std::vector<std::string> sold_starting = starting_with(sold, typed);
  if (!course_starting.empty() && course_starting.size() <= kMostNamed) {
    return unknown + "; did you mean " + either(course_starting) + "?" +
           (sold_starting.empty() ? "" : " Every configuration sold: --list-machines");
  }
  if (!sold_starting.empty() && sold_starting.size() <= kMostNamed)
    return unknown + "; did you mean " + either(sold_starting) + "?";
  if (course_starting.empty() && sold_starting.empty()) {
    if (const auto with_parts = having_every_part(sold, typed);
        !with_parts.empty() && with_parts.size() <= kMostNamed)
      return unknown + "; did you mean " + either(with_parts) + "?";
    std::vector<std::string> all = course;
    all.insert(all.end(), sold.begin(), sold.end());
    if (const auto near = nearest_name(typed, all))
      return unknown + "; did you mean " + *near + "?";
  }
  if (!sold_starting.empty() && course_starting.empty()) {
    return unknown + "; " + std::to_string(sold_starting.size()) +
           " configurations sold start so: --list-machines lists them";
  }
  return unknown + "; --list-machines lists them all";
}

// The machines in two groups, those the lessons document first, each summary wrapped beside
// its name (or under it, where the terminal is too narrow for both).
void list_machines(std::ostream& out, std::size_t width) {
  const std::size_t name_column = 2 + 22;
  const bool beside = width >= name_column + 30;
  auto list = [&](const engine::MachineProfile& m) {
    const std::string summary =
        std::string(m.summary) + (&m == &engine::default_machine() ? " [default]" : "");
    if (beside) {
      const std::string lead =
          "  " + std::string(m.name) +
          std::string(name_column - 2 - std::min<std::size_t>(m.name.size(), 21), ' ');
      out << wrap(summary, width, lead, std::string(name_column, ' '));
    } else {
      out << "  " << m.name << '\n' << wrap(summary, width, "      ", "      ");
    }
  };
  out << wrap("Machines the lessons document (--machine NAME):", width);
  for (const engine::MachineProfile* m : documented_machines()) list(*m);
  out << '\n'
      << wrap(
             "Also simulated, each compared with the documented machine closest to it; a run on one "
             "verifies no lesson:",
             width);
  for (const engine::MachineProfile* m : engine::machines()) {
    if (!is_documented(*m)) list(*m);
  }
  out << '\n'
      << wrap(
             "Every Apple-silicon Mac configuration sold, on macOS 15.6.1, also simulated: the chip, "
             "its CPU and GPU cores, the memory (m3-max-14cpu-30gpu-36gb):",
             width);
  // One line per chip variant, its memory sizes in braces: "m3-max-14cpu-30gpu-{36,96}gb".
  std::string variant, sizes;
  const auto flush = [&] {
    if (variant.empty()) return;
    const bool one = sizes.find(',') == std::string::npos;
    out << "  " << variant << (one ? "-" + sizes : "-{" + sizes + "}") << "gb\n";
  };
  for (const engine::MachineProfile* m : engine::apple_silicon_configurations()) {
    const std::string_view name = m->name;
    const std::size_t dash = name.rfind('-');
    const std::string prefix(name.substr(0, dash));
    const std::string memory(name.substr(dash + 1, name.size() - dash - 3));  // "36" of "-36gb"
    if (prefix != variant) {
      flush();
      variant = prefix;
      sizes.clear();
    }
    sizes += (sizes.empty() ? "" : ",") + memory;
  }
  flush();
}

}  // namespace engine::notebook
