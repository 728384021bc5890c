// lab_versions: writes a lab's other versions for the build, read through harness/lab_source.h
// (the parser the course command and the proofs use too).
//   lab_versions decoy SOLUTION DECOY.md OUTPUT   writes the decoy's lab.cpp: the solution with
//                                                 the change DECOY.md describes (a file already
//                                                 holding it is left alone, so it is not rebuilt)
//   lab_versions hints STARTER HINTS.md OUTPUT    writes the starter with the code of the hints
//                                                 in place of the TODO lines each names (```cpp
//                                                 TODO 1.2), which the build compiles
//   lab_versions decoy-files SOLUTION_DIR DECOY.md OUTPUT_DIR FILE...
//                                                 a lab of several files (lab 9's kernels):
//                                                 writes each FILE of the solution's folder to
//                                                 OUTPUT_DIR, with the change DECOY.md describes
//   lab_versions snapshot LAB.cpp OUTPUT          writes the copy of a learner's lab.cpp that the
//                                                 build compiles, with its digest
//                                                 (harness/learner_source.h), when the file's
//                                                 bytes differ from the copy's; run by every build
// Exit status: 0 done, 1 a lab file is wrong (the message says where), 2 a usage error.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "harness/lab_source.h"
#include "harness/learner_source.h"

namespace {

namespace fs = std::filesystem;

// Writes `code` to `output`, unless the file holds it already (so that it is not rebuilt).
void write_unless_same(const std::string& code, const fs::path& output) {
  if (fs::exists(output) && harness::read_lab_file(output) == code) return;
  fs::create_directories(output.parent_path());
  std::ofstream(output, std::ios::binary) << code;
}

// `file` as the generated code's first line names it: from the folder the build runs the tool in
// (the course's top folder), "labs/01_preflight/hints.md".
std::string shown(const fs::path& file) {
  const fs::path relative = file.lexically_relative(fs::current_path());
  return (relative.empty() || *relative.begin() == ".." ? file : relative).generic_string();
}

int write_hints(const fs::path& starter, const fs::path& hints, const fs::path& output) {
  const std::vector<harness::HintCode> blocks =
      harness::parse_hint_code(harness::read_lab_file(hints), hints.string());
  write_unless_same(
      "// Generated from " + shown(hints) +
          ": the starter with the hints' code in place of its TODO lines.\n" +
          harness::apply_hint_code(blocks, harness::read_lab_file(starter), hints.string()),
      output);
  return 0;
}

int write_decoy(const fs::path& solution, const fs::path& spec_file, const fs::path& output) {
  const harness::DecoySpec spec =
      harness::parse_decoy(harness::read_lab_file(spec_file), spec_file.string());
  const std::string code =
      "// Generated from " + shown(spec_file) + ": the reference solution with one mistake.\n" +
      harness::apply_decoy(spec, harness::read_lab_file(solution), spec_file.string());
  write_unless_same(code, output);
  return 0;
}

int write_decoy_files(const fs::path& solution, const fs::path& spec_file, const fs::path& output,
                      const std::vector<std::string>& names) {
  const harness::DecoySpec spec =
      harness::parse_decoy(harness::read_lab_file(spec_file), spec_file.string());
  std::map<std::string, std::string> files;
  for (const std::string& name : names) files[name] = harness::read_lab_file(solution / name);
  for (const auto& [name, text] :
       harness::apply_decoy_to_files(spec, std::move(files), spec_file.string()))
    write_unless_same(text, output / name);
  return 0;
}

int write_snapshot(const fs::path& lab_file, const fs::path& output) {
  write_unless_same(harness::learner_snapshot(harness::read_learner_source(lab_file), lab_file),
                    output);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "decoy" && argc == 5) return write_decoy(argv[2], argv[3], argv[4]);
    if (command == "hints" && argc == 5) return write_hints(argv[2], argv[3], argv[4]);
    if (command == "snapshot" && argc == 4) return write_snapshot(argv[2], argv[3]);
    if (command == "decoy-files" && argc >= 6)
      return write_decoy_files(argv[2], argv[3], argv[4], {argv + 5, argv + argc});
  } catch (const harness::DecoyError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  std::cerr << "usage: lab_versions decoy SOLUTION DECOY.md OUTPUT | hints STARTER HINTS.md "
               "OUTPUT | snapshot LAB.cpp OUTPUT | decoy-files SOLUTION_DIR DECOY.md OUTPUT_DIR "
               "FILE...\n";
  return 2;
}
