#!/usr/bin/env python3
"""Checks that lib/ depends one way, as docs/architecture.md draws it.

Each folder of lib/ has a layer; a .c or .h file in it may include the
headers of include/tlc/ that belong to its own layer or a lower one (a header
belongs to the folder that implements it). With --objects, the compiled
objects are checked too: every function an object of lib/F calls must be
defined in F's layer or a lower one (a declaration in a low header does not
hide a call upwards). Prints one line per violation and `N files checked, M
violations`; exit status 1 when there is any.

usage: check_layers.py ROOT [--objects OBJDIR]
  ROOT holds lib/ and include/tlc/; OBJDIR holds lib/<Folder>/*.o (CMake's
  build/CMakeFiles/tlccore.dir)
"""
import os
import re
import subprocess
import sys

# Lower numbers are lower layers; folders of one rank may use each other.
LAYER = {
    "Support": 0,
    "Parse": 1, "Target": 1,
    "IR": 2, "Analysis": 2,
    "Eval": 3,
    "Sema": 4,
    "Transforms": 5,
    "CodeGen": 6, "Explain": 6, "Harness": 6,
    "Driver": 7,
}

# include/tlc/<header> -> the folder of lib/ that implements it.
HEADER_HOME = {
    "Support.h": "Support", "CIdent.h": "Support",
    "Lex.h": "Parse", "Ast.h": "Parse",
    "Target.h": "Target",
    "IR.h": "IR",
    "FragLayout.h": "Analysis", "PartitionPlan.h": "Analysis",
    "PipelineModel.h": "Analysis", "RingModel.h": "Analysis", "Occupancy.h": "Analysis", "Uninitialized.h": "Analysis", "Yaml.h": "Support",
    "Eval.h": "Eval",
    "Sema.h": "Sema",
    "Passes.h": "Transforms",
    "CodeGen.h": "CodeGen", "Explain.h": "Explain", "Harness.h": "Harness",
    "Driver.h": "Driver",
}

# Calls up that are known and wait for their fix; any other call up fails the
# check. Empty: the evaluator (lib/Eval) reaches sema through the callbacks
# sema installs (TlLowering, lib/Eval/Eval.h), not by name.
KNOWN_UPCALLS = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"tlc/([^"]+)"', re.M)


def includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def check(root):
    problems, checked = [], 0
    # Headers first: a header's own includes count for the layer of its home.
    sources = []
    for name in sorted(os.listdir(os.path.join(root, "include", "tlc"))):
        if name.endswith(".h"):
            sources.append((os.path.join("include", "tlc", name), HEADER_HOME.get(name)))
    for folder in sorted(os.listdir(os.path.join(root, "lib"))):
        top = os.path.join(root, "lib", folder)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(dirpath, f), root)
                    sources.append((rel, folder))
    for rel, folder in sources:
        checked += 1
        if folder not in LAYER:
            problems.append(f"{rel}: folder or header '{folder}' has no layer in check_layers.py")
            continue
        for header in includes(os.path.join(root, rel)):
            home = HEADER_HOME.get(header)
            if home is None:
                problems.append(f"{rel}: tlc/{header} has no home folder in check_layers.py")
            elif LAYER[home] > LAYER[folder]:
                problems.append(f"{rel}: {folder} (layer {LAYER[folder]}) includes tlc/{header} "
                                f"of {home} (layer {LAYER[home]}), a higher layer")
    return problems, checked


def symbols(obj, flag):
    out = subprocess.run(["nm", "-g", flag, obj], capture_output=True, text=True, check=True)
    return [line.split()[-1] for line in out.stdout.splitlines() if line.strip()]


def check_objects(root, objdir):
    problems, home, objects = [], {}, []
    for folder in sorted(os.listdir(os.path.join(objdir, "lib"))):
        for dirpath, _, files in os.walk(os.path.join(objdir, "lib", folder)):
            for f in sorted(files):
                source = os.path.join(root, os.path.relpath(dirpath, objdir), f[:-2])
                # An object whose source was moved or removed is stale: skip it.
                if f.endswith(".o") and os.path.exists(source):
                    obj = os.path.join(dirpath, f)
                    objects.append((obj, folder))
                    for sym in symbols(obj, "--defined-only"):
                        home[sym] = folder
    for obj, folder in objects:
        rel = os.path.relpath(obj, objdir)
        if folder not in LAYER:
            problems.append(f"{rel}: folder '{folder}' has no layer in check_layers.py")
            continue
        for sym in symbols(obj, "--undefined-only"):
            callee = home.get(sym)
            if (folder, sym) in KNOWN_UPCALLS:
                print(f"known up-call: {rel} calls {sym}: {KNOWN_UPCALLS[(folder, sym)]}")
            elif callee and LAYER[callee] > LAYER[folder]:
                problems.append(f"{rel}: {folder} (layer {LAYER[folder]}) calls {sym} "
                                f"of {callee} (layer {LAYER[callee]}), a higher layer")
    return problems, len(objects)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--objects"):
        sys.exit(__doc__)
    problems, checked = check(argv[1])
    if len(argv) == 4:
        more, n = check_objects(argv[1], argv[3])
        problems += more
        checked += n
    for p in problems:
        print(p)
    print(f"{checked} files checked, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
