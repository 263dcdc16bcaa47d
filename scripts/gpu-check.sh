#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds, tests and times the samples on a GPU box (see ../shared/gpu): used by developers with
# the device tool; writes logs under $OUT.
set -uo pipefail
out=${OUT:-/tmp/gpu-out}; mkdir -p "$out"
build=build-gpu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; clinfo -l; } > "$out/device.txt" 2>&1
cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build $build -j 16 > "$out/build.log" 2>&1 || { grep -B2 -A8 error "$out/build.log" | head -80; exit 1; }
if [[ "${SKIP_TESTS:-0}" != 1 ]]; then
  SDK_TEST_DEVICE_TYPE=gpu ctest --test-dir $build -j 8 -LE oclgrind --output-on-failure > "$out/ctest.log" 2>&1; echo "ctest rc=$?"
  tail -4 "$out/ctest.log"; grep -E "\(Failed\)|\*\*\*" "$out/ctest.log" | head -20
fi
for size in ${SIZES:-3264x2448 8192x8192 16384x16384}; do
  python3 scripts/make_test_image.py ${size%x*} ${size#*x} /tmp/$size.bmp
done
IFS=';' read -ra runs <<< "${RUNS:-sobel_no_vectors;sobel --variant 16x1;sobel --variant 16x4;fir_float}"
for size in ${SIZES:-3264x2448 8192x8192 16384x16384}; do
  for run in "${runs[@]}"; do
    echo "== $size $run"
    $build/bin/$run -i /tmp/$size.bmp -o /tmp/o.bmp -n 50 --verify 2>&1 | grep -E "Kernel time|Verify|error|rror"
  done
done 2>&1 | tee "$out/timings.txt"
