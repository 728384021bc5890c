#pragma once
// The one catalog of the course: its lessons and its labs, in course order, each with its number,
// its name and its title as every program shows them (the course command, the site, the quiz).
// It is read from the files themselves: lessons/NN_topic.cpp, or a lesson in sections
// lessons/NN_topic/ with its shared.h and its NN_S_topic.cpp (lesson_names.h); and
// labs/NN_topic/ with a README.md and a starter/.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace engine::notebook {

struct CatalogEntry {
  std::string number;   // "05"; a section's "08.2"
  std::string name;     // "05_timing_and_synchronization", a lab's key in the progress file
  std::string heading;  // its first heading, as plain text: "Lesson 5 · Timing and synchronization"
  std::string title;    // the heading after its "· ": "Timing and synchronization"
  // lessons/04_cpu_fallback.cpp; a lesson in sections: its shared.h; a section:
  // lessons/08_nanogpt_on_the_m3_max/08_2_compile_and_long_runs.cpp; labs/05_timing/README.md
  std::filesystem::path file;
  std::vector<CatalogEntry> sections{};  // a lesson in sections: each, in order
  // A lab: the number of the lesson it follows, from its README's "After lesson 9." ("08_whole_step"
  // follows lesson 09); its own number where the README does not say.
  std::string after_lesson{};

  // The numbers of the programs that make up a lesson: its own, or its sections' ("08.1", ...).
  std::vector<std::string> program_numbers() const;
};

struct CourseCatalog {
  std::vector<CatalogEntry> lessons;
  std::vector<CatalogEntry> labs;

  const CatalogEntry* lesson(std::string_view number) const;
  const CatalogEntry* section(std::string_view number) const;  // "08.2"
  const CatalogEntry* lab(std::string_view number) const;
};

// The catalog of the course in `top`. A lesson that does not parse is listed with its name as
// its title; running it says what is wrong.
CourseCatalog read_catalog(const std::filesystem::path& top);

// The first heading of some Markdown as plain text ("" if it has none), and the part of a heading
// after its "· " (the whole heading if it has none).
std::string first_heading(std::string_view markdown);
std::string title_of(const std::string& heading);

}  // namespace engine::notebook
