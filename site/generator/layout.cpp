#include "layout.h"

#include <fmt/format.h>

#include <stdexcept>

#include "text.h"

namespace site {
namespace {

std::string machine_switch(const std::vector<const engine::MachineProfile*>& machines) {
  if (machines.empty()) return "";
  std::string options;
  for (const engine::MachineProfile* m : machines) {
    options += fmt::format(R"(<option value="{0}" data-summary="{1}">{0}</option>)",
                           escape(m->name), escape(m->summary));
  }
  return fmt::format(
      R"(<div class="machine-switch"><label for="machine">Machine</label> <select id="machine" title="The simulated computer whose outputs the cells show">{}</select>)"
      R"( <span class="machine-summary" id="machine-summary">{}</span></div>)",
      options, escape(machines.front()->summary));
}

std::string contents(const Page& page, const SiteMap& map) {
  std::string html = R"(<nav class="toc" aria-label="Course contents">)";
  std::string group = "\x01";
  for (const PageEntry& entry : map) {
    if (entry.group != group) {
      if (group != "\x01") html += "</ol>";
      if (!entry.group.empty()) html += "<h2>" + escape(entry.group) + "</h2>";
      html += "<ol>";
      group = entry.group;
    }
    const bool current = entry.page == page.file;
    html += fmt::format(R"(<li{}><a href="{}"{}>{}</a>)", entry.nested ? R"( class="nested")" : "",
                        entry.page, current ? R"( aria-current="page")" : "", escape(entry.title));
    if (current && !page.sections.empty()) {
      html += "<ol class=\"sections\">";
      for (const Heading& section : page.sections) {
        html += fmt::format(R"(<li><a href="#{}">{}</a></li>)", section.id, escape(section.text));
      }
      html += "</ol>";
    }
    html += "</li>";
  }
  return html + "</ol></nav>";
}

std::string pager(std::size_t at, const SiteMap& map) {
  std::string html = R"(<nav class="pager" aria-label="Previous and next">)";
  if (at > 0) {
    html += fmt::format(R"(<a rel="prev" href="{}">← {}</a>)", map[at - 1].page,
                        escape(map[at - 1].title));
  }
  if (at + 1 < map.size()) {
    html += fmt::format(R"(<a rel="next" href="{}">{} →</a>)", map[at + 1].page,
                        escape(map[at + 1].title));
  }
  return html + "</nav>";
}

}  // namespace

std::string layout(const Page& page, const SiteMap& map, const Theme& theme) {
  std::size_t at = 0;
  while (at < map.size() && map[at].page != page.file) ++at;
  if (at == map.size()) throw std::logic_error("page " + page.file + " is not in the site map");
  const std::string course = escape(theme.text("course"));
  const std::string title = at == 0 ? course : escape(map[at].title) + " · " + course;
  return theme.page({{"title", title},
                     {"course", course},
                     {"machine_switch", machine_switch(page.machines)},
                     {"contents", contents(page, map)},
                     {"body", page.body},
                     {"pager", pager(at, map)}});
}

}  // namespace site
