#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a test binary (or sample) under oclgrind, which simulates every work-item and checks each
# memory access: any message it logs (an out-of-bounds read or write, a data race, a read of
# uninitialised memory, a misused API call) fails the test, even when the results were right.
#   oclgrind_check.sh <executable> [arguments...]
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# SDK_PROGRAM_CACHE=0: a program oclgrind reloads from its own binary (LLVM bitcode) simulates
# about 18 times slower than one it built from source.
# SDK_OCLGRIND_CHECKS replaces the checks besides the bounds checks, which are always on.
# shellcheck disable=SC2086
SDK_PROGRAM_CACHE=0 SDK_TEST_SIZES=small oclgrind ${SDK_OCLGRIND_CHECKS:---check-api --data-races --uninitialized} --log "$log" "$@"
status=$?
if [[ -s "$log" ]]; then
  head -c 20000 "$log"
  echo "oclgrind_check: oclgrind reported the problems above"
  exit 1
fi
exit $status
