#pragma once
// A lesson's page: its prose, each code cell highlighted with its Python twin, and under each
// cell what it printed on every machine (one block per distinct output, chosen by the page's
// machine switch) with the pictures of that run; then the lesson's self-check.

#include <string>
#include <vector>

#include "course.h"
#include "layout.h"
#include "lesson_runs.h"
#include "pictures.h"
#include "search_index.h"

namespace site {

struct RenderedPage {
  Page page;
  std::vector<SearchEntry> search;
};

struct LessonPageInputs {
  const Lesson& lesson;
  const LessonCaptures& captures;
  const Pictures& pictures;
  const std::vector<const engine::MachineProfile*>& machines;
  const Course& course;
  std::string notebook;          // the lesson's .ipynb, relative to the site
  std::string notebook_machine;  // whose outputs the notebook holds
};

RenderedPage lesson_page(const LessonPageInputs& in);

}  // namespace site
