// The one catalog of the course (engine/notebook/course_catalog.h), on a course of its own.

#include "engine/notebook/course_catalog.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

struct TemporaryCourse {
  fs::path top;
  TemporaryCourse() {
    std::string pattern = (fs::temp_directory_path() / "catalog-XXXXXX").string();
    top = mkdtemp(pattern.data());
  }
  ~TemporaryCourse() { fs::remove_all(top); }
  TemporaryCourse(const TemporaryCourse&) = delete;
  TemporaryCourse& operator=(const TemporaryCourse&) = delete;
};

}  // namespace

TEST_CASE("the catalog lists lessons and labs in number order, titled by their first heading") {
  const TemporaryCourse course;
  write(course.top / "lessons/02_second.cpp",
        "// %% [markdown]\n// # Lesson 2 · The `second` lesson\n//\n// Prose.\n");
  write(course.top / "lessons/01_first.cpp",
        "// %% [markdown]\n// Before the heading.\n//\n// ## Lesson 1 · *First*\n");
  write(course.top / "lessons/glossary.md", "# Not a lesson\n");
  write(course.top / "lessons/03_no_heading.cpp", "// %% [markdown]\n// No heading here.\n");
  write(course.top / "labs/01_first/README.md", "# Lab 1 · The first lab\n");
  write(course.top / "labs/01_first/starter/lab.cpp", "");
  write(course.top / "labs/02_unfinished/README.md",
        "# Lab 2 · Without a starter, not a lab yet\n");
  write(course.top / "labs/README.md", "# About the labs\n");

  const engine::notebook::CourseCatalog catalog = engine::notebook::read_catalog(course.top);
  REQUIRE(catalog.lessons.size() == 3);
  CHECK(catalog.lessons[0].name == "01_first");
  CHECK(catalog.lessons[0].heading == "Lesson 1 · First");
  CHECK(catalog.lessons[0].title == "First");
  CHECK(catalog.lessons[1].number == "02");
  CHECK(catalog.lessons[1].title == "The second lesson");  // code marks are Markdown, not words
  CHECK(catalog.lessons[2].title == "03_no_heading");
  REQUIRE(catalog.labs.size() == 1);
  CHECK(catalog.labs[0].title == "The first lab");
  CHECK(catalog.labs[0].file == course.top / "labs/01_first/README.md");
  CHECK(catalog.lab("01") == &catalog.labs[0]);
  CHECK(catalog.lesson("04") == nullptr);
}

TEST_CASE("a course with no lessons or labs folder has an empty catalog") {
  const TemporaryCourse course;
  const engine::notebook::CourseCatalog catalog = engine::notebook::read_catalog(course.top);
  CHECK(catalog.lessons.empty());
  CHECK(catalog.labs.empty());
}

TEST_CASE("a lesson in sections is its folder: titled by its shared file, its sections in order") {
  const TemporaryCourse course;
  write(course.top / "lessons/04_long/shared.h",
        "// %% [markdown]\n// # Lesson 4 · A long lesson\n\n// %%\nint shared = 1;\n");
  write(course.top / "lessons/04_long/04_2_second_half.cpp",
        "// %% [markdown]\n// # 4.2 · Later\n");
  write(course.top / "lessons/04_long/04_1_first_half.cpp", "// %% [markdown]\n// # 4.1 · First\n");
  write(course.top / "lessons/04_long/05_1_another_lesson.cpp",
        "// %% [markdown]\n// # 5.1 · No\n");
  write(course.top / "lessons/04_long/helpers.cpp", "// %% [markdown]\n// # Not a section\n");
  write(course.top / "lessons/05_no_shared_file/05_1_x.cpp", "// %% [markdown]\n// # 5.1 · X\n");

  const engine::notebook::CourseCatalog catalog = engine::notebook::read_catalog(course.top);
  REQUIRE(catalog.lessons.size() == 1);
  const engine::notebook::CatalogEntry& lesson = catalog.lessons[0];
  CHECK(lesson.number == "04");
  CHECK(lesson.name == "04_long");
  CHECK(lesson.title == "A long lesson");
  CHECK(lesson.file == course.top / "lessons/04_long/shared.h");
  REQUIRE(lesson.sections.size() == 2);
  CHECK(lesson.sections[0].number == "04.1");
  CHECK(lesson.sections[0].name == "04_1_first_half");
  CHECK(lesson.sections[1].title == "Later");
  CHECK(lesson.sections[1].file == course.top / "lessons/04_long/04_2_second_half.cpp");
  CHECK(lesson.program_numbers() == std::vector<std::string>{"04.1", "04.2"});
  CHECK(catalog.section("04.2") == &lesson.sections[1]);
  CHECK(catalog.section("04.3") == nullptr);
  CHECK(catalog.section("04") == nullptr);
}

TEST_CASE("a lab follows the lesson its README names, or the lesson of its number") {
  const TemporaryCourse course;
  write(course.top / "labs/08_whole_step/README.md",
        "# Lab 8 · The whole step\n\nAfter lesson 9. A loop to repair.\n");
  write(course.top / "labs/08_whole_step/starter/lab.cpp", "");
  write(course.top / "labs/07_decision/README.md",
        "# Lab 7 · A decision\n\nAfter lesson 7, drawing on lessons 3 to 7.\n");
  write(course.top / "labs/07_decision/starter/lab.cpp", "");
  write(course.top / "labs/01_first/README.md", "# Lab 1 · Says nothing of lessons\n");
  write(course.top / "labs/01_first/starter/lab.cpp", "");

  const engine::notebook::CourseCatalog catalog = engine::notebook::read_catalog(course.top);
  REQUIRE(catalog.labs.size() == 3);
  CHECK(catalog.labs[0].after_lesson == "01");
  CHECK(catalog.labs[1].after_lesson == "07");
  CHECK(catalog.labs[2].after_lesson == "09");
}
