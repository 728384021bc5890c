// The progress file outlives the course changing (engine/notebook/progress.h, Note [Progress
// versions]): every shape a released course wrote still reads, with nothing lost when it is
// written back; fields and questions this course does not know are kept; a newer version's
// file is read as far as it can be and never written.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/notebook/progress.h"

namespace fs = std::filesystem;
using engine::notebook::parse_progress;
using engine::notebook::Progress;
using engine::notebook::progress_text;

namespace {

const fs::path kFixtures = fs::path(TUTOR_SOURCE_DIR) / "tests/engine/notebook/fixtures/progress";

std::string fixture(const std::string& name) {
  std::ifstream in(kFixtures / name, std::ios::binary);
  REQUIRE_MESSAGE(in, "missing fixture " << name);
  return {std::istreambuf_iterator<char>(in), {}};
}

// What every released shape holds: the first release's records, which the later shapes keep.
void check_first_release(const Progress& p) {
  CHECK(p.lessons_verified.at("01") == "2026-11-21T09:12:40Z");
  CHECK(p.lessons_verified.at("02") == "2026-11-21T09:40:03Z");
  const auto& lesson01 = p.quizzes.at("lesson01");
  CHECK(lesson01.attempts == 2);
  CHECK(lesson01.best_correct == 2);
  CHECK(lesson01.last_seed == 2718281828u);
  // A question that moved to lesson 2's bank since: kept, for the quiz to ignore.
  CHECK(lesson01.last_missed == std::vector<std::string>{"device-index"});
  const auto& mastery = p.quizzes.at("mastery");
  CHECK(mastery.total == 8);  // the mastery check had eight questions then
  CHECK(mastery.passed);
  CHECK(mastery.last_missed == std::vector<std::string>{"honest-timing"});
}

void check_same(const Progress& a, const Progress& b) {
  CHECK(a.lessons_verified == b.lessons_verified);
  CHECK(a.lessons_verified_on == b.lessons_verified_on);
  CHECK(a.unknown == b.unknown);
  REQUIRE(a.quizzes.size() == b.quizzes.size());
  for (const auto& entry : a.quizzes) {  // not a structured binding: clang 14 cannot capture one
    CAPTURE(entry.first);
    const auto& r = entry.second;
    const auto& s = b.quizzes.at(entry.first);
    CHECK((r.attempts == s.attempts && r.best_correct == s.best_correct && r.total == s.total &&
           r.passed == s.passed && r.last_seed == s.last_seed && r.last_missed == s.last_missed &&
           r.unknown == s.unknown));
  }
  REQUIRE(a.labs.size() == b.labs.size());
  for (const auto& entry : a.labs) {
    CAPTURE(entry.first);
    const auto& r = entry.second;
    const auto& s = b.labs.at(entry.first);
    CHECK((r.passed_at == s.passed_at && r.hints_shown == s.hints_shown && r.unknown == s.unknown));
  }
}

}  // namespace

TEST_CASE("every shape of the progress file that a released course wrote still reads") {
  struct Shape {
    std::string file;
    bool labs, machines, sections;
  };
  for (const Shape& shape : std::vector<Shape>{{"format1_first_release.json", false, false, false},
                                               {"format1_with_labs.json", true, false, false},
                                               {"format1_with_machines.json", true, true, false},
                                               {"format1_with_sections.json", true, true, true}}) {
    CAPTURE(shape.file);
    const Progress p = parse_progress(fixture(shape.file));
    CHECK(p.version == 1);
    CHECK(p.unread.empty());
    CHECK(p.unknown.empty());  // "format" is the first shape's version, not an unknown field
    check_first_release(p);
    CHECK(p.labs.size() == (shape.labs ? 2u : 0u));
    if (shape.labs) {
      CHECK(p.labs.at("01_preflight").passed_at == "2026-11-22T14:05:31Z");
      CHECK(p.labs.at("03_placement").passed_at.empty());
      CHECK(p.labs.at("03_placement").hints_shown == 2);
    }
    CHECK(p.lessons_verified_on.size() == (shape.sections ? 3u : shape.machines ? 1u : 0u));
    if (shape.machines) CHECK(p.lessons_verified_on.at("04") == "m1-8gb");
    if (shape.sections) CHECK(p.lessons_verified_on.at("08.2") == "m3-max-64gb");

    // Written back, it is this course's version and holds the same progress.
    const std::string written = progress_text(p);
    CHECK(written.find("\"version\": 2\n") != std::string::npos);
    CHECK(written.find("\"format\"") == std::string::npos);
    const Progress again = parse_progress(written);
    CHECK(again.version == engine::notebook::kProgressVersion);
    check_same(p, again);
  }
  // The exact text of the newest shape, as this course writes it.
  CHECK(progress_text(parse_progress(fixture("format1_with_sections.json"))) ==
        fixture("version2.json"));
  check_same(parse_progress(fixture("version2.json")),
             parse_progress(fixture("format1_with_sections.json")));
}

TEST_CASE("fields this course does not know are kept where they were and written back") {
  const std::string later = R"({
    "version": 2, "streak": {"days": 3, "since": "2026-12-01"},
    "lessons_verified": {"01": "2026-11-21T10:00:00Z"},
    "quizzes": {"mastery": {"attempts": 1, "best_correct": 11, "total": 12, "passed": true,
                            "last_seed": 9, "last_missed": ["retired-question"],
                            "history": [[11, 12]]}},
    "labs": {"05_timing": {"passed_at": "", "hints_shown": 1, "last_verdict": {"passed": false}}}
  })";
  const Progress p = parse_progress(later);
  CHECK(p.unread.empty());
  CHECK(p.unknown ==
        engine::notebook::UnknownFields{{"streak", R"({"days":3,"since":"2026-12-01"})"}});
  CHECK(p.quizzes.at("mastery").unknown.at("history") == "[[11,12]]");
  CHECK(p.quizzes.at("mastery").last_missed == std::vector<std::string>{"retired-question"});
  CHECK(p.labs.at("05_timing").unknown.at("last_verdict") == R"({"passed":false})");
  CHECK(p.labs.at("05_timing").hints_shown == 1);

  Progress changed = p;  // what a command that records does: change a record, write it all
  changed.labs.at("05_timing").hints_shown = 2;
  const Progress again = parse_progress(progress_text(changed));
  check_same(changed, again);
  CHECK(again.labs.at("05_timing").unknown.at("last_verdict") == R"({"passed":false})");
}

TEST_CASE("a newer version's file is read as far as it can be, and never written") {
  // A later course that changed what a quiz record holds, and added a kind of record.
  const std::string newer = R"({
    "version": 3,
    "lessons_verified": {"01": "2026-11-21T10:00:00Z", "02": "a week ago"},
    "quizzes": {"lesson01": {"attempts": {"sittings": 2}, "best_correct": 2, "total": 3},
                "lesson02": {"attempts": 1, "best_correct": 3, "total": 3, "passed": true,
                             "last_seed": 4, "last_missed": []}},
    "badges": ["first-lesson"]
  })";
  const Progress p = parse_progress(newer);
  CHECK(p.version == 3);
  CHECK(p.lessons_verified.size() == 1);
  CHECK(p.quizzes.count("lesson01") == 0);
  CHECK(p.quizzes.at("lesson02").passed);
  CHECK(p.unread == std::vector<std::string>{
                        "lessons_verified.02: \"a week ago\" is not a time such as "
                        "\"2026-11-21T10:00:00Z\"",
                        "quizzes.lesson01.attempts: expected a whole number, found an object"});
  CHECK_THROWS_AS(progress_text(p), std::logic_error);
  // The same mistakes in a file of this course's version make it unreadable.
  std::string current = newer;
  current.replace(current.find("\"version\": 3"), 12, "\"version\": 2");
  CHECK_THROWS_WITH_AS(parse_progress(current), doctest::Contains("lessons_verified.02"),
                       std::invalid_argument);
}

TEST_CASE("what the version says is checked: a number, or the first shape's format 1") {
  CHECK_THROWS_WITH_AS(parse_progress(R"({"lessons_verified": {}, "quizzes": {}})"),
                       "version: missing", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_progress(R"({"version": "2"})"),
                       "version: expected a whole number, found \"2\"", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_progress(R"({"version": 0})"), "version: 0 is out of range 1..1000000",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_progress(R"({"format": 2})"),
                       "format: 2 is not the format this course reads (1)", std::invalid_argument);
  // A later course may write "format" beside "version"; it is kept as a field of its own.
  CHECK(parse_progress(R"({"version": 2, "format": 7})").unknown.at("format") == "7");
  CHECK(parse_progress(R"({"format": 1})").quizzes.empty());  // nothing recorded yet
}
