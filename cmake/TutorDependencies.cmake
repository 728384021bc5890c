# Finds every third-party package through find_package. A missing one stops configuration with
# a message that names the package and the command that installs it, so a learner on a fresh
# machine never has to decode CMake's generic "could not find a package configuration file".

function(tutor_missing_dependency wanted what debian homebrew)
  message(FATAL_ERROR
    "Missing dependency: ${wanted} (${what}).\n"
    "Install it, then configure again:\n"
    "  Debian/Ubuntu:  sudo apt-get install ${debian}\n"
    "  macOS:          brew install ${homebrew}\n"
    "or run ./setup, which installs everything the course needs.")
endfunction()

function(tutor_require_package package)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "VERSION;DEBIAN;HOMEBREW;WHAT" "FIND_ARGS")
  find_package(${package} ${arg_VERSION} ${arg_FIND_ARGS} QUIET)
  if(NOT ${package}_FOUND)
    set(wanted "${package}")
    if(arg_VERSION)
      string(APPEND wanted " ${arg_VERSION} or newer")
    endif()
    tutor_missing_dependency("${wanted}" "${arg_WHAT}" "${arg_DEBIAN}" "${arg_HOMEBREW}")
  endif()
endfunction()

tutor_require_package(doctest VERSION 2.4
  DEBIAN doctest-dev HOMEBREW doctest WHAT "the test framework lessons and labs verify with")
tutor_require_package(Eigen3 FIND_ARGS NO_MODULE
  DEBIAN libeigen3-dev HOMEBREW eigen WHAT "the linear algebra the engine computes with")
tutor_require_package(fmt VERSION 9
  DEBIAN libfmt-dev HOMEBREW fmt WHAT "the formatting library lessons print with")
tutor_require_package(cxxopts VERSION 3.1
  DEBIAN libcxxopts-dev HOMEBREW cxxopts WHAT "the command-line parser of the course programs")
# cxxopts without its regular expressions, which cost each file that includes it about two and
# a half seconds of compiling; its own small parsers check option names and values instead.
add_library(tutor_cxxopts INTERFACE)
add_library(tutor::cxxopts ALIAS tutor_cxxopts)
target_link_libraries(tutor_cxxopts INTERFACE cxxopts::cxxopts)
target_compile_definitions(tutor_cxxopts INTERFACE CXXOPTS_NO_REGEX=1)
tutor_require_package(benchmark VERSION 1.7
  DEBIAN libbenchmark-dev HOMEBREW google-benchmark WHAT "Google Benchmark, for the speed targets")
tutor_require_package(nlohmann_json VERSION 3.10
  DEBIAN nlohmann-json3-dev HOMEBREW nlohmann-json WHAT "JSON, for traces and results")
tutor_require_package(tomlplusplus VERSION 3
  DEBIAN libtomlplusplus-dev HOMEBREW tomlplusplus WHAT "TOML, the format of the question banks")

# cmark-gfm, the Markdown of the lessons' prose: pkg-config finds the core library; its GFM
# extensions (tables) have no .pc file of their own on Debian, so find_library finds them.
# tutor::cmark_gfm carries both.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(tutor_cmark_gfm QUIET IMPORTED_TARGET libcmark-gfm)
endif()
find_path(TUTOR_CMARK_GFM_EXTENSIONS_INCLUDE_DIR cmark-gfm-core-extensions.h
  HINTS ${tutor_cmark_gfm_INCLUDE_DIRS})
find_library(TUTOR_CMARK_GFM_EXTENSIONS_LIBRARY cmark-gfm-extensions
  HINTS ${tutor_cmark_gfm_LIBRARY_DIRS})
if(NOT tutor_cmark_gfm_FOUND OR NOT TUTOR_CMARK_GFM_EXTENSIONS_INCLUDE_DIR OR NOT TUTOR_CMARK_GFM_EXTENSIONS_LIBRARY)
  tutor_missing_dependency("cmark-gfm with its extensions, found through pkg-config"
    "the Markdown of the lessons' prose"
    "pkgconf libcmark-gfm-dev libcmark-gfm-extensions-dev" "pkgconf cmark-gfm")
endif()
add_library(tutor_cmark_gfm INTERFACE)
add_library(tutor::cmark_gfm ALIAS tutor_cmark_gfm)
target_include_directories(tutor_cmark_gfm INTERFACE "${TUTOR_CMARK_GFM_EXTENSIONS_INCLUDE_DIR}")
target_link_libraries(tutor_cmark_gfm INTERFACE PkgConfig::tutor_cmark_gfm "${TUTOR_CMARK_GFM_EXTENSIONS_LIBRARY}")
# A BLAS, which the matrix-product benchmark (tests/benchmarks/matmul_vs_sgemm.cpp) measures the
# engine's own products against: Accelerate on macOS; elsewhere OpenBLAS, whose kernels are tuned
# for each CPU, in preference to whatever other BLAS is installed, and of Debian's three OpenBLAS
# builds the serial one, which computes on the calling thread as the engine does. The engine
# itself never calls a BLAS: its products add in an order of its own on every host
# (engine/pytorch/src/kernels/kernels.h, Note [Summation order on the cpu]).
set(tutor_saved_library_path "${CMAKE_LIBRARY_PATH}")
if(APPLE)
  set(BLA_VENDOR Apple)
else()
  set(BLA_VENDOR OpenBLAS)
  list(PREPEND CMAKE_LIBRARY_PATH "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-serial")
endif()
find_package(BLAS QUIET)
unset(BLA_VENDOR)
set(CMAKE_LIBRARY_PATH "${tutor_saved_library_path}")
if(NOT BLAS_FOUND)  # any other BLAS will do
  tutor_require_package(BLAS
    DEBIAN libopenblas-serial-dev HOMEBREW openblas WHAT "BLAS, the speed the matrix-product benchmark compares with")
endif()
