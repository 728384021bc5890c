#pragma once
// The quiz program's commands, callable with any streams (the tests drive them in-process):
//   quiz list                      the banks, with the learner's best scores
//   quiz take NAME                 one sitting: ask the questions, grade, record the attempt
//        [--answers id=b,id=d,...] grade an answer sheet (a letter per question id) instead
//        [--seed N]                the option order to use (answer sheets default to seed 0)
//        [--missed]                practise only the questions the last sitting missed, for no
//                                  record: a pass needs one sitting of the whole quiz
//        [--feedback each|end]     right or wrong after every answer (a self-check's default)
//                                  or at the end (the mastery check, an exam, takes only this)
//        [--json]                  the result as JSON
//   quiz show NAME [--seed N]      the questions and lettered options, without answers
//   quiz review NAME               after an attempt: every question with its answer and why each
//                                  other option is wrong
//   quiz progress [--json]         lessons verified, self-checks and the mastery check
//   quiz check                     validate every bank and every lesson link (for CI)
//   quiz key NAME [--seed N]       the answer sheet that scores full marks, once NAME is passed
//        [--reveal-answers]        ... or before (for authors)
//   quiz glossary                  the terms the course uses (lessons/glossary.md)

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace quiz {

struct Paths {
  std::filesystem::path banks;            // quizzes/banks
  std::filesystem::path lessons;          // lessons/ (sources, for links)
  std::filesystem::path lesson_programs;  // where lessonNN executables are built
  std::string command = "quiz";           // the quiz as the learner types it, in the commands it
                                          // suggests: "build/quizzes/quiz", "build/course quiz"
};

// What the quiz's messages and --help call it: its command without the program's folder
// ("quiz", "course quiz").
std::string program_name(const Paths& paths);

// Exit status: 0 done (a quiz passed, or practice with every answer right), 1 a quiz not passed
// (or practice with a wrong answer) or a bank invalid, 2 a usage error or a progress file that
// cannot be used, 3 a quiz stopped before its end (nothing recorded), 4 a quiz graded but its
// attempt not recorded (the progress file could not be written).
// Text is wrapped to `width` columns (the terminal's, in the quiz program).
int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err, const Paths& paths, std::size_t width = 80);

}  // namespace quiz
