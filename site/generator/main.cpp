// course_site: builds the course's static, offline website. See site/README.md.

#define CXXOPTS_NO_REGEX 1
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>
#include <thread>

#include "course.h"
#include "course_pages.h"
#include "engine/notebook/documented_machines.h"
#include "engine/notebook/lesson_names.h"
#include "layout.h"
#include "lesson_page.h"
#include "lesson_runs.h"
#include "notebook_export.h"
#include "pictures.h"
#include "search_index.h"
#include "text.h"

namespace {

namespace fs = std::filesystem;
using namespace site;

// A file in the output directory tells a rebuild that the directory is the site's to replace.
constexpr const char* kMarker = ".course-site";

struct Options {
  std::vector<fs::path> lessons;
  fs::path programs, banks, labs, theme, output, work, depfile;
  std::string notebook_machine;
  unsigned jobs = 1;
};

Options parse_options(int argc, char** argv) {
  cxxopts::Options spec("course_site",
                        "Builds the course's static, offline website from the lessons, their runs, "
                        "the question banks and the labs.\n");
  spec.add_options()("lesson", "a lesson source, in course order (repeat)",
                     cxxopts::value<std::vector<std::string>>(), "FILE")(
      "programs", "the directory of the lesson executables", cxxopts::value<std::string>(), "DIR")(
      "banks", "the directory of the question banks", cxxopts::value<std::string>(), "DIR")(
      "labs", "the labs' directory", cxxopts::value<std::string>(), "DIR")(
      "theme",
      "the directory of style.css, course.js and the pages' templates (page.html, home.html, texts.toml)",
      cxxopts::value<std::string>(),
      "DIR")("output", "where to write the site (replaced as a whole)",
             cxxopts::value<std::string>(), "DIR")("work", "where the lesson runs keep their files",
                                                   cxxopts::value<std::string>(), "DIR")(
      "notebook-machine", "whose outputs the notebooks hold",
      cxxopts::value<std::string>()->default_value(std::string(engine::default_machine().name)),
      "NAME")("depfile", "also write the files the site was built from, as a Makefile rule",
              cxxopts::value<std::string>(),
              "FILE")("jobs", "lesson programs to run at once",
                      cxxopts::value<unsigned>()->default_value(
                          std::to_string(std::max(1u, std::thread::hardware_concurrency()))),
                      "N")("h,help", "show this help");
  const cxxopts::ParseResult parsed = spec.parse(argc, argv);
  if (parsed.count("help") > 0) {
    std::cout << spec.help();
    std::exit(0);
  }
  for (const char* required : {"lesson", "programs", "banks", "labs", "theme", "output", "work"}) {
    if (parsed.count(required) == 0)
      throw std::invalid_argument(std::string("--") + required + " is required");
  }
  Options options;
  for (const std::string& lesson : parsed["lesson"].as<std::vector<std::string>>())
    options.lessons.emplace_back(lesson);
  options.programs = parsed["programs"].as<std::string>();
  options.banks = parsed["banks"].as<std::string>();
  options.labs = parsed["labs"].as<std::string>();
  options.theme = parsed["theme"].as<std::string>();
  options.output = fs::absolute(parsed["output"].as<std::string>());
  options.work = parsed["work"].as<std::string>();
  if (parsed.count("depfile") > 0) options.depfile = parsed["depfile"].as<std::string>();
  options.notebook_machine = parsed["notebook-machine"].as<std::string>();
  options.jobs = parsed["jobs"].as<unsigned>();
  if (engine::find_machine(options.notebook_machine) == nullptr) {
    throw std::invalid_argument("--notebook-machine: unknown machine '" + options.notebook_machine +
                                "'; choose one of: " + engine::machine_names());
  }
  return options;
}

// Empties the output directory, if it is one this program wrote (or is empty).
void prepare_output(const fs::path& output) {
  if (fs::exists(output)) {
    const bool ours = fs::exists(output / kMarker) || fs::is_empty(output);
    if (!ours) {
      throw std::runtime_error(
          output.string() +
          " exists and is not a site this program wrote; choose another --output");
    }
    fs::remove_all(output);
  }
  fs::create_directories(output);
  write_text((output / kMarker).string(), "written by course_site; rebuilt as a whole\n");
}

// Relative links in the labs' Markdown lead to the site's pages for lessons and labs; other
// files of the repository they name are copied next to the pages.
class LinkMap {
 public:
  LinkMap(const Course& course, const Options& options, std::set<fs::path>& inputs)
      : course_(course), options_(options), inputs_(inputs) {}

  LinkRewriter from(const fs::path& markdown_file) {
    return [this, base = markdown_file.parent_path()](const std::string& destination) {
      const auto hash = destination.find('#');
      const std::string fragment = hash == std::string::npos ? "" : destination.substr(hash);
      const fs::path target = fs::weakly_canonical(base / destination.substr(0, hash));
      for (const Lesson& lesson : course_.lessons) {
        if (fs::weakly_canonical(lesson.source.path) == target) return lesson.page() + fragment;
      }
      for (const Lab& lab : course_.labs) {
        if (fs::weakly_canonical(lab.readme) == target) return lab.page() + fragment;
      }
      if (!course_.labs_overview.empty() && fs::weakly_canonical(course_.labs_overview) == target)
        return "labs.html" + fragment;
      const fs::path labs = fs::weakly_canonical(options_.labs);
      const fs::path inside = target.lexically_relative(labs);
      if (fs::is_regular_file(target) && !inside.empty() && *inside.begin() != "..") {
        const fs::path copy = fs::path("labs") / inside;
        fs::create_directories((options_.output / copy).parent_path());
        fs::copy_file(target, options_.output / copy, fs::copy_options::overwrite_existing);
        inputs_.insert(target);
        return copy.generic_string() + fragment;
      }
      std::cerr << "course_site: warning: " << base.string() << ": the link to '" << destination
                << "' leads nowhere on the site\n";
      return std::string();
    };
  }

 private:
  const Course& course_;
  const Options& options_;
  std::set<fs::path>& inputs_;
};

std::uintmax_t directory_bytes(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) bytes += entry.file_size();
  }
  return bytes;
}

void write_depfile(const fs::path& depfile, const fs::path& target,
                   const std::set<fs::path>& inputs) {
  const auto quoted = [](const fs::path& path) {
    std::string text;
    for (const char c : fs::absolute(path).string()) {
      if (c == ' ' || c == '#') text += '\\';
      if (c == '$') text += '$';
      text += c;
    }
    return text;
  };
  std::string rule = quoted(target) + ":";
  for (const fs::path& input : inputs) rule += " \\\n  " + quoted(input);
  write_text(depfile.string(), rule + "\n");
}

// The course's glossary, lessons/glossary.md, found from the lessons' files (a section's is one
// folder further down); empty without lessons.
fs::path glossary_beside(const std::vector<fs::path>& lessons) {
  if (lessons.empty()) return {};
  const fs::path& first = lessons.front();
  const bool section = !engine::notebook::shared_file_of(first).empty();
  return (section ? first.parent_path().parent_path() : first.parent_path()) / "glossary.md";
}

int build(const Options& options) {
  const auto started = std::chrono::steady_clock::now();
  std::set<fs::path> inputs;
  const Course course =
      load_course(options.lessons, options.programs, options.banks, options.labs, options.theme);
  // What the lessons teach with, not this computer nor every chip profile the cost model knows.
  const auto documented = engine::notebook::documented_machines();
  const std::vector<const engine::MachineProfile*> machines(documented.begin(), documented.end());
  std::vector<std::string> machine_names;
  for (const engine::MachineProfile* m : machines) machine_names.emplace_back(m->name);

  prepare_output(options.output);
  RunStatistics statistics;
  const std::vector<LessonCaptures> captures =
      run_lessons(course.lessons, machine_names, options.work, options.jobs, statistics);
  const double run_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const Pictures pictures = draw_pictures(course.lessons, captures, machines, options.output);

  SiteMap map = {{"index.html", "Home", "", false}};
  for (const Lesson& lesson : course.lessons)
    map.push_back({lesson.page(), lesson.title, "Lessons", lesson.number.size() > 2});
  if (!course.labs_overview.empty()) map.push_back({"labs.html", "About the labs", "Labs", false});
  for (const Lab& lab : course.labs) map.push_back({lab.page(), lab.title, "Labs", false});
  const quiz::Bank* mastery = course.bank("mastery");
  if (mastery != nullptr) map.push_back({"mastery.html", mastery->title, "Check", false});
  // The terms the lessons use before explaining them (`lessonNN --glossary` in a terminal).
  const fs::path glossary = glossary_beside(options.lessons);
  if (fs::exists(glossary)) map.push_back({"glossary.html", "Glossary", "Reference", false});

  std::vector<RenderedPage> lesson_pages;
  for (std::size_t i = 0; i < course.lessons.size(); ++i) {
    const Lesson& lesson = course.lessons[i];
    // A program's cells become a notebook; a shared file runs nothing, so it has none.
    const std::string notebook = lesson.target.empty() ? "" : "notebooks/" + lesson.stem + ".ipynb";
    const auto outputs = captures[i].find(options.notebook_machine);
    if (!notebook.empty()) {
      write_text((options.output / notebook).string(),
                 lesson_notebook(lesson,
                                 outputs == captures[i].end() ? std::map<std::string, CellCapture>{}
                                                              : outputs->second,
                                 options.notebook_machine));
    }
    lesson_pages.push_back(lesson_page(
        {lesson, captures[i], pictures, machines, course, notebook, options.notebook_machine}));
    inputs.insert(lesson.source.path);
    if (!lesson.program.empty()) inputs.insert(lesson.program);  // a shared file has none
  }
  std::vector<RenderedPage> pages = {home_page(course, lesson_pages, machines)};
  pages.insert(pages.end(), lesson_pages.begin(), lesson_pages.end());
  LinkMap links(course, options, inputs);
  if (!course.labs_overview.empty()) {
    pages.push_back(readme_page(course.labs_overview.string(), "labs.html", "About the labs",
                                links.from(course.labs_overview)));
    inputs.insert(course.labs_overview);
  }
  for (const Lab& lab : course.labs) {
    pages.push_back(
        readme_page(lab.readme.string(), lab.page(), lab.title, links.from(lab.readme)));
    inputs.insert(lab.readme);
  }
  if (mastery != nullptr) pages.push_back(mastery_page(course, *mastery));
  if (fs::exists(glossary)) {
    pages.push_back(
        readme_page(glossary.string(), "glossary.html", "Glossary", links.from(glossary)));
    inputs.insert(glossary);
  }
  for (const quiz::Bank& bank : course.banks) inputs.insert(bank.path);

  std::vector<SearchEntry> search;
  for (const RenderedPage& page : pages) {
    write_text((options.output / page.page.file).string(), layout(page.page, map, course.theme));
    search.insert(search.end(), page.search.begin(), page.search.end());
  }
  write_text((options.output / "search-index.js").string(), search_index_script(search));
  for (const char* asset : {"style.css", "course.js"}) {
    fs::copy_file(options.theme / asset, options.output / asset,
                  fs::copy_options::overwrite_existing);
    inputs.insert(options.theme / asset);
  }
  for (const fs::path& file : course.theme.files()) inputs.insert(file);
  if (fs::exists(options.labs)) inputs.insert(options.labs);  // a new lab changes the directory
  if (!options.depfile.empty())
    write_depfile(options.depfile, options.output / "index.html", inputs);

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::size_t picture_count = 0;
  for (const auto& [key, list] : pictures) picture_count += list.size();
  const auto notebook_count = std::count_if(course.lessons.begin(), course.lessons.end(),
                                            [](const Lesson& l) { return !l.target.empty(); });
  std::cout << fmt::format(
      "course_site: {} pages, {} pictures and {} notebooks ({:.1f} MB) from {} cell runs in "
      "{:.1f} s ({:.1f} s running and reading the cells)\n",
      pages.size(), picture_count, notebook_count,
      static_cast<double>(directory_bytes(options.output)) / 1e6, statistics.runs, seconds,
      run_seconds);
  if (!statistics.failed_cells.empty()) {  // the pages are written, to show how; the build fails
    std::cerr << fmt::format(
        "course_site: {} cell runs failed their checks, so the site is not published; their "
        "pages in {} say how:\n",
        statistics.failed_cells.size(), options.output.string());
    constexpr std::size_t kListed = 8;
    for (std::size_t i = 0; i < std::min(kListed, statistics.failed_cells.size()); ++i) {
      std::cerr << "  " << statistics.failed_cells[i] << '\n';
    }
    if (statistics.failed_cells.size() > kListed)
      std::cerr << "  and " << statistics.failed_cells.size() - kListed << " more\n";
    return 1;
  }
  std::cout << "Open " << (options.output / "index.html").string() << " in a browser.\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return build(parse_options(argc, argv));
  } catch (const std::invalid_argument& e) {
    std::cerr << "course_site: " << e.what() << "\nTry 'course_site --help'.\n";
    return 2;
  } catch (const cxxopts::exceptions::exception& e) {
    std::cerr << "course_site: " << e.what() << "\nTry 'course_site --help'.\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "course_site: " << e.what() << '\n';
    return 1;
  }
}
