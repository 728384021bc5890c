#pragma once
// main() of the course command, kept out of main.cpp so that it compiles with the rest of the
// front door (one unity batch) and main.cpp compiles in no time.

namespace front_door {

int course_main(int argc, char** argv);

}  // namespace front_door
