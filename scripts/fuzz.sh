#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes the image readers (sdk::decode_image: BMP, PNG, JPEG) with libFuzzer for a bounded time;
# exits non-zero on a crash and prints the crash file's name (copy it into tests/fuzz/regressions/,
# where the test suite replays it, then fix the bug). One run of FUZZ_SECONDS covers all three
# formats: the seeds hold each, and decode_image picks the reader by the first bytes.
# Needs clang with libFuzzer's runtime; on Debian 12 the packages `clang` (clang 14) and
# `libclang-rt-14-dev` (libclang_rt.fuzzer-x86_64.a, only a recommendation of clang-14, so absent
# with --no-install-recommends). Installed below when missing, with the SDK's own packages.
# Usage: scripts/fuzz.sh [BUILD_FOLDER]   (default build-fuzz; relative to the current folder)
# Environment: FUZZ_SECONDS (default 60), FUZZ_CXX (default clang++).
# The seed corpus is generated into BUILD_FOLDER/corpus/seed; inputs the fuzzer finds interesting
# accumulate in BUILD_FOLDER/corpus/found and are reused by the next run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build-fuzz}
seconds=${FUZZ_SECONDS:-60}

"$root/scripts/install-deps.sh" clang libclang-rt-14-dev
CXX=${FUZZ_CXX:-clang++} cmake -S "$root/tests/fuzz" -B "$build" > /dev/null
cmake --build "$build" -j "$(nproc)" > /dev/null

# Saved crashes first: a quick check that no known bug has come back. The replay names each
# input before running it, so the log's last line is the one that failed.
if ! "$build/fuzz_image_replay" "$root/tests/fuzz/regressions" > "$build/replay.log"; then
  echo "fuzz.sh: a saved regression fails again: $(tail -n 1 "$build/replay.log")" >&2
  exit 1
fi

rm -rf "$build/corpus/seed" "$build/artifacts"
mkdir -p "$build/corpus/found" "$build/artifacts"
"$build/make_seed_corpus" "$build/corpus/seed"

echo "fuzz.sh: fuzzing decode_image (BMP, PNG, JPEG) for $seconds s"
status=0
"$build/fuzz_image" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
  -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
  "$build/corpus/found" "$build/corpus/seed" 2> "$build/fuzz.log" || status=$?
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)" "$build/fuzz.log" || true

if (( status != 0 )); then
  tail -n 40 "$build/fuzz.log" >&2
  shopt -s nullglob
  artifacts=("$build/artifacts/"*)
  for artifact in "${artifacts[@]}"; do
    echo "fuzz.sh: crash: $artifact (reproduce: $build/fuzz_image_replay $artifact)" >&2
  done
  (( ${#artifacts[@]} > 0 )) || echo "fuzz.sh: fuzzer failed (status $status), no crash file" >&2
  exit 1
fi
echo "fuzz.sh: no crash"
