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

#include "commands.h"
#include "engine/notebook/progress.h"
#include "engine/notebook/terminal_text.h"
#include "interactive.h"
#include "quiz/bank.h"
#include "quiz/grading.h"
#include "quiz/order.h"
#include "quiz_test_support.h"

namespace fs = std::filesystem;

namespace {

// A bank file alone in a directory of its own.
fs::path write_bank(const std::string& name, const std::string& text) {
  const fs::path dir = scratch_directory("quiz_test_bank_" + name);
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

// Wrapped text as one line: line breaks and the indent after them become one space.
std::string flat(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    out += ' ';
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
  }
  return out;
}

// The sheet with the answers to `ids` changed to another letter.
std::string wrong(std::string sheet, const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    char& c = sheet[sheet.find(id + "=") + id.size() + 1];
    c = c == 'a' ? 'b' : 'a';
  }
  return sheet;
}

}  // namespace

TEST_CASE("every bank parses, and every question is well formed and linked to a real cell") {
  const Run check = quiz_run({"check"});
  CHECK(check.status == 0);
  CHECK(check.out.find("11 banks") != std::string::npos);
  CHECK(check.out.find("no bank's answers stand out by length") != std::string::npos);
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
  CHECK(quiz::load_bank(kPaths.banks / "mastery.toml").questions.size() == 15);
}

TEST_CASE("a malformed bank is refused, naming the file and line") {
  CHECK(error_of_bank("title = \"T\"\n[[questions]\n").find("broken.toml:2: error:") !=
        std::string::npos);
  CHECK(error_of_bank("title = \"T\"\n" + kGoodQuestion + kGoodQuestion)
            .find("duplicate question id 'one'") != std::string::npos);
  const std::string three_whys = "why = [\"no b\", \"no c\", \"no d\"]";
  std::string missing_why = "title = \"T\"\n" + kGoodQuestion;
  missing_why.replace(missing_why.find(three_whys), three_whys.size(), "why = [\"no b\"]");
  CHECK(error_of_bank(missing_why).find("needs a 'why' for each of its 3 distractors, has 1") !=
        std::string::npos);
  std::string two_answers = "title = \"T\"\n" + kGoodQuestion;
  const std::string distractors = "[\"b\", \"c\", \"d\"]";
  two_answers.replace(two_answers.find(distractors), distractors.size(), "[\"a\", \"c\", \"d\"]");
  CHECK(error_of_bank(two_answers).find("two options read the same") != std::string::npos);
  std::string short_answer = "title = \"T\"\n" + kGoodQuestion;
  short_answer.replace(short_answer.find("MultipleChoice"), 14, "ShortAnswer");
  CHECK(error_of_bank(short_answer)
            .find("broken.toml:3: error: question 'one': type must be \"MultipleChoice\"") !=
        std::string::npos);
  CHECK(
      error_of_bank("[[questions]]\nid = \"x\"\n").find("broken.toml:1: error: missing 'title'") !=
      std::string::npos);
  CHECK(error_of_bank("title = \"T\"\nexam = \"yes\"\n" + kGoodQuestion)
            .find("broken.toml:2: error: 'exam' must be true or false") != std::string::npos);
}

TEST_CASE(
    "a bank with a letter beyond ASCII outside a string is a clean error, never undefined behaviour") {
  // U+026C, found by fuzzing: toml++ 3.3 reaches __builtin_unreachable on it (marzer/tomlplusplus#295).
  const std::string letter = "\xc9\xac";
  for (const std::string& line :
       {letter + " = 1", "x" + letter + " = 1", "title2 = " + letter, "a = [1, " + letter + "]",
        "b = \"\"\"x\"\"\"\"" + letter, "c = 'x'" + letter}) {
    CAPTURE(line);
    CHECK(error_of_bank("title = \"T\"\n" + line + "\n" + kGoodQuestion)
              .find("broken.toml:2: error: a character beyond ASCII outside a string or comment") !=
          std::string::npos);
  }
  // In strings and comments it is welcome.
  const fs::path fine = write_bank("unicode", "title = \"T " + letter + "\"  # " + letter + "\n" +
                                                  kGoodQuestion + "\n# \'\'\'" + letter + "\n");
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
  CHECK(
      err.str().find(
          "dangling.toml:3: error: question 'one': lesson 01_metal_mps_and_unified_memory has no code cell "
          "named 'no_such_cell'") != std::string::npos);
}

TEST_CASE("options are shuffled by the seed, the same way every time") {
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "mastery.toml");
  const auto first = quiz::show(bank, 42), again = quiz::show(bank, 42),
             other = quiz::show(bank, 43);
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
  CHECK(quiz::answer_key(quiz::show(bank, 0)) == kMasteryKey);
}

TEST_CASE("passing needs strictly more than 75 %") {
  CHECK_FALSE(quiz::passes(6, 8));
  CHECK(quiz::passes(7, 8));
  CHECK_FALSE(quiz::passes(3, 4));
  CHECK(quiz::passes(3, 3));
  CHECK_FALSE(quiz::passes(0, 0));
  // What the quiz and the site's page tell the learner they need: the fewest that pass.
  for (int total = 1; total <= 1000; ++total) {
    const int needed = quiz::answers_needed_to_pass(total);
    CHECK(quiz::passes(needed, total));
    CHECK_FALSE(quiz::passes(needed - 1, total));
  }
  CHECK(quiz::answers_needed_to_pass(12) == 10);
  CHECK(quiz::answers_needed_to_pass(3) == 3);
  CHECK(quiz::answers_needed_to_pass(5) == 4);
}

TEST_CASE("known answer sheets grade to known scores, and the attempt is recorded") {
  ScratchProgress scratch("sheets");
  const Run full = quiz_run({"take", "mastery", "--answers", kMasteryKey});
  CHECK(full.status == 0);
  CHECK(full.out.find("15 of 15 (100 %). Passed") != std::string::npos);
  const Run ten =
      quiz_run({"take", "mastery", "--answers",
                wrong(kMasteryKey, {"fallback-diagnosis", "worth-it", "memory-tools"})});
  CHECK(ten.status == 0);
  CHECK(ten.out.find("12 of 15 (80 %). Passed") != std::string::npos);
  const Run nine = quiz_run(
      {"take", "mastery", "--answers",
       wrong(kMasteryKey, {"fallback-diagnosis", "batch-bytes", "worth-it", "memory-tools"})});
  CHECK(nine.status == 1);
  CHECK(nine.out.find("11 of 15 (73 %). Not passed yet") != std::string::npos);
  CHECK(
      nine.out.find(
          "Re-run the cell that teaches it:\n      /nonexistent/build/lessons/lesson04 --cell fallback_step_time") !=
      std::string::npos);
  std::ostringstream report;
  const auto progress = engine::notebook::load_progress(scratch.path, report);
  const auto& record = progress.quizzes.at("mastery");
  CHECK(record.attempts == 3);
  CHECK(record.best_correct == 15);
  CHECK(record.passed);
  CHECK(record.last_missed ==
        std::vector<std::string>{"fallback-diagnosis", "batch-bytes", "memory-tools", "worth-it"});
}

TEST_CASE("results come as JSON with every answer and its lesson link") {
  ScratchProgress scratch("json");
  const Run run = quiz_run(
      {"take", "mastery", "--answers", wrong(kMasteryKey, {"fallback-diagnosis"}), "--json"});
  const nlohmann::json result = nlohmann::json::parse(run.out);
  CHECK(result["correct"] == 14);
  CHECK(result["total"] == 15);
  CHECK(result["passed"] == true);
  CHECK(result["seed"] == 0);
  CHECK(result["answers"].size() == 15);
  CHECK(result["answers"][4]["correct"] == false);
  CHECK(result["answers"][4]["lesson"] == "04_cpu_fallback#fallback_step_time");
}

TEST_CASE(
    "a pass is one sitting's: practising the missed questions records nothing and passes nothing") {
  ScratchProgress scratch("one_sitting");
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "mastery.toml");
  std::vector<std::string> every_id;
  for (const quiz::Question& q : bank.questions) every_id.push_back(q.id);
  const Run none = quiz_run({"take", "mastery", "--answers", wrong(kMasteryKey, every_id)});
  CHECK(none.status == 1);
  CHECK(as_one_line(none.out).find(
            "0 of 15 (0 %). Not passed yet: passing needs 12 of 15, more than 75 %.") !=
        std::string::npos);
  // Once, practising the fifteen after this recorded "15 of 15, passed".
  const Run practice = quiz_run({"take", "mastery", "--missed", "--answers", kMasteryKey});
  CHECK(practice.status == 0);  // every practised answer right
  CHECK(as_one_line(practice.out)
            .find("Practice: 15 of 15 right. It is not recorded; passing needs 12 of 15, more than "
                  "75 %, in one sitting of the whole quiz.") != std::string::npos);
  std::ostringstream report;
  const auto record = [&] {
    return engine::notebook::load_progress(scratch.path, report).quizzes.at("mastery");
  };
  CHECK(record().attempts == 1);
  CHECK(record().best_correct == 0);
  CHECK_FALSE(record().passed);
  CHECK(record().last_missed == every_id);  // the sitting's misses, to practise again
  CHECK(quiz_run({"progress"}).out.find("mastery check not passed yet (best 0/15)") !=
        std::string::npos);

  const Run partly = quiz_run(
      {"take", "mastery", "--missed", "--answers", wrong(kMasteryKey, {"stack"}), "--json"});
  CHECK(partly.status == 1);  // a practised answer still wrong
  const nlohmann::json result = nlohmann::json::parse(partly.out);
  CHECK(result["retry_of_missed"] == true);
  CHECK(result["recorded"] == false);
  CHECK(result["passed"] == false);
  CHECK(result["correct"] == 14);
  CHECK(record().attempts == 1);

  CHECK(quiz_run({"take", "mastery", "--answers", kMasteryKey}).status == 0);  // one sitting
  CHECK(record().passed);
  CHECK(quiz_run({"take", "mastery", "--missed", "--answers", "stack=c"})
            .out.find("missed nothing") != std::string::npos);
}

TEST_CASE(
    "the mastery check is an exam: nothing is marked until the last answer, then every question "
    "is reviewed") {
  ScratchProgress scratch("exam");
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "mastery.toml");
  CHECK(bank.exam);
  CHECK_FALSE(quiz::load_bank(kPaths.banks / "lesson04.toml").exam);
  const auto shown = quiz::show(bank, 11);
  std::string input;  // the first question right, every other wrong
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const int answer = shown[i].correct_letter();
    input += std::string(1, quiz::letter_of(i == 0 ? answer : (answer + 1) % 4)) + "\n";
  }
  const Run exam = quiz_run({"take", "mastery", "--seed", "11"}, input);
  CHECK(exam.status == 1);
  CHECK(as_one_line(exam.out).find("Mastery check: 15 questions; passing needs 12 of 15, more than "
                                   "75 %. An exam: nothing is marked until the end, then every "
                                   "question is reviewed.") != std::string::npos);
  // While the questions are asked, no answer is revealed.
  const std::string asked = exam.out.substr(0, exam.out.find("Mastery check: 1 of 15"));
  for (const char* revealing : {"Right.", "Not ", "The answer", "Why not", "✔", "✘"})
    CHECK_MESSAGE(asked.find(revealing) == std::string::npos, revealing);
  // After the last: every question with its prompt, the answer and the explanation.
  const std::string review = flat(exam.out.substr(asked.size()));
  CHECK(review.find("Every question, with its answer:") != std::string::npos);
  CHECK(review.find("Question 1 of 15: stack ✔ " + shown[0].question->prompt +
                    " Your answer, right: ") != std::string::npos);
  for (const quiz::ShownQuestion& q : shown) {
    CAPTURE(q.question->id);
    CHECK(review.find(q.question->context) != std::string::npos);
    if (q.number > 1) {
      CHECK(review.find(std::string("The answer: ") + quiz::letter_of(q.correct_letter()) + ") " +
                        q.option(q.correct_letter())) != std::string::npos);
    }
  }
  // An exam has no feedback at every answer; its practice does.
  const Run each = quiz_run({"take", "mastery", "--feedback", "each"}, input);
  CHECK(each.status == 2);
  CHECK(each.err.find("'mastery' is an exam: it marks nothing until its end (--feedback each is "
                      "for the self-checks, and for practice with --missed)") != std::string::npos);
  const Run practice = quiz_run({"take", "mastery", "--missed", "--seed", "11"}, input);
  CHECK(practice.out.find("Each answer is marked right or wrong at once.") != std::string::npos);
}

TEST_CASE(
    "every attempt shuffles the options anew, and review shows the order of the last sitting") {
  ScratchProgress scratch("orders");
  const std::string fifteen = "a\na\na\na\na\na\na\na\na\na\na\na\na\na\na\n";
  std::ostringstream report;
  const auto last_seed = [&] {
    return engine::notebook::load_progress(scratch.path, report).quizzes.at("mastery").last_seed;
  };
  CHECK(quiz_run({"take", "mastery"}, fifteen).status == 1);
  const std::uint64_t first = last_seed();
  CHECK(quiz_run({"take", "mastery"}, fifteen).status == 1);
  const std::uint64_t second = last_seed();
  CHECK(first != second);  // two draws of a 32-bit seed: equal once in four billion
  // Practice shuffles too, and leaves the sitting's order for review.
  const Run practice = quiz_run({"take", "mastery", "--missed", "--seed", "99"}, fifteen);
  CHECK(as_one_line(practice.out)
            .find("(quiz take mastery --missed --seed 99 shows them in the same order)") !=
        std::string::npos);
  CHECK(last_seed() == second);
  CHECK(as_one_line(quiz_run({"review", "mastery"}).out)
            .find("every question with its answer (options in the order of seed " +
                  std::to_string(second) + ")") != std::string::npos);
}

TEST_CASE("a quiz says how many right answers pass before the first question and with the score") {
  ScratchProgress scratch("pass_mark");
  const Run self_check = quiz_run({"take", "lesson04", "--seed", "2"}, "a\na\na\na\na\n");
  CHECK(as_one_line(self_check.out)
            .find("Lesson 4 self-check: 5 questions; passing needs 4 of 5, more than 75 %. Each "
                  "answer is marked right or wrong at once.") != std::string::npos);
  const std::string score =
      as_one_line(self_check.out.substr(self_check.out.rfind("Lesson 4 self-check: ")));
  CHECK(
      (score.find(" Passed: passing needs 4 of 5, more than 75 %.") != std::string::npos ||
       score.find(" Not passed yet: passing needs 4 of 5, more than 75 %.") != std::string::npos));
  // Every self-check has five questions, so that one slip still passes.
  for (const fs::path& file : quiz::bank_files(kPaths.banks)) {
    const quiz::Bank bank = quiz::load_bank(file);
    CAPTURE(bank.name);
    if (!bank.exam) CHECK(bank.questions.size() == 5);
  }
}

TEST_CASE("a bad answer sheet is refused with what is wrong, and nothing is recorded") {
  ScratchProgress scratch("bad_sheet");
  const auto refused = [](const std::string& sheet) {
    return quiz_run({"take", "mastery", "--answers", sheet});
  };
  const Run positional = refused("c,b,c,c,d,d,a,d,c,d,c,a");
  CHECK(positional.status == 2);
  CHECK(positional.err.find(
            "an answer sheet names the question of each answer, as in stack=b; \"c\" names none") !=
        std::string::npos);
  CHECK(refused("stack=c").err.find(
            "the answer sheet leaves out: unified-memory, built-not-available") !=
        std::string::npos);
  CHECK(refused(kMasteryKey + ",stack=a").err.find("the answer sheet answers 'stack' twice") !=
        std::string::npos);
  CHECK(refused(kMasteryKey + ",gpu=a")
            .err.find("the answer sheet names 'gpu', which is not among the questions asked: "
                      "stack, unified-memory") != std::string::npos);
  std::string bad_letter = kMasteryKey;
  bad_letter.replace(bad_letter.find("honest-timing=d"), 15, "honest-timing=e");
  CHECK(refused(bad_letter)
            .err.find("the answer to 'honest-timing' is \"e\"; expected one letter from a to d") !=
        std::string::npos);
  CHECK(!fs::exists(scratch.path));  // nothing recorded
}

TEST_CASE("an answer sheet grades the same whatever order an earlier attempt used") {
  ScratchProgress scratch("sheet_after_attempt");
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "mastery.toml");
  // An interactive attempt with seed 7 that answers every question with a, recorded.
  const Run attempt =
      quiz_run({"take", "mastery", "--seed", "7"}, "a\na\na\na\na\na\na\na\na\na\na\na\na\na\na\n");
  CHECK(attempt.status == 1);
  CHECK(quiz_run({"take", "mastery", "--answers", kMasteryKey})
            .out.find("15 of 15 (100 %). Passed") != std::string::npos);
  // A sheet in the attempt's own order grades right with that seed.
  CHECK(quiz_run(
            {"take", "mastery", "--seed", "7", "--answers", quiz::answer_key(quiz::show(bank, 7))})
            .out.find("15 of 15 (100 %)") != std::string::npos);
  // review shows that order and says which seed a sheet in it needs.
  CHECK(quiz_run({"review", "mastery", "--seed", "7"}).out.find("needs --seed 7") !=
        std::string::npos);
}

TEST_CASE("the answer key is shown only after passing, or to whoever asks for it by name") {
  ScratchProgress scratch("key");
  const Run early = quiz_run({"key", "mastery"});
  CHECK(early.status == 2);
  CHECK(early.err.find(
            "quiz key shows the answers of mastery once you have passed it; to see them now, add "
            "--reveal-answers") != std::string::npos);
  CHECK(early.out.empty());
  const Run revealed = quiz_run({"key", "mastery", "--reveal-answers"});
  CHECK(revealed.status == 0);
  CHECK(revealed.out == kMasteryKey + "\n");
  CHECK(quiz_run({"take", "mastery", "--answers", wrong(kMasteryKey, {"stack"})}).status ==
        0);  // passed: 14 of 15
  CHECK(quiz_run({"key", "mastery"}).out == kMasteryKey + "\n");
  CHECK(quiz_run({"key", "lesson01"}).status == 2);  // another quiz is not passed yet
}

TEST_CASE("interactive answers are marked right or wrong at once, or all at the end") {
  ScratchProgress scratch("feedback");
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "lesson04.toml");
  const auto shown = quiz::show(bank, 5);
  const char right = quiz::letter_of(shown[0].correct_letter());
  const char wrong_letter = right == 'a' ? 'b' : 'a';
  const std::string input = std::string(1, right) + "\n" + wrong_letter + "\n" + right + "\n" +
                            right + "\n" + right + "\n";
  const Run each = quiz_run({"take", "lesson04", "--seed", "5"}, input);
  const auto question_2 = each.out.find("Question 2 of 5"),
             question_3 = each.out.find("Question 3 of 5");
  REQUIRE(question_3 != std::string::npos);
  CHECK(flat(each.out).find("Right. " + shown[0].question->context) <
        flat(each.out).find("Question 2 of 5"));
  const auto verdict = each.out.find(std::string("Not ") + wrong_letter + ": ", question_2);
  CHECK(verdict < question_3);
  CHECK(each.out.find("The answer is", question_2) < question_3);
  const Run at_end = quiz_run({"take", "lesson04", "--seed", "5", "--feedback", "end"}, input);
  CHECK(at_end.out.find("Right.") == std::string::npos);
  CHECK(at_end.out.find("Why not: ") != std::string::npos);  // the review explains instead
  CHECK(at_end.out.find("Every question, with its answer:") != std::string::npos);
  CHECK(quiz_run({"take", "lesson04", "--feedback", "later"}, input)
            .err.find("--feedback takes each or end") != std::string::npos);
}

TEST_CASE("a retry of missed questions numbers them as that run asks them") {
  ScratchProgress scratch("missed_numbers");
  CHECK(quiz_run(
            {"take", "mastery", "--answers",
             wrong(kMasteryKey, {"fallback-diagnosis", "batch-bytes", "memory-tools", "worth-it"})})
            .status == 1);
  const Run retry = quiz_run({"take", "mastery", "--missed", "--answers",
                              "fallback-diagnosis=a,batch-bytes=b,memory-tools=a,worth-it=a"});
  CHECK(retry.out.find("Question 1 of 4: fallback-diagnosis") != std::string::npos);
  CHECK(retry.out.find("Question 2 of 4: batch-bytes") != std::string::npos);
  CHECK(retry.out.find("of 15:") == std::string::npos);
}

TEST_CASE("a bank whose answers are mostly the longest option fails quiz check") {
  std::string text = "title = \"T\"\n";
  for (const char* id : {"one", "two", "three"}) {
    std::string q = kGoodQuestion;
    q.replace(q.find("\"one\""), 5, std::string("\"") + id + "\"");
    text += q;
  }
  // Two of three answers become the longest option.
  const auto longer = [&](const std::string& id) {
    const std::string answer = "answer.answer = \"a\"";
    text.replace(text.find(answer, text.find("\"" + id + "\"")), answer.size(),
                 "answer.answer = \"a longer answer\"");
  };
  longer("one");
  const quiz::Bank one_of_three = quiz::load_bank(write_bank("length_ok", text));
  CHECK(quiz::longest_answer_questions(one_of_three) == std::vector<std::string>{"one"});
  CHECK(quiz::length_giveaway(one_of_three).empty());
  longer("two");
  const fs::path file = write_bank("length_giveaway", text);
  CHECK(
      quiz::length_giveaway(quiz::load_bank(file)) ==
      "the answer is the longest option in 2 of 3 questions (one, two), so picking the longest option pays; at most "
      "a third may have the longest answer");
  std::istringstream in;
  std::ostringstream out, err;
  CHECK(quiz::run({"check"}, in, out, err,
                  {file.parent_path(), kPaths.lessons, kPaths.lesson_programs}) == 1);
  CHECK(
      err.str().find("length_giveaway.toml:1: error: the answer is the longest option in 2 of 3") !=
      std::string::npos);
}

TEST_CASE("the interactive quiz re-asks after bad input and never crashes") {
  ScratchProgress scratch("interactive");
  const std::string long_line(100000, 'x');
  const std::string input =
      "e\n\n" + long_line + "\n\xff\xfe\x80\n  ab  \nc\n" + "B\n";  // then valid answers
  const Run run = quiz_run({"take", "lesson01", "--seed", "7"}, input + "a\nb\nc\nd\n");
  CHECK((run.status == 0 || run.status == 1));
  CHECK(run.out.find("Question 1 of 5") != std::string::npos);
  CHECK(run.out.find("Question 5 of 5") != std::string::npos);
  std::size_t reasks = 0;
  for (std::size_t at = run.out.find("Type one letter"); at != std::string::npos;
       at = run.out.find("Type one letter", at + 1)) {
    ++reasks;
  }
  CHECK(reasks == 5);  // "e", the empty line, the long line, the raw bytes, "ab"
  CHECK(run.out.find("No answer given.") != std::string::npos);
  CHECK(run.out.find(long_line) == std::string::npos);  // bad input is not echoed back
  CHECK(fs::exists(scratch.path));
}

TEST_CASE("input that ends early, or q, stops the quiz and records nothing, saying where") {
  ScratchProgress scratch("ended");
  const Run ended = quiz_run({"take", "mastery"}, "a\nb\n");
  CHECK(ended.status == 3);
  CHECK(as_one_line(ended.out).find(
            "The input ended at question 3 of 15, after 2 answers; they were not recorded: "
            "a quiz counts only when finished.") != std::string::npos);
  const Run at_once = quiz_run({"take", "mastery"}, "");
  CHECK(at_once.status == 3);
  CHECK(at_once.out.find("The input ended at question 1 of 15; nothing was recorded.\n") !=
        std::string::npos);
  const Run quit = quiz_run({"take", "mastery"}, "q\n");
  CHECK(quit.status == 3);
  CHECK(quit.out.find("Stopped at question 1 of 15; nothing was recorded.\n") != std::string::npos);
  const Run quit_later = quiz_run({"take", "mastery"}, "a\nq\n");
  CHECK(quit_later.status == 3);
  CHECK(as_one_line(quit_later.out)
            .find("Stopped at question 2 of 15, after 1 answer; it was not recorded: a quiz "
                  "counts only when finished.") != std::string::npos);
  CHECK(!fs::exists(scratch.path));
}

TEST_CASE("a wrong letter's message and the progress footer wrap to the terminal") {
  ScratchProgress scratch("narrow");
  const auto narrow = [](const std::vector<std::string>& args, const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out, err;
    quiz::run(args, in, out, err, kPaths, 40);
    return out.str();
  };
  const std::string asked = narrow({"take", "lesson02", "--seed", "3"}, "zz\n");
  const std::string progress = narrow({"progress"}, "");
  CHECK(as_one_line(asked).find("That is not one of the letters. Type one letter from a to") !=
        std::string::npos);
  CHECK(as_one_line(progress).find("A lesson counts as verified once you run it and every cell "
                                   "prints its documented output.") != std::string::npos);
  for (const std::string& text : {asked, progress}) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      // The prompt is one line, the answer typed after it.
      if (line.rfind("Your answer (", 0) == 0) line = line.substr(line.find("stop): ") + 7);
      CHECK_MESSAGE(engine::notebook::display_width(line) <= 40, line);
    }
  }
}

TEST_CASE("a corrupt progress file is reported, kept aside and never overwritten") {
  ScratchProgress scratch("corrupt");
  std::ofstream(scratch.path) << "{ \"format\": 1, \"lessons_verified\": ";
  const Run run = quiz_run({"take", "mastery", "--answers", kMasteryKey});
  CHECK(run.status == 0);
  CHECK(run.err.find("The progress file " + scratch.path.string() + " could not be read") !=
        std::string::npos);
  std::vector<fs::path> kept;
  for (const auto& entry : fs::directory_iterator(scratch.path.parent_path())) {
    if (entry.path().filename().string().find("progress.json.corrupt-") == 0)
      kept.push_back(entry.path());
  }
  REQUIRE(kept.size() == 1);
  std::ifstream old(kept.front());
  CHECK(std::string(std::istreambuf_iterator<char>(old), {}) ==
        "{ \"format\": 1, \"lessons_verified\": ");
  std::ostringstream report;
  CHECK(engine::notebook::load_progress(scratch.path, report)
            .quizzes.at("mastery")
            .passed);  // the new file
}

TEST_CASE("progress counts verified lessons and the mastery check") {
  ScratchProgress scratch("progress");
  CHECK(quiz_run({"progress"})
            .out.find(quiz_test::lessons_verified_line(0) + ", mastery check not taken yet") !=
        std::string::npos);
  std::ostringstream report;
  engine::notebook::update_progress(scratch.path, report, [](engine::notebook::Progress& p) {
    p.lessons_verified = {{"01", "2026-11-21T10:00:00Z"}, {"02", "2026-11-21T11:00:00Z"}};
  });
  CHECK(quiz_run({"take", "mastery", "--answers", wrong(kMasteryKey, {"stack"})}).status == 0);
  CHECK(quiz_run({"progress"})
            .out.find(quiz_test::lessons_verified_line(2) + ", mastery check passed 14/15") !=
        std::string::npos);
  const nlohmann::json json = nlohmann::json::parse(quiz_run({"progress", "--json"}).out);
  CHECK(json["lessons_verified"] == std::vector<std::string>{"01", "02"});
  CHECK(json["mastery_passed"] == true);
}

TEST_CASE("progress counts a lesson in sections once every section is verified") {
  ScratchProgress scratch("sections");
  std::ostringstream report;
  engine::notebook::update_progress(scratch.path, report, [](engine::notebook::Progress& p) {
    p.lessons_verified = {{"07.1", "2026-11-21T10:00:00Z"},
                          {"08.1", "2026-11-21T10:00:00Z"},
                          {"08.2", "2026-11-21T10:00:00Z"},
                          {"08.3", "2026-11-21T10:00:00Z"}};
  });
  const std::string shown = quiz_run({"progress"}).out;
  CHECK(shown.find(quiz_test::lessons_verified_line(1)) != std::string::npos);
  CHECK(shown.find("lesson 07: not verified yet") != std::string::npos);
  CHECK(shown.find("lesson 08: verified") != std::string::npos);
  const nlohmann::json json = nlohmann::json::parse(quiz_run({"progress", "--json"}).out);
  CHECK(json["lessons_verified"] == std::vector<std::string>{"08"});
}

TEST_CASE("lab records survive a round trip, and files from before the labs still load") {
  ScratchProgress scratch("labs");
  std::ofstream(scratch.path)
      << R"({"format": 1, "lessons_verified": {"01": "2026-11-21T10:00:00Z"}, "quizzes": {}})";
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

TEST_CASE("review shows every answer and why each other option is wrong, once the quiz was taken") {
  ScratchProgress scratch("review");
  const Run before = quiz_run({"review", "lesson04"});
  CHECK(before.status == 2);
  CHECK(before.err.find(
            "once you have taken it (quiz take lesson04); to see them now, add --reveal-answers") !=
        std::string::npos);
  CHECK(before.out.find("<- the answer") == std::string::npos);
  CHECK(quiz_run({"review", "lesson04", "--reveal-answers"}).out.find("<- the answer") !=
        std::string::npos);
  CHECK(quiz_run({"take", "lesson04", "--seed", "1"}, "a\na\na\na\na\n").status ==
        1);  // an attempt, not passed
  const Run review = quiz_run({"review", "lesson04"});
  CHECK(review.status == 0);
  CHECK(review.out.find("<- the answer") != std::string::npos);
  std::size_t whys = 0;
  for (std::size_t at = review.out.find("Why not:"); at != std::string::npos;
       at = review.out.find("Why not:", at + 1))
    ++whys;
  CHECK(whys == 15);  // five questions, three wrong options each
}

TEST_CASE("unknown commands and quizzes are usage errors") {
  CHECK(quiz_run({"frobnicate"}).status == 2);
  const Run unknown = quiz_run({"take", "nope"});
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("no quiz named 'nope'; 'quiz list' shows them") != std::string::npos);
  CHECK(quiz_run({"--help"}).out.find("take NAME") != std::string::npos);
}

TEST_CASE("quiz text wraps to the terminal's width at word boundaries") {
  ScratchProgress scratch("width");
  std::istringstream in;
  std::ostringstream out, err;
  CHECK(quiz::run({"show", "mastery"}, in, out, err, kPaths, 50) == 0);
  std::istringstream lines(out.str());
  std::size_t wrapped = 0;
  for (std::string line; std::getline(lines, line);) {
    CAPTURE(line);
    if (line.rfind("Mastery check (options", 0) == 0) continue;  // the header names an id sheet
    CHECK(engine::notebook::display_width(line) <= 50);
    wrapped += line.rfind("     ", 0) == 0;  // an option's continuation line
  }
  CHECK(wrapped > 8);
  // The prompt's words survive whole: the text joined again equals the bank's.
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "mastery.toml");
  std::string joined;
  for (char c : out.str()) joined += c == '\n' ? ' ' : c;
  CHECK(joined.find(bank.questions[0].prompt) != std::string::npos);
}

TEST_CASE("quiz glossary shows the course's glossary") {
  const Run glossary = quiz_run({"glossary"});
  CHECK(glossary.status == 0);
  CHECK(glossary.out.find("Glossary") == 0);
  CHECK(glossary.out.find("roofline") != std::string::npos);
}

TEST_CASE(
    "the commands the quiz suggests run as printed: the program's path, or the course command's") {
  ScratchProgress scratch("typed_commands");
  quiz::Paths through_course = kPaths;
  through_course.command = "build/course quiz";
  const auto run = [&](const std::vector<std::string>& args, std::size_t width = 80) {
    std::istringstream in;
    std::ostringstream out, err;
    const int status = quiz::run(args, in, out, err, through_course, width);
    return Run{status, out.str(), err.str()};
  };
  CHECK(run({"list"}).out.find("Take one with: build/course quiz take NAME\n") !=
        std::string::npos);
  const Run missed =
      run({"take", "mastery", "--answers",
           wrong(kMasteryKey, {"stack", "batch-bytes", "memory-tools", "worth-it"})});
  CHECK(
      missed.out.find(
          "To practise only the missed questions (practice is not recorded):\n  build/course quiz "
          "take mastery --missed\n") != std::string::npos);
  CHECK(run({"take", "nope"})
            .err.find("'build/course quiz list' shows them\nTry 'build/course quiz --help'.") !=
        std::string::npos);
  // Its messages and its help name it as the learner ran it.
  CHECK(run({"take", "nope"}).err.find("course quiz: no quiz named 'nope'") == 0);
  CHECK(run({"list", "extra"}).err.find("course quiz: 'course quiz list' takes no name") == 0);
  CHECK(run({"key", "mastery"}).err.find("course quiz: course quiz key shows the answers") == 0);
  const Run help = run({"--help"});
  CHECK(help.out.find("  course quiz COMMAND [NAME] [options]") != std::string::npos);
  CHECK(help.out.find("quiz COMMAND") == help.out.find("course quiz COMMAND") + 7);
  CHECK(quiz_run({"take", "nope"}).err.find("quiz: no quiz named 'nope'") == 0);
  // The score wraps like the rest of the text, its last word and period together.
  const Run narrow = run({"take", "mastery", "--answers", kMasteryKey}, 40);
  CHECK(
      narrow.out.find(
          "Mastery check: 15 of 15 (100 %). Passed:\npassing needs 12 of 15, more than 75 %.\n") !=
      std::string::npos);
}
