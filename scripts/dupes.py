#!/usr/bin/env python3
"""Finds copy-pasted code in lib/: every window of N consecutive code lines
(comments, blank lines and lone braces dropped, whitespace squeezed) that
occurs at more than one place. Prints each repeated window's places, the
longest runs first, so that twins can be merged into shared helpers.

usage: scripts/dupes.py [ROOT] [--lines N]   (default: the repository, N = 6)
"""
import os
import re
import sys
from collections import defaultdict


def code_lines(path):
    out = []
    in_comment = False
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        s = line.strip()
        if in_comment:
            if "*/" in s:
                in_comment = False
            continue
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        s = re.sub(r"//.*$", "", s).strip()
        s = re.sub(r"\s+", " ", s)
        if not s or s in ("{", "}", "};", "} else {", "break;", "return;", "default:"):
            continue
        out.append((no, s))
    return out


def main(argv):
    root = "."
    n = 6
    args = list(argv[1:])
    if "--lines" in args:
        i = args.index("--lines")
        n = int(args[i + 1])
        del args[i : i + 2]
    if args:
        root = args[0]
    windows = defaultdict(list)
    for dirpath, _, files in os.walk(os.path.join(root, "lib")):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(dirpath, f)
            lines = code_lines(path)
            for i in range(len(lines) - n + 1):
                key = "\n".join(s for _, s in lines[i : i + n])
                windows[key].append((os.path.relpath(path, root), lines[i][0]))
    # Merge overlapping windows into runs: report the first window of each run.
    seen = set()
    reports = []
    for key, places in windows.items():
        if len(places) < 2:
            continue
        sig = tuple(sorted(places))
        if any((p, l - d) in seen for p, l in places for d in range(1, 8)):
            seen.update(places)
            continue
        seen.update(places)
        reports.append((places, key))
    for places, key in reports:
        print(", ".join(f"{p}:{l}" for p, l in places))
        print("    " + key.split("\n")[0][:100])
    print(f"{len(reports)} repeated {n}-line windows")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
