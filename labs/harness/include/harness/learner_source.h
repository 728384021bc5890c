#pragma once
// What a learner's lab program is built from, and how the course knows that it is their file as
// it is now. The build reads the learner's lab.cpp once and compiles that copy (a snapshot, which
// only the build writes), so a save during the compile cannot leave a program built from one
// version in place of another; the snapshot registers the digest of the bytes it holds
// (harness/built_from.h), the program reports it with its verdict, and the course compares it
// with the digest of the file on disk before it believes the verdict (`course verify`).

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace harness {

// A lab file as the build reads it: its text, and the digest of that text together with every
// file of its lab folder that it includes (lab.h, or a header of the learner's own), however
// deeply ("fnv1a64-0123456789abcdef"). Reads each file once; throws DecoyError for one that is not
// a regular file or cannot be read (harness/lab_source.h).
struct LearnerSource {
  std::string text;
  std::string digest;
};
LearnerSource read_learner_source(const std::filesystem::path& lab_file);

// The files of a lab whose program reads them when it runs instead of compiling them in (lab 9's
// Metal kernels, compiled by torch.mps.compile_shader): each one's text, by name, and the digest
// of them all, which the program reports and the course compares with the files on disk. Reads
// each file once; throws DecoyError for one that is not a regular file or cannot be read.
struct LearnerFiles {
  std::map<std::string, std::string> texts;  // "01_map.metal" -> its text
  std::string digest;
};
LearnerFiles read_learner_files(const std::filesystem::path& folder,
                                const std::vector<std::string>& names);

// The snapshot the build compiles for `source`, read from `lab_file`: a line that registers the
// digest, then the learner's text under a #line that names their file, so that the compiler's
// messages, __FILE__ and the TODO lines point at it.
std::string learner_snapshot(const LearnerSource& source, const std::filesystem::path& lab_file);

// The digest a snapshot registers; empty for text that is no snapshot.
std::string snapshot_digest(std::string_view snapshot);

}  // namespace harness
