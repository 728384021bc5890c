# Cross-building the course for 64-bit Arm Linux (the instruction set of every Apple-silicon
# Mac) with Debian's aarch64 toolchain and its multiarch libraries (./setup --with-arm64
# installs both). The programs run on an x86-64 machine under qemu-user, which the kernel's
# binfmt_misc starts for every aarch64 executable: the build runs each lesson once (its
# --list-tests step) and the tests run them from scripts, so no emulator is named here.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config reads the aarch64 libraries' .pc files, not the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")

# The build runs each lesson it builds (--list-tests), so the emulation must work before it starts.
set(tutor_binfmt "/proc/sys/fs/binfmt_misc/qemu-aarch64")
if(NOT EXISTS "${tutor_binfmt}")
  message(FATAL_ERROR "The kernel cannot run aarch64 programs: ${tutor_binfmt} is missing.\n"
    "Install qemu-user-binfmt (./setup --with-arm64); where binfmt_misc is not mounted (a container),\n"
    "as root: mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc && update-binfmts --enable qemu-aarch64")
endif()
file(STRINGS "${tutor_binfmt}" tutor_binfmt_state LIMIT_COUNT 1)
if(NOT tutor_binfmt_state STREQUAL "enabled")
  message(FATAL_ERROR "The kernel's aarch64 emulation is ${tutor_binfmt_state}: as root, update-binfmts --enable qemu-aarch64")
endif()
