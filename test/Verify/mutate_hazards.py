#!/usr/bin/env python3
"""Mutation test of tlc-verify's shared-memory hazard check.

usage: mutate_hazards.py TLC TLC_VERIFY SRC_ROOT OUT_DIR --at-least N

Compiles every examples/*.tl and every .tl under test/ that tlc accepts, for
sm_90a (wgmma; TMA and a producer warpgroup where tlc uses them), sm_90a
with --no-warp-specialize (wgmma fed by cp.async) and sm_90 (mma.sync), and
requires:

- the unmutated CUDA has no hazard finding ("shared-memory race");
- each mutant, one change at a time, is reported, unless this script can
  show from the text alone that the change is harmless, in which case it
  must pass. Mutations:
    barrier  delete one __syncthreads() of a kernel. Harmless when no
             shared-memory operation lies between it and another barrier of
             the same block (before or after it; nested blocks are looked
             into), or between it and the kernel's start or end: every path
             through it then meets the other barrier with nothing between.
             A stretch that leaves a loop or an if is not claimed harmless.
    wait     raise one cp.async.wait_group N to N + 1. Harmless when no
             shared-memory operation follows it to the kernel's end, by the
             same walk (the groups left in flight are never read).
    fence    delete one fence.proxy.async (sm_90a): wgmma then reads,
             through the async proxy, what generic stores or cp.async wrote.
             Harmless when no call that issues wgmma follows it, by the
             same walk.
    stage    in a loop that waits on cp.async groups, swap the stage index
             of one access with the other kind's: a read of k % S then names
             the stage (k + c) % S this iteration refills, a copy into
             (k + c) % S the stage k % S just read, with no barrier between.
             Harmless when the copies are under if (k + c < n) and n <= c
             (they never run). A wait raised right after such a loop is
             harmless too while N + 1 <= c: the newest c groups are empty.

Prints one line per class (mutants, reported, harmless), each miss and false
alarm, and a summary; exits non-zero on any miss, false alarm, finding on an
unmutated file, or fewer than N programs.
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

if len(sys.argv) != 7 or sys.argv[5] != "--at-least":
    sys.exit(__doc__)
tlc, verify, root, out = sys.argv[1:5]
at_least = int(sys.argv[6])
os.makedirs(out, exist_ok=True)
# (name, tlc flags, tlc-verify target): sm_90a's default (TMA and a
# warp-specialized producer where tlc can), its cp.async pipeline, sm_90.
TARGETS = (("sm_90a", [], "sm_90a"), ("sm_90a-cp.async", ["--no-warp-specialize"], "sm_90a"),
           ("sm_90", [], "sm_90"))
# Check 6's findings: races, and the mbarrier phase model's hangs and byte counts.
RACE = ("shared-memory race", "mbarrier wait never completes", "mbarrier transaction count mismatch")


def races(path, target):
    r = subprocess.run([verify, "--target", target, path], capture_output=True, text=True)
    if r.returncode == 2:
        sys.exit("tlc-verify failed on %s:\n%s" % (path, r.stderr))
    return [l for l in r.stdout.splitlines() if any(x in l for x in RACE)]


def kernels(lines):
    """(first, last) line indices of each __global__ function's body."""
    spans = []
    for i, l in enumerate(lines):
        if "__global__" not in l or not l.rstrip().endswith("{"):
            continue
        depth = 0
        for j in range(i, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth == 0:
                spans.append((i + 1, j - 1))
                break
    return spans


def shared_names(text):
    views = re.findall(r"\b(\w+) = \(\w+\*\)\(tl_smem \+", text)
    # Every declarator of a __shared__ declaration (tl_full[3], tl_empty[3]).
    arrays = [n for d in re.findall(r"__shared__[^;]*;", text) for n in re.findall(r"\b(\w+)\s*\[", d)]
    return set(views + arrays) - {"tl_smem"}


def shared_op(line, names):
    line = line.split("//")[0]
    if "__shared__" in line or re.search(r"= \(\w+\*\)\(tl_smem \+", line):
        return False  # a declaration
    if "cp.async" in line or "tl_smem" in line:
        return True
    return any(re.search(r"\b%s\b" % re.escape(n), line) for n in names)


def openers(lines):
    """For each (line, column) of a '{' or '}', the line of the matching '{'."""
    stack, match = [], {}
    for i, l in enumerate(lines):
        for c, ch in enumerate(l):
            if ch == "{":
                stack.append(i)
                match[(i, c)] = i
            elif ch == "}" and stack:
                match[(i, c)] = stack.pop()
    return match


def bare(line):
    """A block whose end flows only to what follows it: a bare { }, or a
    loop of one trip (for (int v = a; v < a + 1; ...))."""
    m = re.search(r"for \(int (\w+) = (-?\d+); \1 < (-?\d+);", line)
    return line.strip() == "{" or bool(m and int(m.group(3)) - int(m.group(2)) == 1)


def loop_ends_with_barrier(lines, match, j):
    """Is line j the closing brace of a loop that runs at least once
    (for (int v = a; v < b; ...) with constants a < b) and whose body ends
    with a barrier? Then the loop is left right after that barrier."""
    if lines[j].strip() != "}" or (j, lines[j].index("}")) not in match:
        return False
    m = re.search(r"for \(int (\w+) = (-?\d+); \1 < (-?\d+);", lines[match[(j, lines[j].index("}"))]])
    if not m or int(m.group(2)) >= int(m.group(3)):
        return False
    k = j - 1
    while k > 0 and transparent(lines[k]):
        k -= 1
    return lines[k].strip() == "__syncthreads();"


def transparent(line):
    s = line.strip()
    return s == "" or s.startswith("//") or s.startswith("#pragma")


def calls(line, fs):
    """Does line call one of the functions fs?"""
    return any(re.search(r"\b%s\(" % f, line) for f in fs)


def wgmma_functions(lines, marker=lambda x: "wgmma.mma_async" in x):
    """Names of the functions that issue wgmma (or whose body has a line
    `marker` accepts), directly or through a call."""
    bodies, name, depth = {}, None, 0
    for l in lines:
        m = re.match(r"(?:template <[^>]*> )?__device__ [^(]*?\b(\w+)\(", l)
        if depth == 0 and m and l.rstrip().endswith("{"):
            name, bodies[m.group(1)] = m.group(1), []
        if name:
            bodies[name].append(l)
        depth += l.count("{") - l.count("}")
        if depth == 0:
            name = None
    found = {n for n, b in bodies.items() if any(marker(x) for x in b)}
    while True:
        more = {n for n, b in bodies.items() if n not in found and
                any(calls(x, found) for x in b)}
        if not more:
            return found
        found |= more


def quiet(lines, match, i, step, first, last, names, to_barrier, op=None, stop="__syncthreads()"):
    """Walking from line i (by step 1 or -1), is there no shared-memory
    operation before a barrier of the same block (when to_barrier) or the
    kernel's start or end? Nested blocks are looked into; leaving a block
    that is not a bare { } (a loop, an if) ends the walk unproven."""
    depth = 0
    j = i + step
    while first <= j <= last:
        l = lines[j]
        if (op or shared_op)(l, names) or re.match(r"\s*(return|break|continue|goto)\b", l):
            return False
        if to_barrier and depth == 0 and stop in l:
            return True
        if step < 0 and depth == 0 and loop_ends_with_barrier(lines, match, j):
            return to_barrier
        cols = range(len(l)) if step > 0 else range(len(l) - 1, -1, -1)
        for c in cols:
            if l[c] not in "{}":
                continue
            depth += 1 if (l[c] == "{") == (step > 0) else -1
            if depth < 0:
                if not bare(lines[match[(j, c)]]):
                    return False
                depth = 0
        j += step
    return True


ELEM = {"float": 4, "half_t": 2, "bfloat16_t": 2, "int": 4, "double": 8}
VEC = {"uint4": 16, "float4": 16, "int4": 16, "uint2": 8, "float2": 8, "int2": 8, "__half2": 4,
       "__nv_bfloat162": 4}


def block_threads(text):
    m = re.search(r"<<<dim3\([^)]*\), dim3\((\d+), 1, 1\)", text)
    return int(m.group(1)) if m else None


def bracket(line, start):
    """The text inside the brackets that open at line[start]."""
    depth = 0
    for i in range(start, len(line)):
        depth += {"[": 1, "]": -1}.get(line[i], 0)
        if depth == 0:
            return line[start + 1:i]
    return None


def writes(line, n):
    """May the line store to shared buffer n (an assignment to n[...] or
    *(T*)&n[...], or n passed to a call)?"""
    code = line.split("//")[0]
    e = re.escape(n)
    # Any call it is passed to may store through it (a copy, a TMA load, an
    # mbarrier init): counted as a write.
    return bool(re.search(r"\b%s\[[^=;]*\]\s*([-+*/|&^]?=)(?!=)" % e, code) or
                re.search(r"\b\w+(<[^<>]*>)?\([^;]*\b%s\b" % e, code))


class Slot:
    """groups 1-4 of v * A + (int)threadIdx.x * W + lane, as a match would give."""

    def __init__(self, v, a, w, lane):
        self.g = (None, v, a, w, lane)

    def group(self, i):
        return self.g[i]


def slot_index(idx):
    """v * A + (int)threadIdx.x * W + lane, its terms in any order (each
    but the thread's optional; lane a loop counter or a constant)."""
    v = a = w = lane = None
    tid = False
    for term in idx.split(" + "):
        m = re.fullmatch(r"\(int\)threadIdx\.x(?: \* (\d+))?", term)
        if m and not tid:
            tid, w = True, m.group(1)
            continue
        m = re.fullmatch(r"([A-Za-z_]\w*) \* (\d+)", term)
        if m and v is None:
            v, a = m.group(1), m.group(2)
            continue
        if re.fullmatch(r"\w+", term) and lane is None:
            lane = term
            continue
        return None
    return Slot(v, a, w, lane) if tid else None


def single_thread(lines, lo, hi, names):
    """Is every shared access on lines lo..hi inside an
    if ((int)threadIdx.x < 1) or == 0 block? Then one thread makes them
    all, and program order orders them."""
    stack, inside = [], []
    for l in lines[:hi + 1]:
        # The blocks open at the start of the line (a line's own '{' opens after it).
        inside.append(list(stack))
        for ch in l.split("//")[0]:
            if ch == "{":
                stack.append(l)
            elif ch == "}" and stack:
                stack.pop()
    one = re.compile(r"if \(\(int\)threadIdx\.x (< 1|== 0)\) \{")
    return all(any(one.search(h) for h in inside[j])
               for j in range(lo, hi + 1) if shared_op(lines[j], names))


def per_thread(lines, lo, hi, names, elems, threads):
    """Do all shared accesses on lines lo..hi give each element to one
    thread: NAME[v * A + (int)threadIdx.x * W (+ lane)] with A a multiple of
    W * threads, a lane and a vector inside W elements, one W per buffer?
    Then thread t owns the elements k with k % (W * threads) in
    [W * t, W * t + W), whichever side of a barrier they are on."""
    slot = {}
    # A buffer only read in the stretch cannot race there, whatever its indices.
    written = {n for n in names for j in range(lo, hi + 1) if writes(lines[j], n)}
    for j in range(lo, hi + 1):
        l = lines[j]
        if not shared_op(l, names):
            continue
        if "cp.async" in l or "tl_smem" in l:
            return False
        for n in names & written:
            uses = list(re.finditer(r"\b%s\b" % re.escape(n), l))
            for u in uses:
                if l[u.end():u.end() + 1] != "[":
                    return False
                idx = bracket(l, u.end())
                m = idx and slot_index(idx)
                if not m or threads is None or n not in elems:
                    return False
                w = int(m.group(3) or 1)
                # v * A with v the counter of a loop of one trip is 0.
                one_trip = m.group(1) and re.search(r"for \(int %s = 0; %s < 1;" % (m.group(1), m.group(1)),
                                                    "\n".join(lines))
                if m.group(1) and not one_trip and int(m.group(2)) % (w * threads):
                    return False
                vec = re.search(r"\*\((?:const )?(\w+)\*\)&$", l[:u.start()])
                width = VEC.get(vec.group(1), 0) // elems[n] if vec else 1
                lane = 0
                if m.group(4) and m.group(4).isdigit():
                    lane = int(m.group(4))
                elif m.group(4):
                    lm = re.search(r"for \(int %s = 0; %s < (\d+);" % (m.group(4), m.group(4)), "\n".join(lines))
                    if not lm:
                        return False
                    lane = int(lm.group(1)) - 1
                if width == 0 or lane + width > w or slot.setdefault(n, w) != w:
                    return False
    return True


def neighbours(lines, match, i, first, last):
    """The lines between the barriers (or kernel ends) around line i, or
    None when the stretch leaves a loop or an if around i (a path then
    reaches i's neighbours without passing those barriers)."""
    ends = []
    for step in (-1, 1):
        depth, j = 0, i + step
        while first <= j <= last and not (depth == 0 and "__syncthreads()" in lines[j]):
            l = lines[j]
            for c in (range(len(l)) if step > 0 else range(len(l) - 1, -1, -1)):
                if l[c] in "{}":
                    depth += 1 if (l[c] == "{") == (step > 0) else -1
                    if depth < 0:
                        if not bare(lines[match[(j, c)]]):
                            return None
                        depth = 0
            j += step
        ends.append(j)
    return ends[0] + 1, ends[1] - 1


def loop_end(lines, match, j):
    """The line of the loop header whose closing brace is line j, or None."""
    l = lines[j]
    if l.strip() != "}" or (j, l.index("}")) not in match:
        return None
    h = match[(j, l.index("}"))]
    return h if re.search(r"\bfor \(int \w+ = ", lines[h]) else None


def copy_guard(lines, match, head, end):
    """For a pipelined loop on lines head..end: (counter, c, n) when every
    cp.async of its body is under one if (k + c < n) and it runs
    for (int k = 0; k < N; ...) with constant N; else None."""
    m = re.search(r"for \(int (\w+) = 0; \1 < (\d+);", lines[head])
    if not m:
        return None
    k, trips = m.group(1), int(m.group(2))
    for j in range(head + 1, end):
        g = re.search(r"if \(%s \+ (\d+) < (\d+)\) \{" % k, lines[j])
        if not g:
            continue
        close = next((x for x in range(j, end) if (x, lines[x].find("}")) in match and
                      match[(x, lines[x].find("}"))] == j), None)
        copies = [x for x in range(head, end) if "tl_cp_async" in lines[x]]
        if close and all(j < x < close for x in copies):
            return k, int(g.group(1)), trips
    return None


def overlaid_views(text):
    """Pairs of views into tl_smem whose bytes overlap (tiles plan-shared
    placed over each other: disjoint lifetimes). The rules below reason by
    name, so a stretch that touches two of them is never claimed harmless."""
    views = [(n, int(o), int(b)) for n, o, b in
             re.findall(r"\w+\* (\w+) = \(\w+\*\)\(tl_smem \+ (\d+)\); // (\d+) bytes", text)]
    return {(x[0], y[0]) for x in views for y in views
            if x[0] != y[0] and x[1] < y[1] + y[2] and y[1] < x[1] + x[2]}


def mutants(text):
    """(class, description, mutated text, harmless)."""
    lines = text.split("\n")
    names = shared_names(text)
    overlaid = overlaid_views(text)
    match = openers(lines)
    elems = {n: ELEM[t] for t, n in re.findall(r"(\w+)\* (\w+) = \(\w+\*\)\(tl_smem \+", text) if t in ELEM}
    threads = block_threads(text)
    wg = wgmma_functions(lines)
    readers = wg | wgmma_functions(lines, lambda x: "cp.async.bulk.tensor" in x and ".global.shared" in x)
    for first, last in kernels(lines):
        for i in range(first, last + 1):
            l = lines[i]
            if l.strip() == "__syncthreads();":
                # A stretch that leaves a loop or an if: the whole kernel,
                # whose accesses must then all be per-thread (no element is
                # touched by two threads anywhere, so no barrier is needed).
                around = neighbours(lines, match, i, first, last) or (first, last)
                harmless = (not any(shared_op(x, names) for x in lines[first:last + 1]) or
                            quiet(lines, match, i, -1, first, last, names, True) or
                            quiet(lines, match, i, 1, first, last, names, True) or
                            per_thread(lines, around[0], around[1], names, elems, threads) or
                            single_thread(lines, around[0], around[1], names))
                stretch = "\n".join(lines[around[0]:around[1] + 1])
                if any(re.search(r"\b%s\[" % x, stretch) and re.search(r"\b%s\[" % y, stretch)
                       for x, y in overlaid):
                    harmless = False
                yield ("barrier", "line %d: __syncthreads() deleted" % (i + 1),
                       "\n".join(lines[:i] + lines[i + 1:]), harmless)
            m = re.search(r"cp\.async\.wait_group (\d+)", l)
            if m:
                n = int(m.group(1))
                mutated = list(lines)
                mutated[i] = l.replace(m.group(0), "cp.async.wait_group %d" % (n + 1))
                harmless = quiet(lines, match, i, 1, first, last, names, False)
                # Right after a pipelined loop whose last c iterations copy
                # nothing (if (k + c < n)), the newest c groups are empty.
                j = i - 1
                while j > first and transparent(lines[j]):
                    j -= 1
                head = loop_end(lines, match, j)
                guard = head is not None and copy_guard(lines, match, head, j)
                harmless = harmless or bool(guard and n + 1 <= guard[1])
                yield ("wait", "line %d: wait_group %d -> %d" % (i + 1, n, n + 1), "\n".join(mutated), harmless)
            if "fence.proxy.async" in l:
                # Harmless when nothing reads shared memory through the async
                # proxy after it (wgmma, a TMA store), when another fence
                # comes first on the way to the next such read (it fences the
                # same writes), or when only the async proxy touches the tiles
                # (TMA writes them, wgmma reads them): the fence has no generic
                # access to order. A TMA store's tile is reused after a
                # cp.async.bulk.wait_group.read and a barrier, which need no fence.
                # The next fence covers this one's writes, but not a write
                # between the two to a tile wgmma reads (its earlier async
                # reads must be fenced before that generic write).
                wg_tiles = {n for n in names for x in lines[first:last + 1]
                            if calls(x, wg) and re.search(r"\b%s\b" % re.escape(n), x)}

                def reads_or_wg_tile(x, fs):
                    code = x.split("//")[0]
                    return calls(code, fs) or any(re.search(r"\b%s\b" % re.escape(n), code) for n in wg_tiles)
                harmless = quiet(lines, match, i, 1, first, last, readers, False, calls) or \
                    quiet(lines, match, i, 1, first, last, readers, True, reads_or_wg_tile,
                          "fence.proxy.async") or \
                    fences_nothing(lines, match, i, first, names, wg, readers - wg) or \
                    async_tiles_only(lines[first:last + 1], names, wg)
                yield ("fence", "line %d: fence.proxy.async deleted" % (i + 1),
                       "\n".join(lines[:i] + lines[i + 1:]), harmless)
        for head, end in pipelined_loops(lines, match, first, last):
            yield from stage_swaps(lines, match, head, end)
        yield from ring_mutants(lines, first, last)


def pipelined_loops(lines, match, first, last):
    """(header line, closing line) of each loop whose body waits on cp.async groups."""
    for (j, c), h in match.items():
        if first <= h <= last and lines[j][c] == "}" and re.search(r"\bfor \(int \w+ = ", lines[h]) and \
                any("cp.async.wait_group" in x for x in lines[h + 1:j]):
            yield h, j


def stage_swaps(lines, match, head, end):
    """Swap stage indices between the reads and the copies of one pipelined
    loop: a read then names the stage being refilled, a copy the stage
    being read. Harmless when the copies never run (if (k + c < n) with
    n <= c: a loop shorter than the pipeline's depth)."""
    k = re.search(r"for \(int (\w+) = ", lines[head]).group(1)
    pat = re.compile(r"\(%s \+ \d+\) %% \d+|\b%s %% \d+" % (k, k))
    sites = [(i, m) for i in range(head + 1, end) for m in pat.finditer(lines[i])]
    reads = [(i, m) for i, m in sites if "tl_cp_async" not in lines[i]]
    writes = [(i, m) for i, m in sites if "tl_cp_async" in lines[i]]
    if not reads or not writes:
        return
    guard = copy_guard(lines, match, head, end)
    harmless = bool(guard and guard[2] <= guard[1])
    for group, other in ((reads, writes), (writes, reads)):
        new = other[0][1].group(0)
        for i, m in group:
            if m.group(0) == new:
                continue
            mutated = list(lines)
            mutated[i] = lines[i][:m.start()] + new + lines[i][m.end():]
            yield ("stage", "line %d col %d: '%s' -> '%s'" % (i + 1, m.start() + 1, m.group(0), new),
                   "\n".join(mutated), harmless)


def fences_nothing(lines, match, i, first, names, wg, stores):
    """Walking back from the fence at line i to the previous fence, is there
    no generic shared-memory write and no wgmma (whose reads a later
    generic write would need fenced)? Then the fence has nothing of its own
    to order (a TMA store's tile is reused after its bulk wait and a
    barrier, not a fence). Leaving the fence's block ends the walk
    unproven."""
    depth = 0
    for j in range(i - 1, first - 1, -1):
        code = lines[j].split("//")[0]
        if depth == 0 and "fence.proxy.async" in code:
            return True
        if calls(code, wg):
            return False
        if any(re.search(r"\b%s\b" % re.escape(n), code) for n in names) and \
                not calls(code, stores) and not re.search(r"\btl_tma_load_\w+\(", code) and \
                not re.search(r"= \(\w+\*\)\(tl_smem \+", code):
            lhs = code.split(" = ")[0] if " = " in code else code
            if any(re.search(r"\b%s\b" % re.escape(n), lhs) for n in names):
                return False  # a store to a shared tile, or a call that may write one
        for c in range(len(code) - 1, -1, -1):
            if code[c] not in "{}":
                continue
            depth += 1 if code[c] == "}" else -1
            if depth < 0:
                return False
    return False


def async_tiles_only(body, names, wg):
    """Is every use of a shared tile (not an mbarrier) in the kernel body a
    TMA load into it or a wgmma function's operand?"""
    tiles = [n for n in names if n not in ("tl_full", "tl_empty")]
    for l in body:
        code = l.split("//")[0]
        if not any(re.search(r"\b%s\b" % re.escape(n), code) for n in tiles):
            continue
        if re.search(r"= \(\w+\*\)\(tl_smem \+", code):
            continue  # the view's declaration
        if not (re.search(r"\btl_tma_load_\w+\(", code) or calls(code, wg)):
            return False
    return bool(tiles)


def call_args(line, name):
    """(start, end) spans of the arguments of the first call name(...) in line."""
    m = re.search(r"\b%s\(" % re.escape(name), line)
    if not m:
        return []
    spans, depth, start = [], 0, m.end()
    for i in range(m.end() - 1, len(line)):
        ch = line[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, i))
                return spans
        elif ch == "," and depth == 1:
            spans.append((start, i))
            start = i + 1
    return spans


RING_CALL = re.compile(r"\b(tl_mbar_wait|tl_mbar_arrive|tl_mbar_expect_tx|tl_tma_load_\w+|tl_gemm_\d+)\(")


def ring_mutants(lines, first, last):
    """The Hopper classes, on the warp-specialized TMA ring (sm_90a): drop an
    mbarrier wait, flip a wait's parity, change an expect_tx's bytes, give
    one ring access or barrier the next stage's index, move an arrive on an
    empty barrier above the wgmma call or wait before it. Every one is a bug
    tlc-verify must report (none is claimed harmless by this script: each
    changes every iteration of a ring of more positions than stages, and the
    script checks that: a ring is only mutated when its loop runs past its
    stages; IMPRECISE may prove some harmless by hand, as for a 2-stage ring
    where the other stage's barrier only delays)."""
    text = "\n".join(lines[first:last + 1])
    st = re.search(r"tl_full\[(\d+)\]", text)
    if "tl_mbar_wait(" not in text or not st:
        return
    stages = int(st.group(1))
    trips = [int(n) for n in re.findall(r"for \(int \w+ = 0; \w+ < (\d+); \+\+\w+\) \{\n\s*tl_mbar_wait", text)]
    if not trips or max(trips) <= stages:
        return  # a ring that never wraps: its empty waits order nothing
    for i in range(first, last + 1):
        l = lines[i]
        if "tl_mbar_wait(" in l:
            yield ("mbar-wait", "line %d: mbarrier wait deleted" % (i + 1), "\n".join(lines[:i] + lines[i + 1:]), False)
            a = call_args(l, "tl_mbar_wait")
            if len(a) == 2:
                p0, p1 = a[1]
                mutated = list(lines)
                mutated[i] = l[:p0] + " (%s) ^ 1" % l[p0:p1].strip() + l[p1:]
                yield ("parity", "line %d: parity flipped" % (i + 1), "\n".join(mutated), False)
        if "tl_mbar_expect_tx(" in l:
            a = call_args(l, "tl_mbar_expect_tx")
            if len(a) == 2 and l[a[1][0]:a[1][1]].strip().isdigit():
                n = int(l[a[1][0]:a[1][1]].strip())
                for d in (128, -128):
                    mutated = list(lines)
                    mutated[i] = l[:a[1][0]] + " %d" % (n + d) + l[a[1][1]:]
                    yield ("expect-tx", "line %d: expect_tx %d -> %d" % (i + 1, n, n + d), "\n".join(mutated), False)
        m = RING_CALL.search(l)
        if m:
            # Each stage index of the call (not a wait's parity): X % S -> (X + 1) % S.
            skip = call_args(l, "tl_mbar_wait")[1:] if m.group(1) == "tl_mbar_wait" else []
            # A producer's wait on an empty barrier given the next stage waits
            # for a release the consumer makes later in its program order (a
            # stronger wait, no hazard): it gets the previous stage instead,
            # whose release comes before the one it needs.
            shift = stages - 1 if m.group(1) == "tl_mbar_wait" and "tl_empty[" in l else 1
            for sm in re.finditer(r"\(([^()]*)\) %% %d\b|\b(\w+) %% %d\b" % (stages, stages), l):
                if sm.start() < m.start() or any(a <= sm.start() < b for a, b in skip):
                    continue
                x = sm.group(1) or sm.group(2)
                mutated = list(lines)
                mutated[i] = l[:sm.start()] + "(%s + %d) %% %d" % (x, shift, stages) + l[sm.end():]
                yield ("ring-stage", "line %d col %d: '%s' -> next stage" % (i + 1, sm.start() + 1, sm.group(0)),
                       "\n".join(mutated), False)
        if "tl_mbar_arrive(" in l:
            lo, hi = i, i
            if lines[i - 1].strip().startswith("if (") and lines[i - 1].rstrip().endswith("{") and \
                    lines[i + 1].strip() == "}":
                lo, hi = i - 1, i + 1
            j = lo - 1
            while j > first and not re.search(r"\btl_gemm_\d+\(|\btl_wgmma_wait<", lines[j]):
                j -= 1
            if j > first and not lines[j].rstrip().endswith("{"):
                block = lines[lo:hi + 1]
                mutated = lines[:j] + block + lines[j:lo] + lines[hi + 1:]
                yield ("arrive", "line %d: arrive moved above line %d" % (i + 1, j + 1), "\n".join(mutated), False)


def check_program(job):
    tl, (name, flags, target) = job
    rel = os.path.relpath(tl, root)
    base = os.path.join(out, rel.replace(os.sep, "_") + "." + name)
    cu = base + ".cu"
    if subprocess.run([tlc, "--target=" + target] + flags + [tl, "-o", cu], capture_output=True).returncode != 0:
        return None  # a diagnostics test: no CUDA
    report = {"baseline": races(cu, target), "rows": [], "rel": rel}
    text = open(cu).read()
    for n, (cls, what, mutated, harmless) in enumerate(mutants(text)):
        path = "%s.m%d.cu" % (base, n)
        with open(path, "w") as f:
            f.write(mutated)
        found = races(path, target)
        proven = IMPRECISE.get(rel, (None, None))[1]
        harmless = harmless or bool(proven and re.search(proven, what))
        report["rows"].append((cls, "%s %s %s" % (rel, name, what), harmless, found))
        os.remove(path)
    return report


# Triaged imprecisions (docs/tlc-verify.md). A program mapped to (why, None)
# is left out: the check cannot prove its correct code. One mapped to (why,
# REGEX) is checked, but its mutants whose description matches REGEX are
# harmless by the proof in `why` (a shape this script cannot show from the
# text), so they must pass like the other harmless ones.
IMPRECISE = {
    "test/CodeGen/while-loop.tl":
        ("a tree reduction: the guard tid < n keeps the reads s[tid + n] past every write s[tid'] "
         "of the same pass, a relation between two accesses that interval bounds do not see", None),
    "test/GPU/Inputs/scalars.tl": ("a tree reduction, as while-loop.tl", None),
    "test/Fuzz/Inputs/seed-smith-gemm.tl":
        ("in the 2-stage mma.sync loop the stretch between the loop's two barriers writes only stage "
         "(k + 1) % 2 and the stretch after the second reads only stage k % 2, so the second barrier "
         "orders nothing (the first one, after the wait, orders both pairs); and A_s is filled by plain "
         "stores before that barrier, so a read of the stage being filled is ordered by it",
         r"(line 158: __syncthreads\(\) deleted|line 159 col 21: 'k_5 % 2' -> '\(k_5 \+ 1\) % 2')$"),
    "test/GPU/Inputs/reduce_general.tl":
        ("line 99 ends col_sums' k loop: its last shared access reads tile_red2_tree3, which the next "
         "iteration writes only after the barrier that follows its tile_red2 stores (line 57), and "
         "tile_red2, read before the body's barriers at lines 73 and 89, is stored again before that "
         "barrier; line 162 separates shared_rows' last tree step, where thread t < 48 writes "
         "s_tree4[2t], from the read of s_tree4[2t] by the same thread (per-thread: tlc-verify's "
         "thread slots show it, this script's text rules do not)",
         r"line (99|162): __syncthreads\(\) deleted$"),
    "test/GPU/Inputs/reduce_tree_odd.tl":
        ("in col_max_37, line 180 separates the copy (thread t writes a[80 s + t]) from the partial "
         "reduction reading a[80 r + t] in the same thread, and line 221 the last tree step (thread "
         "t < 5 writes a_tree2[t]) from the read of a_tree2[t] by the same thread: both per-thread",
         r"line (180|221): __syncthreads\(\) deleted$"),
    "test/Fuzz/Inputs/seed-smith-runtime-size.tl":
        ("line 42 separates the store S[8 t .. 8 t + 8) by thread t < 16 from its read of the same "
         "elements by the same thread (the barrier before it orders the 4-wide copy's writes)",
         r"line 42: __syncthreads\(\) deleted$"),
    "test/Transforms/WarpSpecialize/cluster-not.tl":
        ("line 368 ends the consumer's tile: since the fence before, its threads only read the ring "
         "tiles (into the global S) and issue wgmma on them, and TMA alone writes the ring, after "
         "the empty-barrier arrive and the producer's wait: no generic write to fence, and a "
         "generic read before an async-proxy write is ordered by the mbarriers",
         r"line 368: fence\.proxy\.async deleted$"),
    "test/GPU/Inputs/reduce_mma_span_warps.tl":
        ("line 315 ends attention_rows' t loop: the next iteration's write of k is after the two "
         "reductions' barriers that follow this iteration's gemm, and each reduction's shared tile "
         "(s_warps6, s_warps7) is written again only after the other reduction's barrier",
         r"line 315: __syncthreads\(\) deleted$"),
    "test/GPU/Inputs/gemm_fragment_from_shared.tl":
        ("in source_changed (sm_90a lines 322 and 335, sm_90 lines 264 and 277), the first "
         "separates the copy into S (thread t writes S[1024 s + 8 t .. + 8)) from the copy of S "
         "into the fragment F, which reads S[1024 r + 8 t .. + 8) in the same thread, and the "
         "second separates that read from the nest that scales S in place, whose thread t writes "
         "those same elements: both per-thread. In register_a on sm_90a, line 426 is the proxy "
         "fence before the barrier after the copy into S, which only generic loads read (the "
         "gemm reads F from registers, B_s is fenced where it is written). In register_a on "
         "sm_90, line 392 separates the copy of S into F (thread t reads S[1024 r + 8 t .. + 8)) "
         "from the loop's first in-place update of S (thread t writes those same elements): "
         "per-thread; line 436 follows the loop, whose last iteration already ends with the "
         "barriers around its gemm, after its update of S",
         r"line (322|335|264|277|392|436): __syncthreads\(\) deleted$|line 426: fence\.proxy\.async deleted$"),
    "test/Diagnostics/tile-read-before-write.tl":
        ("its num_stages=1 loop runs on a ring of 2 stages (4 trips), where giving the producer's "
         "empty wait (line 168), its expect_tx (169) or the consumer's release (228) the other "
         "stage only delays: a wait on the other slot's barrier alternates between a later "
         "release (iteration k - 1 instead of k - 2) and an earlier one that the in-order "
         "producer's previous, later wait already covers; an expect_tx on the other full barrier "
         "completes slot k's phase at iteration k + 1's expect, after slot k's bytes landed; a "
         "release on the other empty barrier is iteration k's, which comes after the k - 1 the "
         "producer needs. With --no-warp-specialize (cp.async), line 161 is the proxy fence at "
         "the end of the loop after the generic stores into h_s: the next iteration reads h_s "
         "generically (the copy to H) and then by wgmma only after the fence before its gemm "
         "(line 147), which this thread's earlier h_s stores precede too",
         r"line (168 col 32: 'k_15 % 2'|169 col 36: 'k_15 % 2'|228 col 30: 'k_4 % 2') -> next stage$"
         r"|line 161: fence\.proxy\.async deleted$"),
    "test/Diagnostics/tile-read-before-write-not.tl":
        ("a diagnostics test, left out: the barrier after thread 0 initializes the kernel's "
         "mbarrier (sm_90a line 130, sm_90 line 128) orders the init before other threads' "
         "waits inside the user's T.ws scopes, which tlc-verify does not see (a known gap, "
         "docs/tlc-verify.md 'blind'); and the loop "
         "copying A into b_s outside the T.ws scopes runs in both warpgroups (threadIdx.x % 128: "
         "the same values into the same elements), so its barriers and fences (lines 162-165) "
         "order nothing a later statement needs", None),
    "examples/online_softmax.tl":
        ("line 149 ends the first k loop, whose two reductions use x_warps5 and x_warps6 in turn: the "
         "next iteration's write of each is separated from this one's read of it by the other "
         "reduction's barrier; line 193 ends the second loop, which touches no shared memory, and the "
         "kernel ends after it",
         r"line (149|193): __syncthreads\(\) deleted$"),
}
# Inputs whose findings are not triaged yet: printed as known gaps. None
# today: the last ones were triaged on 2026-12-03 (IMPRECISE above, and
# tlc-verify now models split vector stores and TMA stores).
UNTRIAGED = {}
programs = sorted(glob.glob(os.path.join(root, "examples", "*.tl")))
programs += sorted(glob.glob(os.path.join(root, "test", "**", "*.tl"), recursive=True))
for p in programs:
    why, which = IMPRECISE.get(os.path.relpath(p, root), (None, None))
    if why:
        print("%s (known imprecision): %s: %s" % ("left out" if which is None else "proven harmless mutants",
                                                  os.path.relpath(p, root), why))
programs = [p for p in programs if IMPRECISE.get(os.path.relpath(p, root), (None, 1))[1] is not None]
# MUTATE_ONLY=REGEX: only the inputs whose path matches (while iterating).
if os.environ.get("MUTATE_ONLY"):
    programs = [p for p in programs if re.search(os.environ["MUTATE_ONLY"], os.path.relpath(p, root))]
jobs = [(tl, t) for tl in programs for t in TARGETS]
workers = min(4, os.cpu_count() or 1)
with concurrent.futures.ThreadPoolExecutor(workers) as pool:
    reports = [r for r in pool.map(check_program, jobs) if r is not None]

problems = 0
known = 0
files = len(reports)


def problem(rel, text):
    """Counts a problem, or a known gap of an untriaged input."""
    global problems, known
    if any(rel.startswith(u) for u in UNTRIAGED):
        known += 1
        print("known gap, untriaged input: %s" % text.replace("false alarm", "finding").replace("miss", "not reported"))
    else:
        problems += 1
        print(text)


for r in reports:
    for line in r["baseline"]:
        problem(r["rel"], "false alarm (unmutated): %s" % line)
counts = {}
for r in reports:
    for cls, what, harmless, found in r["rows"]:
        c = counts.setdefault(cls, {"mutants": 0, "reported": 0, "harmless": 0})
        c["mutants"] += 1
        if harmless:
            c["harmless"] += 1
            if found:
                problem(what, "false alarm (harmless %s): %s\n  %s" % (cls, what, found[0]))
        elif found:
            c["reported"] += 1
        else:
            problem(what, "miss (%s): %s" % (cls, what))
for cls in ("barrier", "wait", "stage", "fence", "mbar-wait", "parity", "expect-tx", "ring-stage", "arrive"):
    c = counts.get(cls, {"mutants": 0, "reported": 0, "harmless": 0})
    print("%s: %d mutants, %d reported, %d harmless (passed)" % (cls, c["mutants"], c["reported"], c["harmless"]))
if files < at_least:
    sys.exit("%d files compiled, want at least %d" % (files, at_least))
print("%d files (programs x forms), %d unmutated with no finding, %d problems, %d known gaps in %d untriaged inputs" %
      (files, sum(1 for r in reports if not r["baseline"]), problems, known, len(UNTRIAGED)))
sys.exit(1 if problems else 0)
