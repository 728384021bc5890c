// A lesson whose cells fail fails the site's build: the generator runs a course of one lesson,
// the fixture whose documented output is wrong, and must exit non-zero, naming each failing run,
// while still writing the pages that show how it failed.

#include <doctest/doctest.h>

#include <filesystem>

#include "end_to_end.h"

using namespace end_to_end;
namespace fs = std::filesystem;

TEST_CASE("a cell that fails its check fails the site's build") {
  const fs::path work = scratch("failing_cell");
  fs::create_directories(work / "lessons");
  fs::create_directories(work / "programs");
  fs::copy_file(source("tests/engine/notebook/fixtures/wrong_output_lesson.cpp"),
                work / "lessons/01_wrong_output.cpp");
  fs::create_symlink(program("wrong_output_lesson"), work / "programs/lesson01");

  const Run run = run_program(
      {program("course_site"), "--lesson", (work / "lessons/01_wrong_output.cpp").string(),
       "--programs", (work / "programs").string(), "--banks", source("quizzes/banks"), "--labs",
       source("labs"), "--theme", source("site/theme"), "--output", (work / "html").string(),
       "--work", (work / "runs").string()});
  expect_failure(run);
  expect_text(run, {"cell runs failed their checks, so the site is not published",
                    "lesson 01 cell arithmetic on m3-max-64gb", "lesson 01 cell raises on m1-8gb",
                    "and 13 more"});
  expect_no_text(run, {"cell fine on m3-max-64gb",
                       "cell fine on linux-x86_64"});  // documented there: it passes
  CHECK(fs::exists(work / "html/index.html"));
}
