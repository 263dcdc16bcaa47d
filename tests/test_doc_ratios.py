#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A ratio the pages print beside its two times must be those times' ratio, rounded as shown:
"0.52 ms against 0.123 ms, 4.2x" passes, "4.3x" fails. The pages state each measured figure once
and compute their speed-ups from it; this is what keeps a retyped ratio from drifting.

Where a ratio and its times are found (README.md and docs/*.md, history.md left out: a record of
past pages, not today's claims; code blocks left out):

- a table row with two times (`0.52 ms`, `1.2 s`) and one ratio (`4.2x`; `16x4` and `3x3` are
  sizes, not ratios): the ratio is the larger time over the smaller;
- a table row with one time and one ratio, under a ratio column whose header holds a time
  ("speed-up over `sobel_no_vectors` (0.52 ms)"): the header's time over the row's;
- a sentence with two times and one ratio: the larger over the smaller.

Anything else (a ratio of figures given elsewhere, a verdict's "buffer 4.2x" beside its fastest
time only) is not checked here. The ratio must equal the quotient rounded to the ratio's own
decimals (a quotient that falls on a half may round either way).

    tests/test_doc_ratios.py [ROOT]     # exit 1 listing every ratio that does not follow
"""
import pathlib
import re
import sys

TIME = re.compile(r"(?<![\w.^-])(\d+(?:\.\d+)?)\s?(ms|s)\b")
# 4.2x, 25x, **7.8x**; not 16x4, 3x3, 2^18, 0x10.
RATIO = re.compile(r"(?<![\w.^])(\d+(?:\.\d+)?)x(?![\w])")
FENCE = re.compile(r"^\s*(```|~~~)")
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(\[*`])")


def milliseconds(value, unit):
    return float(value) * (1000.0 if unit == "s" else 1.0)


def follows(ratio_text, larger, smaller):
    """Whether the ratio shown is larger / smaller rounded to the ratio's decimals."""
    decimals = len(ratio_text.split(".")[1]) if "." in ratio_text else 0
    quotient = larger / smaller
    shown = float(ratio_text)
    unit = 10.0 ** -decimals
    return abs(quotient - shown) <= unit / 2 + 1e-9


def times_in(text):
    return [milliseconds(v, u) for v, u in TIME.findall(text)]


def ratios_in(text):
    return RATIO.findall(text)


def check_unit(text, reference=None):
    """None if `text` (a row or a sentence) holds no checkable ratio or a right one, else why."""
    times = times_in(text)
    ratios = ratios_in(text)
    if len(ratios) != 1:
        return None
    if len(times) == 1 and reference is not None:
        times = times + [reference]
    if len(times) != 2 or min(times) <= 0:
        return None
    larger, smaller = max(times), min(times)
    if follows(ratios[0], larger, smaller):
        return None
    return (f"{ratios[0]}x beside {larger:g} and {smaller:g} ms: their ratio is "
            f"{larger / smaller:.3f}")


def units(path):
    """(line number, text, reference time or None) for every table row and sentence of a page."""
    inside = False
    paragraph, start = [], 0
    header, ratio_column_time = None, None
    out = []

    def flush():
        text = " ".join(paragraph)
        for sentence in SENTENCE_END.split(text):
            out.append((start, sentence, None))

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if inside:
            continue
        stripped = line.strip()
        if stripped.startswith("|"):
            if paragraph:
                flush()
                paragraph = []
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if header is None:
                header = cells
                ratio_column_time = None
                for cell in cells:
                    found = times_in(cell)
                    if len(found) == 1 and re.search(r"speed-up|faster|slower|x\b", cell):
                        ratio_column_time = found[0]
                continue
            if set(stripped) <= set("|-: "):
                continue
            out.append((number, stripped, ratio_column_time))
            continue
        header = None
        if not stripped or stripped.startswith(("#", "<!--")) or re.match(r"^([-*]|\d+\.)\s", stripped):
            if paragraph:
                flush()
                paragraph = []
            if stripped and not stripped.startswith(("#", "<!--")):
                paragraph, start = [stripped], number
            continue
        if not paragraph:
            start = number
        paragraph.append(stripped)
    if paragraph:
        flush()
    return out


def self_test():
    assert follows("4.2", 0.52, 0.123) and not follows("4.3", 0.52, 0.123)
    assert follows("25", 6.4, 0.26) and follows("7.8", 0.52, 0.067)
    assert check_unit("| `16x1` | 0.123 ms | 4.3x |", 0.52) is not None
    assert check_unit("| `16x1` | 0.123 ms | 4.2x |", 0.52) is None
    assert check_unit("the gap is 2.6x (0.967 ms against 0.375 ms)") is None
    assert check_unit("the gap is 2.7x (0.967 ms against 0.375 ms)") is not None
    assert check_unit("a 16x4 block in 32x8 groups, 0.2 ms and 0.1 ms") is None  # sizes, no ratio
    assert check_unit("0.77 ms against 1.77 ms, 2.3x; 4.5x elsewhere") is None  # two ratios


def main():
    self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    pages = [root / "README.md"] + sorted(p for p in (root / "docs").glob("*.md")
                                          if p.name != "history.md")
    failures = []
    checked = 0
    for page in pages:
        for number, text, reference in units(page):
            if len(ratios_in(text)) == 1 and (len(times_in(text)) == 2 or (
                    len(times_in(text)) == 1 and reference is not None)):
                checked += 1
            why = check_unit(text, reference)
            if why:
                failures.append(f"{page.relative_to(root)}:{number}: {why}\n    {text[:160]}")
    for failure in failures:
        print("FAIL " + failure)
    print(f"{checked} ratios beside their times checked, {len(failures)} do not follow")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
