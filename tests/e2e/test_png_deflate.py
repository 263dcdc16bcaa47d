#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The device's PNG deflate end to end: `sobel` writes its PNG once through zlib on the host
(SDK_PNG_DEFLATE=host) and once through the device's encoder (=device); both files decode, with
Python's own zlib and PNG unfiltering (and PIL or cv2 where installed), to the same pixels. An
unknown SDK_PNG_DEFLATE is a usage error: exit 2, one line, no output.

Usage: test_png_deflate.py BIN_DIR   (the folder of the sample executables)
"""
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

BIN = None


def run_sobel(output, place):
    environment = dict(os.environ, SDK_PNG_DEFLATE=place)
    return subprocess.run([os.path.join(BIN, "sobel"), "-q", "-o", output], env=environment,
                          capture_output=True, timeout=300)


def unfilter_row(kind, row, above, step):
    """One row of PNG filter type `kind` back to its bytes (PNG spec, section 9)."""
    out = bytearray(row)
    for i in range(len(out)):
        left = out[i - step] if i >= step else 0
        up = above[i]
        upper_left = above[i - step] if i >= step else 0
        if kind == 1:
            out[i] = (out[i] + left) & 0xFF
        elif kind == 2:
            out[i] = (out[i] + up) & 0xFF
        elif kind == 3:
            out[i] = (out[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            p = left + up - upper_left
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
            predictor = left if pa <= pb and pa <= pc else up if pb <= pc else upper_left
            out[i] = (out[i] + predictor) & 0xFF
    return out


def decode_png(path):
    """(width, height, pixels) of an 8-bit grey or RGB PNG, by zlib and the PNG filters alone."""
    with open(path, "rb") as png:
        data = png.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, stream, width, height, channels = 8, b"", 0, 0, 0
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        crc = struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]
        assert zlib.crc32(kind + body) == crc
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            channels = {0: 1, 2: 3}[colour]
        elif kind == b"IDAT":
            stream += body
        at += 12 + length
    rows = zlib.decompress(stream)  # checks the Adler-32 too
    row_bytes = width * channels
    assert len(rows) == height * (row_bytes + 1)
    pixels, above = bytearray(), bytearray(row_bytes)
    for y in range(height):
        start = y * (row_bytes + 1)
        above = unfilter_row(rows[start], rows[start + 1:start + 1 + row_bytes], above, channels)
        pixels += above
    return width, height, bytes(pixels)


class DevicePngDeflate(unittest.TestCase):
    def setUp(self):
        self.folder_object = tempfile.TemporaryDirectory()
        self.folder = self.folder_object.name

    def tearDown(self):
        self.folder_object.cleanup()

    def test_host_and_device_files_decode_to_the_same_pixels(self):
        decoded = {}
        for place in ("host", "device"):
            output = os.path.join(self.folder, place + ".png")
            result = run_sobel(output, place)
            self.assertEqual(result.returncode, 0, result.stderr.decode(errors="replace"))
            decoded[place] = decode_png(output)
        self.assertEqual(decoded["device"], decoded["host"])
        # The device's encoder really ran: its blocks are not zlib's.
        with open(os.path.join(self.folder, "host.png"), "rb") as host, \
                open(os.path.join(self.folder, "device.png"), "rb") as device:
            self.assertNotEqual(host.read(), device.read())
        self.check_with_libraries(os.path.join(self.folder, "device.png"), decoded["host"])

    def check_with_libraries(self, path, expected):
        width, height, pixels = expected
        try:
            from PIL import Image
        except ImportError:
            Image = None
        if Image is not None:
            with Image.open(path) as image:
                self.assertEqual(image.size, (width, height))
                self.assertEqual(image.tobytes(), pixels)
        try:
            import cv2
        except ImportError:
            cv2 = None
        if cv2 is not None:
            image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
            self.assertEqual(image.shape[:2], (height, width))
            self.assertEqual(image.tobytes(), pixels)
        if Image is None and cv2 is None:
            print("PIL and cv2 not installed: decoded with zlib alone")

    def test_unknown_setting_is_a_usage_error(self):
        output = os.path.join(self.folder, "out.png")
        result = run_sobel(output, "gpu")
        self.assertEqual(result.returncode, 2)
        message = result.stderr.decode(errors="replace").strip()
        self.assertIn("SDK_PNG_DEFLATE='gpu'", message)
        self.assertEqual(len(message.splitlines()), 1, message)
        self.assertEqual(os.listdir(self.folder), [])


if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main()
