#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Turns bench's JSON output into charts (PNG and SVG) and a Markdown table.

    bench --benchmark_out=bench.json --benchmark_out_format=json ...
    bench/plot.py bench.json --out-dir docs/images --prefix perf-pocl > table.md

Charts, one panel per filter, the sizes side by side and a bar per variant:
  PREFIX-fraction   each kernel's GB/s as a fraction of the device's own buffer copy
                    (copy_bandwidth, measured in the same run): 1.0 is the memory-bound ideal
  PREFIX-throughput Mpix/s of the kernels, the OpenCV baseline on the CPU (hatched) and each
                    sample's whole pipeline, upload to download (pale), on a log scale
The table (stdout) has every figure behind them. Needs matplotlib only for the charts (Debian:
python3-matplotlib); without it the table is still printed.
"""
import argparse
import json
import re
import sys
from collections import OrderedDict

# The suffixes Google Benchmark adds to a benchmark's name.
SUFFIX = re.compile(r"(/(manual_time|real_time|process_time|repeats:\d+|min_time:[^/]+|"
                    r"iterations:\d+|threads:\d+))+$")
FILTERS = ("sobel", "fir", "morphology")


def load(path):
    """Returns (context, {name: record}) with one record per benchmark: the median aggregate
    when the run had repetitions, else its single run."""
    with open(path) as f:
        report = json.load(f)
    records = OrderedDict()
    spreads = {}
    for entry in report.get("benchmarks", []):
        name = SUFFIX.sub("", entry.get("run_name", entry["name"]))
        if entry.get("run_type") == "aggregate" and entry.get("aggregate_name") == "cv":
            spreads[name] = entry.get("median_ms")  # over the repetitions, as a fraction
        if entry.get("run_type") == "aggregate" and entry.get("aggregate_name") != "median":
            continue
        if name in records and entry.get("run_type") != "aggregate":
            continue  # a later repetition; the median aggregate replaces the first below
        parts = name.split("/")
        if parts[0] == "auto_vs_candidates":  # auto_vs_candidates/FILTER/SIZE: no variant
            parts.insert(2, "")
        record = {
            "name": name,
            "kind": parts[0],
            "filter": parts[1] if len(parts) > 1 else "",
            # kernel/fir/local/7x7/SIZE: the variant is everything between filter and size.
            "variant": "/".join(parts[2:-1]) if len(parts) > 3 else (parts[2] if len(parts) > 2 else ""),
            "size": parts[-1] if len(parts) > 3 else "",
            "error": entry.get("error_message") if entry.get("error_occurred") else None,
            "label": entry.get("label"),
        }
        for key, counter in (("median_ms", "median_ms"), ("mpix", "Mpix/s"), ("gbps", "GB/s"),
                             ("fraction", "copy_fraction"), ("bytes", "bytes"),
                             ("floor_ms", "floor_ms"), ("over_floor", "over_floor"),
                             ("floor_read_ms", "floor_read_ms"),
                             ("floor_write_ms", "floor_write_ms"),
                             ("floor_link_ms", "floor_link_ms"), ("driver_ms", "driver_ms"),
                             ("over_floor_and_driver", "over_floor_and_driver")):
            record[key] = entry.get(counter)
        # The interleaved contest's counters: auto_ms, fastest_ms, auto_over_fastest, cN_ms.
        record["contest"] = {key: value for key, value in entry.items()
                             if key in ("auto_ms", "fastest_ms", "auto_over_fastest") or
                             re.fullmatch(r"c[0-9]+_ms", key)}
        records[name] = record
    for name, spread in spreads.items():
        if name in records:
            records[name]["spread"] = spread
    return report.get("context", {}), records


def pixels(size):
    width, height = size.split("x")
    return int(width) * int(height)


def sizes_of(records):
    return sorted({r["size"] for r in records if r["size"]}, key=pixels)


def number(value, digits=3):
    if value is None:
        return "–"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def short(value):
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return f"{value / limit:g}{suffix}"
    return f"{value:g}"


def device_lines(context, records):
    def get(key, default="?"):
        return context.get(key, default)

    lines = [
        f"- Device: {get('opencl_device')} ({get('opencl_device_version')}), "
        f"{get('opencl_compute_units')} compute units, "
        f"{get('opencl_global_memory_MiB')} MiB global memory",
        f"- Driver: {get('opencl_driver')}; platform {get('opencl_platform')}",
        f"- Host: {get('host_name')}, {get('num_cpus')} CPUs; "
        f"OpenCV {get('opencv', 'not built in')}",
        f"- Date: {get('date')}",
    ]
    copy = records.get("copy_bandwidth")
    if copy and copy["gbps"]:
        lines.append(f"- Copy bandwidth (clEnqueueCopyBuffer, {get('copy_bandwidth_buffer_MiB')} "
                     f"MiB, bytes read + written): {copy['gbps']:.2f} GB/s, median "
                     f"{copy['median_ms']:.3f} ms")
    return lines


def pipeline_for(kernel, records):
    """The e2e record of the sample pipeline that runs this kernel variant, if any."""
    variant = kernel["variant"].replace("_per_pass", "")
    return records.get(f"e2e/{kernel['filter']}/{variant}/{kernel['size']}")


def fraction_text(value):
    if value is None:
        return "–"
    return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"


def table_row(cells):
    return "| " + " | ".join(cells) + " |"


def auto_table(rows):
    """Each tuned filter's auto (what its tuner chose for each size) against the fastest of the
    candidates it chooses from, timed interleaved in one benchmark (auto_vs_candidates/FILTER/SIZE:
    each round gives auto's choice and every candidate a turn, in a new random order)."""
    out = []
    for r in rows:
        contest = r.get("contest") or {}
        if r["kind"] != "auto_vs_candidates" or r["error"] or "auto_ms" not in contest:
            continue
        if not out:
            out += ["", "| filter | size | auto's choice | auto ms | fastest candidate | its ms | "
                    "auto / fastest | candidates |",
                    "| --- | --- | --- | ---: | --- | ---: | ---: | ---: |"]
        parts = dict(part.split(": ", 1) for part in (r["label"] or "").split("; ")[:2]
                     if ": " in part)
        candidates = sum(1 for key in contest if re.fullmatch(r"c[0-9]+_ms", key))
        ratio = contest.get("auto_over_fastest")
        out.append(table_row([
            r["filter"], r["size"], parts.get("auto", "?"), number(contest["auto_ms"]),
            parts.get("fastest", "?").replace("@", ", work-group "),
            number(contest.get("fastest_ms")), f"{ratio:.2f}" if ratio else "–",
            str(candidates)]))
    return out


def file_table(rows):
    """Whole runs, file to file (file/SAMPLE/process/SIZE, file/opencv_sobel/job/SIZE), against
    the floor measured in the same iterations, and sobel's against OpenCV doing its job."""
    runs = [r for r in rows if r["kind"] == "file"]
    if not runs:
        return []
    out = ["", "| whole run | size | median ms | floor ms (read + write + link) | over floor "
           "| driver start + stop ms | over floor + driver | OpenCV's job ÷ this |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for size in sizes_of(runs):
        opencv = next((r for r in runs if r["filter"] == "opencv_sobel" and r["size"] == size
                       and not r["error"]), None)
        for r in runs:
            if r["size"] != size:
                continue
            what = "OpenCV's sobel job (warm process)" if r["filter"] == "opencv_sobel" \
                else f"{r['filter']} (process)"
            if r["error"]:
                out.append(table_row([what, size, r["error"], "", "", "", "", ""]))
                continue
            parts = " + ".join(number(r[k]) for k in ("floor_read_ms", "floor_write_ms",
                                                      "floor_link_ms"))
            versus = opencv["median_ms"] / r["median_ms"] \
                if opencv and r["filter"] == "sobel" and r["median_ms"] else None
            out.append(table_row([what, size, number(r["median_ms"]),
                                  f"{number(r['floor_ms'])} ({parts})",
                                  f"{r['over_floor']:.2f}x" if r["over_floor"] else "–",
                                  number(r["driver_ms"]) if r["driver_ms"] else "–",
                                  # OpenCV's job runs in bench's own process: no driver to start
                                  f"{r['over_floor_and_driver']:.2f}x"
                                  if r["over_floor_and_driver"] and r["filter"] != "opencv_sobel"
                                  else "–",
                                  f"{versus:.2f}x" if versus else "–"]))
    return out


def markdown(context, records):
    rows = list(records.values())
    out = device_lines(context, records)
    # With --benchmark_repetitions: the median over repetitions, and how far they spread.
    spread = any(r.get("spread") is not None for r in rows)
    header = ["filter", "size", "variant", "median ms"] + (["spread"] if spread else []) + \
        ["Mpix/s", "GB/s", "of copy bandwidth", "pipeline ms"]
    out += ["", table_row(header), table_row(["---"] * 3 + ["---:"] * (len(header) - 3))]
    for filter_name in FILTERS:
        for size in sizes_of(rows):
            for r in rows:
                if r["filter"] != filter_name or r["size"] != size:
                    continue
                if r["kind"] == "kernel":
                    variant = r["variant"]
                elif r["kind"] == "opencv":
                    variant = f"OpenCV {r['variant']} (CPU)"
                else:
                    continue
                cells = [filter_name, size, variant]
                if r["error"]:
                    out.append(table_row(cells + [r["error"]] + [""] * (len(header) - 4)))
                    continue
                cells.append(number(r["median_ms"]))
                if spread:
                    cv = r.get("spread")
                    cells.append(f"±{100 * cv:.0f}%" if cv is not None else "–")
                pipeline = pipeline_for(r, records) if r["kind"] == "kernel" else None
                pipeline_ms = pipeline["median_ms"] if pipeline and not pipeline["error"] else None
                cells += [number(r["mpix"]), number(r["gbps"]), fraction_text(r["fraction"]),
                          number(pipeline_ms)]
                out.append(table_row(cells))
    out += auto_table(rows)
    out += file_table(rows)
    startup = [r for r in rows if r["kind"] == "startup"]
    if startup:
        out += ["", "| start-up step | median ms |", "| --- | ---: |"]
        for r in startup:
            what = r["name"].split("/", 1)[1]
            out.append(table_row([what, r["error"] or number(r["median_ms"])]))
    return "\n".join(out)


def charts(context, records, out_dir, prefix):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    plt.rcParams["svg.hashsalt"] = "bench"  # the same data gives the same SVG
    rows = [r for r in records.values() if not r["error"]]
    sizes = sizes_of(rows)
    device = context.get("opencl_device", "?")
    copy = records.get("copy_bandwidth")
    copy_text = f"copy {copy['gbps']:.1f} GB/s" if copy and copy["gbps"] else "copy bandwidth"
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    written = []

    def panels(title):
        figure, axes = plt.subplots(1, len(FILTERS), figsize=(5 * len(FILTERS), 5), squeeze=False)
        figure.suptitle(f"{title} — {device}", fontsize=11)
        return figure, axes[0]

    def bars(axis, series, value, log=False, annotate=False):
        """series: [(label, kind, filter, variant, colour, hatch, alpha)], grouped by size."""
        width = 0.8 / max(len(series), 1)
        for i, (label, kind, filter_name, variant, colour, hatch, alpha) in enumerate(series):
            xs, ys = [], []
            for j, size in enumerate(sizes):
                record = records.get(f"{kind}/{filter_name}/{variant}/{size}")
                if record and not record["error"] and record[value]:
                    xs.append(j - 0.4 + width * (i + 0.5))
                    ys.append(record[value])
            drawn = axis.bar(xs, ys, width, label=label, color=colour, hatch=hatch, alpha=alpha,
                             edgecolor="black", linewidth=0.4)
            if annotate:
                axis.bar_label(drawn, fmt="%.2f", fontsize=7, padding=1)
        axis.set_xticks(range(len(sizes)), sizes)
        if log:
            axis.set_yscale("log")
            # Ticks at 1, 2 and 5 of each decade, written 500, 2k, 1M.
            axis.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            axis.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: short(v)))
            axis.yaxis.set_minor_formatter(ticker.NullFormatter())
        # Below the panel, where it cannot cover a bar.
        axis.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2,
                    frameon=False)

    def save(figure, name):
        figure.tight_layout()
        for extension in ("png", "svg"):
            path = f"{out_dir}/{prefix}-{name}.{extension}"
            metadata = {"Date": None} if extension == "svg" else {"Software": None}
            figure.savefig(path, dpi=110, metadata=metadata)
            written.append(path)
        plt.close(figure)

    def variants(kind, filter_name):
        seen = []
        for r in rows:
            if r["kind"] == kind and r["filter"] == filter_name and r["variant"] not in seen:
                seen.append(r["variant"])
        return seen

    # Fraction of copy bandwidth: the kernels only (the CPU's memory is another yardstick).
    figure, axes = panels(f"Kernel GB/s as a fraction of the device's {copy_text}")
    for axis, filter_name in zip(axes, FILTERS):
        series = [(v, "kernel", filter_name, v, colours[i % len(colours)], None, 1.0)
                  for i, v in enumerate(variants("kernel", filter_name))]
        bars(axis, series, "fraction", annotate=True)
        axis.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
        axis.set_title(filter_name)
        axis.set_ylabel("fraction of copy bandwidth")
        axis.set_ylim(0, max(1.1, axis.get_ylim()[1] * 1.1))
    save(figure, "fraction")

    # Throughput: kernels, OpenCV on the CPU, whole pipelines.
    figure, axes = panels("Mpix/s: kernel (device time), OpenCV on the CPU (hatched), "
                          "sample pipeline upload→download (pale)")
    for axis, filter_name in zip(axes, FILTERS):
        kernels = variants("kernel", filter_name)
        series = [(v, "kernel", filter_name, v, colours[i % len(colours)], None, 1.0)
                  for i, v in enumerate(kernels)]
        series += [(f"OpenCV {v}", "opencv", filter_name, v, "lightgrey", "//", 1.0)
                   for v in variants("opencv", filter_name)]
        for v in variants("e2e", filter_name):
            match = [i for i, k in enumerate(kernels) if k.replace("_per_pass", "") == v]
            colour = colours[match[0] % len(colours)] if match else "white"
            series.append((f"pipeline {v}", "e2e", filter_name, v, colour, None, 0.35))
        bars(axis, series, "mpix", log=True)
        axis.set_title(filter_name)
        axis.set_ylabel("Mpix/s (log)")
    save(figure, "throughput")

    # The FIR window's cost by radius, per variant (kernel/fir/VARIANT/KxK/SIZE), on the largest
    # size measured: K*K work per output for the buffer, local and image passes, 2K separable.
    windows = {}
    for r in rows:
        match = re.fullmatch(r"(\w+)/([0-9]+)x[0-9]+", r["variant"])
        if r["kind"] == "kernel" and r["filter"] == "fir" and match and r["median_ms"]:
            windows.setdefault(r["size"], {}).setdefault(match.group(1), []).append(
                (int(match.group(2)) // 2, r["median_ms"]))
    if windows:
        size = max(windows, key=pixels)
        figure, axis = plt.subplots(figsize=(6, 4.5))
        figure.suptitle(f"FIR kernel time against radius, {size} — {device}", fontsize=11)
        for i, (variant, points) in enumerate(sorted(windows[size].items())):
            points.sort()
            axis.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                      label=variant, color=colours[i % len(colours)])
        axis.set_xlabel("radius (K = 2 x radius + 1)")
        axis.set_ylabel("median ms (log)")
        axis.set_yscale("log")
        axis.legend(fontsize=8)
        save(figure, "fir-radius")
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="bench's --benchmark_out file (--benchmark_out_format=json)")
    parser.add_argument("--out-dir", default=".", help="where the charts go (default: here)")
    parser.add_argument("--prefix", default="perf", help="chart file names start with this")
    parser.add_argument("--no-charts", action="store_true", help="print the table only")
    args = parser.parse_args()

    context, records = load(args.json)
    if not records:
        sys.exit(f"plot.py: no benchmarks in {args.json}")
    print(markdown(context, records))
    if args.no_charts:
        return
    try:
        written = charts(context, records, args.out_dir, args.prefix)
    except ImportError:
        print("plot.py: matplotlib is missing (Debian: python3-matplotlib): no charts",
              file=sys.stderr)
        return
    print("plot.py: wrote " + ", ".join(written), file=sys.stderr)


if __name__ == "__main__":
    main()
