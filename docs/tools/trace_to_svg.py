#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws a --trace file (Chrome trace-event JSON) as an SVG timeline, with the standard library
only: one row per track (host, device queue), each event a bar labelled where it is wide enough
(every bar has its name, start and length as a tooltip), and a time axis in milliseconds.

The whole run is drawn first; below it, the same tracks from the first device command to the
last (--zoom), where the data's path through the device is wide enough to read.

Usage: trace_to_svg.py TRACE.json OUT.svg [--title TEXT] [--width PIXELS] [--no-zoom]
"""
import argparse
import html
import json
import math

ROW = 26          # height of a track's row
LABEL_WIDTH = 110  # room for the track names on the left
COLOURS = {"host": "#4e79a7", "device": "#f28e2b"}


def tracks_of(trace):
    """[(track name, [events])] in the trace's track order, complete events only."""
    names, order = {}, {}
    for event in trace["traceEvents"]:
        if event.get("ph") == "M" and event.get("name") == "thread_name":
            names[event["tid"]] = event["args"]["name"]
        if event.get("ph") == "M" and event.get("name") == "thread_sort_index":
            order[event["tid"]] = event["args"]["sort_index"]
    bars = {}
    for event in trace["traceEvents"]:
        if event.get("ph") == "X":
            bars.setdefault(event["tid"], []).append(event)
    tids = sorted(set(names) | set(bars), key=lambda tid: (order.get(tid, tid), tid))
    return [(names.get(tid, f"track {tid}"), bars.get(tid, [])) for tid in tids]


def nice_step(span):
    """A tick spacing of 1, 2 or 5 times a power of ten giving about 8 ticks over `span`."""
    raw = span / 8 if span > 0 else 1
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def panel(tracks, begin, end, top, width, title):
    """SVG elements for the tracks between `begin` and `end` (microseconds), from `top` down."""
    plot = width - LABEL_WIDTH - 10
    scale = plot / (end - begin) if end > begin else 1.0
    x = lambda us: LABEL_WIDTH + (us - begin) * scale
    parts = [f'<text x="4" y="{top + 14}" class="title">{html.escape(title)}</text>']
    top += 22
    for row, (name, events) in enumerate(tracks):
        y = top + row * ROW
        parts.append(f'<rect x="{LABEL_WIDTH}" y="{y}" width="{plot}" height="{ROW - 4}" class="lane"/>')
        parts.append(f'<text x="4" y="{y + 15}" class="track">{html.escape(name)}</text>')
        for event in events:
            start, stop = event["ts"], event["ts"] + event["dur"]
            if stop < begin or start > end:
                continue
            left, right = x(max(start, begin)), x(min(stop, end))
            bar_width = max(right - left, 1.0)
            colour = COLOURS.get(event.get("cat"), "#59a14f")
            tip = f'{event["name"]}: starts {event["ts"] / 1e3:.3f} ms, lasts {event["dur"] / 1e3:.3f} ms'
            parts.append(f'<rect x="{left:.2f}" y="{y + 1}" width="{bar_width:.2f}" height="{ROW - 6}" '
                         f'fill="{colour}" class="bar"><title>{html.escape(tip)}</title></rect>')
            room = int(bar_width / 6.2)  # characters that fit at the label's size
            if room >= 4:
                label = event["name"] if len(event["name"]) <= room else event["name"][:room - 1] + "…"
                parts.append(f'<text x="{left + 3:.2f}" y="{y + 15}" class="label">{html.escape(label)}</text>')
    axis = top + len(tracks) * ROW + 2
    parts.append(f'<line x1="{LABEL_WIDTH}" y1="{axis}" x2="{LABEL_WIDTH + plot}" y2="{axis}" class="axis"/>')
    step = nice_step(end - begin)
    tick = math.ceil(begin / step) * step
    while tick <= end + 1e-9:
        tx = x(tick)
        parts.append(f'<line x1="{tx:.2f}" y1="{axis}" x2="{tx:.2f}" y2="{axis + 4}" class="axis"/>')
        parts.append(f'<text x="{tx:.2f}" y="{axis + 16}" class="tick">{tick / 1e3:g} ms</text>')
        tick += step
    return parts, axis + 26


def render(trace, title, width, zoom):
    tracks = tracks_of(trace)
    every = [e for _, events in tracks for e in events]
    if not every:
        raise SystemExit("the trace has no events to draw")
    begin = min(e["ts"] for e in every)
    end = max(e["ts"] + e["dur"] for e in every)
    parts, height = panel(tracks, begin, end, 0, width, f"{title}: the whole run")
    device = [e for e in every if e.get("cat") == "device"]
    if zoom and device:
        first = min(e["ts"] for e in device)
        last = max(e["ts"] + e["dur"] for e in device)
        margin = (last - first) * 0.05 + 1
        more, height = panel(tracks, first - margin, last + margin, height, width,
                             "the device's part, from its first command to its last")
        parts += more
    clock = trace.get("otherData", {}).get("clock", {})
    if clock:
        note = f'device clock matched to the host\'s within ±{clock.get("error_us", 0):g} µs ({clock.get("method", "")})'
        parts.append(f'<text x="4" y="{height + 2}" class="note">{html.escape(note[:160])}</text>')
        height += 12
    style = ("<style>text{font-family:sans-serif}.title{font-size:13px;font-weight:bold}"
             ".track{font-size:12px}.label{font-size:10px;fill:white;pointer-events:none}"
             ".tick{font-size:10px;text-anchor:middle}.note{font-size:10px;fill:#555}"
             ".lane{fill:#f3f3f3}.axis{stroke:#333}.bar{stroke:white;stroke-width:0.5}</style>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n{style}\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("svg")
    parser.add_argument("--title", default="--trace")
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--no-zoom", dest="zoom", action="store_false")
    args = parser.parse_args()
    with open(args.trace, encoding="utf-8") as file:
        trace = json.load(file)
    with open(args.svg, "w", encoding="utf-8") as file:
        file.write(render(trace, args.title, args.width, args.zoom))


if __name__ == "__main__":
    main()
