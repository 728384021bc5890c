#pragma once
// What the site is made of: the lessons in course order (parsed by the course's own lesson
// parser), the question banks and the labs, each with the page it becomes.

#include <filesystem>
#include <string>
#include <vector>

#include "engine/notebook/lesson_source.h"
#include "quiz/bank.h"
#include "theme.h"

namespace site {

// A lesson's page; a lesson in sections (engine/notebook/lesson_names.h) has one for the file its
// sections share, first, then one for each section.
struct Lesson {
  std::string stem;      // "05_timing_and_synchronization"; a shared file's: its folder's name
  std::string number{};  // "05"; a section's "08.2"
  std::string title{};   // its first heading: "Lesson 5 · Timing ..."
  std::string
      file{};  // below lessons/: "04_cpu_fallback.cpp", "05_timing_and_synchronization/05_1_timing_gpu_work.cpp"
  engine::notebook::LessonSource source{};
  std::string target{};             // the executable built from it: lesson05; none for shared.h
  std::filesystem::path program{};  // the executable's path; empty for shared.h
  std::string page() const { return stem + ".html"; }
};

struct Lab {
  std::string stem;  // "03_fallback_hunt"
  std::string title;
  std::filesystem::path readme;
  std::string page() const { return "lab-" + stem + ".html"; }
};

struct Course {
  std::vector<Lesson> lessons;
  std::vector<quiz::Bank> banks;        // the lessons' self-checks, then the mastery check
  std::filesystem::path labs_overview;  // labs/README.md, if there is one
  std::vector<Lab> labs;                // labs/NN_topic/README.md, in number order
  Theme theme;                          // the pages' frame and words (site/theme/)

  const quiz::Bank* bank(const std::string& name) const;  // "lesson05", "mastery"
  const Lesson* lesson(const std::string& stem) const;
};

// Parses the lessons (throws engine::notebook::FormatError), with the shared file of each lesson
// in sections before its first section, and the banks (quiz::BankError),
// lists the labs of the course (engine/notebook/course_catalog.h) whose folder `labs` is, and
// reads the theme (ThemeError); `programs` is the directory of the lesson executables.
Course load_course(const std::vector<std::filesystem::path>& lesson_files,
                   const std::filesystem::path& programs, const std::filesystem::path& banks,
                   const std::filesystem::path& labs, const std::filesystem::path& theme);

}  // namespace site
