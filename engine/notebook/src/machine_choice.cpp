#include "engine/notebook/machine_choice.h"

#include <vector>

#include "engine/machine.h"
#include "engine/notebook/spelling.h"

namespace engine::notebook {
namespace {

constexpr std::size_t kMostNamed = 4;  // more names than this starting alike: the list is better

std::string either(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace

std::string unknown_machine(std::string_view typed) {
  std::vector<std::string> names, starting;
  for (const MachineProfile* machine : machines()) names.emplace_back(machine->name);
  for (const std::string& name : names) {
    if (!typed.empty() && name.starts_with(typed)) starting.push_back(name);
  }
  const std::string unknown = "unknown machine '" + std::string(typed) + "'";
  if (!starting.empty() && starting.size() <= kMostNamed)
    return unknown + "; did you mean " + either(starting) + "?";
  if (const auto near = nearest_name(typed, names); near && starting.empty())
    return unknown + "; did you mean " + *near + "?";
  return unknown + "; --list-machines lists them all";
}

}  // namespace engine::notebook
