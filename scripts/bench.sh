#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds bench and what its file/ benchmarks start (the samples, opencl_start_stop), runs it with
# Google Benchmark's JSON written to OUT_DIR/bench.json (console log in OUT_DIR/console.txt), then
# bench/plot.py: charts OUT_DIR/PREFIX-fraction.png/.svg and PREFIX-throughput.png/.svg, and the
# Markdown table in OUT_DIR/table.md.
# Usage: scripts/bench.sh OUT_DIR [bench options and --benchmark_* flags...]
#   scripts/bench.sh /tmp/pocl --sizes 512x512,3264x2448 --benchmark_min_time=0.2   # PoCL
#   scripts/bench.sh "$OUT" -t gpu --benchmark_repetitions=5   # a GPU, every size
# Environment: SDK_BUILD_DIR (default build-bench in the repository), PLOT_PREFIX (default perf),
# SDK_SKIP_APT=1 (no package installs; plot.py then prints the table without matplotlib).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if (( $# < 1 )); then
  echo "usage: scripts/bench.sh OUT_DIR [bench options...]" >&2
  exit 2
fi
out=$1
shift
build=${SDK_BUILD_DIR:-$root/build-bench}

# matplotlib only for the charts: passed here, not kept in install-deps.sh's list. A machine
# without a package mirror (a GPU box) goes on with what it has.
"$root/scripts/install-deps.sh" python3-matplotlib \
  || echo "bench.sh: could not install packages; going on with what is installed" >&2
mkdir -p "$out"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
# bench's file/ benchmarks start the samples and opencl_start_stop as processes: build them too.
cmake --build "$build" -j "$(nproc)" --target bench sobel sobel_no_vectors fir_float \
  morphology_packed opencl_start_stop
if [[ ! -x "$build/bin/bench" ]]; then
  echo "bench.sh: bench was not built: is Google Benchmark installed (libbenchmark-dev)?" >&2
  exit 1
fi

# A failed benchmark makes bench exit 1; the others' results are still worth plotting.
status=0
"$build/bin/bench" --benchmark_out="$out/bench.json" --benchmark_out_format=json "$@" \
  | tee "$out/console.txt" || status=$?
if [[ -s "$out/bench.json" ]]; then
  python=/usr/bin/python3
  [[ -x $python ]] || python=python3
  "$python" "$root/bench/plot.py" "$out/bench.json" --out-dir "$out" \
    --prefix "${PLOT_PREFIX:-perf}" > "$out/table.md"
  cat "$out/table.md"
fi
exit "$status"
