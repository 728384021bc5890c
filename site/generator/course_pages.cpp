#include "course_pages.h"

#include <fmt/format.h>

#include <algorithm>

#include "quiz_html.h"
#include "text.h"

namespace site {

RenderedPage home_page(const Course& course, const std::vector<RenderedPage>& lesson_pages,
                       const std::vector<const engine::MachineProfile*>& machines) {
  const Theme& theme = course.theme;
  // One item per lesson; a lesson in sections lists them inside its own, under its shared page.
  std::string lessons;
  const auto is_section = [&](std::size_t i) {
    return i < course.lessons.size() && course.lessons[i].number.size() > 2;
  };
  for (std::size_t i = 0; i < course.lessons.size(); ++i) {
    const Lesson& lesson = course.lessons[i];
    std::string headings;
    for (const Heading& h : lesson_pages[i].page.sections)
      headings += (headings.empty() ? "" : " · ") + escape(h.text);
    lessons += fmt::format(R"(<li><a href="{}">{}</a>)", lesson.page(), escape(lesson.title));
    if (!headings.empty()) lessons += "<p>" + headings + "</p>";
    if (!is_section(i) && is_section(i + 1)) {
      lessons += R"(<ol class="sections">)";
      continue;
    }
    lessons += "</li>";
    if (is_section(i) && !is_section(i + 1)) lessons += "</ol></li>";
    lessons += "\n";
  }
  std::string labs;
  if (!course.labs.empty()) {
    std::string items;
    for (const Lab& lab : course.labs)
      items += fmt::format(R"(<li><a href="{}">{}</a></li>)", lab.page(), escape(lab.title));
    labs = theme.text("labs", {{"items", items}}) + "\n";
  }
  std::string mastery;
  if (const quiz::Bank* bank = course.bank("mastery")) {
    mastery = theme.text("mastery", {{"title", escape(bank->title)},
                                     {"questions", std::to_string(bank->questions.size())}}) +
              "\n";
  }
  const auto table = [](const std::vector<const engine::MachineProfile*>& listed) {
    std::string html = R"(<table><thead><tr><th>name</th><th>what it is</th></tr></thead><tbody>)";
    for (const engine::MachineProfile* m : listed) {
      html += fmt::format("<tr><td><code>{}</code></td><td>{}</td></tr>", escape(m->name),
                          escape(m->summary));
    }
    return html + "</tbody></table>\n";
  };
  // The other profiles appear in the lessons that compare many Macs at once (lessons 2, 7, 8).
  std::vector<const engine::MachineProfile*> others;
  for (const engine::MachineProfile* m : engine::machines()) {
    if (m->name != "host" && std::find(machines.begin(), machines.end(), m) == machines.end())
      others.push_back(m);
  }
  const std::string body = theme.home(
      {{"course", escape(theme.text("course"))},
       {"lessons", lessons},
       {"labs", labs},
       {"mastery", mastery},
       {"machines", table(machines)},
       {"other_machines", others.empty() ? "" : theme.text("other_machines") + table(others)}});
  std::vector<SearchEntry> search = {
      {theme.text("course"), "Home", "index.html", "lessons labs mastery check machines"}};
  return {Page{.file = "index.html", .body = body}, search};
}

RenderedPage mastery_page(const Course& course, const quiz::Bank& mastery) {
  std::string body = fmt::format(R"(<h1 id="top">{}</h1>)", escape(mastery.title)) +
                     course.theme.text("mastery_intro");
  body += quiz_html(mastery, course);
  std::string text;
  for (const quiz::Question& q : mastery.questions) text += q.prompt + " ";
  return {Page{.file = "mastery.html", .body = body},
          {{mastery.title, mastery.title, "mastery.html", text}}};
}

RenderedPage readme_page(const std::string& file, const std::string& page, const std::string& title,
                         const LinkRewriter& rewrite) {
  PageIds ids;
  const Prose prose = render_prose(read_text(file), ids, rewrite);
  std::vector<Heading> sections;
  for (const Heading& h : prose.headings) {
    if (h.level == 2) sections.push_back(h);
  }
  return {Page{.file = page, .body = prose.html, .sections = sections},
          {{title, title, page, prose.plain_text}}};
}

}  // namespace site
