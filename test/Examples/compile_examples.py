#!/usr/bin/env python3
"""Compiles every examples/*.tl with tlc, then the CUDA with nvcc -c.

usage: compile_examples.py TLC NVCC EXAMPLES_DIR OUT_DIR
Exits non-zero (printing the failing command and its output) on any failure.
"""
import glob
import os
import subprocess
import sys

tlc, nvcc, examples, out = sys.argv[1:5]
os.makedirs(out, exist_ok=True)
files = sorted(glob.glob(os.path.join(examples, "*.tl")))
if not files:
    sys.exit("no examples found in " + examples)
failed = 0
for tl in files:
    name = os.path.splitext(os.path.basename(tl))[0]
    cu = os.path.join(out, name + ".cu")
    for cmd in ([tlc, tl, "-o", cu],
                [nvcc, "-gencode=arch=compute_90a,code=sm_90a", "-Werror", "all-warnings", "-c", cu, "-o", os.path.join(out, name + ".o")]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print("FAILED:", " ".join(cmd))
            print(r.stdout + r.stderr)
            failed += 1
            break
    else:
        print("ok", name)
sys.exit(1 if failed else 0)
