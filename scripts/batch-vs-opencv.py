#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A folder of photos to PNG edges: a sobel batch against OpenCV doing the same job.

Makes N photo-like JPEGs (the bundled assets/input.bmp scaled to camera size, with noise so no two
are alike and the codecs meet a photograph's detail), then in every round times, alternating so a
noisy moment hits both alike:
  - sobel -i FOLDER -o RESULTS (one process: PNG results, one photo in flight per core), and
  - OpenCV in a process pool of one worker per core, each photo read, made grey, Sobel dx and dy
    (3x3, CV_16S), their magnitude, written as PNG (the job of scripts/opencv-sobel-job.py),
    the pool's start included as sobel's start is; twice: read in colour then cvtColor to grey,
    and read as grey (IMREAD_GRAYSCALE: the JPEG's stored luminance, no chroma decoded, as sobel
    reads a JPEG).
Prints the median of the rounds for each, in photos/s, and sobel's as a multiple of OpenCV's.
    scripts/batch-vs-opencv.py BIN_DIR [--photos N] [--size WxH] [--rounds R] [-- SOBEL_ARGS...]
Skips, saying so, where cv2 is missing (Debian: python3-opencv).
"""
import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import cv2
    import numpy as np
except ImportError:
    print("batch-vs-opencv: skipped: OpenCV for Python (cv2) is not installed "
          "(Debian: apt-get install python3-opencv)")
    sys.exit(0)


def make_photos(bundled, folder, count, width, height):
    base = cv2.resize(cv2.imread(bundled, cv2.IMREAD_COLOR), (width, height),
                      interpolation=cv2.INTER_CUBIC)
    random = np.random.default_rng(28)
    for index in range(count):
        noise = random.normal(0, 6, base.shape)
        photo = np.clip(base.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        cv2.imwrite(os.path.join(folder, f"photo-{index:03d}.jpg"), photo,
                    [cv2.IMWRITE_JPEG_QUALITY, 92])


def opencv_job(job):
    source, target, read_grey = job
    if read_grey:
        grey = cv2.imread(source, cv2.IMREAD_GRAYSCALE)
    else:
        grey = cv2.cvtColor(cv2.imread(source, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
    dx = cv2.Sobel(grey, cv2.CV_16S, 1, 0, ksize=3)
    dy = cv2.Sobel(grey, cv2.CV_16S, 0, 1, ksize=3)
    magnitude = cv2.magnitude(dx.astype(np.float32), dy.astype(np.float32))
    cv2.imwrite(target, np.clip(magnitude, 0, 255).astype(np.uint8))


def one_thread_each():
    cv2.setNumThreads(1)  # the pool is the parallelism: one photo per worker, as sobel's jobs


def time_opencv(photos, results, workers, read_grey):
    jobs = [(path, os.path.join(results, os.path.splitext(os.path.basename(path))[0] + ".png"),
             read_grey) for path in photos]
    start = time.perf_counter()
    with multiprocessing.Pool(workers, initializer=one_thread_each) as pool:
        pool.map(opencv_job, jobs, chunksize=1)
    return time.perf_counter() - start


def time_sobel(sobel, folder, results, extra):
    start = time.perf_counter()
    subprocess.run([sobel, "-i", folder, "-o", results, "-q", *extra], check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin_dir")
    parser.add_argument("--photos", type=int, default=16)
    parser.add_argument("--size", default="4032x3024")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = sys.argv[1:]
    split = arguments.index("--") if "--" in arguments else len(arguments)
    options = parser.parse_args(arguments[:split])
    options.sobel_args = arguments[split + 1:]  # after --: more options for sobel
    width, height = (int(side) for side in options.size.split("x"))
    sobel = os.path.join(options.bin_dir, "sobel")
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as work:
        folder = os.path.join(work, "photos")
        os.mkdir(folder)
        # Made in a process of its own: OpenCV's threads, once started here, can leave the pool's
        # forked workers waiting for ever on a lock (pip's opencv-python).
        maker = multiprocessing.get_context("spawn").Process(
            target=make_photos, args=(os.path.join(options.bin_dir, "assets", "input.bmp"), folder,
                                      options.photos, width, height))
        maker.start()
        maker.join()
        if maker.exitcode != 0:
            sys.exit("batch-vs-opencv: making the photos failed")
        photos = sorted(os.path.join(folder, name) for name in os.listdir(folder))
        for path in photos:  # in the page cache, as photos just copied off a card
            with open(path, "rb") as file:
                file.read()
        time_sobel(sobel, folder, os.path.join(work, "warm-up"), options.sobel_args)  # tuning, caches
        sobel_s, opencv_s, opencv_grey_s = [], [], []
        for round_number in range(options.rounds):
            for name, times, run in (
                    ("sobel", sobel_s,
                     lambda out: time_sobel(sobel, folder, out, options.sobel_args)),
                    ("opencv", opencv_s, lambda out: time_opencv(photos, out, cores, False)),
                    ("opencv-grey", opencv_grey_s,
                     lambda out: time_opencv(photos, out, cores, True))):
                results = os.path.join(work, f"{name}-{round_number}")
                os.mkdir(results)
                times.append(run(results))
                subprocess.run(["rm", "-rf", results], check=True)
        sobel_rate = options.photos / statistics.median(sobel_s)
        opencv_rate = options.photos / statistics.median(opencv_s)
        opencv_grey_rate = options.photos / statistics.median(opencv_grey_s)
        print(f"{options.photos} JPEGs {width}x{height} to PNG edges, {cores} cores, median of "
              f"{options.rounds} rounds:")
        print(f"  sobel batch (one process)       {sobel_rate:7.2f} photos/s "
              f"({statistics.median(sobel_s):.2f} s)")
        print(f"  OpenCV Pool({cores}), colour + cvtColor {opencv_rate:7.2f} photos/s "
              f"({statistics.median(opencv_s):.2f} s)")
        print(f"  OpenCV Pool({cores}), read as grey     {opencv_grey_rate:7.2f} photos/s "
              f"({statistics.median(opencv_grey_s):.2f} s)")
        print(f"  sobel / OpenCV colour           {sobel_rate / opencv_rate:7.2f}x")
        print(f"  sobel / OpenCV grey             {sobel_rate / opencv_grey_rate:7.2f}x")


if __name__ == "__main__":
    main()
