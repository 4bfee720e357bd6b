#!/usr/bin/env python3
"""Checks that tlc-verify's prelude stays in step with tlc's output and with
the CUDA toolkit.

usage: prelude_in_step.py TLC TLC_VERIFY SRC_ROOT OUT_DIR PRELUDE_USES_CU --at-least N

1. Every name the prelude declares (tlc-verify --list-prelude-names) appears
   in PRELUDE_USES_CU, which nvcc compiles against the real toolkit
   (prelude-uses-nvcc.test): so no declaration goes unchecked against it.
2. The output of every program tlc accepts, examples/*.tl and the .tl files
   of test/, uses no name the prelude lacks (tlc-verify --list-undeclared)
   and parses without errors against it. Fewer than N such programs is a
   failure (a glob that finds nothing cannot pass).
Prints a summary line per part; exits non-zero on any problem.
"""
import glob
import os
import re
import subprocess
import sys

if len(sys.argv) != 8 or sys.argv[6] != "--at-least":
    sys.exit(__doc__)
tlc, verify, root, out, uses = sys.argv[1:6]
at_least = int(sys.argv[7])
os.makedirs(out, exist_ok=True)
problems = 0

# Used by clang itself for <<<...>>> and by the cudaStream_t typedef: no
# source names them, and the launch syntax exercises them.
IMPLICIT = {"cudaConfigureCall", "__cudaPushCallConfiguration", "CUstream_st"}
names = subprocess.run([verify, "--list-prelude-names"], capture_output=True, text=True, check=True).stdout.split()
used = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", open(uses).read()))
for n in names:
    if n not in used and n not in IMPLICIT:
        print("not exercised by %s: %s" % (os.path.basename(uses), n))
        problems += 1
print("%d prelude names, all exercised by %s" % (len(names), os.path.basename(uses))
      if not problems else "%d prelude names not exercised" % problems)

programs = sorted(glob.glob(os.path.join(root, "examples", "*.tl")))
programs += sorted(glob.glob(os.path.join(root, "test", "**", "*.tl"), recursive=True))
checked = 0
for tl in programs:
    rel = os.path.relpath(tl, root)
    cu = os.path.join(out, rel.replace(os.sep, "_") + ".cu")
    if subprocess.run([tlc, tl, "-o", cu], capture_output=True).returncode != 0:
        continue  # a diagnostics test: no CUDA to check
    checked += 1
    r = subprocess.run([verify, "--list-undeclared", cu], capture_output=True, text=True)
    if r.returncode != 0:
        problems += 1
        print("FAILED %s:\n%s%s" % (rel, r.stdout, r.stderr))
if checked < at_least:
    sys.exit("%d programs compiled under %s, want at least %d" % (checked, root, at_least))
print("%d programs parse against the prelude%s" % (checked, "" if not problems else " (with problems above)"))
sys.exit(1 if problems else 0)
