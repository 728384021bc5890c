#include "quiz_html.h"

#include <fmt/format.h>

#include "prose.h"
#include "quiz/grading.h"
#include "quiz/lesson_links.h"
#include "quiz/order.h"
#include "text.h"

namespace site {
namespace {

constexpr std::uint64_t kFirstAttemptSeed = 1;

// Where a question's `lesson` link leads on the site, and the command that re-runs the cell.
std::string lesson_link_html(const quiz::Question& question, const Course& course) {
  if (question.lesson.empty()) return "";
  const quiz::LessonLink link = quiz::parse_link(question.lesson);
  const Lesson* lesson = course.lesson(link.lesson);
  if (lesson == nullptr) return "";
  return course.theme.text("rerun", {{"page", lesson->page()},
                                     {"cell", escape(link.cell)},
                                     {"lesson", escape(lesson->title)},
                                     {"program", lesson->target}});
}

}  // namespace

std::string quiz_html(const quiz::Bank& bank, const Course& course) {
  const std::vector<quiz::ShownQuestion> shown = quiz::show(bank, kFirstAttemptSeed);
  const int total = static_cast<int>(shown.size());
  std::string html = fmt::format(
      R"(<section class="quiz" id="quiz-{0}" data-quiz="{0}" aria-labelledby="quiz-{0}-title">)"
      "\n"
      R"(<h2 id="quiz-{0}-title">{1}</h2>)"
      "\n{4}\n<form class=\"quiz-form\" data-total=\"{2}\" data-needed=\"{3}\">\n",
      escape(bank.name), escape(bank.title), total, quiz::answers_needed_to_pass(total),
      course.theme.text("quiz_rule",
                        {{"questions", std::to_string(total)},
                         {"plural", total == 1 ? "" : "s"},
                         {"needed", std::to_string(quiz::answers_needed_to_pass(total))},
                         {"bank", escape(bank.name)}}));
  for (const quiz::ShownQuestion& q : shown) {
    const std::string name = bank.name + "-" + q.question->id;
    html += fmt::format(
        R"(<fieldset class="question" data-id="{}"><legend><span class="number">{}.</span> {}</legend>)"
        "\n<ul class=\"options\">\n",
        escape(q.question->id), q.number, inline_html(q.question->prompt));
    for (int letter = 0; letter < q.options(); ++letter) {
      const bool correct = letter == q.correct_letter();
      html += fmt::format(
          R"(<li{}><label><input type="radio" name="{}" value="{}"> <span>{}</span></label>)",
          correct ? R"( data-correct="true")" : "", escape(name), letter,
          inline_html(q.option(letter)));
      if (!correct)
        html += R"(<p class="why" hidden><strong>Why not:</strong> )" + inline_html(q.why(letter)) +
                "</p>";
      html += "</li>\n";
    }
    html +=
        "</ul>\n"
        R"(<p class="context" hidden>)" +
        inline_html(q.question->context) + lesson_link_html(*q.question, course) +
        "</p>\n</fieldset>\n";
  }
  html +=
      R"(<p class="quiz-actions"><button type="submit">Check my answers</button> <button type="button" class="retry" hidden>Try again</button></p>)"
      "\n"
      R"(<p class="score" role="status" aria-live="polite"></p>)"
      "\n</form>\n</section>\n";
  return html;
}

}  // namespace site
