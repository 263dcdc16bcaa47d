#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Keeps the code excerpts in the docs equal to the code they quote.

    docs/tools/excerpts.py check     # exit 1, with a diff, when any excerpt is stale or broken
    docs/tools/excerpts.py update    # rewrite every stale excerpt from its source
    docs/tools/excerpts.py regions   # list the regions the sources define

Sources mark a region with two identical comment lines, alone on their lines:

    // [Kernel 16x1]
    __kernel void sobel_16x1(...)
    ...
    // [Kernel 16x1]

(`/* [Name] */` and `# [Name]` work too.) A Markdown page quotes a region with a marker line
right before a fenced code block:

    <!-- excerpt: kernels/sobel/sobel.cl [Kernel 16x1] -->
    ```c
    ...the region's lines...
    ```

The rule the check applies: the block holds exactly the lines strictly between the region's two
marker lines, with their common leading indentation removed (so a region inside a function reads
flush left) and trailing spaces ignored. Marker lines of other regions nested inside are left
out. The path is relative to the repository root. A region name occurs exactly twice in a file:
once, three times or more is an error. A block indented under a list item may be quoted: the
fence's own indentation is taken off its lines before they are compared.

Pages: README.md and every *.md under docs/ (or the files named after the mode). Sources
checked for balanced markers: every .cl/.c/.h/.cpp/.hpp under kernels/, common/, samples/ and
bench/, plus any file an excerpt names. Python 3 standard library only.
"""
import argparse
import difflib
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

# A region marker: a comment that is nothing but [Name].
REGION_MARKER = re.compile(r"^\s*(?://|/\*|#)\s*\[(?P<name>[^\[\]]+)\]\s*(?:\*/)?\s*$")
# An excerpt marker in a page: <!-- excerpt: PATH [Name] -->
EXCERPT_MARKER = re.compile(r"^\s*<!--\s*excerpt:\s*(?P<path>\S+)\s+\[(?P<name>[^\[\]]+)\]\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")

SOURCE_DIRECTORIES = ("kernels", "common", "samples", "bench")
SOURCE_SUFFIXES = (".cl", ".c", ".h", ".cpp", ".hpp")


@dataclass
class Region:
    start: int  # 1-based line number of the opening marker
    end: int  # and of the closing one
    lines: List[str]


@dataclass
class SourceFile:
    regions: Dict[str, Region] = field(default_factory=dict)
    errors: List[str] = field(default_factory=list)


@dataclass
class Excerpt:
    page: Path
    marker_line: int  # 1-based
    path: str
    name: str
    fence_open: int  # 0-based index of the opening fence line
    fence_close: Optional[int]  # 0-based index of the closing fence line
    indent: str
    fence: str
    info: str
    content: List[str]


def dedent(lines: List[str]) -> List[str]:
    """Removes the indentation common to all non-blank lines; strips trailing whitespace."""
    lines = [line.rstrip() for line in lines]
    indents = [line[:len(line) - len(line.lstrip(" \t"))] for line in lines if line]
    cut = len(os.path.commonprefix(indents)) if indents else 0
    return [line[cut:] for line in lines]


def read_source(path: Path, display: str) -> SourceFile:
    """The regions of one source file, and what is wrong with its markers."""
    source = SourceFile()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        source.errors.append(f"{display}: cannot read: {error.strerror}")
        return source
    except UnicodeDecodeError:
        return source  # not text: it holds no regions
    lines = text.splitlines()
    positions: Dict[str, List[int]] = {}
    for index, line in enumerate(lines):
        match = REGION_MARKER.match(line)
        if match:
            positions.setdefault(match.group("name").strip(), []).append(index)
    for name, found in positions.items():
        where = ", ".join(str(i + 1) for i in found)
        if len(found) == 1:
            source.errors.append(f"{display}:{found[0] + 1}: region [{name}] is opened and never "
                                 "closed (a region needs two identical marker lines)")
        elif len(found) > 2:
            kind = "is unbalanced" if len(found) % 2 else "is defined more than once"
            source.errors.append(f"{display}:{found[0] + 1}: region [{name}] {kind}: "
                                 f"{len(found)} marker lines, at lines {where}")
        else:
            start, end = found
            inner = [line for line in lines[start + 1:end] if not REGION_MARKER.match(line)]
            source.regions[name] = Region(start + 1, end + 1, dedent(inner))
    return source


def find_excerpts(page: Path, lines: List[str], errors: List[str], display: str) -> List[Excerpt]:
    """The excerpt markers of a page (outside fenced blocks) and the blocks that follow them."""
    excerpts = []
    open_fence: Optional[str] = None
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        if open_fence is not None:
            if fence and fence.group("fence")[0] == open_fence[0] and \
                    len(fence.group("fence")) >= len(open_fence) and not fence.group("info").strip():
                open_fence = None
            index += 1
            continue
        if fence:
            open_fence = fence.group("fence")
            index += 1
            continue
        marker = EXCERPT_MARKER.match(line)
        if not marker:
            if "<!--" in line and "excerpt:" in line:
                errors.append(f"{display}:{index + 1}: malformed excerpt marker (expected "
                              f"'<!-- excerpt: PATH [Region] -->'): {line.strip()}")
            index += 1
            continue
        opening = FENCE.match(lines[index + 1]) if index + 1 < len(lines) else None
        if not opening:
            errors.append(f"{display}:{index + 1}: excerpt marker for {marker.group('path')} "
                          f"[{marker.group('name')}] is not followed by a fenced code block")
            index += 1
            continue
        fence_text = opening.group("fence")
        close = None
        for candidate in range(index + 2, len(lines)):
            closing = FENCE.match(lines[candidate])
            if closing and closing.group("fence")[0] == fence_text[0] and \
                    len(closing.group("fence")) >= len(fence_text) and \
                    not closing.group("info").strip():
                close = candidate
                break
        indent = opening.group("indent")
        content = lines[index + 2:close] if close is not None else lines[index + 2:]
        content = [(line[len(indent):] if line.startswith(indent) else line.lstrip()).rstrip()
                   for line in content]
        excerpts.append(Excerpt(page, index + 1, marker.group("path"), marker.group("name").strip(),
                                index + 1, close, indent, fence_text, opening.group("info"),
                                content))
        if close is None:
            errors.append(f"{display}:{index + 2}: the code block of excerpt {marker.group('path')} "
                          f"[{marker.group('name')}] is never closed")
            break
        index = close + 1
    return excerpts


def default_pages(root: Path) -> List[Path]:
    pages = [root / "README.md"] if (root / "README.md").is_file() else []
    docs = root / "docs"
    if docs.is_dir():
        pages += sorted(p for p in docs.rglob("*.md") if p.is_file())
    return pages


def default_sources(root: Path) -> List[Path]:
    sources = []
    for directory in SOURCE_DIRECTORIES:
        base = root / directory
        if base.is_dir():
            sources += sorted(p for p in base.rglob("*")
                              if p.is_file() and p.suffix in SOURCE_SUFFIXES)
    return sources


def relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def fence_for(content: List[str], fence: str) -> str:
    """The page's fence, lengthened if the content holds a line that would close it."""
    longest = 0
    for line in content:
        match = FENCE.match(line)
        if match and match.group("fence")[0] == fence[0]:
            longest = max(longest, len(match.group("fence")))
    return fence if longest < len(fence) else fence[0] * (longest + 1)


def write_atomically(path: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def run(mode: str, root: Path, pages: List[Path], out=sys.stdout) -> int:
    errors: List[str] = []
    sources: Dict[str, SourceFile] = {}

    def source(path_text: str) -> Optional[SourceFile]:
        if path_text not in sources:
            path = root / path_text
            if not path.is_file():
                return None
            sources[path_text] = read_source(path, path_text)
        return sources[path_text]

    for path in default_sources(root):
        source(relative(path, root))

    count = stale = updated = 0
    for page in pages:
        display = relative(page, root)
        try:
            text = page.read_text(encoding="utf-8")
        except OSError as error:
            errors.append(f"{display}: cannot read: {error.strerror}")
            continue
        lines = text.split("\n")
        excerpts = find_excerpts(page, lines, errors, display)
        replacements: List[Tuple[Excerpt, List[str]]] = []
        for excerpt in excerpts:
            count += 1
            where = f"{display}:{excerpt.marker_line}"
            if excerpt.path.startswith("/") or ".." in Path(excerpt.path).parts:
                errors.append(f"{where}: excerpt path '{excerpt.path}' must be relative to the "
                              "repository root, without '..'")
                continue
            found = source(excerpt.path)
            if found is None:
                errors.append(f"{where}: excerpt names {excerpt.path}, which does not exist")
                continue
            region = found.regions.get(excerpt.name)
            if region is None:
                known = ", ".join(f"[{name}]" for name in found.regions) or "none"
                errors.append(f"{where}: excerpt names region [{excerpt.name}], which "
                              f"{excerpt.path} does not define (its regions: {known})")
                continue
            if excerpt.fence_close is None or excerpt.content == region.lines:
                continue
            stale += 1
            if mode == "update":
                replacements.append((excerpt, region.lines))
                continue
            diff = difflib.unified_diff(
                excerpt.content, region.lines,
                f"{display} (excerpt at line {excerpt.marker_line})",
                f"{excerpt.path} [{excerpt.name}] (lines {region.start + 1}-{region.end - 1})",
                lineterm="")
            errors.append(f"{where}: excerpt {excerpt.path} [{excerpt.name}] differs from the "
                          "source (docs/tools/excerpts.py update rewrites it):\n" +
                          "\n".join(diff))
        if replacements:
            # From the bottom up, so that earlier blocks keep their line numbers.
            for excerpt, content in reversed(replacements):
                fence = fence_for(content, excerpt.fence)
                indent = excerpt.indent
                lines[excerpt.fence_open:excerpt.fence_close + 1] = \
                    [indent + fence + excerpt.info] + \
                    [indent + line if line else "" for line in content] + [indent + fence]
            write_atomically(page, "\n".join(lines))
            for excerpt, _ in replacements:
                print(f"updated {display}:{excerpt.marker_line}: {excerpt.path} "
                      f"[{excerpt.name}]", file=out)
            updated += len(replacements)

    for name, found in sorted(sources.items()):
        errors.extend(found.errors)

    for error in errors:
        print(error, file=out)
    pages_text = f"{len(pages)} page{'s' if len(pages) != 1 else ''}"
    if mode == "update":
        print(f"{updated} of {count} excerpts in {pages_text} rewritten from their sources; "
              f"{len(errors)} problem{'s' if len(errors) != 1 else ''}", file=out)
    elif errors:
        print(f"FAILED: {len(errors)} problem{'s' if len(errors) != 1 else ''} in {count} excerpts "
              f"of {pages_text} ({stale} stale)", file=out)
    else:
        print(f"{count} excerpts in {pages_text} match their sources", file=out)
    return 1 if errors else 0


def list_regions(root: Path, out=sys.stdout) -> int:
    status = 0
    for path in default_sources(root):
        display = relative(path, root)
        found = read_source(path, display)
        for name, region in found.regions.items():
            print(f"{display}:{region.start}-{region.end} [{name}] "
                  f"({len(region.lines)} lines)", file=out)
        for error in found.errors:
            print(error, file=out)
            status = 1
    return status


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check or update the code excerpts in the docs against their sources.")
    parser.add_argument("mode", choices=("check", "update", "regions"))
    parser.add_argument("pages", nargs="*", type=Path,
                        help="Markdown files (default: README.md and docs/**/*.md)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the repository root (default: two folders above this script)")
    args = parser.parse_intermixed_args(argv)
    root = args.root.resolve()
    if args.mode == "regions":
        return list_regions(root)
    pages = [p if p.is_absolute() else Path.cwd() / p for p in args.pages] or default_pages(root)
    return run(args.mode, root, pages)


if __name__ == "__main__":
    sys.exit(main())
