#pragma once
// A lesson as a Jupyter notebook (nbformat 4.5): its Markdown cells, its code cells with what
// they printed on one machine as stream outputs (stdout and stderr in the order printed), and
// each Python twin as a Markdown cell below its code. The metadata names the language (C++)
// but no kernel: a cell is a piece of a compiled lesson program (a TUTOR_CELL), which the
// lesson's executable runs, not a snippet for an interpreter such as xeus-cling.

#include <map>
#include <string>

#include "course.h"
#include "lesson_runs.h"

namespace site {

std::string lesson_notebook(const Lesson& lesson, const std::map<std::string, CellCapture>& outputs,
                            const std::string& machine);

}  // namespace site
