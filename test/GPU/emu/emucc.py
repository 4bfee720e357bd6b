#!/usr/bin/env python3
"""emucc.py: an nvcc stand-in that builds a harness for the CPU emulator.

usage: emucc.py [nvcc flags...] FILE.cu -o EXE [-lcublas]

Rewrites kernel launches `k<<<grid, block, ...>>>(args);` into
`EMU_LAUNCH(grid, block, k(args));`, drops `#pragma unroll`, and compiles
with the host C++ compiler ($CXX, else g++, c++ or clang++) against the
headers beside this script (cuda_emu.h). nvcc's own flags are ignored.
Exits 77 without compiling when the file holds inline PTX (asm), which the
emulator cannot run.
"""
import os
import re
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
argv = sys.argv[1:]
src = next((a for a in argv if a.endswith(".cu")), None)
out = argv[argv.index("-o") + 1] if "-o" in argv else None
if not src or not out:
    sys.exit("usage: emucc.py [nvcc flags...] FILE.cu -o EXE")
text = open(src).read()
if re.search(r"\basm\s*(volatile\s*)?\(", text):
    print("emucc: %s holds inline PTX, which the emulator cannot run" % src, file=sys.stderr)
    sys.exit(77)

launch = re.compile(r"([A-Za-z_]\w*(?:<[\w ]*>)?)<<<(.*?)>>>\((.*?)\);")


def rewrite(m):
    config = [p.strip() for p in re.split(r",(?![^()]*\))", m.group(2))]
    return "EMU_LAUNCH(%s, %s, %s(%s));" % (config[0], config[1], m.group(1), m.group(3))


text = launch.sub(rewrite, text).replace("#pragma unroll", "")
cpp = out + ".emu.cpp"
with open(cpp, "w") as f:
    f.write(text)
cxx = os.environ.get("CXX") or next((c for c in ("g++", "c++", "clang++", "clang++-14") if shutil.which(c)), None)
if not cxx:
    sys.exit("emucc: no C++ compiler found (set CXX)")
# -fno-strict-aliasing: CUDA code moves vectors by type punning
# (`*(uint2*)&half_array[i]`), which nvcc compiles as meant but g++ -O2 may
# reorder under C++'s aliasing rules (a row sum of float16 read back zeros;
# found by tlc-smith, seed 92 of bench/smith.sh emulate).
r = subprocess.run([cxx, "-std=c++17", "-O2", "-fno-strict-aliasing", "-w", "-I", here, cpp, "-o", out])
sys.exit(r.returncode)
