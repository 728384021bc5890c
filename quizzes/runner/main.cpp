// The quiz program: the course's question banks, graded in the terminal. See commands.h.

#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "engine/notebook/terminal_text.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return quiz::run(args, std::cin, std::cout, std::cerr, {TUTOR_QUIZ_BANKS, TUTOR_LESSONS_DIR, TUTOR_LESSON_PROGRAMS},
                   engine::notebook::terminal_width(STDOUT_FILENO));
}
