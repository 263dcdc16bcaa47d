#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a BMP of random pixels, 8-bit grey or with --rgb 24-bit, for timing the samples on large images.

    scripts/make_test_image.py 3264 2448 /tmp/3264x2448.bmp [--seed N] [--rgb]

Random pixels are incompressible, so no cache or file system shortcut flatters a timing.

Standard library only, so it runs on a board or a GPU box with nothing installed.
"""
import argparse
import random
import struct


def grey_bmp(width: int, height: int, pixels: bytes) -> bytes:
    row_pitch = (width + 3) // 4 * 4
    padding = bytes(row_pitch - width)
    palette = b"".join(bytes((v, v, v, 0)) for v in range(256))
    offset = 14 + 40 + len(palette)
    image_size = row_pitch * height
    file_header = struct.pack("<2sIHHI", b"BM", offset + image_size, 0, 0, offset)
    # Negative height: rows stored top-down, so the pixels can be written in order.
    info_header = struct.pack("<IiiHHIIiiII", 40, width, -height, 1, 8, 0, image_size,
                              2835, 2835, 256, 0)
    rows = (pixels[y * width:(y + 1) * width] + padding for y in range(height))
    return file_header + info_header + palette + b"".join(rows)


def rgb_bmp(width: int, height: int, pixels: bytes) -> bytes:
    """A 24-bit BMP, bottom-up as most writers store it; `pixels` holds 3 bytes a pixel."""
    row_bytes = 3 * width
    row_pitch = (row_bytes + 3) // 4 * 4
    padding = bytes(row_pitch - row_bytes)
    image_size = row_pitch * height
    file_header = struct.pack("<2sIHHI", b"BM", 54 + image_size, 0, 0, 54)
    info_header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, image_size,
                              2835, 2835, 0, 0)
    rows = (pixels[y * row_bytes:(y + 1) * row_bytes] + padding for y in range(height))
    return file_header + info_header + b"".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rgb", action="store_true", help="24-bit colour instead of 8-bit grey")
    args = parser.parse_args()
    generator = random.Random(args.seed)
    count = args.width * args.height * (3 if args.rgb else 1)
    chunk = 1 << 20  # randbytes() of a very large count overflows; draw it a MiB at a time
    pixels = b"".join(generator.randbytes(min(chunk, count - start))
                      for start in range(0, count, chunk))
    with open(args.output, "wb") as file:
        encode = rgb_bmp if args.rgb else grey_bmp
        file.write(encode(args.width, args.height, pixels))


if __name__ == "__main__":
    main()
