# Compiler settings as INTERFACE targets that our targets link PRIVATE: nothing here touches
# global flags, so a project that adds this one as a subdirectory keeps its own.

set(CMAKE_CXX_EXTENSIONS OFF)  # -std=c++20, not gnu++20: the course teaches portable C++

add_library(tutor_warnings INTERFACE)
add_library(tutor::warnings ALIAS tutor_warnings)
target_compile_options(tutor_warnings INTERFACE
  -Wall -Wextra -Wpedantic                            # the baseline both g++ and clang++ share
  # g++ on aarch64 notes every std::pair<double, double> passed by value that GCC 10.1 changed
  # the ABI of; the course is built with one compiler, so nothing it links is affected.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-psabi>
  $<$<BOOL:${TUTOR_WARNINGS_AS_ERRORS}>:-Werror>)     # CI: a new warning fails the build

# The engine's kernels must be fast: -O2, plus AVX2/FMA where this machine has them (Eigen's
# GEMM runs at a third of the speed without them). x86-64-v3 rather than -march=native: GCC 12
# tunes native for an older core on recent AMD parts and loses ~30 % of GEMM speed.
# -ffp-contract=off keeps every multiply-add unfused unless the code asks for std::fma, which
# is what makes the engine's random numbers reproduce PyTorch's bit for bit on any compiler.
set(TUTOR_KERNEL_ARCH_FLAGS "")
if(TUTOR_FAST_KERNELS AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  include(CheckCXXSourceRuns)
  set(CMAKE_REQUIRED_FLAGS "-march=x86-64-v3")
  check_cxx_source_runs([[
    int main() {
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 0 : 1;
    }]] TUTOR_MACHINE_HAS_AVX2_FMA)
  unset(CMAKE_REQUIRED_FLAGS)
  if(TUTOR_MACHINE_HAS_AVX2_FMA)
    set(TUTOR_KERNEL_ARCH_FLAGS -march=x86-64-v3)
  endif()
endif()

add_library(tutor_engine_codegen INTERFACE)
add_library(tutor::engine_codegen ALIAS tutor_engine_codegen)
target_compile_options(tutor_engine_codegen INTERFACE
  $<$<NOT:$<CONFIG:Debug>>:-O2> ${TUTOR_KERNEL_ARCH_FLAGS} -ffp-contract=off)

# The rest of the engine is bookkeeping (tensors, autograd, the simulated runtime, the lesson
# format): -O1 builds it a fifth faster, and its loops are not where the time goes.
add_library(tutor_engine_logic_codegen INTERFACE)
add_library(tutor::engine_logic_codegen ALIAS tutor_engine_logic_codegen)
target_compile_options(tutor_engine_logic_codegen INTERFACE $<$<NOT:$<CONFIG:Debug>>:-O1> -ffp-contract=off)

# Lessons, labs and tests are compiled far more often than they run heavy math (the math is in
# the engine), so -O1: measurably faster to compile than -O2, still fast enough to run.
add_library(tutor_learner_codegen INTERFACE)
add_library(tutor::learner_codegen ALIAS tutor_learner_codegen)
target_compile_options(tutor_learner_codegen INTERFACE $<$<NOT:$<CONFIG:Debug>>:-O1>)

# A lesson is recompiled after every edit, and its cells only call into the engine: -Og compiles
# a quarter faster than -O1 and runs the lessons as fast (the edit-one-lesson loop's budget).
add_library(tutor_lesson_codegen INTERFACE)
add_library(tutor::lesson_codegen ALIAS tutor_lesson_codegen)
target_compile_options(tutor_lesson_codegen INTERFACE $<$<NOT:$<CONFIG:Debug>>:-Og>)

# Test programs and the test framework only check results that the engine computes: -O0, the
# fastest to compile (a third faster than -O1 for doctest-heavy files).
add_library(tutor_test_codegen INTERFACE)
add_library(tutor::test_codegen ALIAS tutor_test_codegen)
target_compile_options(tutor_test_codegen INTERFACE -O0)

# mold links an executable in a third of ld.bfd's time; use it when it is installed.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=mold" TUTOR_HAVE_MOLD)
add_library(tutor_fast_link INTERFACE)
add_library(tutor::fast_link ALIAS tutor_fast_link)
if(TUTOR_HAVE_MOLD)
  target_link_options(tutor_fast_link INTERFACE -fuse-ld=mold)
endif()
