#pragma once
// The planner's README with its lines joined by spaces, as its prose reads: what the tests look
// for the plans' numbers in.

#include <fstream>
#include <sstream>
#include <string>

namespace planner_tests {

inline std::string planner_readme_prose() {
  std::ifstream in(TUTOR_SOURCE_DIR "/engine/planner/README.md");
  std::stringstream readme;
  readme << in.rdbuf();
  std::string text = readme.str();
  for (char& c : text) c = c == '\n' ? ' ' : c;
  return text;
}

}  // namespace planner_tests
