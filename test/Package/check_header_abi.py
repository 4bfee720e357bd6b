#!/usr/bin/env python3
"""Checks that the header tlc writes (--header) agrees with the launchers in
the .cu it writes in the same run.

usage: check_header_abi.py TLC OUT_DIR --at-least N FILE.tl|DIR ...

For every .tl file (directories are searched recursively) the script runs
`TLC FILE -o OUT_DIR/N.cu --header=OUT_DIR/N.h`. Files tlc rejects are
counted and skipped (the test suite has many on purpose). For the others it
compares, kernel by kernel and in order:

  .cu:  extern "C" cudaError_t NAME(const half_t* A, float* C, cudaStream_t stream) {
  .h:   cudaError_t NAME(const void *A /* ... */, void *C /* ... */, cudaStream_t stream);

the kernel names, the number of parameters, const-ness of each pointer (a
C caller relies on it to know what the kernel may write), the parameter
names (the header may add a trailing '_' to a name C or C++ reserves; a
runtime size keeps its source name, 'm' for the .cu's 'int m_0'), and
the final cudaStream_t. A C compiler cannot catch a mismatch here: with C
linkage the symbol carries no types. Prints one line per file and a summary;
exits 1 on any mismatch, or when fewer than N files were checked (so the
test cannot pass on globs that find nothing).
"""
import glob
import os
import re
import subprocess
import sys

CU_LAUNCHER = re.compile(r'^extern "C" cudaError_t (\w+)\((.*)\) \{$', re.M)
H_DECL = re.compile(r"^cudaError_t (\w+)\(([^;]*)\);$", re.M)
COMMENT = re.compile(r"/\*.*?\*/", re.S)


def params(text):
    return [p.strip() for p in text.split(",") if p.strip()]


def split_param(p):
    """'const half_t* A' -> (True, 'A'); 'cudaStream_t stream' -> (None, 'stream')."""
    m = re.match(r"^(const\s+)?[\w ]+?\s*\*\s*(\w+)$", p)
    if m:
        return bool(m.group(1)), m.group(2)
    m = re.match(r"^cudaStream_t\s+(\w+)$", p)
    if m:
        return None, m.group(1)
    # A runtime size (T.dynamic / T.symbolic): 'int m_0', 'long long n'.
    m = re.match(r"^(int|long long|int64_t)\s+(\w+)$", p)
    if m:
        return "int64" if m.group(1) != "int" else "int32", m.group(2)
    return "?", p


def same_name(cu_name, h_name):
    """The header spells a name as the .cu, perhaps with a trailing '_' (a
    reserved word); a runtime size keeps its source name while the .cu adds
    the unique suffix of the kernel's variables ('m' / 'm_0')."""
    return h_name in (cu_name, cu_name + "_") or re.fullmatch(
        re.escape(h_name) + r"_?_\d+", cu_name) is not None


def compare(cu, h):
    """Returns a list of mismatch descriptions (empty when they agree)."""
    errors = []
    cu_k = CU_LAUNCHER.findall(cu)
    h_k = H_DECL.findall(COMMENT.sub("", h))
    if [k for k, _ in cu_k] != [k for k, _ in h_k]:
        return ["kernels differ: .cu %s, .h %s" % ([k for k, _ in cu_k], [k for k, _ in h_k])]
    for (name, cu_p), (_, h_p) in zip(cu_k, h_k):
        a, b = params(cu_p), params(h_p)
        if len(a) != len(b):
            errors.append("%s: %d parameters in the .cu, %d in the .h" % (name, len(a), len(b)))
            continue
        for i, (pa, pb) in enumerate(zip(a, b)):
            ca, na = split_param(pa)
            cb, nb = split_param(pb)
            if "?" in (ca, cb):
                errors.append("%s: cannot read parameter %d: '%s' / '%s'" % (name, i, pa, pb))
            elif ca != cb:
                errors.append("%s: parameter %d is '%s' in the .cu but '%s' in the .h" % (name, i, pa, pb))
            elif not same_name(na, nb):
                errors.append("%s: parameter %d is named %s in the .cu, %s in the .h" % (name, i, na, nb))
        if not b or split_param(b[-1])[0] is not None:
            errors.append("%s: the last parameter is not the cudaStream_t" % name)
    return errors


def main():
    if len(sys.argv) < 6 or sys.argv[3] != "--at-least":
        sys.exit(__doc__)
    tlc, out, at_least = sys.argv[1], sys.argv[2], int(sys.argv[4])
    files = []
    for arg in sys.argv[5:]:
        if os.path.isdir(arg):
            files += sorted(glob.glob(os.path.join(arg, "**", "*.tl"), recursive=True))
        else:
            files.append(arg)
    os.makedirs(out, exist_ok=True)
    checked = rejected = kernels = failed = 0
    for i, tl in enumerate(files):
        cu = os.path.join(out, "%d.cu" % i)
        h = os.path.join(out, "%d.h" % i)
        r = subprocess.run([tlc, tl, "-o", cu, "--header=" + h], capture_output=True, text=True)
        if r.returncode == 1:
            rejected += 1
            continue
        if r.returncode != 0:
            print("FAIL %s: tlc exited with %d\n%s" % (tl, r.returncode, r.stderr))
            failed += 1
            continue
        with open(cu) as f:
            cu_text = f.read()
        with open(h) as f:
            h_text = f.read()
        errors = compare(cu_text, h_text)
        n = len(CU_LAUNCHER.findall(cu_text))
        if errors:
            failed += 1
            print("FAIL %s" % tl)
            for e in errors:
                print("  " + e)
        else:
            checked += 1
            kernels += n
            print("ok %s %s" % (os.path.basename(tl), " ".join(k for k, _ in CU_LAUNCHER.findall(cu_text))))
    print("%d files checked (%d kernels), %d rejected by tlc, %d mismatches" %
          (checked, kernels, rejected, failed))
    if checked < at_least:
        print("FAIL: %d files checked, want at least %d" % (checked, at_least))
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
