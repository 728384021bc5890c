# tutor_add_lab(NN_topic DECOYS name...): builds labs/NN_topic's tests (tests.cpp) against each
# version of the file the learner writes, and registers the proofs of the lab with CTest:
#
#   labNN                the learner's labs/NN_topic/lab.cpp (tutor_add_learner_lab_program);
#                        not part of the default build, so an unfinished lab never breaks it
#                        (course verify NN builds it)
#   labNN_solution       solution/lab.cpp     test lab.NN/solution passes
#   labNN_starter        starter/lab.cpp      test lab.NN/starter stops at its first TODO
#   labNN_decoy_<name>   decoys/<name>.md     test lab.NN/decoy <name> fails only its named test
#                        (the solution with the change the .md describes, written by the build)
#   labNN_hints          hints.md             compiled: the starter with each hint's code in place
#
# The learner's lab.cpp starts as a copy of the starter, made the first time the course is
# configured (as `rustlings init` writes the exercises); it is theirs from then on, ignored by
# git, and `course reset NN` copies the starter again. The proofs never read it, so the default
# test suite passes whatever state the learner's labs are in. The learner grades their own labs
# with `ctest --preset my-labs` (tests my-lab.NN, registered only when MPS_COURSE_MY_LABS=1) or
# `build/course verify`.

# What every lab translation unit compiles with.
function(tutor_add_lab_code)
  # Starters leave parameters for the learner to use. After the warnings, so that it wins.
  add_library(tutor_lab_unused_parameters INTERFACE)
add_library(tutor::lab_unused_parameters ALIAS tutor_lab_unused_parameters)
  target_compile_options(tutor_lab_unused_parameters INTERFACE -Wno-unused-parameter)
  add_library(tutor_lab_code INTERFACE)
add_library(tutor::lab_code ALIAS tutor_lab_code)
  target_include_directories(tutor_lab_code INTERFACE
    "${PROJECT_SOURCE_DIR}/labs" "${PROJECT_SOURCE_DIR}/labs/harness/include")
  # No tutor_learner_codegen: lab files are glue around the engine, compiled after every save and
  # for every version of every lab, so they are compiled at the build type's level (by default
  # unoptimised, a quarter faster to compile than -O1); the engine they call is optimised.
  target_link_libraries(tutor_lab_code INTERFACE
    tutor::engine doctest::doctest tutor::warnings tutor::lab_unused_parameters)

  # One precompiled header for every lab file: the engine's API, the TODO marker and doctest.
  # It turns a second of compiling per file into a tenth, which is most of the time between
  # saving a lab and its verdict.
  set(source "${CMAKE_CURRENT_BINARY_DIR}/lab_pch.cpp")
  if(NOT EXISTS "${source}")  # written once, so a new configure does not rebuild the header
    file(WRITE "${source}" "// owns the labs' precompiled header\n")
  endif()
  add_library(tutor_lab_pch OBJECT "${source}")
  target_link_libraries(tutor_lab_pch PRIVATE tutor::lab_code)
  target_precompile_headers(tutor_lab_pch PRIVATE
    <engine/engine.h> <harness/todo.h> <harness/check.h> <doctest/doctest.h> <functional> <string> <vector>)
endfunction()

# One program: the lab's tests linked with one version of the learner's file.
function(tutor_add_lab_program target tests source)
  add_executable(${target} ${ARGN} "${source}" $<TARGET_OBJECTS:${tests}>)
  target_link_libraries(${target} PRIVATE
    tutor::lab_code tutor::lab_harness tutor::doctest_implementation tutor::fast_link)
  target_precompile_headers(${target} REUSE_FROM tutor_lab_pch)
endfunction()

# The learner's program: the lab's tests linked with the learner's file. Every build reads the file
# once and writes what it read, with its digest, to learner/<lab folder>/lab.cpp when the bytes
# differ from what is there (lab_versions snapshot, harness/learner_source.h); the compiler reads
# only that copy, so no save during a build leaves a program built from one version standing for
# another, and the program reports the digest, which `course verify` compares with the file on
# disk (it removes the copy to rebuild one that does not match). lab_compile bounds the
# compiler's time and memory.
function(tutor_add_learner_lab_program target tests lab_file)
  get_filename_component(folder "${lab_file}" DIRECTORY)
  get_filename_component(name "${folder}" NAME)
  set(snapshot "${CMAKE_CURRENT_BINARY_DIR}/learner/${name}/lab.cpp")
  add_custom_target(${target}_source
    COMMAND "$<TARGET_FILE:lab_versions>" snapshot "${lab_file}" "${snapshot}"
    BYPRODUCTS "${snapshot}"
    DEPENDS lab_versions
    VERBATIM)
  tutor_add_lab_program(${target} ${tests} "${snapshot}" EXCLUDE_FROM_ALL)
  add_dependencies(${target} ${target}_source lab_compile)
  target_compile_options(${target} PRIVATE "-iquote${folder}")  # its includes, as beside the file
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "$<TARGET_FILE:lab_compile>")
endfunction()

function(tutor_add_lab name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DECOYS")
  if(NOT name MATCHES "^([0-9][0-9])_[a-z0-9_]+$")
    message(FATAL_ERROR "lab '${name}': expected NN_topic, for example 05_timing")
  endif()
  set(number "${CMAKE_MATCH_1}")
  set(dir "${CMAKE_CURRENT_SOURCE_DIR}/${name}")
  set(prefix "lab.${number}")

  # The lab format (labs/README.md), checked when the course is configured.
  foreach(file README.md hints.md lab.h tests.cpp starter/lab.cpp solution/lab.cpp)
    if(NOT EXISTS "${dir}/${file}")
      message(FATAL_ERROR "lab ${name}: ${file} is missing (labs/README.md lists a lab's files)")
    endif()
  endforeach()
  list(LENGTH arg_DECOYS decoys)
  if(decoys LESS 2)
    message(FATAL_ERROR "lab ${name}: name at least two decoys (DECOYS a b)")
  endif()
  file(STRINGS "${dir}/hints.md" hints REGEX "^## ")
  list(LENGTH hints hint_count)
  if(hint_count LESS 3)
    message(FATAL_ERROR "lab ${name}: hints.md needs at least three hints (## headings)")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${dir}/hints.md")

  if(NOT EXISTS "${dir}/lab.cpp")
    file(COPY_FILE "${dir}/starter/lab.cpp" "${dir}/lab.cpp")
  endif()

  set(tests "lab${number}_tests")
  add_library(${tests} OBJECT "${dir}/tests.cpp")
  target_link_libraries(${tests} PRIVATE tutor::lab_code)
  target_precompile_headers(${tests} REUSE_FROM tutor_lab_pch)

  tutor_add_learner_lab_program(lab${number} ${tests} "${dir}/lab.cpp")

  set(proofs "${CMAKE_CURRENT_BINARY_DIR}/proofs")
  set(env "NO_COLOR=1")
  tutor_add_lab_program(lab${number}_solution ${tests} "${dir}/solution/lab.cpp")
  add_test(NAME "${prefix}/solution passes"
    COMMAND lab${number}_solution "--check-lesson-links=${PROJECT_SOURCE_DIR}/lessons")

  tutor_add_lab_program(lab${number}_starter ${tests} "${dir}/starter/lab.cpp")
  add_test(NAME "${prefix}/starter stops at its first TODO"
    COMMAND lab_proof starter $<TARGET_FILE:lab${number}_starter> "${dir}/starter/lab.cpp" "${PROJECT_SOURCE_DIR}")
  set(proof_tests "${prefix}/solution passes" "${prefix}/starter stops at its first TODO")
  set(proof_targets lab${number}_solution lab${number}_starter)

  foreach(decoy IN LISTS arg_DECOYS)
    if(NOT EXISTS "${dir}/decoys/${decoy}.md")
      message(FATAL_ERROR "lab ${name}: decoys/${decoy}.md is missing")
    endif()
    # The solution with the change decoys/<decoy>.md describes, written by the build
    # (labs/harness/lab_versions.cpp), so a decoy follows every later edit of the solution.
    set(source "${CMAKE_CURRENT_BINARY_DIR}/decoys/${name}/${decoy}.cpp")
    add_custom_command(OUTPUT "${source}"
      COMMAND "$<TARGET_FILE:lab_versions>" decoy "${dir}/solution/lab.cpp" "${dir}/decoys/${decoy}.md" "${source}"
      DEPENDS lab_versions "${dir}/solution/lab.cpp" "${dir}/decoys/${decoy}.md"
      COMMENT "Writing lab ${number}'s decoy ${decoy}"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"  # the generated file names its source from there
      VERBATIM)
    tutor_add_lab_program(lab${number}_decoy_${decoy} ${tests} "${source}")
    add_test(NAME "${prefix}/decoy ${decoy} fails its named test"
      COMMAND lab_proof decoy $<TARGET_FILE:lab${number}_decoy_${decoy}> "${dir}/decoys/${decoy}.md")
    list(APPEND proof_tests "${prefix}/decoy ${decoy} fails its named test")
    list(APPEND proof_targets lab${number}_decoy_${decoy})
  endforeach()
  # The hints' code, put into the starter where each hint says (```cpp TODO 1.2), must compile:
  # lab_versions writes the file and the build compiles it, so a hint whose code would not compile
  # where the learner pastes it breaks the build.
  set(source "${CMAKE_CURRENT_BINARY_DIR}/hints/${name}/lab.cpp")
  add_custom_command(OUTPUT "${source}"
    COMMAND "$<TARGET_FILE:lab_versions>" hints "${dir}/starter/lab.cpp" "${dir}/hints.md" "${source}"
    DEPENDS lab_versions "${dir}/starter/lab.cpp" "${dir}/hints.md"
    COMMENT "Writing lab ${number}'s starter with its hints' code"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    VERBATIM)
  add_library(lab${number}_hints OBJECT "${source}")
  target_link_libraries(lab${number}_hints PRIVATE tutor::lab_code)
  target_precompile_headers(lab${number}_hints REUSE_FROM tutor_lab_pch)

  set_target_properties(${proof_targets} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${proofs}")
  set_tests_properties(${proof_tests} PROPERTIES LABELS "labs;${prefix}" ENVIRONMENT "${env}")

  set_property(GLOBAL APPEND PROPERTY TUTOR_LABS "${name}")
endfunction()

# The learner's own grades: one test per lab that runs `course verify NN`, which builds their
# lab.cpp and runs its tests. Registered only when MPS_COURSE_MY_LABS=1 (the my-labs test
# preset sets it), so `ctest` alone never grades unfinished work. Serial: each one builds.
function(tutor_add_my_labs_tests course_target)
  get_property(labs GLOBAL PROPERTY TUTOR_LABS)
  set(script "if(\"\$ENV{MPS_COURSE_MY_LABS}\" STREQUAL \"1\")\n")
  foreach(name IN LISTS labs)
    string(SUBSTRING "${name}" 0 2 number)
    string(APPEND script
      "  add_test([==[my-lab.${number}]==] \"$<TARGET_FILE:${course_target}>\" verify ${number})\n"
      "  set_tests_properties([==[my-lab.${number}]==] PROPERTIES LABELS my-labs RUN_SERIAL TRUE\n"
      "    FIXTURES_REQUIRED ${TUTOR_LEARNER_STATE_FIXTURE})\n")
  endforeach()
  string(APPEND script "endif()\n")
  set(file "${CMAKE_CURRENT_BINARY_DIR}/my_labs_tests.cmake")
  file(GENERATE OUTPUT "${file}" CONTENT "${script}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
endfunction()

# tutor_add_run_time_lab(NN_topic EXTENSION ext DECOYS name...): a lab whose learner writes files
# that its program reads when it runs, instead of C++ compiled into it: lab 9's Metal kernels
# (*.metal), compiled by torch.mps.compile_shader as the tests call them. Saving one needs no
# build, only a run. Each version's program is the lab's tests (tests.cpp and the lab folder's
# other .cpp files) with harness/run_time_files.cpp, compiled with the folder its files are in:
#
#   labNN                labs/NN_topic/*.ext, the learner's (copies of the starters made at
#                        configure, as tutor_add_lab copies lab.cpp); its program reports the
#                        digest of what it read, which `course verify` compares with the disk
#   labNN_solution       solution/*.ext       test lab.NN/solution passes
#   labNN_starter        starter/*.ext        test lab.NN/starter stops at its first TODO (the
#                                             first TODO of the first file, in name order)
#   labNN_decoy_<name>   decoys/<name>.md     test lab.NN/decoy <name> fails only its named test
#                        (the solution's files with the change the .md describes, written by the
#                        build: lab_versions decoy-files)
#
# The files are the starter folder's *.ext, in name order; the solution must have the same.
function(tutor_add_run_time_program target tests folder files learners)
  add_executable(${target} ${ARGN} "${PROJECT_SOURCE_DIR}/labs/harness/run_time_files.cpp"
    $<TARGET_OBJECTS:${tests}>)
  list(JOIN files "," names)
  target_compile_definitions(${target} PRIVATE
    TUTOR_RUN_TIME_FOLDER="${folder}" TUTOR_RUN_TIME_FILES="${names}"
    TUTOR_RUN_TIME_LEARNERS=${learners} TUTOR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_link_libraries(${target} PRIVATE tutor::lab_code tutor::lab_harness tutor::lab_source
    tutor::doctest_implementation tutor::fast_link)
endfunction()

function(tutor_add_run_time_lab name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXTENSION" "DECOYS")
  if(NOT name MATCHES "^([0-9][0-9])_[a-z0-9_]+$")
    message(FATAL_ERROR "lab '${name}': expected NN_topic, for example 09_metal_puzzles")
  endif()
  set(number "${CMAKE_MATCH_1}")
  set(dir "${CMAKE_CURRENT_SOURCE_DIR}/${name}")
  set(prefix "lab.${number}")
  foreach(file README.md hints.md tests.cpp)
    if(NOT EXISTS "${dir}/${file}")
      message(FATAL_ERROR "lab ${name}: ${file} is missing (labs/README.md lists a lab's files)")
    endif()
  endforeach()
  file(GLOB files RELATIVE "${dir}/starter" CONFIGURE_DEPENDS "${dir}/starter/*.${arg_EXTENSION}")
  list(SORT files)
  if(NOT files)
    message(FATAL_ERROR "lab ${name}: starter/ holds no .${arg_EXTENSION} file")
  endif()
  foreach(file IN LISTS files)
    if(NOT EXISTS "${dir}/solution/${file}")
      message(FATAL_ERROR "lab ${name}: solution/${file} is missing (the starter has one)")
    endif()
    if(NOT EXISTS "${dir}/${file}")
      file(COPY_FILE "${dir}/starter/${file}" "${dir}/${file}")
    endif()
  endforeach()
  list(LENGTH arg_DECOYS decoys)
  if(decoys LESS 2)
    message(FATAL_ERROR "lab ${name}: name at least two decoys (DECOYS a b)")
  endif()
  file(STRINGS "${dir}/hints.md" hints REGEX "^## ")
  list(LENGTH hints hint_count)
  if(hint_count LESS 3)
    message(FATAL_ERROR "lab ${name}: hints.md needs at least three hints (## headings)")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${dir}/hints.md")

  set(tests "lab${number}_tests")
  file(GLOB sources CONFIGURE_DEPENDS "${dir}/*.cpp")
  add_library(${tests} OBJECT ${sources})
  target_link_libraries(${tests} PRIVATE tutor::lab_code tutor::lab_source)
  target_precompile_headers(${tests} REUSE_FROM tutor_lab_pch)

  tutor_add_run_time_program(lab${number} ${tests} "${dir}" "${files}" 1 EXCLUDE_FROM_ALL)

  set(proofs "${CMAKE_CURRENT_BINARY_DIR}/proofs")
  tutor_add_run_time_program(lab${number}_solution ${tests} "${dir}/solution" "${files}" 0)
  add_test(NAME "${prefix}/solution passes"
    COMMAND lab${number}_solution "--check-lesson-links=${PROJECT_SOURCE_DIR}/lessons")
  tutor_add_run_time_program(lab${number}_starter ${tests} "${dir}/starter" "${files}" 0)
  list(GET files 0 first)
  add_test(NAME "${prefix}/starter stops at its first TODO"
    COMMAND lab_proof starter $<TARGET_FILE:lab${number}_starter> "${dir}/starter/${first}"
      "${PROJECT_SOURCE_DIR}")
  set(proof_tests "${prefix}/solution passes" "${prefix}/starter stops at its first TODO")
  set(proof_targets lab${number}_solution lab${number}_starter)

  list(TRANSFORM files PREPEND "${dir}/solution/" OUTPUT_VARIABLE solution_files)
  foreach(decoy IN LISTS arg_DECOYS)
    if(NOT EXISTS "${dir}/decoys/${decoy}.md")
      message(FATAL_ERROR "lab ${name}: decoys/${decoy}.md is missing")
    endif()
    set(folder "${CMAKE_CURRENT_BINARY_DIR}/decoys/${name}/${decoy}")
    list(TRANSFORM files PREPEND "${folder}/" OUTPUT_VARIABLE written)
    add_custom_command(OUTPUT ${written}
      COMMAND "$<TARGET_FILE:lab_versions>" decoy-files "${dir}/solution" "${dir}/decoys/${decoy}.md"
        "${folder}" ${files}
      DEPENDS lab_versions ${solution_files} "${dir}/decoys/${decoy}.md"
      COMMENT "Writing lab ${number}'s decoy ${decoy}"
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
      VERBATIM)
    add_custom_target(lab${number}_decoy_${decoy}_files DEPENDS ${written})
    tutor_add_run_time_program(lab${number}_decoy_${decoy} ${tests} "${folder}" "${files}" 0)
    add_dependencies(lab${number}_decoy_${decoy} lab${number}_decoy_${decoy}_files)
    add_test(NAME "${prefix}/decoy ${decoy} fails its named test"
      COMMAND lab_proof decoy $<TARGET_FILE:lab${number}_decoy_${decoy}> "${dir}/decoys/${decoy}.md")
    list(APPEND proof_tests "${prefix}/decoy ${decoy} fails its named test")
    list(APPEND proof_targets lab${number}_decoy_${decoy})
  endforeach()

  set_target_properties(${proof_targets} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${proofs}")
  set_tests_properties(${proof_tests} PROPERTIES LABELS "labs;${prefix}" ENVIRONMENT "NO_COLOR=1")
  set_property(GLOBAL APPEND PROPERTY TUTOR_LABS "${name}")
endfunction()
