#pragma once
// Where the course's pieces are: its sources, its build tree and the programs built there. The
// course command is built for one checkout and one build tree; the tests build other layouts.

#include <filesystem>
#include <string>
#include <vector>

namespace front_door {

struct Layout {
  std::filesystem::path top;              // the course's folder: lessons/, labs/, quizzes/
  std::filesystem::path build;            // the build tree
  std::filesystem::path cmake;            // the cmake program that configured it
  std::filesystem::path ninja;            // when the build tree is Ninja's: ninja, which builds
                                          // a target a tenth of a second sooner than cmake --build
  std::filesystem::path lesson_programs;  // where lessonNN is built
  std::filesystem::path lab_programs;     // where labNN is built; the proofs in proofs/ below it
};

// The layout of the checkout and build tree this program was built in.
Layout built_layout();

}  // namespace front_door
