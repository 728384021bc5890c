#pragma once
// Draws the pictures of the runs into the site: a timeline for every cell that ran GPU work
// on every machine, each compile_shader kernel launch a cell made (lesson 10), and lesson 6's
// memory chart for every machine that ran its sweep.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "course.h"
#include "engine/machine.h"
#include "lesson_runs.h"

namespace site {

struct Picture {
  std::string file;   // relative to the site: "timelines/05_1_timing_gpu_work.warm_up.m1-8gb.svg"
  std::string title;  // the picture's own title
  std::string description;  // what it shows, in words (the image's text alternative)
  std::string note;         // how to see more, shown under it
};

// (lesson stem, machine, cell) -> its pictures
using Pictures = std::map<std::tuple<std::string, std::string, std::string>, std::vector<Picture>>;

Pictures draw_pictures(const std::vector<Lesson>& lessons,
                       const std::vector<LessonCaptures>& captures,
                       const std::vector<const engine::MachineProfile*>& machines,
                       const std::filesystem::path& site);

}  // namespace site
