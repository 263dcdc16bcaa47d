#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""OpenCV doing the sobel sample's job, for the whole-run comparison (docs/whole_run.md).

In one warm process: read the BMP, BGR to grey, Sobel dx and dy (CV_16S, 3x3), the magnitude,
write the 8-bit result. The first job warms the process up; the median of the next N is printed.
    scripts/opencv-sobel-job.py INPUT.bmp OUTPUT.bmp|OUTPUT.png [N]      (Debian: python3-opencv)
"""
import statistics
import sys
import time

import cv2
import numpy as np


def job(source, target):
    colour = cv2.imread(source, cv2.IMREAD_COLOR)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    dx = cv2.Sobel(grey, cv2.CV_16S, 1, 0, ksize=3)
    dy = cv2.Sobel(grey, cv2.CV_16S, 0, 1, ksize=3)
    magnitude = cv2.magnitude(dx.astype(np.float32), dy.astype(np.float32))
    cv2.imwrite(target, np.clip(magnitude, 0, 255).astype(np.uint8))


def main():
    source, target = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    job(source, target)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job(source, target)
        times.append((time.perf_counter() - start) * 1000)
    print(f"opencv job in a warm process: median {statistics.median(times):.1f} ms of {runs} "
          f"({cv2.getNumThreads()} threads)")


if __name__ == "__main__":
    main()
