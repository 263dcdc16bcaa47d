#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times whole runs of a sample, file in to file out, as a user waits for them, against the floor
# measured in the same run: reading the input from the page cache and writing the output's bytes
# (dd), alternating the two in every round so that a noisy moment hits all alike. Beside the
# floor, when it is built in BIN_DIR: opencl_start_stop, the driver's start and stop alone, what
# any OpenCL process pays on the machine.
#   scripts/whole-run.sh BIN_DIR WIDTHxHEIGHT [ROUNDS] -- 'sobel' 'sobel --host-conversions' ...
# Each command after -- is run from BIN_DIR with -i INPUT -o OUTPUT -q added. Prints the median
# wall time of each, its peak memory (GNU time, when installed) and the floor.
# With OPENCV_JOB=1, every round also times OpenCV doing sobel's job in a warm Python process
# (scripts/opencv-sobel-job.py: the median of 3 jobs after a warm-up; python3-opencv or
# opencv-python), and each run is also given as a multiple of it: the comparison the whole
# process is held to, measured in the same rounds so a noisy moment hits both.
# With OUTPUT_FORMAT=png, the samples and OpenCV's job write PNG instead of BMP (the floor still
# writes the BMP's bytes: the pixels any format must at least hold).
set -euo pipefail
bin=$1; size=$2; rounds=${3:-5}; shift 3; [[ ${1:-} == -- ]] && shift
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
format=${OUTPUT_FORMAT:-bmp}
input=$work/input.bmp
python3 "$(dirname "$0")/make_test_image.py" "${size%x*}" "${size#*x}" "$input" --rgb
cat "$input" > /dev/null  # in the page cache, as a file a user just saved
out_bytes=$(( (${size%x*} + 3) / 4 * 4 * ${size#*x} + 1078 ))  # the 8-bit output BMP
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000 )) | awk '{printf "%.1f", $1 / 1000}'; }
timer=(); [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -f "%M" -o "$work/rss")
results=$work/results.txt
# Debian's python3-opencv installs for /usr/bin/python3, which may not be the python3 on PATH.
opencv_python=python3
/usr/bin/python3 -c "import cv2" 2> /dev/null && opencv_python=/usr/bin/python3
for ((round = 0; round < rounds; ++round)); do
  t0=$(now); dd if="$input" of=/dev/null bs=16M status=none; t1=$(now)
  echo "floor: read input (page cache)|$(ms $t0 $t1)|" >> "$results"
  t0=$(now); dd if=/dev/zero of="$work/floor.bmp" bs=16M count="$out_bytes" iflag=count_bytes \
    status=none; t1=$(now); rm -f "$work/floor.bmp"
  echo "floor: write output|$(ms $t0 $t1)|" >> "$results"
  if [[ -x $bin/opencl_start_stop ]]; then
    t0=$(now); "$bin/opencl_start_stop"; t1=$(now)
    echo "driver: start and stop, nothing else|$(ms $t0 $t1)|" >> "$results"
  fi
  if [[ ${OPENCV_JOB:-0} == 1 ]]; then
    job=$("$opencv_python" "$(dirname "$0")/opencv-sobel-job.py" "$input" "$work/opencv.$format" 3)
    [[ $job =~ median\ ([0-9.]+) ]] || { echo "whole-run.sh: opencv job printed: $job" >&2; exit 1; }
    echo "opencv: sobel's job in a warm process|${BASH_REMATCH[1]}|" >> "$results"
    rm -f "$work/opencv.$format"
  fi
  for run in "$@"; do
    read -ra words <<< "$run"
    t0=$(now)
    program=${words[0]}; [[ $program == */* ]] || program=$bin/$program
    "${timer[@]}" "$program" "${words[@]:1}" -q -i "$input" -o "$work/output.$format"
    t1=$(now)
    rss=""; [[ -f $work/rss ]] && rss=$(tail -1 "$work/rss")
    echo "$run|$(ms $t0 $t1)|$rss" >> "$results"
    rm -f "$work"/output*."$format"
  done
done
python3 - "$results" "$size" "$rounds" "$format" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, ms, rss = line.rstrip("\n").split("|")
    rows.setdefault(name, []).append((float(ms), int(rss) if rss else None))
print(f"{sys.argv[2]}, {sys.argv[4]} out, median of {sys.argv[3]} alternating rounds")
print(f"{'run':50} {'ms':>9} {'peak MB':>8}")
floor = sum(statistics.median(m for m, _ in v) for k, v in rows.items() if k.startswith("floor"))
driver = next((statistics.median(m for m, _ in v) for k, v in rows.items() if k.startswith("driver")), None)
opencv = next((statistics.median(m for m, _ in v) for k, v in rows.items() if k.startswith("opencv")), None)
for name, values in rows.items():
    median = statistics.median(m for m, _ in values)
    rss = max((r for _, r in values if r), default=None)
    ratios = "" if name.startswith(("floor", "driver", "opencv")) else f"   {median / floor:5.2f}x floor" + \
        (f", {median / (floor + driver):5.2f}x floor + driver" if driver else "") + \
        (f", {median / opencv:5.2f}x opencv's warm job" if opencv else "")
    print(f"{name:50} {median:9.1f} {rss / 1024 if rss else float('nan'):8.0f}" + ratios)
print(f"{'floor (read + write)':50} {floor:9.1f}")
PY
