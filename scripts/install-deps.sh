#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages the SDK needs, only those missing. Where there is no apt-get
# (a board, a GPU box), bring the OpenCL loader, headers, CLI11, GoogleTest, libpng and libjpeg
# yourself and point CMAKE_PREFIX_PATH at them; set SDK_SKIP_APT=1 to skip this step.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers clinfo
  pocl-opencl-icd          # OpenCL on the CPU: the default device when there is no GPU
  oclgrind                 # simulates kernels and checks every memory access (tests)
  libcli11-dev googletest libgtest-dev
  libpng-dev libjpeg62-turbo-dev   # reading PNG and JPEG photos, writing PNG (libpng, libjpeg-turbo)
  libbenchmark-dev         # Google Benchmark: bench (optional; CMake skips bench without it)
  parallel                 # GNU parallel: scripts/batch-over-machines.sh and its test
  "$@"
)

if [[ "${SDK_SKIP_APT:-0}" == 1 ]] || ! command -v apt-get > /dev/null; then
  echo "install-deps: skipping apt-get (SDK_SKIP_APT=1 or no apt-get); using what is installed"
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if (( ${#missing[@]} == 0 )); then exit 0; fi

sudo=""
if (( EUID != 0 )); then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
