#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every relative link in README.md and docs/*.md must lead somewhere: the file exists, and a
#fragment names a heading of the page it points to (GitHub's anchors: lower case, punctuation
dropped, spaces to hyphens). Pages get trimmed and headings renamed; a dead link is found here,
not by a reader.

Two more checks on where links and names lead: each page of index.md's learning path names the
following one as its `Next:` (and in any "next page" link), and reference.md's source layout
names every folder under kernels/, common/ and common/codecs/.

    tests/test_doc_links.py [ROOT]     # exit 1 listing every dead link or wrong next page
"""
import pathlib
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def anchor(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"[`*_]", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(path):
    """The page's lines outside code fences (a fence can hold '#' comments and '](' text)."""
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield line


def anchors_of(path):
    found, seen = set(), {}
    for line in prose_lines(path):
        match = re.match(r"^#{1,6}\s+(.*)$", line)
        if not match:
            continue
        name = anchor(match.group(1))
        # GitHub numbers repeated headings: name, name-1, name-2, ...
        count = seen.get(name, 0)
        seen[name] = count + 1
        found.add(name if count == 0 else f"{name}-{count}")
    return found


def dead_links(root):
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    dead = []
    for page in pages:
        for number, line in enumerate(prose_lines(page), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                    continue
                file_part, _, fragment = target.partition("#")
                destination = (page.parent / file_part).resolve() if file_part else page
                if not destination.exists():
                    dead.append(f"{page.relative_to(root)}: {target}: no such file")
                elif fragment and destination.suffix == ".md":
                    if fragment not in anchors_of(destination):
                        dead.append(f"{page.relative_to(root)}: {target}: no heading "
                                    f"#{fragment} in {destination.name}")
    return dead


def learning_path(root):
    """The pages of index.md's learning path table, in order, once each."""
    path = []
    for line in prose_lines(root / "docs" / "index.md"):
        if re.match(r"^\|\s*\d+\s*\|", line):
            page = LINK.findall(line)[0].partition("#")[0]
            if page not in path:
                path.append(page)
    return path


def wrong_next_pages(root):
    """Pages of the learning path whose `Next:` or "next page" link leads elsewhere."""
    path = learning_path(root)
    wrong = []
    for page, following in zip(path, path[1:]):
        for line in prose_lines(root / "docs" / page):
            links = [target.partition("#")[0] for target in LINK.findall(line)]
            named = links[:1] if line.startswith("Next:") else re.findall(
                r"\[next page\]\(([^)#\s]*)", line, re.IGNORECASE)
            wrong += [f"docs/{page}: the next page is {following}, not {target}"
                      for target in named if target != following]
    return wrong


def unnamed_source_folders(root):
    """Folders under kernels/, common/ and common/codecs/ that reference.md's source layout does
    not name (`convert/`, `common/codecs/`, `png_deflate/`)."""
    layout = (root / "docs" / "reference.md").read_text(encoding="utf-8")
    named = {"kernels": lambda name: f"`{name}/`", "common": lambda name: f"`common/{name}/`",
             "common/codecs": lambda name: f"`{name}/`"}
    return [f"docs/reference.md: the source layout does not name {place}/{folder.name}/"
            for place, spelled in named.items()
            for folder in sorted((root / place).iterdir())
            if folder.is_dir() and spelled(folder.name) not in layout]


def test_anchor_rules():
    assert anchor("3. Borders: one small function for every filter") == \
        "3-borders-one-small-function-for-every-filter"
    assert anchor("Sobel with vectors (`sobel`)") == "sobel-with-vectors-sobel"
    assert anchor("Whole runs, file in to file out") == "whole-runs-file-in-to-file-out"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent)
    test_anchor_rules()
    dead = dead_links(root) + wrong_next_pages(root) + unnamed_source_folders(root)
    for line in dead:
        print(line)
    if dead:
        print(f"{len(dead)} dead links, wrong next pages or unnamed source folders")
        return 1
    print("every relative link in README.md and docs/ leads to a file and heading")
    return 0


if __name__ == "__main__":
    sys.exit(main())
