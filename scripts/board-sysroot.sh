#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes an arm64 (aarch64) Debian 12 root folder for cross-building the samples and for running
# them under qemu-aarch64: the C and C++ runtimes, the OpenCL loader and headers, PoCL for arm64
# with the LLVM/clang 15 it compiles kernels with, libpng, libjpeg-turbo and zlib with their
# headers, CLI11, and everything those depend on.
# Usage: scripts/board-sysroot.sh DIR     (run as root on Debian 12 amd64)
#
# The arm64 packages are downloaded (apt-get download) and unpacked (dpkg -x) into DIR, never
# installed: apt would refuse arm64 PoCL beside the amd64 one as a conflict and remove the amd64
# compilers and PoCL to make room. The .deb files stay in DIR/.debs, so a second run downloads
# nothing; a finished DIR (its .unpacked stamp matches this script's package list) is left as it is.
set -euo pipefail
if (( $# != 1 )); then
  echo "usage: scripts/board-sysroot.sh DIR" >&2
  exit 2
fi
sysroot=$(mkdir -p "$1" && cd "$1" && pwd)
debs=$sysroot/.debs

# What the board needs; apt-cache adds what these depend on. The headers and CLI11 are the same
# for every architecture (Architecture: all).
roots=(
  libc6:arm64 libstdc++6:arm64 libgcc-s1:arm64
  ocl-icd-libopencl1:arm64 ocl-icd-opencl-dev:arm64 opencl-c-headers opencl-clhpp-headers
  pocl-opencl-icd:arm64 libpocl2:arm64
  libpng16-16:arm64 libpng-dev:arm64 libjpeg62-turbo:arm64 libjpeg62-turbo-dev:arm64
  zlib1g:arm64 zlib1g-dev:arm64
  libcli11-dev
)
stamp="${roots[*]}"
if [[ -f $sysroot/.unpacked && $(cat "$sysroot/.unpacked") == "$stamp" ]]; then
  echo "board-sysroot: $sysroot is ready (delete its .unpacked to unpack it again)"
  exit 0
fi

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "board-sysroot: dpkg --add-architecture arm64 (lets apt see arm64 packages; installs none)"
  dpkg --add-architecture arm64
fi
apt-get update -qq

# The dependency closure, each package once: an arm64 package is named name:arm64; a name without
# a suffix is either Architecture: all (kept) or the amd64 twin of an arm64 package that is
# listed too (left out). Virtual packages (<name>) are provided by listed real ones.
closure=()
while read -r name; do
  if [[ $name == *:arm64 ]]; then
    closure+=("$name")
  elif [[ $(apt-cache show --no-all-versions "$name" | sed -n 's/^Architecture: //p' | head -n 1) == all ]]; then
    closure+=("$name")
  fi
done < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
           --no-replaces --no-enhances "${roots[@]}" | grep -v '^[ <]' | sort -u)

# Download only the .deb files the cache lacks (apt-get download fetches a file again otherwise).
mkdir -p "$debs"
missing=()
while read -r _ file _; do
  if [[ ! -s $debs/$file ]]; then
    package=${file%%_*}
    architecture=${file##*_}
    architecture=${architecture%.deb}
    if [[ $architecture == all ]]; then missing+=("$package"); else missing+=("$package:$architecture"); fi
  fi
done < <(cd "$debs" && apt-get download --print-uris "${closure[@]}" 2> /dev/null)
echo "board-sysroot: ${#closure[@]} packages, ${#missing[@]} to download into $debs"
# A failed download shows as a missing .deb below. Root's downloads into a folder the _apt user
# cannot write are unsandboxed, as apt warns each time: that is expected here.
if (( ${#missing[@]} > 0 )); then
  (cd "$debs" && apt-get download -q "${missing[@]}") 2>&1 | grep -v -e '^Get:' -e 'unsandboxed' || true
fi

rm -f "$sysroot/.unpacked"
shopt -s nullglob
for package in "${closure[@]}"; do
  name=${package%:arm64}
  files=("$debs/${name}"_*_arm64.deb "$debs/${name}"_*_all.deb)
  if (( ${#files[@]} != 1 )); then
    echo "board-sysroot: expected one .deb of $package in $debs, found ${#files[@]} (see the apt-get messages above)" >&2
    exit 1
  fi
  dpkg -x "${files[0]}" "$sysroot"
done
# Links to absolute paths (libz.so -> /lib/aarch64-linux-gnu/libz.so.1...) would point into the
# host's own root: make them relative, so they stay inside DIR wherever it is.
while read -r link; do
  ln -sfr "$sysroot$(readlink "$link")" "$link"
done < <(find "$sysroot" -type l -lname '/*')
echo "$stamp" > "$sysroot/.unpacked"
echo "board-sysroot: $sysroot is ready"
