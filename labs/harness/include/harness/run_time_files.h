#pragma once
// The files of a lab that its program reads when it runs, instead of compiling them in: lab 9's
// Metal kernels, which torch.mps.compile_shader compiles as the tests call it. Saving one needs
// no C++ build, only a new run. The build compiles run_time_files.cpp into each version's
// program (tutor_add_run_time_lab in cmake/TutorLabs.cmake) with the folder that version's files
// are in: the learner's lab folder, starter/, solution/ or a decoy's folder in the build tree.
//
// The program reads every file once, as it starts, so that its tests all see one version; the
// learner's program reports the digest of what it read (harness/learner_source.h), which the
// course compares with the files on disk.

#include <filesystem>
#include <string>
#include <string_view>

namespace harness {

struct RunTimeFile {
  std::filesystem::path path;  // where it was read from
  std::string shown;           // from the course's top folder: "labs/09_metal_puzzles/01_map.metal"
  std::string text;
};

// The file `name` ("01_map.metal") of this version, as read when the program started; throws
// DecoyError (harness/lab_source.h) for a name the lab does not have or a file that could not
// be read, saying why.
RunTimeFile run_time_file(std::string_view name);

}  // namespace harness
