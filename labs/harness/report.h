#pragma once
// Internal: what the lab runner's main() and its reporter share.

#include <cstddef>
#include <string>

namespace harness {

// `file` relative to the course's top folder when it lies inside it: "labs/05_timing/lab.cpp".
std::string course_path(const char* file);

// What the runner's own options asked of the report: the failed expressions under each
// problem (--details), and the columns to wrap to (--width=N, else the terminal's).
bool show_details();
std::size_t report_width();

// How many tests the run executed (0: the filter matched none) and how many of them failed.
void record_checks(int run, int failed);
int checks_run();

}  // namespace harness
