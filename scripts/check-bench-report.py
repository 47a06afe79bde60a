#!/usr/bin/env python3
"""Fails when a committed benchmark result names an absolute path of the machine it ran on.

Usage: python3 scripts/check-bench-report.py [FILE ...]
(default: the committed results: the timerkit-bench report, Benchmarks/results/latest.md, latest.json and lateness.svg, and
the timerkit-soak record soak-10m.json). The report is committed: it must show paths relative to the
repository root. A path of the kernel's own pseudo-filesystems (/proc, /sys, /dev), which names no
machine's directory, is allowed. Exits 1 and lists each hit, else prints what it checked.
"""
import pathlib
import re
import sys

# Two or more path segments after a leading slash (JSON may escape each slash as "\/"), not preceded by
# a character that would make it part of a URL, a ratio ("KiB/s") or a relative path ("a/b").
ABSOLUTE = re.compile(r"(?<![\w.:/\\~-])(?:\\?/)[A-Za-z0-9_.~-]+(?:\\?/[A-Za-z0-9_.~+-]+)+")
ALLOWED = ("/proc/", "/sys/", "/dev/")


def hits(text):
    for match in ABSOLUTE.finditer(text):
        path = match.group(0).replace("\\/", "/")
        if not path.startswith(ALLOWED):
            yield text.count("\n", 0, match.start()) + 1, path


def main(arguments):
    root = pathlib.Path(__file__).resolve().parent.parent
    report = ["latest.md", "latest.json", "lateness.svg", "soak-10m.json"]
    files = [pathlib.Path(a) for a in arguments] or [root / "Benchmarks/results" / name for name in report]
    failures = 0
    for file in files:
        for line, path in hits(file.read_text(encoding="utf-8", errors="replace")):
            print(f"{file}:{line}: absolute path {path}")
            failures += 1
    if failures:
        print(f"{failures} absolute path(s): the committed report must show repository-relative paths")
        return 1
    print(f"no absolute path in {len(files)} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
