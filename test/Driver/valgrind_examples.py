#!/usr/bin/env python3
"""Runs tlc under valgrind (memcheck, full leak check) on every example."""
import glob
import os
import subprocess
import sys
import tempfile

valgrind, tlc, examples = sys.argv[1:4]
files = sorted(glob.glob(os.path.join(examples, "*.tl")))
with tempfile.TemporaryDirectory() as tmp:
    for f in files:
        out = os.path.join(tmp, "x.cu")
        r = subprocess.run([valgrind, "--error-exitcode=9", "--leak-check=full",
                            "--errors-for-leak-kinds=definite,indirect", tlc, f, "-o", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("FAILED", f, r.returncode)
            print(r.stderr[-3000:])
            sys.exit(1)
print(f"valgrind-clean: {len(files)} examples")
