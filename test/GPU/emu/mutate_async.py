#!/usr/bin/env python3
"""mutate_async.py: the CPU emulator catches the ordering bugs of an overlapped
attention loop (tlc --overlap-pv) that a GPU shows only by chance.

usage: mutate_async.py HARNESS.cu OUTDIR

HARNESS.cu is a tlc --harness --overlap-pv file of one attention kernel. Builds
it unchanged and with each mutation below through emucc.py, runs each in
both orders of asynchronous work (EMU_ASYNC late and early), and prints one
line per build and order: "NAME ORDER: PASS|FAIL". Mutations:
  s-not-waited   the gemm that issues P V waits for nothing, so the softmax
                 reads S while its wgmma is still in flight
  early-release  the K/V slot of P V is released before P V's wait, so the
                 producer may refill it while the wgmma reads it
  pv-not-waited  the rescale of O runs with P V still in flight
Exits 1 when a needle of a mutation is missing (the generated code changed).
"""
import os
import re
import subprocess
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
text = open(src).read()
here = os.path.dirname(os.path.abspath(__file__))


def need(cond, what):
    if not cond:
        sys.exit("mutate_async: %s not found in %s" % (what, src))


# The in-flight gemm helper (it takes the issue predicate `bool on`) and its wait.
helper = re.search(r"void (tl_gemm_\d+)\([^\n]*bool on\) \{", text)
need(helper, "a gemm helper with an issue predicate")
wait1 = text.find("tl_wgmma_wait<1>();", helper.end())
loop_wait = "tl_wgmma_wait<1>(); // acc_s's group done"
need(wait1 > 0 and loop_wait in text, "the wait for S")
s_not_waited = (text[:wait1] + "tl_wgmma_wait<2>();" + text[wait1 + len("tl_wgmma_wait<1>();"):]).replace(
    loop_wait, "tl_wgmma_wait<2>(); // acc_s's group done")

pv_wait = re.search(r"\n( *)tl_wgmma_wait<0>\(\); // the last wgmma group of acc_o\n", text)
need(pv_wait, "the wait for P V")
release = re.compile(r"\n *if \(k_\d+ > 0\) \{\n *tl_mbar_arrive\(&tl_empty\[[^\n]*\]\);\n *\}\n")
rel = release.search(text, pv_wait.end())
need(rel, "the release of P V's slot")
early_release = text[:pv_wait.start()] + rel.group(0)[:-1] + text[pv_wait.start():rel.start()] + text[rel.end() - 1:]
pv_not_waited = text[:pv_wait.start()] + text[pv_wait.end() - 1:]

builds = [("unchanged", text), ("s-not-waited", s_not_waited), ("early-release", early_release),
          ("pv-not-waited", pv_not_waited)]
for name, code in builds:
    cu = os.path.join(out, name + ".cu")
    exe = os.path.join(out, name)
    with open(cu, "w") as f:
        f.write(code)
    r = subprocess.run([sys.executable, os.path.join(here, "emucc.py"), cu, "-o", exe], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("mutate_async: emucc failed on %s:\n%s" % (cu, r.stdout + r.stderr))
    for order in ("late", "early"):
        env = dict(os.environ, EMU_ASYNC=order)
        r = subprocess.run([exe, "--no-perf"], capture_output=True, text=True, env=env)
        checks = re.findall(r"^check \S+: (PASS|FAIL)", r.stdout, re.M)
        verdict = "FAIL" if r.returncode != 0 or not checks or "FAIL" in checks else "PASS"
        print("%s %s: %s" % (name, order, verdict))
        sys.stdout.flush()
