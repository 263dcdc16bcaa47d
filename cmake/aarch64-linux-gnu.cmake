# SPDX-License-Identifier: Apache-2.0
# Cross-building for a 64-bit Arm board running Linux (aarch64), with Debian's cross compiler
# (package g++-aarch64-linux-gnu) and an arm64 root folder that holds the board's libraries and
# headers (scripts/board-sysroot.sh makes one from Debian's arm64 packages; a copy of the board's
# own / works too). docs/board.md walks through it.
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DSDK_BOARD_SYSROOT=/path/to/sysroot -DSDK_BUILD_TESTS=OFF -DSDK_BUILD_BENCH=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(SDK_BOARD_SYSROOT "$ENV{SDK_BOARD_SYSROOT}" CACHE PATH
    "the board's root folder: its usr/include and usr/lib/aarch64-linux-gnu")
if(NOT SDK_BOARD_SYSROOT OR NOT IS_DIRECTORY "${SDK_BOARD_SYSROOT}/usr/include")
  message(FATAL_ERROR "SDK_BOARD_SYSROOT ('${SDK_BOARD_SYSROOT}') is not an arm64 root folder: "
                      "make one with scripts/board-sysroot.sh DIR, then pass -DSDK_BOARD_SYSROOT=DIR")
endif()
# try_compile projects configure with this file again: hand them the folder.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SDK_BOARD_SYSROOT)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_SYSROOT "${SDK_BOARD_SYSROOT}")

# Debian keeps architecture-specific headers in a multiarch folder (jconfig.h of libjpeg-turbo,
# the C library's bits/), which the cross compiler does not search inside a sysroot by itself.
include_directories(SYSTEM "${SDK_BOARD_SYSROOT}/usr/include/aarch64-linux-gnu")

# Libraries, headers and CMake packages from the board's folder only; programs (the compiler,
# Python for the docs) from the host.
set(CMAKE_FIND_ROOT_PATH "${SDK_BOARD_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
