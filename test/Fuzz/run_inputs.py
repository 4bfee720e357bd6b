#!/usr/bin/env python3
"""Runs tlc on every file of a folder; fails on a crash or an internal error.

A file with a line "#call EXPR" is also compiled with --call EXPR (as the
fuzz target does for Python inputs)."""
import glob
import os
import subprocess
import sys

tlc, folder = sys.argv[1:3]
files = sorted(glob.glob(os.path.join(folder, "*")))
bad = 0
for f in files:
    cmd = [tlc, f, "-o", "-"]
    with open(f, encoding="utf-8", errors="replace") as src:
        for line in src:
            if line.startswith("#call "):
                cmd += ["--call", line[6:].strip()]
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=60)
    if r.returncode not in (0, 1) or "internal error" in r.stderr:
        print(f"FAILED {os.path.basename(f)}: exit {r.returncode}\n{r.stderr[-2000:]}")
        bad += 1
if bad:
    sys.exit(1)
print(f"all {len(files)} inputs handled")
