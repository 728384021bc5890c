// The quiz runner, driven in-process: the banks and their checks, the seeded option order,
// grading and the pass rule, answer sheets, the interactive loop with bad input, and the
// progress file (atomic writes, a corrupt file kept aside).

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bank.h"
#include "commands.h"
#include "engine/notebook/progress.h"
#include "grading.h"
#include "interactive.h"
#include "order.h"
#include "quiz_test_support.h"

namespace fs = std::filesystem;

namespace {

// A bank file alone in a directory of its own (one per process: CTest runs tests in parallel).
fs::path write_bank(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("quiz_test_bank_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / (name + ".toml");
  std::ofstream(file) << text;
  return file;
}

std::string error_of_bank(const std::string& text) {
  try {
    quiz::load_bank(write_bank("broken", text));
  } catch (const quiz::BankError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kGoodQuestion = R"(
[[questions]]
id = "one"
type = "MultipleChoice"
prompt.prompt = "Which?"
prompt.distractors = ["b", "c", "d"]
answer.answer = "a"
context = "Because."
why = ["no b", "no c", "no d"]
lesson = "01_metal_mps_and_unified_memory#device_names"
)";

std::string letters(const std::string& sheet, int wrong_at, int wrong_at_too = -1) {
  std::string out = sheet;
  for (const int i : {wrong_at, wrong_at_too}) {
    if (i < 0) continue;
    char& c = out[static_cast<std::size_t>(2 * i)];
    c = c == 'a' ? 'b' : 'a';
  }
  return out;
}

}  // namespace

TEST_CASE("every bank parses, and every question is well formed and linked to a real cell") {
  const Run check = quiz_run({"check"});
  CHECK(check.status == 0);
  CHECK(check.out.find("7 banks") != std::string::npos);
  for (const fs::path& file : quiz::bank_files(kPaths.banks)) {
    CAPTURE(file);
    const quiz::Bank bank = quiz::load_bank(file);
    CHECK(bank.questions.size() >= 2);
    std::set<std::string> ids;
    for (const quiz::Question& q : bank.questions) {
      CHECK(ids.insert(q.id).second);
      CHECK(q.distractors.size() == 3);
      CHECK(q.why.size() == q.distractors.size());
    }
  }
  CHECK(quiz::load_bank(kPaths.banks / "mastery.toml").questions.size() == 8);
}

TEST_CASE("a malformed bank is refused, naming the file and line") {
  CHECK(error_of_bank("title = \"T\"\n[[questions]\n").find("broken.toml:2: error:") != std::string::npos);
  CHECK(error_of_bank("title = \"T\"\n" + kGoodQuestion + kGoodQuestion).find("duplicate question id 'one'") != std::string::npos);
  const std::string three_whys = "why = [\"no b\", \"no c\", \"no d\"]";
  std::string missing_why = "title = \"T\"\n" + kGoodQuestion;
  missing_why.replace(missing_why.find(three_whys), three_whys.size(), "why = [\"no b\"]");
  CHECK(error_of_bank(missing_why).find("needs a 'why' for each of its 3 distractors, has 1") != std::string::npos);
  std::string two_answers = "title = \"T\"\n" + kGoodQuestion;
  const std::string distractors = "[\"b\", \"c\", \"d\"]";
  two_answers.replace(two_answers.find(distractors), distractors.size(), "[\"a\", \"c\", \"d\"]");
  CHECK(error_of_bank(two_answers).find("two options read the same") != std::string::npos);
  std::string short_answer = "title = \"T\"\n" + kGoodQuestion;
  short_answer.replace(short_answer.find("MultipleChoice"), 14, "ShortAnswer");
  CHECK(error_of_bank(short_answer).find("broken.toml:3: error: question 'one': type must be \"MultipleChoice\"") !=
        std::string::npos);
  CHECK(error_of_bank("[[questions]]\nid = \"x\"\n").find("broken.toml:1: error: missing 'title'") != std::string::npos);
}

TEST_CASE("a bank with a letter beyond ASCII outside a string is a clean error, never undefined behaviour") {
  // U+026C, found by fuzzing: toml++ 3.3 reaches __builtin_unreachable on it (marzer/tomlplusplus#295).
  const std::string letter = "\xc9\xac";
  for (const std::string& line : {letter + " = 1", "x" + letter + " = 1", "title2 = " + letter, "a = [1, " + letter + "]",
                                  "b = \"\"\"x\"\"\"\"" + letter, "c = 'x'" + letter}) {
    CAPTURE(line);
    CHECK(error_of_bank("title = \"T\"\n" + line + "\n" + kGoodQuestion)
              .find("broken.toml:2: error: a character beyond ASCII outside a string or comment") != std::string::npos);
  }
  // In strings and comments it is welcome.
  const fs::path fine =
      write_bank("unicode", "title = \"T " + letter + "\"  # " + letter + "\n" + kGoodQuestion + "\n# '''" + letter + "\n");
  CHECK(quiz::load_bank(fine).title == "T " + letter);
}

TEST_CASE("a lesson link that names no cell is reported by quiz check") {
  std::string text = "title = \"T\"\n" + kGoodQuestion;
  text.replace(text.find("#device_names"), 13, "#no_such_cell");
  const fs::path bank = write_bank("dangling", text);
  std::istringstream in;
  std::ostringstream out, err;
  const quiz::Paths paths{bank.parent_path(), kPaths.lessons, kPaths.lesson_programs};
  CHECK(quiz::run({"check"}, in, out, err, paths) == 1);
  CHECK(err.str().find("dangling.toml:3: error: question 'one': lesson 01_metal_mps_and_unified_memory has no code cell "
                       "named 'no_such_cell'") != std::string::npos);
}

TEST_CASE("options are shuffled by the seed, the same way every time") {
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "mastery.toml");
  const auto first = quiz::show(bank, 42), again = quiz::show(bank, 42), other = quiz::show(bank, 43);
  bool differs = false;
  for (std::size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].order == again[i].order);
    std::vector<int> sorted = first[i].order;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == std::vector<int>{0, 1, 2, 3});
    differs = differs || first[i].order != other[i].order;
  }
  CHECK(differs);
  // The recorded seed-0 order answer sheets refer to:
  std::string key;
  for (const auto& q : quiz::show(bank, 0)) key += std::string(key.empty() ? "" : ",") + quiz::letter_of(q.correct_letter());
  CHECK(key == kMasteryKey);
}

TEST_CASE("passing needs strictly more than 75 %") {
  CHECK_FALSE(quiz::passes(6, 8));
  CHECK(quiz::passes(7, 8));
  CHECK_FALSE(quiz::passes(3, 4));
  CHECK(quiz::passes(3, 3));
  CHECK_FALSE(quiz::passes(0, 0));
}

TEST_CASE("known answer sheets grade to known scores, and the attempt is recorded") {
  ScratchProgress scratch("sheets");
  const Run full = quiz_run({"take", "mastery", "--answers", kMasteryKey});
  CHECK(full.status == 0);
  CHECK(full.out.find("8 of 8 (100 %). Passed") != std::string::npos);
  const Run seven = quiz_run({"take", "mastery", "--answers", letters(kMasteryKey, 4)});
  CHECK(seven.status == 0);
  CHECK(seven.out.find("7 of 8 (88 %). Passed") != std::string::npos);
  const Run six = quiz_run({"take", "mastery", "--answers", letters(kMasteryKey, 4, 6)});
  CHECK(six.status == 1);
  CHECK(six.out.find("6 of 8 (75 %). Not passed yet") != std::string::npos);
  CHECK(six.out.find("Re-run the cell that teaches it: /nonexistent/build/lessons/lesson04 --cell with_fallback") !=
        std::string::npos);
  std::ostringstream report;
  const auto progress = engine::notebook::load_progress(scratch.path, report);
  const auto& record = progress.quizzes.at("mastery");
  CHECK(record.attempts == 3);
  CHECK(record.best_correct == 8);
  CHECK(record.passed);
  CHECK(record.last_missed == std::vector<std::string>{"fallback-diagnosis", "batch-bytes"});
}

TEST_CASE("results come as JSON with every answer and its lesson link") {
  ScratchProgress scratch("json");
  const Run run = quiz_run({"take", "mastery", "--answers", letters(kMasteryKey, 4), "--json"});
  const nlohmann::json result = nlohmann::json::parse(run.out);
  CHECK(result["correct"] == 7);
  CHECK(result["total"] == 8);
  CHECK(result["passed"] == true);
  CHECK(result["seed"] == 0);
  CHECK(result["answers"].size() == 8);
  CHECK(result["answers"][4]["correct"] == false);
  CHECK(result["answers"][4]["lesson"] == "04_cpu_fallback#with_fallback");
}

TEST_CASE("a retry asks only the missed questions and counts the rest as before") {
  ScratchProgress scratch("retry");
  CHECK(quiz_run({"take", "mastery", "--answers", letters(kMasteryKey, 4, 6)}).status == 1);
  const Run retry = quiz_run({"take", "mastery", "--missed", "--answers", "d,a"});  // questions 5 and 7
  CHECK(retry.status == 0);
  CHECK(retry.out.find("8 of 8") != std::string::npos);
  CHECK(quiz_run({"take", "mastery", "--missed", "--answers", "d"}).out.find("missed nothing") != std::string::npos);
}

TEST_CASE("a bad answer sheet is refused with what is wrong") {
  ScratchProgress scratch("bad_sheet");
  const Run short_sheet = quiz_run({"take", "mastery", "--answers", "a,b"});
  CHECK(short_sheet.status == 2);
  CHECK(short_sheet.err.find("the answer sheet has 2 answers for 8 questions") != std::string::npos);
  const Run bad_letter = quiz_run({"take", "mastery", "--answers", "a,b,c,d,e,a,b,c"});
  CHECK(bad_letter.err.find("answer 5 is \"e\"; expected one letter from a to d") != std::string::npos);
  CHECK(!fs::exists(scratch.path));  // nothing recorded
}

TEST_CASE("the interactive quiz re-asks after bad input and never crashes") {
  ScratchProgress scratch("interactive");
  const std::string long_line(100000, 'x');
  const std::string input = "e\n\n" + long_line + "\n\xff\xfe\x80\n  ab  \nc\n" + "B\n";  // then valid answers
  const Run run = quiz_run({"take", "lesson01", "--seed", "7"}, input + "a\nb\n");
  CHECK((run.status == 0 || run.status == 1));
  CHECK(run.out.find("Question 1 of 3") != std::string::npos);
  CHECK(run.out.find("Question 3 of 3") != std::string::npos);
  std::size_t reasks = 0;
  for (std::size_t at = run.out.find("Type one letter"); at != std::string::npos; at = run.out.find("Type one letter", at + 1)) {
    ++reasks;
  }
  CHECK(reasks == 5);  // "e", the empty line, the long line, the raw bytes, "ab"
  CHECK(run.out.find("No answer given.") != std::string::npos);
  CHECK(run.out.find(long_line) == std::string::npos);  // bad input is not echoed back
  CHECK(fs::exists(scratch.path));
}

TEST_CASE("input that ends early, or q, stops the quiz and records nothing") {
  ScratchProgress scratch("ended");
  const Run ended = quiz_run({"take", "mastery"}, "a\nb\n");
  CHECK(ended.status == 3);
  CHECK(ended.out.find("The input ended before the last answer; nothing was recorded.") != std::string::npos);
  const Run quit = quiz_run({"take", "mastery"}, "q\n");
  CHECK(quit.status == 3);
  CHECK(quit.out.find("Stopped; nothing was recorded.") != std::string::npos);
  CHECK(!fs::exists(scratch.path));
}

TEST_CASE("a corrupt progress file is reported, kept aside and never overwritten") {
  ScratchProgress scratch("corrupt");
  std::ofstream(scratch.path) << "{ \"format\": 1, \"lessons_verified\": ";
  const Run run = quiz_run({"take", "mastery", "--answers", kMasteryKey});
  CHECK(run.status == 0);
  CHECK(run.err.find("The progress file " + scratch.path.string() + " could not be read") != std::string::npos);
  std::vector<fs::path> kept;
  for (const auto& entry : fs::directory_iterator(scratch.path.parent_path())) {
    if (entry.path().filename().string().find("progress.json.corrupt-") == 0) kept.push_back(entry.path());
  }
  REQUIRE(kept.size() == 1);
  std::ifstream old(kept.front());
  CHECK(std::string(std::istreambuf_iterator<char>(old), {}) == "{ \"format\": 1, \"lessons_verified\": ");
  std::ostringstream report;
  CHECK(engine::notebook::load_progress(scratch.path, report).quizzes.at("mastery").passed);  // the new file
}

TEST_CASE("progress counts verified lessons and the mastery check") {
  ScratchProgress scratch("progress");
  CHECK(quiz_run({"progress"}).out.find("0 of 6 lessons verified, mastery check not taken yet") != std::string::npos);
  std::ostringstream report;
  engine::notebook::update_progress(scratch.path, report, [](engine::notebook::Progress& p) {
    p.lessons_verified = {{"01", "2026-11-21T10:00:00Z"}, {"02", "2026-11-21T11:00:00Z"}};
  });
  CHECK(quiz_run({"take", "mastery", "--answers", letters(kMasteryKey, 0)}).status == 0);
  CHECK(quiz_run({"progress"}).out.find("2 of 6 lessons verified, mastery check passed 7/8") != std::string::npos);
  const nlohmann::json json = nlohmann::json::parse(quiz_run({"progress", "--json"}).out);
  CHECK(json["lessons_verified"] == std::vector<std::string>{"01", "02"});
  CHECK(json["mastery_passed"] == true);
}

TEST_CASE("lab records survive a round trip, and files from before the labs still load") {
  ScratchProgress scratch("labs");
  std::ofstream(scratch.path) << R"({"format": 1, "lessons_verified": {"01": "2026-11-21T10:00:00Z"}, "quizzes": {}})";
  std::ostringstream report;
  engine::notebook::update_progress(scratch.path, report, [](engine::notebook::Progress& p) {
    p.labs["03_fallback"] = {.passed_at = "2026-11-22T10:00:00Z", .hints_shown = 2};
  });
  const auto progress = engine::notebook::load_progress(scratch.path, report);
  CHECK(report.str().empty());
  CHECK(progress.lessons_verified.count("01") == 1);
  CHECK(progress.labs.at("03_fallback").passed_at == "2026-11-22T10:00:00Z");
  CHECK(progress.labs.at("03_fallback").hints_shown == 2);
}

TEST_CASE("review shows every answer and why each other option is wrong") {
  ScratchProgress scratch("review");
  const Run review = quiz_run({"review", "lesson04"});
  CHECK(review.status == 0);
  CHECK(review.out.find("<- the answer") != std::string::npos);
  std::size_t whys = 0;
  for (std::size_t at = review.out.find("Why not:"); at != std::string::npos; at = review.out.find("Why not:", at + 1)) ++whys;
  CHECK(whys == 9);  // three questions, three wrong options each
}

TEST_CASE("unknown commands and quizzes are usage errors") {
  CHECK(quiz_run({"frobnicate"}).status == 2);
  const Run unknown = quiz_run({"take", "nope"});
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("no quiz named 'nope'; 'quiz list' shows them") != std::string::npos);
  CHECK(quiz_run({"--help"}).out.find("take NAME") != std::string::npos);
}
