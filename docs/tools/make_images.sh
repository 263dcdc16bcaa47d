#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes the docs' pictures (docs/images/*.png, except the perf-* charts) from real runs of the
# samples on the bundled image, each run with --verify, so every picture is an output the C++
# reference agrees with. Pixels are converted losslessly; nothing is resized.
#
#   docs/tools/make_images.sh build/bin          (the folder holding the built samples)
#
# Needs python3 with Pillow (Debian: python3-pil); without Pillow, ImageMagick's `convert`
# (Debian: imagemagick) does the conversion. Any OpenCL device works: the outputs are bit-exact.
set -euo pipefail

if [[ $# -ne 1 || ! -x $1/sobel ]]; then
    echo "usage: $0 BUILD_BIN_DIR   (the folder with the sobel, fir_float and morphology_packed" \
         "executables, e.g. build/bin)" >&2
    exit 2
fi
bin=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
images=$root/docs/images
python=/usr/bin/python3
[[ -x $python ]] || python=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

if "$python" -c "import PIL" 2>/dev/null; then
    converter=pillow
elif command -v convert > /dev/null; then
    converter=imagemagick
else
    echo "$0: needs Pillow (apt install python3-pil) or ImageMagick (apt install imagemagick)" >&2
    exit 1
fi

# png SOURCE DESTINATION [negate]: a BMP, PBM or 2-D uint8 .npy file as PNG, grey or colour as
# the source is; `negate` swaps black and white (PBM draws foreground, its 1 bits, black).
png() {
    local source=$1 destination=$2 negate=${3:-}
    if [[ $source == *.npy ]]; then
        # The samples' .npy files are C-order uint8 arrays (common/imageio/npy.cpp): header, then pixels.
        "$python" - "$source" "$work/npy.pgm" <<'EOF'
import ast, struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:6] == b"\x93NUMPY", "not a .npy file"
header_length = struct.unpack("<H", data[8:10])[0]
header = ast.literal_eval(data[10:10 + header_length].decode("latin-1"))
assert header["descr"] in ("|u1", "<u1") and not header["fortran_order"], header
height, width = header["shape"]
pixels = data[10 + header_length:]
open(sys.argv[2], "wb").write(b"P5 %d %d 255\n" % (width, height) + pixels[:width * height])
EOF
        source=$work/npy.pgm
    fi
    if [[ $converter == pillow ]]; then
        "$python" - "$source" "$destination" "$negate" <<'EOF'
import sys
from PIL import Image, ImageOps
image = Image.open(sys.argv[1])
if image.mode == "P":  # the samples' 8-bit BMPs: grey palettes, kept grey
    palette = image.getpalette()[:768]
    grey = all(palette[i] == palette[i + 1] == palette[i + 2] for i in range(0, len(palette), 3))
    image = image.convert("L" if grey else "RGB")
elif image.mode != "L":
    image = image.convert("L" if image.mode == "1" else "RGB")
if sys.argv[3] == "negate":
    image = ImageOps.invert(image)
image.save(sys.argv[2], optimize=True)
EOF
    else
        convert "$source" ${negate:+-negate} -strip -define png:exclude-chunks=date,time \
            "$destination"
    fi
    echo "wrote ${destination#"$root"/}"
}

mkdir -p "$images"

# The input: the photograph as it is, and the 8-bit luminance every filter works on.
"$bin/sobel" -q --verify --variant 16x4 -o sobel.bmp --save-raw sobel-raw --save-gradients
png "$bin/assets/input.bmp" "$images/input.png"
png sobel-raw/luminance.npy "$images/luminance.png"

# Sobel: the magnitude (output.bmp) and |dX|, |dY| (output-dX.bmp, output-dY.bmp).
png sobel.bmp "$images/sobel-output.png"
png sobel-dX.bmp "$images/sobel-dx.png"
png sobel-dY.bmp "$images/sobel-dy.png"

# The naive kernel writes the same bytes; the picture proves it on every run of this script.
"$bin/sobel_no_vectors" -q --verify -o naive.bmp
cmp -s naive.bmp sobel.bmp || { echo "$0: sobel_no_vectors and sobel differ" >&2; exit 1; }

# FIR: the tutorial's weights [30 5 6; 19 30 9; 15 5 40] / 256, a slight blur.
"$bin/fir_float" -q --verify -o fir.bmp
png fir.bmp "$images/fir-output.png"

# Morphology, the blog's use, joining pixels that lie close together: the Sobel magnitude above
# (the sobel sample's output.bmp) thresholded at 32 gives broken edges; closing them with the
# 13-pixel diamond joins nearby fragments and fills finely textured areas. The 3x3 square, for
# comparison, joins less. input.pbm is the binarised input, drawn like output.bmp, foreground white.
"$bin/morphology_packed" -q --verify -i sobel.bmp --threshold 32 --op close --shape diamond \
    -o morphology.bmp --save-raw morphology-raw
png morphology-raw/input.pbm "$images/morphology-input.png" negate
png morphology.bmp "$images/morphology-output.png"
"$bin/morphology_packed" -q --verify -i sobel.bmp --threshold 32 --op close --shape square \
    -o morphology-square.bmp
png morphology-square.bmp "$images/morphology-square.png"
# Any size: the same edges closed with a 15x15 ellipse, which joins everything within about 7
# pixels into solid regions. Written as PNG by the sample itself.
"$bin/morphology_packed" -q --verify -i sobel.bmp --threshold 32 --op close --shape ellipse \
    --size 15x15 -o "$images/morphology-ellipse.png"
echo "wrote docs/images/morphology-ellipse.png"

# The small example on docs/morphology_packed.md, printed rather than drawn: a 19x7 image with
# pixel pairs one gap apart, closed with each element, and the blog's own "closing" (a diamond
# dilation followed by a 3x3 erosion). '#' is foreground.
"$python" - tiny.bmp <<'PY'
import struct, sys
width, height = 19, 7
foreground = {(3, 3), (5, 3), (9, 2), (11, 4), (14, 2), (14, 3), (16, 4)}
pitch = (width + 3) // 4 * 4
palette = b"".join(bytes((v, v, v, 0)) for v in range(256))
offset = 14 + 40 + len(palette)
rows = b"".join(bytes(255 if (x, y) in foreground else 0 for x in range(width)) +
                bytes(pitch - width) for y in range(height))
header = struct.pack("<2sIHHI", b"BM", offset + len(rows), 0, 0, offset)
info = struct.pack("<IiiHHIIiiII", 40, width, -height, 1, 8, 0, len(rows), 2835, 2835, 256, 0)
open(sys.argv[1], "wb").write(header + info + palette + rows)
PY
"$bin/morphology_packed" -q --verify -i tiny.bmp --op close --shape square -o tiny-square.bmp
"$bin/morphology_packed" -q --verify -i tiny.bmp --op close --shape diamond -o tiny-diamond.bmp
"$bin/morphology_packed" -q --verify -i tiny.bmp --op dilate --shape diamond -o tiny-dilated.bmp
"$bin/morphology_packed" -q --verify -i tiny-dilated.bmp --op erode --shape square -o tiny-blog.bmp
"$python" - tiny.bmp tiny-square.bmp tiny-diamond.bmp tiny-blog.bmp <<'PY'
import struct, sys
for path in sys.argv[1:]:
    data = open(path, "rb").read()  # an 8-bit BMP, as the samples write them
    offset, = struct.unpack_from("<I", data, 10)
    width, height = struct.unpack_from("<ii", data, 18)
    pitch = (width + 3) // 4 * 4
    rows = [data[offset + r * pitch:offset + r * pitch + width] for r in range(abs(height))]
    if height > 0:
        rows.reverse()  # bottom-up
    print(path)
    for row in rows:
        print("".join("#" if value > 127 else "." for value in row))
PY
