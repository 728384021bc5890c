#pragma once
// A question bank: one TOML file under quizzes/banks/, with mdbook-quiz's field names where
// they fit and two extensions of ours (a `why` for every wrong option, and a `lesson` link):
//
//   title = "Mastery check"                   # ours: the bank's name in listings
//   exam = true                               # ours, optional: graded as an exam (the runner
//                                             # marks nothing until the end, then reviews all)
//   [[questions]]
//   id = "placement"                          # unique in the bank
//   type = "MultipleChoice"                   # the only type the runner asks
//   prompt.prompt = "What must happen ...?"
//   prompt.distractors = ["...", "...", "..."]
//   answer.answer = "..."
//   context = "Why the answer is right."      # shown after answering
//   why = ["...", "...", "..."]               # ours: why each distractor is wrong, in order
//   lesson = "03_placement_and_one_training_step#mps_device_placement"  # ours: the cell to re-run

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace quiz {

struct Question {
  std::string id;
  std::string prompt;
  std::string answer;
  std::vector<std::string> distractors;
  std::vector<std::string> why;  // one per distractor
  std::string context;
  std::string lesson;  // "NN_topic#cell"
  int line = 0;        // where the question starts in its bank
};

struct Bank {
  std::string name;  // the file's stem: "mastery", "lesson03"
  std::string title;
  std::string path;
  std::vector<Question> questions;
  bool exam = false;  // the mastery check; a lesson's self-check is practice
};

// A malformed bank, reported as "path:line: error: message".
class BankError : public std::runtime_error {
 public:
  BankError(const std::string& path, int line, const std::string& message);
};

Bank load_bank(const std::filesystem::path& path);
// The bank that `text` holds, as if read from `path` (which names it and its errors).
Bank parse_bank(std::string_view text, const std::filesystem::path& path);

// The ids of the questions whose answer is longer than each wrong option, in characters: what
// a learner who always picks the longest option gets right for free.
std::vector<std::string> longest_answer_questions(const Bank& bank);
// "" when length gives little away (the answer is the longest option in at most a third of
// the bank's questions); otherwise the error quiz check reports.
std::string length_giveaway(const Bank& bank);
// The banks in a directory: the lessons' self-checks in order, then the mastery check.
std::vector<std::filesystem::path> bank_files(const std::filesystem::path& directory);

}  // namespace quiz
