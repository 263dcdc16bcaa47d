#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""OpenCV's OpenCL path (cv2.UMat) doing our filters' jobs, for the side-by-side on a GPU
(scripts/compare-gpu-libraries.sh runs it). OpenCV exposes no OpenCL events, so each call is
timed on the host's clock up to cv2.ocl.finish(): warmed up, repeated, the median. That adds
the launch's host cost (tens of microseconds) that an event time leaves out; the report says so.

    opencv_ocl_filters.py [WIDTH [HEIGHT [REPETITIONS]]]

Output: one JSON object a line, like bench/gpu_libraries/npp_filters.cpp's.
"""
import json
import statistics
import sys
import time

import numpy as np

try:
    import cv2
except ImportError:
    sys.exit("opencv_ocl_filters.py: OpenCV's Python module (cv2) is not installed")


def median_ms(call, repetitions):
    for _ in range(3):
        call()
    cv2.ocl.finish()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        call()
        cv2.ocl.finish()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def report(case, width, height, ms, nbytes):
    print(json.dumps({"case": case, "size": f"{width}x{height}", "median_ms": round(ms, 5),
                      "bytes": nbytes, "clock": "host, to cv2.ocl.finish()"}), flush=True)


def main():
    width = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
    height = int(sys.argv[2]) if len(sys.argv) > 2 else width
    repetitions = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    if not cv2.ocl.haveOpenCL():
        sys.exit("opencv_ocl_filters.py: this OpenCV has no OpenCL")
    cv2.ocl.setUseOpenCL(True)
    device = cv2.ocl.Device.getDefault().name()
    if not cv2.ocl.useOpenCL() or not device:
        sys.exit("opencv_ocl_filters.py: OpenCV found no OpenCL device (it would time its CPU path)")
    print(json.dumps({"opencv": cv2.__version__, "device": device}), flush=True)
    random = np.random.default_rng(42)
    pixels = width * height

    luminance = cv2.UMat(random.random((height, width), dtype=np.float32) * 255)
    output = cv2.UMat(height, width, cv2.CV_32F)
    for k in (3, 5, 7, 9, 15):
        weights = np.full((k, k), 1.0 / (k * k), dtype=np.float32)
        ms = median_ms(lambda: cv2.filter2D(luminance, -1, weights, dst=output,
                                            borderType=cv2.BORDER_REPLICATE), repetitions)
        report(f"fir {k}x{k}", width, height, ms, 8 * pixels)

    binary = cv2.UMat((random.integers(0, 2, (height, width)) * 255).astype(np.uint8))
    dilated = cv2.UMat(height, width, cv2.CV_8U)
    for k in (3, 31):
        element = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
        ms = median_ms(lambda: cv2.dilate(binary, element, dst=dilated,
                                          borderType=cv2.BORDER_REPLICATE), repetitions)
        report(f"dilate {k}x{k}", width, height, ms, 2 * pixels)


if __name__ == "__main__":
    main()
