#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's first command: install what is missing, build every sample (sobel,
# sobel_no_vectors, fir_float, morphology_packed; the pages run them all), and run the sobel sample
# on the bundled photograph (on PoCL when there is no GPU). Writes output.bmp into the current
# folder (--save-gradients adds output-dX.bmp and output-dY.bmp). Extra arguments go to sobel
# (try --help).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SDK_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j "$(nproc)" --target sobel sobel_no_vectors fir_float morphology_packed
"$build/bin/sobel" --verify "$@"
