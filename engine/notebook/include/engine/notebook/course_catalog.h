#pragma once
// The one catalog of the course: its lessons and its labs, in course order, each with its number,
// its name and its title as every program shows them (the course command, the site, the quiz).
// It is read from the files themselves: lessons/NN_topic.cpp, and labs/NN_topic/ with a
// README.md and a starter/.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace engine::notebook {

struct CatalogEntry {
  std::string number;   // "05"
  std::string name;     // "05_timing_and_synchronization", its key in the progress file
  std::string heading;  // its first heading, as plain text: "Lesson 5 · Timing and synchronization"
  std::string title;    // the heading after its "· ": "Timing and synchronization"
  std::filesystem::path
      file;  // lessons/05_timing_and_synchronization.cpp, labs/05_timing/README.md
};

struct CourseCatalog {
  std::vector<CatalogEntry> lessons;
  std::vector<CatalogEntry> labs;

  const CatalogEntry* lesson(std::string_view number) const;
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
