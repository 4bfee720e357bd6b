#!/usr/bin/env python3
"""The IR text round trip, for every pass of every input given.

For each input (a .tl file, a .py file written FILE.py::CALL or
FILE.py::CALL::FLAG,FLAG (driver options such as --overlap-pv, given to
every compile and every resume), or a lit test whose split-file sections hold
kernels: every section that compiles is used):
  1. compile it directly to CUDA;
  2. after sema and after every pass P: print the IR (--stop-after=P
     --emit=ir), parse it back and print it again: the two texts must be
     byte-identical (print -> parse -> print is the identity);
  3. resume from that text with the remaining passes (--passes=...): the
     CUDA and the --emit=plan YAML must be byte-identical to the direct
     compile's.
Exits 1 and names every failure; prints a summary line either way.

usage: roundtrip.py TLC WORKDIR MIN_INPUTS INPUT...   (an INPUT may be a glob)
"""
import glob
import os
import subprocess
import sys

PASSES = []  # the pipeline's passes in order, as `tlc --help` lists them


def passes_of(tlc):
    text = subprocess.run([tlc, "--help"], capture_output=True, text=True).stdout
    words, on = [], False
    for line in text.splitlines():
        if line.startswith("passes, in order:"):
            on, line = True, line[len("passes, in order:"):]
        elif on and not line.startswith(" "):
            break
        if on:
            words.extend(line.split())
    return words


def run(args):
    return subprocess.run(args, capture_output=True)


def split_sections(path, work):
    """The #--- NAME sections of a split-file lit test that are kernels."""
    out, cur, lines = [], None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#--- "):
                if cur:
                    out.append((cur, lines))
                cur, lines = line[5:].strip(), []
            elif cur:
                lines.append(line)
    if cur:
        out.append((cur, lines))
    files = []
    base = os.path.basename(path).rsplit(".", 1)[0]
    for name, body in out:
        if not name.endswith((".tl", ".py")):
            continue
        dest = os.path.join(work, "%s--%s" % (base, name))
        with open(dest, "w", encoding="utf-8") as f:
            f.writelines(body)
        files.append((dest, []))
    return files


def main():
    tlc, work, min_inputs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    PASSES.extend(passes_of(tlc))
    os.makedirs(work, exist_ok=True)
    inputs = []
    args = []
    for arg in sys.argv[4:]:
        args.extend(sorted(glob.glob(arg)) if "*" in arg and "::" not in arg else [arg])
    for arg in args:
        if "::" in arg:
            path, call, *flags = arg.split("::", 2)
            inputs.append((path, ["--call", call] + (flags[0].split(",") if flags else [])))
        elif "\n#--- " in open(arg, encoding="utf-8").read():
            inputs.extend(split_sections(arg, work))
        else:
            inputs.append((arg, []))
    failures, checked, skipped = [], 0, 0
    for n, (path, extra) in enumerate(inputs):
        tag = "%d-%s" % (n, os.path.basename(path))
        flags = [a for i, a in enumerate(extra) if a != "--call" and (i == 0 or extra[i - 1] != "--call")]
        direct = os.path.join(work, tag + ".cu")
        r = run([tlc, path, *extra, "-o", direct])
        if r.returncode != 0:
            if b"internal error" in r.stderr:
                failures.append("%s: the direct compile hit an internal error: %s" % (path, r.stderr.decode()))
            skipped += 1  # an input that does not compile (a negative test)
            continue
        cuda = open(direct, "rb").read()
        plan = run([tlc, path, *extra, "--emit=plan", "-o", "-"]).stdout
        checked += 1
        for i, stop in enumerate(["sema"] + PASSES):
            tir = os.path.join(work, "%s.%s.tir" % (tag, stop))
            r = run([tlc, path, *extra, "--stop-after=" + stop, "--emit=ir", "-o", tir])
            if r.returncode != 0:
                failures.append("%s: --stop-after=%s failed: %s" % (path, stop, r.stderr.decode()))
                continue
            r = run([tlc, tir, "--emit=ir", "-o", "-"])
            if r.returncode != 0:
                failures.append("%s after %s: parse failed: %s" % (path, stop, r.stderr.decode()))
                continue
            if r.stdout != open(tir, "rb").read():
                failures.append("%s after %s: print -> parse -> print differs (%s)" % (path, stop, tir))
            rest = ",".join(PASSES[i:])
            r = run([tlc, tir, *flags, "--passes=" + rest, "--emit=cuda", "-o", "-"])
            if r.returncode != 0:
                failures.append("%s after %s: resuming failed: %s" % (path, stop, r.stderr.decode()))
            elif r.stdout != cuda:
                failures.append("%s after %s: resumed CUDA differs from the direct compile" % (path, stop))
            r = run([tlc, tir, *flags, "--passes=" + rest, "--emit=plan", "-o", "-"])
            if r.returncode != 0 or r.stdout != plan:
                failures.append("%s after %s: resumed --emit=plan differs" % (path, stop))
    for f in failures:
        print("FAIL: " + f.rstrip())
    print("round trip: %d inputs x %d stages checked, %d inputs did not compile, %d failures"
          % (checked, len(PASSES) + 1, skipped, len(failures)))
    if checked < min_inputs:
        print("FAIL: only %d inputs compiled, expected at least %d" % (checked, min_inputs))
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
