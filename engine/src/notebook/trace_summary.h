#pragma once
// Internal: the trace a lesson writes with --trace. A long training loop records hundreds of
// thousands of per-operation spans (lesson 5's whole trace is 54 MB in full), too many for
// Perfetto to open comfortably, so by default each cell's first spans are kept as recorded and
// the rest are summarised (see trace_summary.cpp); --full-trace keeps every span.

#include <string>

namespace engine::notebook {

// Writes the Chrome trace of everything the simulated processes recorded since tracing
// started. Throws engine::Error when the file cannot be written.
void write_lesson_trace(const std::string& path, bool full);

}  // namespace engine::notebook
