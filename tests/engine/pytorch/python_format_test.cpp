#include "engine/python_format.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

namespace py = engine::py;

// The expected strings are what Python 3.11 prints for the same values.
TEST_CASE("bools and numbers print as Python's print() shows them") {
  CHECK(py::str(true) == "True");
  CHECK(py::str(false) == "False");
  CHECK(py::str(10) == "10");
  CHECK(py::str(std::int64_t{-3}) == "-3");
  CHECK(py::str(12.0) == "12.0");
  CHECK(py::str(2.5) == "2.5");
  CHECK(py::str(0.1) == "0.1");
  CHECK(py::str(1.1034719944000244) == "1.1034719944000244");
  CHECK(py::str(1e-05) == "1e-05");
  CHECK(py::str(0.0001) == "0.0001");
  CHECK(py::str(1e16) == "1e+16");
  CHECK(py::str(1e15) == "1000000000000000.0");
  CHECK(py::str(-0.0) == "-0.0");
  CHECK(py::str(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(py::str(std::nan("")) == "nan");
  CHECK(py::str(-std::nan("")) == "nan");  // Python never shows a NaN's sign
  CHECK(py::str(2.5f) == "2.5");
}

TEST_CASE("devices and dtypes print as Python shows them") {
  CHECK(py::str(engine::Device("mps")) == "mps");
  CHECK(py::str(engine::kFloat32) == "torch.float32");
  CHECK(py::str(engine::kInt64) == "torch.int64");
}

TEST_CASE("shapes print as Python tuples") {
  CHECK(py::tuple({2, 2}) == "(2, 2)");
  CHECK(py::tuple({32, 128, 768}) == "(32, 128, 768)");
  CHECK(py::tuple({3}) == "(3,)");
  CHECK(py::tuple({}) == "()");
}

TEST_CASE("percentages round like Python's :.0% format") {
  CHECK(py::percent(1.0) == "100%");
  CHECK(py::percent(0.5) == "50%");
  CHECK(py::percent(2.0 / 3.0) == "67%");
  CHECK(py::percent(0.125) == "12%");  // round half to even on the exact binary value
  CHECK(py::percent(0.015) == "2%");
  CHECK(py::percent(0.005) == "0%");
  CHECK(py::percent(0.5, 1) == "50.0%");
}
