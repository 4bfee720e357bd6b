#!/usr/bin/env python3
"""Runs tlc on every file of a folder; fails on a crash or an internal error.

usage: run_inputs.py TLC FOLDER --at-least N

A file with a line "#call EXPR" is also compiled with --call EXPR (as the
fuzz target does for Python inputs). Fewer than N files in FOLDER is a
failure, so the test cannot pass on a folder that lost its inputs."""
import glob
import os
import subprocess
import sys

if len(sys.argv) != 5 or sys.argv[3] != "--at-least":
    sys.exit(__doc__)
tlc, folder, at_least = sys.argv[1], sys.argv[2], int(sys.argv[4])
files = sorted(glob.glob(os.path.join(folder, "*")))
if len(files) < at_least:
    sys.exit("found %d inputs in %s, want at least %d" % (len(files), folder, at_least))
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
