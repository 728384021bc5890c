#pragma once
// Included by the snapshot the build compiles for a learner's lab.cpp (harness/learner_source.h),
// which declares the digest of the bytes the program is built from; the program reports it when
// its tests have run, for the course to compare with the file on disk. A program built from a
// lab's other versions (the solution, the starter, a decoy) declares none.

namespace harness {

struct BuiltFrom {
  explicit BuiltFrom(const char* digest);
};

}  // namespace harness
