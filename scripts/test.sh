#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's second command: install what is missing, build everything and run the whole test
# suite with CTest (on PoCL when there is no GPU). Extra arguments go to ctest (-R, -L, -j ...).
# Ends with where the time went: the build's and the tests' seconds, and the slowest tests.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SDK_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
start=$SECONDS
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j "$(nproc)"
built=$SECONDS
status=0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@" || status=$?
tested=$SECONDS

# CTest's log of this run names each test, then its time: the ten slowest, longest first. Without
# a log (ctest stopped before it wrote one) the list is left out; the exit status stays ctest's.
echo
echo "test.sh: build $((built - start)) s, tests $((tested - built)) s on $(nproc) cores"
log=$build/Testing/Temporary/LastTest.log
if [[ -f $log ]]; then
  echo "the slowest tests:"
  awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
       /^Test time = / { printf "%8.2f s  %s\n", $4, name }' "$log" \
    | sort -rn | sed -n 1,10p  # head would end sort early: SIGPIPE under pipefail
fi
exit "$status"
