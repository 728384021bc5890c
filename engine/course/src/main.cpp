// The course command: the learner's front door to the lessons, labs and quizzes. See
// subcommand.h for how subcommands are added, and README.md for what each does.

#include "course_main.h"

int main(int argc, char** argv) { return front_door::course_main(argc, argv); }
