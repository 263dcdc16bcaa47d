#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs every command the pages show, so a page cannot name an option, an output line or a file
that no longer exists.

The convention (docs/README.md, "Commands on the pages"):

- In a ```sh block of README.md or docs/*.md, every line that starts with `build/bin/` or
  `scripts/` is a command, run from a temporary folder, the page's commands one after another in
  the same folder (so `-i edges.bmp` may read what an earlier command wrote). Other lines (cmake,
  ctest, comments) are not run.
- A ```text block whose first line is `$ build/bin/...` is a command and the whole of its
  output: the command is run, and the block must show every line the run prints and no line it
  does not, in the same order (stderr's lines, such as warnings, anywhere). Lines are compared
  with every number replaced by `#` and runs of spaces by one space, so timings, sizes and
  column widths may differ. Lines whose content depends on the device or on the caches' state
  are compared by their first words alone: `Device:`, `Image:`, `Memory:`, `Tuned`, `Variant
  auto`, `verdict on`, and the line naming what a FIR run ran. The tuner's `Tuned for ...`
  line and its `Tuning for ...` announcement, which only runs that measure print, are left out
  on both sides, except in a block that shows one: that block is a first run, run with a tuning
  cache of its own, empty, and its tuning lines are compared as the others are.
- `<!-- not run: reason -->` on the line before a fence leaves that block out: scripts that
  install packages, build, or benchmark for minutes.

Small inputs stand in for large ones: `-i FILE` naming a file the folder does not hold gets a
64x48 random image (scripts/make_test_image.py; the samples recognise a file by its first bytes,
so `photo.jpg` may hold a BMP), `scripts/make_test_image.py W H` makes 64x48, `-n N` becomes
`-n 2`, and a path under /tmp/ moves into the temporary folder. Each command must exit 0, and
write the files it names: `-o FILE` (else `output.bmp`), the `-dX`/`-dY` pair with
`--save-gradients`, the `--save-raw` folder and the `--trace` file.

Usage: test_doc_commands.py BIN_DIR [PAGE.md ...]   (default: README.md and docs/*.md)
The tuning and program caches go to BIN_DIR/../doc-commands-cache, never to the user's.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Lines whose words depend on the device or the caches' state (the device's name, the variant
# or work-group the tuner chose, whether it tuned now or read its cache, which variant won the
# verdict): compared by these first words only.
DEVICE_DEPENDENT = re.compile(r"^(Device:|Image:|Memory:|Tuned|Variant auto|verdict on)")
# fir_float's line naming what ran ("buffer 3x3 pass", "separable: 5x1 row pass then ..."):
# which it is depends on what the tuner chose.
WHAT_RAN = re.compile(r"^(buffer|local|image|separable)\b.*\b(pass|passes|kernel)\b")


def blocks(page):
    """(language, first line number, lines, skipped) for every fenced block of a page."""
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)(```+)(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, ticks, language = fence.groups()
        previous = lines[i - 1].strip() if i > 0 else ""
        skipped = previous.startswith("<!-- not run:")
        body = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != ticks:
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        yield language, i + 1, body, skipped
        i = j + 1


def commands_of(page):
    """(line number, command, expected output lines or None) in page order."""
    found = []
    for language, line, body, skipped in blocks(page):
        if skipped:
            continue
        if language == "sh":
            pending = ""
            for k, text in enumerate(body):
                text = pending + text.strip()
                if text.endswith("\\"):
                    pending = text[:-1] + " "
                    continue
                pending = ""
                if text.startswith(("build/bin/", "scripts/")):
                    found.append((line + 1 + k, text, None))
        elif language == "text" and body and body[0].startswith("$ build/bin/"):
            found.append((line + 1, body[0][2:], body[1:]))
    return found


def strip_comment(command):
    """The command without a trailing `# comment` (outside quotes)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def with_suffix(path, suffix):
    p = Path(path)
    return str(p.with_name(p.stem + suffix + p.suffix))


def make_image(folder, name, width=64, height=48):
    target = Path(folder) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(ROOT / "scripts/make_test_image.py"), str(width),
                    str(height), str(target), "--rgb"], check=True, capture_output=True)


def prepare(argv, folder, bin_dir):
    """The command as run here, and the files it must write."""
    program = argv[0]
    args = argv[1:]
    if program.startswith("scripts/"):
        if program == "scripts/make_test_image.py":
            args = ["64", "48"] + [a.replace("/tmp/", "") for a in args[2:]]
            return [sys.executable, str(ROOT / program)] + args, [args[2]]
        raise AssertionError(f"{program} is not a command this test can run: mark its block "
                             "<!-- not run: reason -->")
    sample = program[len("build/bin/"):]
    args = [a[len("/tmp/"):] if a.startswith("/tmp/") else a for a in args]
    run = [os.path.join(bin_dir, sample)]
    outputs = []
    output = "output.bmp"
    writes = True
    i = 0
    while i < len(args):
        a = args[i]
        value = args[i + 1] if i + 1 < len(args) else None
        if a in ("-n", "--iterations") and value is not None:
            run += [a, "2"]
            i += 2
            continue
        if a in ("-i", "--input") and value is not None:
            if not (Path(folder) / value).exists():
                make_image(folder, value)
        if a in ("-o", "--output") and value is not None:
            output = value
        if a in ("--save-raw", "--trace") and value is not None:
            outputs.append(value)
        if a in ("--help", "-h", "--list-devices"):
            writes = False
        if value is not None and a.startswith("-") and not value.startswith("-") and a not in (
                "-q", "--verify", "--save-gradients", "--retune", "--invert", "--floor",
                "--host-conversions"):
            run += [a, value]
            i += 2
            continue
        run.append(a)
        i += 1
    if writes:
        outputs.append(output)
        if "--save-gradients" in args:
            outputs += [with_suffix(output, "-dX"), with_suffix(output, "-dY")]
    return run, outputs


# How images reach the device depends on the device (map where memory is shared, as on PoCL,
# pinned on a discrete GPU): the pages show PoCL's, a GPU run says its own.
MEMORY_MODE = re.compile(r"\((map|pinned|copy)\)")
NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")


def normalised(line):
    """What of an output line a page must show: numbers as #, spaces collapsed, and only the
    first words of a line that depends on the device or the caches."""
    text = " ".join(line.split())
    dependent = DEVICE_DEPENDENT.match(text)
    if dependent:
        return dependent.group(1).split()[0] + " ..."
    if WHAT_RAN.match(text):
        return "(the FIR pass that ran)"
    return NUMBER.sub("#", MEMORY_MODE.sub("(mode)", text))


# A run that measures candidates (a first run on a device or size class, and the next few while
# tuning finishes) says so in two lines
# that later runs, reading the tuning cache, do not print: left out on both sides.
FIRST_RUN_ONLY = re.compile(r"^\s*(Tuning|Tuned) for ")


# A first run on a GPU also measures where PNG compression runs (the codec choice), which a CPU
# device does not: the pages show PoCL's runs, so that line is left out on both sides.
CODEC_MEASUREMENT = re.compile(r"^\s*Measured ")


def compared(lines, first_run=False):
    return [normalised(line) for line in lines
            if line.strip() and not CODEC_MEASUREMENT.match(line) and
            (first_run or not FIRST_RUN_ONLY.match(line))]


def shows_first_run(expected):
    """A block that shows the tuner's lines shows a first run: it is checked as one."""
    return any(FIRST_RUN_ONLY.match(line) for line in expected)


def check_output(expected, stdout, stderr=""):
    """None when the page's block shows exactly the lines the run printed, else what differs.

    stdout must match the block line for line, in order; a line of stderr (a warning) may stand
    anywhere in the block, since a terminal interleaves the two streams as they come. A block
    that shows a first run (shows_first_run) keeps the tuner's lines on both sides."""
    first_run = shows_first_run(expected)
    shown = compared(expected, first_run)
    for line in compared(stderr.splitlines(), first_run):
        if line in shown:
            shown.remove(line)
        else:
            return f"the run printed \"{line}\" (stderr), which the page does not show"
    printed = compared(stdout.splitlines(), first_run)
    for index, (page_line, run_line) in enumerate(zip(shown, printed)):
        if page_line != run_line:
            return (f"output line {index + 1}: the page shows \"{page_line}\", the run printed "
                    f"\"{run_line}\"")
    if len(shown) > len(printed):
        return f"the page shows \"{shown[len(printed)]}\", which the run did not print"
    if len(printed) > len(shown):
        return f"the run printed \"{printed[len(shown)]}\", which the page does not show"
    return None


def test_check_output():
    page = ["Device: a GPU", "  step    ms", "  kernel sobel   0.5   12.0  3%", "Wrote output.bmp"]
    run = "Device: PoCL\n  step  ms\n  kernel sobel  1.25  9.0  40%\nWrote output.bmp\n"
    assert check_output(page, run) is None
    assert check_output(page, run + "verdict on x: y\n") is not None  # a line the page lacks
    assert check_output(page + ["Wrote edges.bmp"], run) is not None  # a line the run lacks
    assert check_output(page[::-1], run) is not None  # out of order
    assert check_output(["warn: it", "Wrote output.bmp"], "Wrote output.bmp\n", "warn: it\n") is None
    assert check_output(["Wrote output.bmp"], "Wrote output.bmp\n", "warn: it\n") is not None
    tuned = "Tuning for 2^18 pixels: measuring for about 0.3 s\nWrote output.bmp\n"
    assert check_output(["Wrote output.bmp"], tuned) is None  # the cache's state is not the page's
    assert check_output(["Tuning for 2^18 pixels: measuring for about 0.3 s", "Wrote output.bmp"],
                        tuned) is None
    assert check_output(["Tuning for 2^18 pixels: measuring for about 0.3 s", "Wrote output.bmp"],
                        "Wrote output.bmp\n") is not None  # a first run must print its lines


def run_page(page, bin_dir, env):
    failures = []
    commands = commands_of(page)
    if not commands:
        return failures, 0
    with tempfile.TemporaryDirectory(prefix="doc-commands-") as folder:
        for line, command, expected in commands:
            where = f"{page.relative_to(ROOT)}:{line}: {command}"
            try:
                run, outputs = prepare(strip_comment(command), folder, bin_dir)
            except AssertionError as error:
                failures.append(f"{where}\n    {error}")
                continue
            if not os.path.exists(run[0]) and run[0].endswith(os.sep + "bench"):
                print(f"skipped (bench is built only with Google Benchmark): {where}")
                continue
            for stale in outputs:
                target = Path(folder) / stale
                if target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()
            run_env = env
            if expected is not None and shows_first_run(expected):
                # A first run: a tuning cache that has seen nothing (the program cache is kept:
                # compiling prints nothing, and takes seconds on PoCL).
                first_run_cache = Path(folder) / "first-run-tuning.txt"
                if first_run_cache.exists():
                    first_run_cache.unlink()
                run_env = dict(env, SDK_TUNING_CACHE=str(first_run_cache))
            result = subprocess.run(run, cwd=folder, env=run_env, capture_output=True, timeout=300)
            stdout = result.stdout.decode("utf-8", "replace")
            stderr = result.stderr.decode("utf-8", "replace")
            out = stdout + stderr
            if result.returncode != 0 and "no OpenCL device of type" in out:
                print(f"skipped (this machine has no such device): {where}")
                continue
            if result.returncode != 0:
                failures.append(f"{where}\n    exit status {result.returncode}: "
                                f"{out.strip().splitlines()[-1] if out.strip() else ''}")
                continue
            for name in outputs:
                if not (Path(folder) / name).exists():
                    failures.append(f"{where}\n    the page names {name}, which it did not write")
            if expected is not None:
                difference = check_output(expected, stdout, stderr)
                if difference is not None:
                    failures.append(f"{where}\n    {difference}")
    return failures, len(commands)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    test_check_output()
    bin_dir = os.path.abspath(sys.argv[1])
    pages = [Path(p).resolve() for p in sys.argv[2:]] or (
        [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")))
    cache = Path(bin_dir).parent / "doc-commands-cache"
    cache.mkdir(exist_ok=True)
    env = dict(os.environ, SDK_CACHE_DIR=str(cache))
    env.pop("SDK_TUNING_CACHE", None)
    started = time.monotonic()
    failures = []
    total = 0
    for page in pages:
        page_started = time.monotonic()
        page_failures, count = run_page(page, bin_dir, env)
        total += count
        failures += page_failures
        if count:
            print(f"{page.relative_to(ROOT)}: {count} commands, "
                  f"{time.monotonic() - page_started:.1f} s")
    for failure in failures:
        print("FAIL " + failure)
    print(f"{total} commands, {len(failures)} failures, {time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
