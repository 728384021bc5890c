#pragma once
// The pages besides the lessons: the home page (the course at a glance and how to use the
// site), the mastery check, the labs' overview and one page per lab.

#include <filesystem>
#include <string>
#include <vector>

#include "course.h"
#include "lesson_page.h"
#include "prose.h"

namespace site {

// Lesson pages are rendered first: the home page lists their sections.
RenderedPage home_page(const Course& course, const std::vector<RenderedPage>& lesson_pages,
                       const std::vector<const engine::MachineProfile*>& machines);
RenderedPage mastery_page(const Course& course, const quiz::Bank& mastery);
// A README of the labs: Markdown whose relative links `rewrite` turns into the site's.
RenderedPage readme_page(const std::string& file, const std::string& page, const std::string& title,
                         const LinkRewriter& rewrite);

}  // namespace site
