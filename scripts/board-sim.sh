#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A simulated board: cross-builds the samples for aarch64, installs them into a folder as a user
# would copy it to a board, and runs each one from that folder under qemu-aarch64, on PoCL for
# arm64 from Debian's packages, with --verify: once on a small image swapped into the folder's
# assets/input.bmp, then again on another of a different size, checking each output's size.
# Before the runs it checks what the folder asks of a board (scripts/check-bundle-libraries.sh:
# glibc 2.34 and libOpenCL.so.1) and that a failing run reports its error (exit 1).
# Prints how long each step took. docs/board.md explains the steps; CTest runs this script as the
# test board_sim (label board) when configured with -DSDK_BOARD_TESTS=ON.
# Usage: scripts/board-sim.sh [FOLDER]   (default build-board in the repository; run as root, or
#        with sudo, on Debian 12 amd64)
# FOLDER gets sysroot/ (scripts/board-sysroot.sh: reused by later runs), build/ (the cross-build),
# bundle/ (cmake --install), run/ (the working folder of the runs) and cache/ (the board's kernel
# and tuning caches, emptied first so that each run of this script measures a first run).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mkdir -p "${1:-$root/build-board}" && cd "${1:-$root/build-board}" && pwd)
sysroot=$work/sysroot
build=$work/build
bundle=$work/bundle
sudo=""
if (( EUID != 0 )); then sudo="sudo"; fi

# Each step's wall-clock time, and the processor time its programs used (bash's `times`: user
# and system time of finished children), which depends less on what else the machine runs.
# `times` runs in this shell, not in $(...), whose subshell has children of its own.
read_clocks() {
  times > "$work/.times"
  clock=$EPOCHREALTIME
  cpu=$(tail -n 1 "$work/.times" | awk '{ total = 0
    for (i = 1; i <= 2; i++) { split($i, part, "m"); total += part[1] * 60 + part[2] }
    print total }')
}
begin() { read_clocks; step_clock=$clock; step_cpu=$cpu; }
finish() {  # finish WHAT [NOTE]
  read_clocks
  awk -v what="$1" -v note="${2:-}" -v c0="$step_clock" -v c1="$clock" -v p0="$step_cpu" -v p1="$cpu" \
    'BEGIN { printf "board-sim: %s: %.1f s (processor %.1f s)%s\n", what, c1 - c0, p1 - p0, note }'
}

begin
all_clock=$clock all_cpu=$cpu

# 1. Host tools (amd64 packages): the cross compiler and qemu's user-mode emulator.
"$root/scripts/install-deps.sh" g++-aarch64-linux-gnu qemu-user python3

# 2. The board's libraries, from Debian's arm64 packages.
begin
"$root/scripts/board-sysroot.sh" "$sysroot"
finish sysroot

# 3. Two things PoCL for arm64 needs from the host when it runs under qemu (a real board has both).
# Its kernel library: PoCL names it by a path with '..' in it, which qemu's -L does not map into
# the sysroot, so the file must also be in the host's /usr/share/pocl/. A link beside the amd64
# files; a file of the same name that is not a link is the host's own and left alone.
for library in "$sysroot"/usr/share/pocl/kernel-aarch64-*.bc; do
  target=/usr/share/pocl/$(basename "$library")
  if [[ ! -e $target || -L $target ]]; then
    $sudo mkdir -p /usr/share/pocl
    $sudo ln -sfn "$library" "$target"
  fi
done
# Its linker: PoCL links each compiled kernel by starting aarch64-unknown-linux-gnu-ld (else ld).
# A program started from under qemu runs on the host, so this one is the host's cross linker,
# pointed at the sysroot's C library and libgcc.
tools=$work/tools
mkdir -p "$tools"
gcc_folders=("$sysroot"/usr/lib/gcc/aarch64-linux-gnu/*)
gcc_folder=${gcc_folders[0]}
rm -f "$tools/aarch64-unknown-linux-gnu-ld"  # never write through a link left there
cat > "$tools/aarch64-unknown-linux-gnu-ld" << EOF
#!/bin/sh
exec aarch64-linux-gnu-ld --sysroot="$sysroot" "\$@" -L "$gcc_folder" \\
  -L "$sysroot/lib/aarch64-linux-gnu" -L "$sysroot/usr/lib/aarch64-linux-gnu"
EOF
chmod +x "$tools/aarch64-unknown-linux-gnu-ld"

# 4. Cross-build and install: the folder a user copies to a board.
begin
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
  -DSDK_BOARD_SYSROOT="$sysroot" -DCMAKE_BUILD_TYPE=Release -DSDK_BUILD_TESTS=OFF \
  -DSDK_BUILD_BENCH=OFF > "$work/cross-build.log"
if ! cmake --build "$build" -j "$(nproc)" >> "$work/cross-build.log" 2>&1; then
  tail -n 30 "$work/cross-build.log" >&2
  echo "board-sim: the cross-build failed (log: $work/cross-build.log)" >&2
  exit 1
fi
finish cross-build
rm -rf "$bundle"
cmake --install "$build" --prefix "$bundle" > /dev/null
# What the folder asks of a board: glibc 2.34 or newer and libOpenCL.so.1, nothing else
# (SDK_PORTABLE_BUNDLE, on when cross-building, links the rest in).
"$root/scripts/check-bundle-libraries.sh" "$bundle"

# 5. Each sample from the installed folder, started from another working folder, on an image
# swapped into the folder's assets/input.bmp (no -i: the default input), then on another.
# The first image runs with the defaults, as a new user's first run does (its tuning stays within
# its time budget: one candidate under emulation); the second names a kernel and work-group shape,
# so that the later runs' measuring of the other candidates is not paid for here.
options_of() {
  case $1 in
    sobel) echo --variant 16x4 ;;
    fir_float) echo --variant buffer ;;
    morphology_packed) echo --work-group 32x8 ;;
  esac
}
bmp_size() {
  python3 -c 'import struct, sys
width, height = struct.unpack("<ii", open(sys.argv[1], "rb").read(26)[18:26])
print(f"{width}x{abs(height)}")' "$1"
}
export OCL_ICD_VENDORS=$sysroot/etc/OpenCL/vendors
export SDK_CACHE_DIR=$work/cache POCL_CACHE_DIR=$work/cache/pocl SDK_TUNING_CACHE=$work/cache/tuning.txt
export PATH=$tools:$PATH
rm -rf "$work/cache" "$work/run"
mkdir -p "$work/run"
samples=()
for program in "$bundle"/*; do
  if [[ -f $program && -x $program ]]; then samples+=("$(basename "$program")"); fi
done
# A run that fails: its error travels as a C++ exception through GCC's unwinder, linked into the
# program with a stand-in for glibc 2.35's _dl_find_object (common/portable/dl_find_object.cpp),
# to the one line and exit 1.
status=0
message=$(cd "$work/run" && qemu-aarch64 -L "$sysroot" "$bundle/sobel" -i missing.png 2>&1) || status=$?
if (( status != 1 )) || [[ $message != "sobel: cannot open 'missing.png'"* ]]; then
  echo "board-sim: sobel -i missing.png under qemu: exit $status, expected 1 and the error line; it printed:" >&2
  echo "$message" >&2
  exit 1
fi
for size in 96x64 72x40; do
  python3 "$root/scripts/make_test_image.py" "${size%x*}" "${size#*x}" "$bundle/assets/input.bmp"
  for sample in "${samples[@]}"; do
    begin
    # shellcheck disable=SC2046  # the options are words
    if ! (cd "$work/run" && qemu-aarch64 -L "$sysroot" "$bundle/$sample" --verify -q \
            -o "$sample.bmp" $([[ $size == 96x64 ]] || options_of "$sample")); then
      echo "board-sim: $sample failed under qemu on a $size image" >&2
      exit 1
    fi
    written=$(bmp_size "$work/run/$sample.bmp")
    if [[ $written != "$size" ]]; then
      echo "board-sim: $sample wrote a $written image from the $size one in assets/input.bmp" >&2
      exit 1
    fi
    finish "$sample on $size under qemu" ", verified"
  done
done
step_clock=$all_clock step_cpu=$all_cpu
finish "passed, in all"
