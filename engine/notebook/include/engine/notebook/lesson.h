#pragma once
// The one include of a lesson file: the engine, the cell macro and Python-style printing.

#include <fmt/core.h>  // fmt::format; core.h alone keeps every lesson's precompiled header lean

#include "engine/engine.h"
#include "engine/notebook/cell.h"
#include "engine/notebook/doctest_printing.h"
#include "engine/notebook/print.h"

// Lessons mirror Python listings line by line, and print() is how those listings report.
using engine::notebook::print;
