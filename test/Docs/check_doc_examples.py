#!/usr/bin/env python3
"""Compiles the code examples of the documentation with tlc.

usage: check_doc_examples.py TLC DOCS_DIR|FILE.md [--at-least N] [--nvcc NVCC --out DIR]

Every fenced block in DOCS_DIR/*.md (or in FILE.md) whose info string is `python` must be a
whole .tl program that compiles (tlc exits 0). A block whose first line is
`# tlc: ARGS` is a TileLang Python file instead: it is written as a .py file
and compiled with ARGS added (e.g. `# tlc: --call 'matmul(1024, 1024, 1024)'`). Every block marked
`tl-error` must be rejected with a located error (tlc exits 1, prints
"FILE:LINE:COL: error:", writes no output file, and does not crash). Other
blocks (```text, ```c, ```yaml, plain ```) are not checked.

For each checked block the script prints one line

    ok FILE:LINE KERNELS           (python blocks: the @T.prim_func names)
    ok FILE:LINE rejects: MESSAGE  (tl-error blocks: the first error)

where LINE is the line of the opening fence, so FileCheck can require
specific examples by name. A failing block prints
"FAIL FILE:LINE" and tlc's output; the exit status is then 1.

With --nvcc, the CUDA of every python block is also compiled with
`NVCC -gencode=arch=compute_90a,code=sm_90a -c` into --out DIR. Fewer than --at-least N markdown files
(default 1) is an error, so a glob that finds nothing cannot pass.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(`{3,})\s*([A-Za-z0-9_-]*)\s*$")
KERNEL = re.compile(r"^@T\.prim_func\s*\n\s*def\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
ERROR = re.compile(r"^[^\n]*:\d+:\d+: error: (.*)$", re.M)


def blocks(path):
    """Yields (line, info, text) for every fenced block of a markdown file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(1), m.group(2), i + 1
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise SystemExit("%s:%d: unterminated code fence" % (path, start))
        yield start, info, "\n".join(body) + "\n"
        i += 1


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def main(argv):
    args = argv[1:]
    nvcc = out_dir = None
    if "--nvcc" in args:
        k = args.index("--nvcc")
        nvcc = args[k + 1]
        del args[k:k + 2]
    at_least = 1
    if "--at-least" in args:
        k = args.index("--at-least")
        at_least = int(args[k + 1])
        del args[k:k + 2]
    if "--out" in args:
        k = args.index("--out")
        out_dir = args[k + 1]
        del args[k:k + 2]
    if len(args) != 2 or (nvcc and not out_dir):
        raise SystemExit(__doc__)
    tlc, docs = args
    files = sorted(glob.glob(os.path.join(docs, "*.md"))) if os.path.isdir(docs) else [docs]
    if len(files) < at_least:
        raise SystemExit("found %d .md files in %s, want at least %d" % (len(files), docs, at_least))
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            name = os.path.basename(path)
            for line, info, text in blocks(path):
                if info not in ("python", "tl-error"):
                    continue
                checked += 1
                where = "%s:%d" % (name, line)
                stem = "%s_%d" % (os.path.splitext(name)[0], line)
                extra = []
                first = text.split("\n", 1)[0]
                if first.startswith("# tlc:"):
                    extra = shlex.split(first[len("# tlc:"):])
                src = os.path.join(tmp, stem + (".py" if extra else ".tl"))
                cu = os.path.join(out_dir or tmp, stem + ".cu")
                with open(src, "w", encoding="utf-8") as f:
                    f.write(text)
                if os.path.exists(cu):
                    os.remove(cu)
                rc, output = run([tlc, src, "-o", cu] + extra)
                if info == "python":
                    problem = None if rc == 0 else "tlc exited with %d" % rc
                    if not problem and nvcc:
                        obj = os.path.join(out_dir, stem + ".o")
                        nrc, noutput = run([nvcc, "-gencode=arch=compute_90a,code=sm_90a", "-c", cu, "-o", obj])
                        if nrc != 0:
                            problem, output = "nvcc exited with %d" % nrc, noutput
                    if problem:
                        failed += 1
                        print("FAIL %s: %s\n%s" % (where, problem, output))
                    else:
                        kernels = KERNEL.findall(text) if not extra else [
                            "call:" + a.split("(")[0].split("=")[-1] for a in extra if "(" in a]
                        print("ok %s %s" % (where, " ".join(kernels) or "(no kernel)"))
                else:
                    err = ERROR.search(output)
                    if rc != 1 or not err or os.path.exists(cu):
                        failed += 1
                        print("FAIL %s: expected a located error and exit status 1, got %d\n%s"
                              % (where, rc, output))
                    else:
                        print("ok %s rejects: %s" % (where, err.group(1)))
    print("%d blocks checked, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
