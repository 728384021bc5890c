// lab_versions: writes a lab's other versions for the build, read through harness/lab_source.h
// (the parser the course command and the proofs use too).
//   lab_versions decoy SOLUTION DECOY.md OUTPUT   writes the decoy's lab.cpp: the solution with
//                                                 the change DECOY.md describes (a file already
//                                                 holding it is left alone, so it is not rebuilt)
// Exit status: 0 done, 1 a lab file is wrong (the message says where), 2 a usage error.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "harness/lab_source.h"

namespace {

namespace fs = std::filesystem;

int write_decoy(const fs::path& solution, const fs::path& spec_file, const fs::path& output) {
  const harness::DecoySpec spec =
      harness::parse_decoy(harness::read_lab_file(spec_file), spec_file.string());
  const fs::path shown =
      spec_file.parent_path().parent_path().filename() / "decoys" / spec_file.filename();
  const std::string code =
      "// Generated from labs/" + shown.generic_string() +
      ": the reference solution with one mistake.\n" +
      harness::apply_decoy(spec, harness::read_lab_file(solution), spec_file.string());
  if (fs::exists(output) && harness::read_lab_file(output) == code) return 0;
  fs::create_directories(output.parent_path());
  std::ofstream(output, std::ios::binary) << code;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "decoy" && argc == 5) return write_decoy(argv[2], argv[3], argv[4]);
  } catch (const harness::DecoyError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  std::cerr << "usage: lab_versions decoy SOLUTION DECOY.md OUTPUT\n";
  return 2;
}
