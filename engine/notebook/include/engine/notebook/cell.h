#pragma once
// TUTOR_CELL("claim") { ... } makes the body of a lesson's code cell a doctest test case whose
// name is the claim the cell demonstrates. The notebook runtime runs it in a fresh simulated
// process, captures what it prints and compares that with the documented output below the
// cell; CHECKs inside the body work as in any doctest test.
//
//   // %% sanity_check
//   TUTOR_CELL("the sanity check picks mps on an available Mac") {
//     print("selected device:", device);
//   }
//   // %% [output]
//   // selected device: mps

#include <doctest/doctest.h>

namespace engine::notebook {

using CellBody = void (*)();

// Records a cell at static-initialisation time, so the runtime knows every cell of the lesson
// (and the lesson's file) before anything runs.
struct CellRegistration {
  CellRegistration(const char* file, int line, const char* claim);
};

// Runs one cell inside its doctest test case: fresh process, output capture, comparison.
void run_cell(const char* file, int line, CellBody body);

}  // namespace engine::notebook

#define TUTOR_CELL_IMPL(body, registration, claim)                                           \
  static void body();                                                                        \
  static const ::engine::notebook::CellRegistration registration(__FILE__, __LINE__, claim); \
  TEST_CASE(claim) { ::engine::notebook::run_cell(__FILE__, __LINE__, &body); }              \
  static void body()

#define TUTOR_CELL(claim) \
  TUTOR_CELL_IMPL(DOCTEST_ANONYMOUS(TUTOR_CELL_BODY_), DOCTEST_ANONYMOUS(TUTOR_CELL_REG_), claim)
