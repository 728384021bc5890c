#pragma once
// A question bank as a quiz in the page, graded there by the site's script (theme/course.js)
// as mdbook-quiz does: every wrong option carries its `why`, every question its context and
// the lesson cell that shows its point, and the pass rule is the terminal runner's (more than
// 75 %). The options start in the order the terminal's first attempt shows them.

#include <string>

#include "course.h"
#include "quiz/bank.h"

namespace site {

std::string quiz_html(const quiz::Bank& bank, const Course& course);

}  // namespace site
