#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Our kernels against the libraries a GPU developer would otherwise call, in one run on one GPU,
# alternating: bench's kernel/ timings (OpenCL profiling events), NVIDIA's NPP
# (bench/gpu_libraries/npp_filters.cpp, CUDA events) and OpenCV's OpenCL path
# (bench/gpu_libraries/opencv_ocl_filters.py, host clock to cv2.ocl.finish()), ROUNDS rounds of
# each in turn; then OUT_DIR/summary.md, the median of the rounds' medians per case.
# NPP needs the CUDA toolkit (CUDA_HOME, default /usr/local/cuda) and is skipped without it;
# OpenCV's part is skipped where cv2 has no OpenCL device.
# Usage: scripts/compare-gpu-libraries.sh OUT_DIR [SIZE (default 16384)] [bench flags...]
#   scripts/compare-gpu-libraries.sh "$OUT/libs" 16384 -t gpu
# Environment: SDK_BUILD_DIR (default build-bench), ROUNDS (3), PYTHON (python3 with cv2),
# BENCH_FILTER (the kernel/ benchmarks compared, default fir and morphology).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if (( $# < 1 )); then
  echo "usage: scripts/compare-gpu-libraries.sh OUT_DIR [SIZE] [bench flags...]" >&2
  exit 2
fi
out=$1
size=${2:-16384}
shift $(( $# >= 2 ? 2 : 1 ))
build=${SDK_BUILD_DIR:-$root/build-bench}
cuda=${CUDA_HOME:-/usr/local/cuda}
python=${PYTHON:-python3}
filter=${BENCH_FILTER:-kernel/(fir|morphology)/.*/${size}x${size}}
mkdir -p "$out"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j "$(nproc)" --target bench > /dev/null
npp=
if [[ -x $cuda/bin/nvcc || -f $cuda/include/npp.h ]]; then
  npp=$out/npp_filters
  g++ -O2 -std=c++17 -I"$cuda/include" "$root/bench/gpu_libraries/npp_filters.cpp" -o "$npp" \
    -L"$cuda/lib64" -lnppif -lnppim -lnppc -lcudart -Wl,-rpath,"$cuda/lib64"
else
  echo "compare-gpu-libraries.sh: no CUDA toolkit at $cuda: NPP left out" >&2
fi

for round in $(seq 1 "${ROUNDS:-3}"); do
  echo "== round $round" >&2
  "$build/bin/bench" --sizes "${size}x${size}" --benchmark_filter="$filter|copy_bandwidth" \
    --benchmark_out="$out/bench-$round.json" --benchmark_out_format=json "$@" > /dev/null
  [[ -n $npp ]] && "$npp" "$size" "$size" > "$out/npp-$round.jsonl"
  "$python" "$root/bench/gpu_libraries/opencv_ocl_filters.py" "$size" "$size" \
    > "$out/opencv-$round.jsonl" || rm -f "$out/opencv-$round.jsonl"
done

python3 - "$out" <<'PY' | tee "$out/summary.md"
import glob, json, statistics, sys
out = sys.argv[1]
times = {}
for path in sorted(glob.glob(f"{out}/bench-*.json")):
    for row in json.load(open(path))["benchmarks"]:
        if row.get("run_type") == "aggregate":
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[row.get("time_unit", "ns")]
        times.setdefault(("ours (OpenCL events)", row["name"]), []).append(row["real_time"] * scale)
for library in ("npp", "opencv"):
    for path in sorted(glob.glob(f"{out}/{library}-*.jsonl")):
        for line in open(path):
            row = json.loads(line)
            if "case" in row:
                label = "NPP (CUDA events)" if library == "npp" else "OpenCV OpenCL (host clock)"
                times.setdefault((label, row["case"]), []).append(row["median_ms"])
print("| who | case | median ms over rounds | rounds |")
print("| --- | --- | ---: | ---: |")
for (who, case), values in sorted(times.items()):
    print(f"| {who} | {case} | {statistics.median(values):.4g} | {len(values)} |")
PY
