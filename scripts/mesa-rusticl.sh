#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mesa's rusticl, the OpenCL of mainline Linux's open GPU drivers (Panfrost for Mali boards),
# here on its CPU driver llvmpipe: a third OpenCL implementation beside PoCL and Intel's, with an
# embedded driver's habits. It lets each of our kernels run at most 32 work-items a group
# (CL_KERNEL_WORK_GROUP_SIZE) on a device that allows 1024, and reports no profiling times
# (docs/portability.md).
#
# Usage:
#   scripts/mesa-rusticl.sh [--dir DIR]            set up (once) and print the environment
#   source scripts/mesa-rusticl.sh [--dir DIR]     set up and export it into this shell
#   scripts/mesa-rusticl.sh [--dir DIR] --run COMMAND [ARGS...]
#   scripts/mesa-rusticl.sh [--dir DIR] --test BUILD_DIR [CTEST_ARGS...]
#                                                  ctest (default: -LE oclgrind) on rusticl, the
#                                                  only platform the tests then see
# DIR defaults to $SDK_RUSTICL_DIR, else ~/.cache/mesa-rusticl. A second run finds it set up.
#
# Debian 12's mesa-opencl-icd holds rusticl (and Mesa's older clover). Installed, its platforms
# would join every run's platform list, PoCL's included; so its package is unpacked into DIR, and
# only its libraries' own dependencies are installed (libclc-15, libllvmspirvlib15, which nothing
# else loads). Three settings make the system's ICD loader (ocl-icd) use it alone:
# - OCL_ICD_VENDORS names DIR/vendors, whose one .icd file names libRusticlOpenCL by full path;
# - LD_LIBRARY_PATH reaches the package's other libraries;
# - RUSTICL_ENABLE=llvmpipe: rusticl lists no device unless told which drivers to expose.

rusticl_package=mesa-opencl-icd

# Unpacks rusticl into $1 unless a finished set-up of the installed Mesa version is there.
rusticl_setup() {
  local dir=$1 root version deb
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  # The package's run-time dependencies from Debian (its LLVM, libclc's kernels, SPIR-V).
  "$root/scripts/install-deps.sh" libclc-15 libllvmspirvlib15 libclang-cpp15 libllvm15 \
    libdrm2 libelf1 libsensors5 >&2 || return 1
  version=$(apt-cache policy "$rusticl_package" 2> /dev/null | awk '/Candidate:/ { print $2 }')
  [[ -n "$version" && "$version" != "(none)" ]] || {
    echo "mesa-rusticl: apt knows no $rusticl_package package (apt-get update?)" >&2
    return 1
  }
  if [[ "$(cat "$dir/.complete" 2> /dev/null)" == "$version" ]]; then return 0; fi
  echo "mesa-rusticl: unpacking $rusticl_package $version into $dir" >&2
  # Only what this script makes is removed: DIR may be a folder the user shares with other files.
  rm -rf "$dir/.complete" "$dir/debs" "$dir/root" "$dir/vendors"
  mkdir -p "$dir/debs" "$dir/vendors" || return 1
  # apt-get download writes into the current folder; as root it would first try as the _apt
  # user, who may not reach DIR (a warning, then the download as root anyway).
  local sandbox=()
  if (( EUID == 0 )); then sandbox=(-o APT::Sandbox::User=root); fi
  (cd "$dir/debs" && apt-get download "${sandbox[@]}" "$rusticl_package=$version" > /dev/null) ||
    return 1
  deb=$(ls "$dir"/debs/*.deb) && dpkg-deb -x "$deb" "$dir/root" || return 1
  local library
  library=$(ls "$dir"/root/usr/lib/*/libRusticlOpenCL.so.1* 2> /dev/null | head -n 1)
  [[ -n "$library" ]] || { echo "mesa-rusticl: no libRusticlOpenCL in $deb" >&2; return 1; }
  echo "$library" > "$dir/vendors/rusticl.icd" || return 1
  rm -rf "$dir/debs"
  echo "$version" > "$dir/.complete"
}

# The settings that make the ICD loader see this runtime alone (in the folder $1).
rusticl_environment() {
  local libraries
  libraries=$(dirname "$(cat "$1/vendors/rusticl.icd")")
  echo "OCL_ICD_VENDORS=$1/vendors"
  echo "LD_LIBRARY_PATH=$libraries${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "RUSTICL_ENABLE=llvmpipe"
}

# Run or sourced: scripts/opencl-runtime.sh's opencl_runtime_script tells which.
source "$(dirname "${BASH_SOURCE[0]}")/opencl-runtime.sh"
opencl_runtime_script mesa-rusticl "${SDK_RUSTICL_DIR:-${HOME:-/tmp}/.cache/mesa-rusticl}" \
  rusticl_setup rusticl_environment "$@"
