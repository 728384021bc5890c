#include "course_pages.h"

#include <fmt/format.h>

#include <algorithm>

#include "quiz_html.h"
#include "text.h"

namespace site {

RenderedPage home_page(const Course& course, const std::vector<RenderedPage>& lesson_pages,
                       const std::vector<const engine::MachineProfile*>& machines) {
  std::string body = R"(<h1 id="top">MPS &amp; Metal for ML on Mac</h1>
<p>How does PyTorch run machine-learning work on Apple GPUs? Each lesson of this course is a C++ program over an emulator of PyTorch's MPS backend. This site shows the lessons with what every code cell printed when the site was built, on every simulated computer: pick one with the switch at the top of a lesson. Pictures of the simulated host and GPU timelines, and of memory filling up, are drawn from the same runs.</p>
<h2 id="lessons">Lessons</h2>
<ol class="overview">)";
  for (std::size_t i = 0; i < course.lessons.size(); ++i) {
    const Lesson& lesson = course.lessons[i];
    body += fmt::format(R"(<li><a href="{}">{}</a>)", lesson.page(), escape(lesson.title));
    std::string sections;
    for (const Heading& h : lesson_pages[i].page.sections) sections += (sections.empty() ? "" : " · ") + escape(h.text);
    body += "<p>" + sections + "</p></li>\n";
  }
  body += "</ol>\n";
  if (!course.labs.empty()) {
    body += R"(<h2 id="labs">Labs</h2><ul>)";
    for (const Lab& lab : course.labs) body += fmt::format(R"(<li><a href="{}">{}</a></li>)", lab.page(), escape(lab.title));
    body += "</ul>\n";
  }
  if (const quiz::Bank* mastery = course.bank("mastery")) {
    body += fmt::format(R"(<h2 id="mastery">{}</h2><p><a href="mastery.html">{} questions</a> on the whole course; more than 75 % passes.</p>)",
                        escape(mastery->title), mastery->questions.size());
  }
  const auto table = [](const std::vector<const engine::MachineProfile*>& listed) {
    std::string html = R"(<table><thead><tr><th>name</th><th>what it is</th></tr></thead><tbody>)";
    for (const engine::MachineProfile* m : listed) {
      html += fmt::format("<tr><td><code>{}</code></td><td>{}</td></tr>", escape(m->name), escape(m->summary));
    }
    return html + "</tbody></table>\n";
  };
  body += R"(<h2 id="machines">The simulated computers</h2><p>The lessons' pages show each cell's output on these:</p>)" + table(machines);
  // The other profiles appear in the lessons that compare many Macs at once (lessons 2, 7, 8).
  std::vector<const engine::MachineProfile*> others;
  for (const engine::MachineProfile* m : engine::machines()) {
    if (m->name != "host" && std::find(machines.begin(), machines.end(), m) == machines.end()) others.push_back(m);
  }
  if (!others.empty()) {
    body += "<p>Cells that compare many Macs at once also run these, with no switch of their own "
            "(<code>lessonNN --machine NAME</code> runs a lesson on any of them):</p>" + table(others);
  }
  body += R"(
<h2 id="offline">This site</h2>
<p>Everything here works offline, from the files in your build tree: <code>cmake --build build --target site</code> runs every lesson on every machine and writes it again. Each lesson's page links its Jupyter notebook. Quizzes are graded in the page; <code>build/quizzes/quiz</code> grades them in the terminal and records your progress.</p>
)";
  std::vector<SearchEntry> search = {{"MPS & Metal for ML on Mac", "Home", "index.html", "lessons labs mastery check machines"}};
  return {Page{.file = "index.html", .body = body}, search};
}

RenderedPage mastery_page(const Course& course, const quiz::Bank& mastery) {
  std::string body = fmt::format(
      R"(<h1 id="top">{}</h1><p>One or two questions on each lesson's ideas. Wrong answers explain themselves and link the lesson cell to see again.</p>)",
      escape(mastery.title));
  body += quiz_html(mastery, course);
  std::string text;
  for (const quiz::Question& q : mastery.questions) text += q.prompt + " ";
  return {Page{.file = "mastery.html", .body = body}, {{mastery.title, mastery.title, "mastery.html", text}}};
}

RenderedPage readme_page(const std::string& file, const std::string& page, const std::string& title,
                         const LinkRewriter& rewrite) {
  PageIds ids;
  const Prose prose = render_prose(read_text(file), ids, rewrite);
  std::vector<Heading> sections;
  for (const Heading& h : prose.headings) {
    if (h.level == 2) sections.push_back(h);
  }
  return {Page{.file = page, .body = prose.html, .sections = sections}, {{title, title, page, prose.plain_text}}};
}

}  // namespace site
