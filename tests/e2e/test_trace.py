#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""--trace end to end: real runs of sobel and fir_float on the OpenCL device (PoCL in CI).

The trace file must be valid JSON (Python's parser is strict: raw control characters or invalid
UTF-8 fail it), hold the host steps the step table prints and the kernels the sample runs, no
negative durations, and every device command inside the host step that waited for it, within
the clock-matching error the trace states. A trace path that is the input, or in a folder that
cannot be written, is refused before any work; a run that fails leaves no trace.

Usage: test_trace.py BIN_DIR   (the folder of the sample executables)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest
from xml.etree import ElementTree

BIN = None


def run(sample, *args):
    return subprocess.run([os.path.join(BIN, sample), *args], capture_output=True, timeout=300)


def step_table_names(stdout):
    """The step names of the "End to end" table, as printed, but its last three: "put the
    outputs in place" (the trace is one of those outputs, written before they are renamed),
    "release the device and memory" (after the renames) and "between the steps" (in a timeline,
    the gaps between its bars)."""
    lines = stdout.decode("utf-8", errors="replace").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("End to end")) + 2
    names = []
    for line in lines[start:]:
        if line.strip().startswith("total"):
            break
        names.append(line.rsplit(None, 3)[0].strip())  # drop ms, MB/s and share
    assert names[-3:] == ["put the outputs in place", "release the device and memory",
                          "between the steps"], names
    return names[:-3]


def printable(name):
    """A name as the step table prints it: control characters escaped (errors.hpp's printable),
    while the trace keeps every character as it is."""
    escapes = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return "".join(escapes.get(c, f"\\x{ord(c):02x}") if ord(c) < 0x20 or ord(c) == 0x7F else c
                   for c in name)


class TraceRun(unittest.TestCase):
    def trace_of(self, sample, *args, output_name=b"out.bmp"):
        folder = tempfile.mkdtemp(prefix="trace-test-").encode()
        trace = os.path.join(folder, b"run.json")
        result = run(sample, "--trace", trace, "-o", os.path.join(folder, output_name), *args)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(trace, "rb") as file:
            text = file.read().decode("utf-8")  # strict: invalid UTF-8 fails here
        return json.loads(text), result.stdout

    def check_timeline(self, trace, stdout, kernels):
        self.assertEqual(trace["displayTimeUnit"], "ms")
        events = trace["traceEvents"]
        tracks = {e["tid"]: e["args"]["name"] for e in events
                  if e["ph"] == "M" and e["name"] == "thread_name"}
        host_tid = next(t for t, name in tracks.items() if name == "host")
        device_tid = next(t for t, name in tracks.items() if name == "device queue")
        bars = [e for e in events if e["ph"] == "X"]
        for bar in bars:
            self.assertGreaterEqual(bar["dur"], 0, bar)
            for key in ("ts", "pid", "tid", "name", "cat", "args"):
                self.assertIn(key, bar)
        host = [e for e in bars if e["tid"] == host_tid]
        device = [e for e in bars if e["tid"] == device_tid]
        self.assertEqual([printable(e["name"]) for e in host], step_table_names(stdout))
        for kernel in kernels:
            self.assertIn(kernel, [e["name"] for e in device])
        # Every device command lies inside the host step that waited for it, within the error
        # the trace states for its clock matching (which must be small for that to mean much).
        error_us = trace["otherData"]["clock"]["error_us"]
        self.assertLess(error_us, 1000, trace["otherData"]["clock"])
        # ts and dur are rounded to the nanosecond; some drivers' profiling clocks tick in
        # microseconds (Intel's CPU runtime: a write 0.4 us outside its step, past an error of
        # 0.39 us), which the clock matching cannot see; and on a loaded machine a command was
        # once seen 1.9 us past that (PoCL, tests side by side). 10 us more is still far less than
        # any step a command could be mistaken into.
        tolerance = error_us + 10.0
        for command in device:
            inside = [step["name"] for step in host
                      if step["ts"] - tolerance <= command["ts"] and
                      command["ts"] + command["dur"] <= step["ts"] + step["dur"] + tolerance]
            self.assertTrue(inside, f"{command} lies in no host step ({error_us} us)")

    def test_sobel_each_memory_mode(self):
        kernels = ["bgr_to_luminance", "sobel_16x1", "sobel_magnitude", "grey_to_bmp_rows"]
        for memory in ("map", "pinned", "copy"):
            with self.subTest(memory=memory):
                trace, stdout = self.trace_of("sobel", "--variant", "16x1", "--memory", memory)
                self.check_timeline(trace, stdout, kernels)
                device_names = [e["name"] for e in trace["traceEvents"] if e["ph"] == "X"]
                if memory == "pinned":
                    self.assertIn("write the file's rows, chunk 1", device_names)

    def test_names_any_bytes_still_make_valid_json(self):
        # The output's name appears in the step names: quotes, a backslash, a control character,
        # non-ASCII and a byte that is not UTF-8.
        name = b'we"ird\\ na\x01me \xc3\xa9 \xff.bmp'
        trace, stdout = self.trace_of("sobel", "--variant", "16x1", output_name=name)
        self.check_timeline(trace, stdout, ["sobel_16x1"])
        expected = 'download and write we"ird\\ na\x01me \u00e9 \ufffd.bmp ('  # then the memory mode
        self.assertTrue(any(e["name"].startswith(expected) for e in trace["traceEvents"]),
                        [e["name"] for e in trace["traceEvents"]])

    def test_relative_trace_beside_an_existing_output(self):
        # Relative names in the working folder, the output there already and the trace not yet:
        # the run once waited for ever on the folder's lock at commit.
        folder = tempfile.mkdtemp(prefix="trace-test-")
        with open(os.path.join(folder, "o.bmp"), "wb") as old:
            old.write(b"previous")
        result = subprocess.run([os.path.join(os.path.abspath(BIN), "sobel"), "-q", "-o", "o.bmp",
                                 "--trace", "run.json"], cwd=folder, capture_output=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(sorted(os.listdir(folder)), ["o.bmp", "run.json"])

    def test_fir_float(self):
        # The buffer variant named: with auto, the kernel that runs is whichever the device's
        # tuning chose (Intel's runtime finishes it in the first run and may choose fir_local).
        trace, stdout = self.trace_of("fir_float", "--variant", "buffer")
        self.check_timeline(trace, stdout, ["fir_float"])

    def test_fir_float_first_run_tuning(self):
        # A first run's tuning launches its candidates in no step of the table: they stay out
        # of the timeline, which holds the run's own commands.
        folder = tempfile.mkdtemp(prefix="trace-test-")
        os.environ["SDK_TUNING_CACHE"] = os.path.join(folder, "tuning.txt")
        try:
            trace, stdout = self.trace_of("fir_float")
        finally:
            del os.environ["SDK_TUNING_CACHE"]
        self.check_timeline(trace, stdout, [])

    def test_docs_picture_tool_draws_it(self):
        # docs/tools/trace_to_svg.py draws docs/images/trace-pocl.svg from such a file.
        folder = tempfile.mkdtemp(prefix="trace-test-")
        trace, svg = os.path.join(folder, "run.json"), os.path.join(folder, "run.svg")
        self.assertEqual(run("sobel", "--trace", trace, "-o", os.path.join(folder, "o.bmp")).returncode, 0)
        tool = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "tools", "trace_to_svg.py")
        subprocess.run([sys.executable, tool, trace, svg], check=True, timeout=60)
        labels = "".join(ElementTree.parse(svg).getroot().itertext())
        for name in ("host", "device queue", "bgr_to_luminance", "ms"):
            self.assertIn(name, labels)


class TraceRefused(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="trace-test-")

    def assert_refused(self, result):
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(len(result.stderr.decode().strip().splitlines()), 1, result.stderr)
        self.assertNotIn(b"Device:", result.stdout)  # refused before any work

    def test_trace_equal_to_the_input(self):
        image = os.path.join(self.folder, "in.bmp")
        with open(os.path.join(BIN, "assets", "input.bmp"), "rb") as source:
            original = source.read()
        with open(image, "wb") as copy:
            copy.write(original)
        result = run("sobel", "-i", image, "--trace", image, "-o", os.path.join(self.folder, "o.bmp"))
        self.assert_refused(result)
        with open(image, "rb") as after:
            self.assertEqual(after.read(), original)

    def test_trace_equal_to_the_output(self):
        output = os.path.join(self.folder, "o.bmp")
        self.assert_refused(run("sobel", "--trace", output, "-o", output))
        self.assertEqual(os.listdir(self.folder), [])

    def test_trace_in_a_missing_folder(self):
        trace = os.path.join(self.folder, "missing", "run.json")
        self.assert_refused(run("sobel", "--trace", trace, "-o", os.path.join(self.folder, "o.bmp")))
        self.assertEqual(os.listdir(self.folder), [])

    def test_failed_run_writes_no_trace(self):
        truncated = os.path.join(self.folder, "cut.bmp")
        with open(os.path.join(BIN, "assets", "input.bmp"), "rb") as source:
            head = source.read(100)
        with open(truncated, "wb") as cut:
            cut.write(head)
        result = run("sobel", "-i", truncated, "--trace", os.path.join(self.folder, "run.json"),
                     "-o", os.path.join(self.folder, "o.bmp"))
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(sorted(os.listdir(self.folder)), ["cut.bmp"])


if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main()
