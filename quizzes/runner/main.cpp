// The quiz program: the course's question banks, graded in the terminal. See commands.h.

#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "engine/notebook/terminal_text.h"
#include "quiz/lesson_links.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const quiz::Paths paths{TUTOR_QUIZ_BANKS, TUTOR_LESSONS_DIR, TUTOR_LESSON_PROGRAMS,
                          quiz::as_typed(TUTOR_QUIZ_PROGRAM)};
  return quiz::run(args, std::cin, std::cout, std::cerr, paths,
                   engine::notebook::terminal_width(STDOUT_FILENO));
}
