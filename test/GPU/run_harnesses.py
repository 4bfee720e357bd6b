#!/usr/bin/env python3
"""Generates, compiles and (optionally) runs tlc harnesses for .tl files.

usage: run_harnesses.py --tlc TLC (--nvcc NVCC | --emulate) --out DIR [--cublas]
                        [--compile-only] [--ref-only] [--no-perf] [--iters N] [--at-least N]
                        [--flag TLC_OPTION]... FILE.tl|DIR...

A DIR stands for the *.tl files in it; fewer than --at-least N files in all
(default 1) is an error, so a folder that holds nothing cannot pass. For
each file: `tlc --harness` (or, with --ref-only, a reference-only
harness from bench/refharness.c built against the tlc build tree), then
`nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -Werror all-warnings`, then (unless --compile-only)
the binary itself. With --emulate, emu/emucc.py stands in for nvcc and the
harness runs on the CPU emulator (emu/cuda_emu.h); a file whose compiled
kernels hold PTX the emulator does not interpret is reported as "skipped
NAME" instead (ptx_emu.h interprets wgmma, TMA, mbarriers, cp.async,
ldmatrix, mma.sync; EMU_ASYNC=early in the environment lands loads at once). Prints "ok
NAME" per file and the harness's check/perf/cublas lines; on any failure
prints the command and its output and exits 1. A file's runtime sizes are
bound by its "# smith-size: NAME=VALUE" lines (tlc-smith writes them), each
passed as --size NAME=VALUE.
Compiles run in parallel (nvcc is the slow part), runs one at a time.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--tlc", required=True)
ap.add_argument("--nvcc")
ap.add_argument("--emulate", action="store_true")
ap.add_argument("--no-perf", action="store_true")
ap.add_argument("--out", required=True)
ap.add_argument("--cublas", action="store_true")
ap.add_argument("--compile-only", action="store_true")
ap.add_argument("--ref-only", action="store_true")
ap.add_argument("--iters", type=int, default=5)
ap.add_argument("--at-least", type=int, default=1)
ap.add_argument("--flag", action="append", default=[], help="pass this option to tlc too (repeatable)")
ap.add_argument("files", nargs="+")
args = ap.parse_args()
if not args.nvcc and not args.emulate:
    ap.error("give --nvcc NVCC or --emulate")
here = os.path.dirname(os.path.abspath(__file__))
nvcc = [sys.executable, os.path.join(here, "emu", "emucc.py")] if args.emulate else [args.nvcc]
files = []
for f in args.files:
    files += glob.glob(os.path.join(f, "*.tl")) if os.path.isdir(f) else [f]
files.sort(key=os.path.basename)
if len(files) < args.at_least:
    sys.exit("found %d .tl files in %s, want at least %d" % (len(files), " ".join(args.files),
                                                             args.at_least))
os.makedirs(args.out, exist_ok=True)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def refharness_tool():
    """Builds bench/refharness.c against the tlc build tree (bin/../libtlccore.a)."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(args.tlc)))
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    exe = os.path.join(args.out, "refharness")
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I", os.path.join(src, "include"),
           os.path.join(src, "bench", "refharness.c"), os.path.join(build, "libtlccore.a"),
           "-lyaml", "-lm", "-o", exe]
    rc, out = run(cmd)
    if rc != 0:  # a sanitizer build of the library needs the sanitizer runtimes
        cmd += ["-fsanitize=address,undefined"]
        rc, out = run(cmd)
    if rc != 0:
        print("FAILED:", " ".join(cmd))
        print(out)
        sys.exit(1)
    return exe


gen = refharness_tool() if args.ref_only else None


def build(tl):
    name = os.path.splitext(os.path.basename(tl))[0]
    cu = os.path.join(args.out, name + ".cu")
    exe = os.path.join(args.out, name)
    flags = (["--cublas"] if args.cublas else []) + ["--iters=%d" % args.iters] + args.flag
    with open(tl) as f:
        flags += ["--size=" + m.group(1) for m in re.finditer(r"^# smith-size: (\S+)$", f.read(), re.M)]
    steps = [([gen] + flags + [tl, "-o", cu]) if gen else ([args.tlc, "--harness"] + flags + [tl, "-o", cu]),
             nvcc + ["-O3", "-gencode=arch=compute_90a,code=sm_90a", "-Werror", "all-warnings", cu, "-o", exe]
             + (["-lcublas"] if args.cublas else [])]
    for cmd in steps:
        rc, out = run(cmd)
        if rc == 77 and args.emulate and cmd is steps[-1]:
            return name, None, None  # PTX the emulator does not interpret
        if rc != 0:
            return name, exe, "FAILED: %s\n%s" % (" ".join(cmd), out)
    return name, exe, None


# Compile in parallel, run one at a time (the runs share the GPU).
failed = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    built = list(pool.map(build, files))
for name, exe, error in built:
    if error:
        print(error)
        failed += 1
        continue
    if exe is None:
        print("skipped %s (inline PTX cannot be emulated)" % name)
        continue
    if args.compile_only:
        print("ok " + name)
        continue
    cmd = [exe, "--iters", str(args.iters)] + (["--no-perf"] if args.no_perf else [])
    rc, out = run(cmd)
    if rc != 0:
        print("FAILED: %s (exit status %d)\n%s" % (" ".join(cmd), rc, out))
        failed += 1
        continue
    print("ok " + name)
    for line in out.splitlines():
        if line.startswith(("check ", "perf ", "cublas ")):
            print(line)
sys.exit(1 if failed else 0)
