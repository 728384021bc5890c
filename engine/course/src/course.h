#pragma once
// What a subcommand runs in: the layout, the catalog, the learner's progress and the streams.
// Streams are parameters, so the tests drive subcommands in-process.

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "catalog.h"
#include "engine/notebook/progress.h"
#include "engine/notebook/terminal_text.h"
#include "layout.h"

namespace front_door {

class Course {
 public:
  Course(Layout layout, std::istream& in, std::ostream& out, std::ostream& err, bool color);

  const Layout& layout() const noexcept { return layout_; }
  const Catalog& catalog() const noexcept { return catalog_; }
  std::istream& in() noexcept { return in_; }
  std::ostream& out() noexcept { return out_; }
  std::ostream& err() noexcept { return err_; }
  bool color() const noexcept { return color_; }
  std::size_t width() const noexcept { return look_.width; }  // the terminal's columns

  // Text for the learner on out(), wrapped to the terminal's width (COLUMNS, else 80 when out()
  // is no terminal); a continued line starts with `indent`.
  void say(std::string_view text, std::string_view indent = "");
  // Markdown (a hint, a README's section) rendered for the terminal, like the lessons' prose.
  void show_markdown(std::string_view markdown);

  // The learner's progress file; a corrupt one is reported on err() and set aside.
  engine::notebook::Progress progress();
  // Changes the progress file as one update; on failure says so on err() and returns false.
  bool update_progress(const std::function<void(engine::notebook::Progress&)>& change);

  // `path` as the learner types it from the course's folder: "labs/05_timing/lab.cpp".
  std::string shown(const std::filesystem::path& path) const;
  // The course command with `arguments`, as the learner types it: "build/course verify 05".
  std::string command(std::string_view arguments) const;

  // Green or red when colour is on.
  std::string good(std::string_view text) const;
  std::string bad(std::string_view text) const;

 private:
  Layout layout_;
  Catalog catalog_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& err_;
  bool color_;
  engine::notebook::TerminalLook look_;
};

// "Next: ..." with the command that does it, from the progress file.
void print_next_step(Course& course);

}  // namespace front_door
