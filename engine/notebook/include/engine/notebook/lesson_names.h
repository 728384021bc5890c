#pragma once
// The names of the course's lessons and of the programs they are built into. A lesson is one
// file, or, when it is long, a folder of section programs that share one file:
//
//   lessons/03_placement_and_one_training_step.cpp   lesson 03, the program lesson03
//   lessons/08_nanogpt_on_the_m3_max/                lesson 08, in sections:
//     shared.h                                       what its sections share (code, twins, prose)
//     08_1_one_training_step.cpp                     section 08.1, the program lesson08_1
//     08_2_compile_and_long_runs.cpp                 section 08.2, the program lesson08_2

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace engine::notebook {

// The file a long lesson's sections share, in its folder.
inline constexpr std::string_view kSharedFile = "shared.h";

// A lesson's number from a name of the form NN_topic or NN_S_topic ("03_placement" -> "03",
// "08_2_compile" -> "08"); nullopt for other names.
std::optional<std::string> lesson_number(std::string_view name);

// The number of the lesson or section a program's file stem names: "03_placement" -> "03",
// "08_2_compile" -> "08.2"; nullopt for other names.
std::optional<std::string> program_number(std::string_view stem);

// The executable built from a lesson or section: "03" -> "lesson03", "08.2" -> "lesson08_2".
std::string program_target(std::string_view number);

// The shared file of the lesson folder a section's file sits in; empty for a lesson of one file
// (and for the shared file itself).
std::filesystem::path shared_file_of(const std::filesystem::path& program_source);

}  // namespace engine::notebook
