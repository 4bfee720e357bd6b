#!/usr/bin/env python3
"""emucc.py: an nvcc stand-in that builds a harness for the CPU emulator.

usage: emucc.py [nvcc flags...] FILE.cu -o EXE [-lcublas]

Rewrites kernel launches `k<<<grid, block, ...>>>(args);` into
`EMU_LAUNCH(grid, block, k(args));`, inline PTX `asm volatile("text" : outs :
ins)` into `emu_asm("text", {emu_out(o)..., emu_in(i)...})` (interpreted by
ptx_emu.h), `extern __shared__` into `extern` (the emulator's dynamic shared
memory is one array; other `__shared__` variables become statics), drops
`#pragma unroll`, and compiles with the host C++ compiler ($CXX, else g++, c++
or clang++) against the headers beside this script (cuda_emu.h). nvcc's own
flags are ignored. Exits 77 without compiling when the file holds a PTX
instruction ptx_emu.h does not interpret (listed in EMULATED below).
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

# Instruction prefixes ptx_emu.h interprets (emu_run_ins).
EMULATED = ("fence.", "wgmma.fence", "setmaxnreg.", "setp.ne.b32", "setp.eq.b32", "selp.u32", "selp.b32",
            "wgmma.commit_group", "wgmma.wait_group", "wgmma.mma_async.sync.aligned.m64n",
            "mbarrier.init.shared::cta.b64", "mbarrier.try_wait.parity.shared::cta.b64",
            "mbarrier.arrive.shared::cta.b64", "mbarrier.arrive.expect_tx.shared::cta.b64",
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64",
            "cp.async.bulk.tensor.", "cp.async.bulk.commit_group", "cp.async.bulk.wait_group",
            "cp.async.ca.shared.global", "cp.async.cg.shared.global", "cp.async.commit_group",
            "cp.async.wait_group", "cp.async.wait_all", "bar.sync", "barrier.sync", "bar.arrive",
            "ldmatrix.sync.aligned.m8n8.", "mma.sync.aligned.m16n8k")


def skip_literal(t, i):
    """Index past the string or character literal starting at t[i]."""
    q = t[i]
    i += 1
    while t[i] != q:
        i += 2 if t[i] == "\\" else 1
    return i + 1


def split_top(t, sep):
    """Splits t at `sep` characters outside literals and parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(t):
        c = t[i]
        if c in "\"'":
            i = skip_literal(t, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(t[start:i])
            start = i + 1
        i += 1
    parts.append(t[start:])
    return parts


def c_literal_text(lits):
    """The characters of concatenated C string literals (escapes \\n, \\t, \\", \\\\)."""
    body = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', lits))
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def rewrite_asm(t):
    out, pos, unknown = [], 0, set()
    for m in re.finditer(r"\basm\s*(?:volatile\s*)?\(", t):
        if m.start() < pos:
            continue
        i, depth = m.end(), 1
        while depth:
            c = t[i]
            if c in "\"'":
                i = skip_literal(t, i)
                continue
            depth += {"(": 1, ")": -1}.get(c, 0)
            i += 1
        sections = split_top(t[m.end():i - 1], ":")
        template = sections[0].strip()
        for line in re.split(r"[;\n]", c_literal_text(template)):
            word = line.strip().lstrip("{}").strip()
            if word.startswith("@"):
                word = word.split(None, 1)[1] if " " in word else ""
            if word and not word.startswith(".") and not word.startswith(EMULATED):
                unknown.add(word.split()[0])
        operands = []
        for kind, section in (("out", 1), ("in", 2)):
            if len(sections) > section and sections[section].strip():
                for op in split_top(sections[section], ","):
                    om = re.match(r'\s*"([^"]*)"\s*\((.*)\)\s*$', op, re.S)
                    if not om:
                        sys.exit("emucc: cannot read the asm operand %r" % op.strip())
                    operands.append("emu_%s(%s)" % (kind, om.group(2)))
        out.append(t[pos:m.start()])
        out.append("emu_asm(%s, {%s})" % (template, ", ".join(operands)))
        pos = i
    out.append(t[pos:])
    return "".join(out), unknown


text, unknown = rewrite_asm(text)
if unknown:
    print("emucc: %s holds PTX the emulator does not interpret (%s)" % (src, ", ".join(sorted(unknown))),
          file=sys.stderr)
    sys.exit(77)
text = re.sub(r"\bextern\s+__shared__", "extern", text)

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
