#include "pictures.h"

#include <fmt/format.h>

#include "launch_svg.h"
#include "memory_chart.h"
#include "text.h"
#include "timeline_svg.h"

namespace site {

Pictures draw_pictures(const std::vector<Lesson>& lessons,
                       const std::vector<LessonCaptures>& captures,
                       const std::vector<const engine::MachineProfile*>& machines,
                       const std::filesystem::path& site) {
  Pictures pictures;
  for (std::size_t l = 0; l < lessons.size(); ++l) {
    const Lesson& lesson = lessons[l];
    for (const engine::MachineProfile* machine : machines) {
      const std::string name(machine->name);
      const auto runs = captures[l].find(name);
      if (runs == captures[l].end()) continue;
      for (const auto& [cell, capture] : runs->second) {
        auto& list = pictures[{lesson.stem, name, cell}];
        const std::string stem = lesson.stem + "." + cell + "." + name + ".svg";
        if (!capture.timeline.empty()) {
          const Drawing drawing = draw_timeline(capture.timeline, cell, name);
          const std::string file = "timelines/" + stem;
          write_text((site / file).string(), drawing.svg);
          list.push_back(
              {file, drawing.title, drawing.description,
               fmt::format("Every span in detail: build/lessons/{} --cell {} --machine {} --trace "
                           "{}.json, then open the file in Perfetto (ui.perfetto.dev).",
                           lesson.target, cell, name, cell)});
        }
        for (std::size_t n = 0; n < capture.launches.size(); ++n) {
          const std::string file =
              fmt::format("launches/{}.{}.{}.{}.svg", lesson.stem, cell, name, n + 1);
          const Drawing drawing = draw_launch(capture.launches[n], cell, name);
          write_text((site / file).string(), drawing.svg);
          list.push_back({file, drawing.title, drawing.description,
                          "Drawn from the launch the cell made: its grid and threadgroups, and "
                          "which threads touched device memory."});
        }
        if (lesson.stem == kSweepLesson && cell == kSweepCell) {
          if (const auto sweep = parse_batch_sweep(capture.output)) {
            const std::string file = "charts/" + stem;
            const Drawing drawing = draw_memory_chart(*sweep, *machine);
            write_text((site / file).string(), drawing.svg);
            list.push_back(
                {file, drawing.title, drawing.description,
                 "Drawn from what this run printed and from the machine's profile (its memory and "
                 "the other applications' share)."});
          }
        }
        if (list.empty()) pictures.erase({lesson.stem, name, cell});
      }
    }
  }
  return pictures;
}

}  // namespace site
