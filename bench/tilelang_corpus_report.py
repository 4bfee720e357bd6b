#!/usr/bin/env python3
"""bench/tilelang_corpus_report.py TAG BEFORE AFTER: a markdown table of one tag's corpus run.

BEFORE and AFTER are the results.txt files bench/tilelang_corpus.sh leaves in its work
directory (STATUS|PATH|DETAIL per file), e.g. a run with main's tlc and one with this branch's.
Prints the counts of both and one row per file: its result before and after, and the first
error line (or why it is out of scope) after. Out-of-scope and non-kernel files are listed
once at the end with the reason.
"""
import sys


def load(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        parts = line.rstrip("\n").split("|", 2)
        if len(parts) == 3:
            rows[parts[1]] = (parts[0], parts[2])
    return rows


def counts(rows):
    n = {}
    for status, _ in rows.values():
        n[status] = n.get(status, 0) + 1
    scope = sum(n.get(k, 0) for k in ("compiled", "refused", "nvcc-failed", "no-call"))
    return n, scope


def summary(rows):
    n, scope = counts(rows)
    pct = 100.0 * n.get("compiled", 0) / scope if scope else 0.0
    return (f"{n.get('compiled', 0)} of {scope} compiled ({pct:.0f}%): {n.get('refused', 0)} refused, "
            f"{n.get('nvcc-failed', 0)} nvcc failed, {n.get('no-call', 0)} without a call")


def cell(text):
    return text.replace("|", "\\|").replace("`", "'")[:160]


def main():
    tag, before, after = sys.argv[1], load(sys.argv[2]), load(sys.argv[3])
    print(f"**{tag}**: before {summary(before)}; after {summary(after)}.\n")
    print("| file | before | after | first error after |")
    print("|---|---|---|---|")
    skipped = []
    for path in sorted(after):
        status, detail = after[path]
        if status in ("out-of-scope", "not-kernel"):
            skipped.append((path, status, detail))
            continue
        was = before.get(path, ("-", ""))[0]
        why = "" if status == "compiled" else cell(detail.split(": error: ", 1)[-1])
        print(f"| {path} | {was} | {status} | {why} |")
    print(f"\nNot counted ({tag}): " + "; ".join(
        f"{p} ({cell(d)})" for p, s, d in skipped if s == "out-of-scope") + ".")
    nk = [p for p, s, _ in skipped if s == "not-kernel"]
    print(f"{len(nk)} files without a TileLang kernel (pytest drivers, Triton/torch references, "
          "model and utility code) are listed by the script, not here.\n")


if __name__ == "__main__":
    main()
