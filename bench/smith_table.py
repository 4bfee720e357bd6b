#!/usr/bin/env python3
"""The summary of a `bench/smith.sh run` on the device: reads GEN's
MANIFEST.tsv, the kernels' "# smith:" lines, the nvcc results (bNNNNN.nvcc.err,
bNNNNN.nvcc.s) and the harness logs (run/bNNNNN.log, .status); writes
run/mismatches.txt (one reproducer per failing kernel) and prints the table.
Exits 1 when a kernel failed, did not run, or a harness did not build.

usage: smith_table.py GEN NVCC_WALL_S RUN_WALL_S
"""
import collections
import os
import re
import sys

gen, nvcc_wall, run_wall = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
run_dir = os.path.join(gen, "run")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


families = collections.OrderedDict()  # family -> [PASS, FAIL, no-run]
features = collections.Counter()
nvcc_failed, nvcc_skipped, harness_crashed = [], [], []
nvcc_seconds = []
mismatches = []
kernels = 0
for row in read(os.path.join(gen, "MANIFEST.tsv")).splitlines():
    name, target, _count, _seed = row.split("\t")
    tl = read(os.path.join(gen, name + ".tl"))
    sizes = dict(re.findall(r"^# smith-size: (\w+)=(\d+)", tl, re.M))
    err = read(os.path.join(gen, name + ".nvcc.err"))
    secs = read(os.path.join(gen, name + ".nvcc.s"))
    if secs:
        nvcc_seconds.append(int(secs))
    if err is not None:
        (nvcc_skipped if err.startswith("skipped") else nvcc_failed).append(name)
    log = read(os.path.join(run_dir, name + ".log")) or ""
    status = (read(os.path.join(run_dir, name + ".status")) or "").strip()
    if status not in ("", "0", "1"):
        harness_crashed.append("%s (exit %s)" % (name, status))
    for seed, family, feats in re.findall(
            r"^# smith: seed=(\d+) family=(\w+) features=(.*)$", tl, re.M):
        kernels += 1
        features.update(f for f in feats.split(",") if f)
        kernel = "k%s_%s" % (seed, family)
        m = re.search(r"^check %s: (PASS|FAIL)" % kernel, log, re.M)
        row = families.setdefault(family, [0, 0, 0])
        row[0 if m and m.group(1) == "PASS" else 1 if m else 2] += 1
        if m and m.group(1) == "FAIL":
            size = "".join(" --size %s=%s" % (k, v) for k, v in sizes.items()
                           if k == "m" + seed)
            lines = log.splitlines()
            at = next(i for i, l in enumerate(lines) if l.startswith("check %s:" % kernel))
            mismatches.append(
                "== %s (%s, %s): reproduce with\n"
                "   tlc-smith --seed %s -o k%s.tl && tlc --target=%s --harness%s k%s.tl -o k%s.cu\n%s\n"
                % (kernel, name, target, seed, seed, target, size, seed, seed,
                   "\n".join(lines[at:at + 4])))

with open(os.path.join(run_dir, "mismatches.txt"), "w") as f:
    f.write("".join(mismatches))
    for name in nvcc_failed:
        f.write("== nvcc failed on %s:\n%s\n" % (name, (read(os.path.join(
            gen, name + ".nvcc.err")) or "")[-2000:]))
    for name in harness_crashed:
        f.write("== harness %s\n" % name)

print("features (kernels using each):")
for feat, n in features.most_common():
    print("  %6d %s" % (n, feat))
print("%-12s %8s %8s %8s" % ("family", "PASS", "FAIL", "no-run"))
total = [0, 0, 0]
for family, row in families.items():
    print("%-12s %8d %8d %8d" % (family, *row))
    total = [a + b for a, b in zip(total, row)]
print("%-12s %8d %8d %8d" % ("total", *total))
files = len(read(os.path.join(gen, "MANIFEST.tsv")).splitlines())
print("programs: %d kernels in %d harnesses; nvcc failed on %d%s, skipped (deadline) %d; "
      "harnesses that crashed or timed out: %d%s" %
      (kernels, files, len(nvcc_failed), (" (" + " ".join(nvcc_failed[:5]) + ")") if nvcc_failed else "",
       len(nvcc_skipped), len(harness_crashed),
       (" (" + " ".join(harness_crashed[:5]) + ")") if harness_crashed else ""))
if nvcc_seconds:
    print("wall: nvcc phase %d s (per harness %d..%d s, mean %.1f s), run phase %d s" %
          (nvcc_wall, min(nvcc_seconds), max(nvcc_seconds),
           sum(nvcc_seconds) / len(nvcc_seconds), run_wall))
bad = total[1] or total[2] or nvcc_failed or harness_crashed
print("RESULT: %s" % ("FAIL (see mismatches.txt)" if bad else "all %d kernels PASS" % total[0]))
sys.exit(1 if bad else 0)
