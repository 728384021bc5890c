#pragma once
// A question's `lesson` link ("03_placement_and_one_training_step#mps_device_placement"; in a
// lesson in sections, "08_nanogpt_on_the_m3_max/08_2_compile_and_long_runs#compiled_step"): the
// lesson cell that teaches its point, checked through the lesson format's own parser, and the
// command that re-runs that cell.

#include <filesystem>
#include <string>

namespace quiz {

struct LessonLink {
  std::string lesson;  // "03_placement_and_one_training_step", the file below lessons/ without .cpp
  std::string cell;    // "mps_device_placement"
};

LessonLink parse_link(const std::string& link);
// "" when the lesson file exists and has a code cell of that name; otherwise what is wrong.
std::string check_link(const LessonLink& link, const std::filesystem::path& lessons_dir);
// "build/lessons/lesson03 --cell mps_device_placement" (a section's: lesson08_2), relative to the working directory when
// the lessons were built below it.
std::string rerun_command(const LessonLink& link, const std::filesystem::path& lesson_bin_dir);
// A program's path as the learner types it from the working directory: relative when the
// program is below it ("build/quizzes/quiz"), else whole.
std::string as_typed(const std::filesystem::path& program);

}  // namespace quiz
