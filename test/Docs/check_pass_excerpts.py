#!/usr/bin/env python3
"""Checks that the command excerpts of a markdown file still match tlc.

Every ```text block whose first line is `$ tlc ...` is run (the file names
in it are looked up in examples/, then anywhere under test/) and its other
lines are compared with what tlc prints (stderr for --print-after, else
stdout). Lines are compared without their indentation. A line `...` skips
any number of lines; `...` inside a line stands for any text; every other
line must follow the previous one directly. A block fails when its lines do
not appear, in order, in the output.

Prints `ok FILE:LINE COMMAND` or `FAIL FILE:LINE COMMAND` with the first line
that did not match, then `N excerpts checked, M failed`; exit status 1 when
any failed.

usage: check_pass_excerpts.py TLC SRCROOT DOC.md [--at-least N]
"""
import os
import re
import shlex
import subprocess
import sys


def find_input(root, name):
    direct = os.path.join(root, "examples", name)
    if os.path.exists(direct):
        return direct
    for dirpath, _, files in os.walk(os.path.join(root, "test")):
        if name in files:
            return os.path.join(dirpath, name)
    return None


def blocks(doc):
    lines = open(doc, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```text" and i + 1 < len(lines) and lines[i + 1].startswith("$ tlc "):
            start = i + 1
            j = start
            while lines[j].strip() != "```":
                j += 1
            yield start + 1, lines[start], lines[start + 1:j]
            i = j
        i += 1


def pattern(line):
    parts = [re.escape(p) for p in line.split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def matches(excerpt, output):
    """None when excerpt matches output, else the first excerpt line that does not."""
    out = [l.strip() for l in output.split("\n")]
    chunks, chunk = [], []
    for line in excerpt:
        if line.strip() == "...":
            chunks.append(chunk)
            chunk = []
        elif line.strip():
            chunk.append(line.strip())
    chunks.append(chunk)
    pos = 0
    for chunk in chunks:
        if not chunk:
            continue
        pats = [pattern(l) for l in chunk]
        found = None
        for start in range(pos, len(out) - len(pats) + 1):
            if all(p.match(out[start + k]) for k, p in enumerate(pats)):
                found = start
                break
        if found is None:
            # Name the first line of the chunk that cannot be found where it should be.
            for k, p in enumerate(pats):
                if not any(p.match(o) for o in out[pos:]):
                    return chunk[k]
            return chunk[0]
        pos = found + len(pats)
    return None


def run(tlc, root, command):
    words = shlex.split(command[2:].split("#")[0])[1:]  # after "$ tlc"
    args = []
    for w in words:
        if w.endswith((".tl", ".py")) and not os.path.exists(w):
            path = find_input(root, w)
            if path is None:
                return None, f"no input named {w} in examples/ or test/"
            w = path
        args.append(w)
    r = subprocess.run([tlc] + args, capture_output=True, text=True, timeout=120)
    text = r.stderr if any(a.startswith("--print-after") for a in args) else r.stdout
    # The output names the input by its path; the doc by its bare name.
    for a, w in zip(args, words):
        if a != w:
            text = text.replace(a, w)
    return text, None


def main(argv):
    if len(argv) not in (4, 6):
        sys.exit(__doc__)
    tlc, root, doc = argv[1:4]
    at_least = int(argv[5]) if len(argv) == 6 else 1
    checked = failed = 0
    for line_no, command, excerpt in blocks(doc):
        checked += 1
        where = f"{os.path.basename(doc)}:{line_no}"
        output, err = run(tlc, root, command)
        bad = err or matches(excerpt, output)
        if bad:
            failed += 1
            print(f"FAIL {where} {command}\n  not found: {bad}")
        else:
            print(f"ok {where} {command}")
    print(f"{checked} excerpts checked, {failed} failed")
    if checked < at_least:
        print(f"FAIL: expected at least {at_least} excerpts")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
