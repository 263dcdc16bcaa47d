#!/usr/bin/env python3
"""Writes an 8-bit greyscale BMP of random pixels, for timing the samples on large images.

    scripts/make_test_image.py 3264 2448 /tmp/3264x2448.bmp [--seed N]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    generator = random.Random(args.seed)
    count = args.width * args.height
    chunk = 1 << 20  # randbytes() of a very large count overflows; draw it a MiB at a time
    pixels = b"".join(generator.randbytes(min(chunk, count - start))
                      for start in range(0, count, chunk))
    with open(args.output, "wb") as file:
        file.write(grey_bmp(args.width, args.height, pixels))


if __name__ == "__main__":
    main()
