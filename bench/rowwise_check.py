#!/usr/bin/env python3
"""bench/rowwise_check.py GEN: the row-wise kernels of bench/rowwise.sh on
the GPU, against torch and timed next to torch.

For every line `NAME EXAMPLE KIND DTYPE` of GEN/manifest.txt it loads
GEN/libNAME.so (the tlc launcher, parameters from GEN/NAME.json), runs it on
random inputs and compares with torch in fp32 (KIND softmax:
torch.softmax; rms_norm: x * rsqrt(mean(x^2) + eps) * w; layer_norm:
F.layer_norm), then times it: CUDA events around each launch, the median of
REPS launches, each on a fresh random input (a ring of buffers larger than
L2). The same timing gives torch's copy `y.copy_(x)` (the bandwidth target)
and torch eager's softmax / rms_norm / layer_norm on the same tensors.
Bandwidth counts the bytes a kernel must move: X read once and Y written
once (plus W, B), also for the online softmax, which reads X twice.

The last lines are the table: kernel, shape, dtype, check, TB/s, fraction of
copy bandwidth, torch time / tlc time (above 1: tlc is faster). Exit status 1
when a check fails.
"""
import ctypes
import json
import os
import sys

import torch
import torch.nn.functional as F

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}
REPS = 50
RING = 4  # distinct inputs per measurement ring: 4 x 128 MB > 50 MB of L2


def median_ms(launch, inputs):
    """Median time of launch(i) for REPS launches, input ring index i."""
    times = []
    torch.cuda.synchronize()
    for r in range(REPS + 3):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        launch(r % inputs)
        end.record()
        end.synchronize()
        if r >= 3:  # warm-up
            times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def scalar_of(example, name, default):
    """A module constant of examples/EXAMPLE.tl (eps), as tlc compiled it."""
    path = os.path.join(os.path.dirname(__file__), "..", "examples", example + ".tl")
    with open(path) as f:
        for line in f:
            if line.startswith(name + " ="):
                return float(line.split("=", 1)[1])
    return default


def reference(kind, x, w, b, eps):
    xf = x.float()
    if kind == "softmax":
        return torch.softmax(xf, dim=-1)
    if kind == "rms_norm":
        return xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float()
    return F.layer_norm(xf, (x.shape[-1],), w.float(), b.float(), eps)


def torch_eager(kind, x, w, b, eps):
    if kind == "softmax":
        return lambda out: torch.softmax(x, dim=-1)
    if kind == "rms_norm":
        if hasattr(F, "rms_norm"):
            return lambda out: F.rms_norm(x, (x.shape[-1],), w, eps)
        return lambda out: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
                            * w.float()).to(x.dtype)
    return lambda out: F.layer_norm(x, (x.shape[-1],), w, b, eps)


def main():
    gen = sys.argv[1]
    torch.manual_seed(0)
    rows, failed = [], False
    copy_cache = {}
    for line in open(os.path.join(gen, "manifest.txt")):
        name, example, kind, dtype = line.split()
        sig = json.load(open(os.path.join(gen, name + ".json")))["kernels"][0]
        lib = ctypes.CDLL(os.path.abspath(os.path.join(gen, "lib%s.so" % name)))
        fn = getattr(lib, sig["name"])
        params = sig["params"]
        fn.argtypes = [ctypes.c_void_p] * (len(params) + 1)
        fn.restype = ctypes.c_int
        dt = DTYPES[dtype]
        shape = params[0]["shape"]
        m, n = shape
        eps = scalar_of(example, "eps", 1e-5)
        xs = [torch.randn(m, n, device="cuda", dtype=dt) * 2 for _ in range(RING)]
        w = (torch.rand(n, device="cuda") + 0.5).to(dt)
        b = (torch.rand(n, device="cuda") - 0.5).to(dt)
        y = torch.empty(m, n, device="cuda", dtype=dt)
        stream = torch.cuda.current_stream().cuda_stream

        def args(x):
            by_name = {"X": x, "W": w, "B": b, "Y": y}
            return [by_name[p["name"]].data_ptr() for p in params] + [stream]

        err = fn(*args(xs[0]))
        torch.cuda.synchronize()
        ref = reference(kind, xs[0], w, b, eps)
        diff = (y.float() - ref).abs()
        # relative to the largest output: a few units in the last place
        tol = 2e-2 if dtype == "bfloat16" else 5e-3
        ok = err == 0 and bool(torch.isfinite(y.float()).all()) and \
            float(diff.max()) <= tol * float(ref.abs().max())
        failed |= not ok
        check = "PASS" if ok else "FAIL"
        print("check %s vs torch: %s max_abs=%.3e (launch status %d)" % (name, check, float(diff.max()), err))

        t_tlc = median_ms(lambda i: fn(*args(xs[i])), RING)
        if (m, n, dtype) not in copy_cache:
            copy_cache[(m, n, dtype)] = median_ms(lambda i: y.copy_(xs[i]), RING)
        t_copy = copy_cache[(m, n, dtype)]
        eager = [torch_eager(kind, x, w, b, eps) for x in xs]
        t_torch = median_ms(lambda i: eager[i](y), RING)
        nbytes = 2 * m * n * xs[0].element_size()
        nbytes += sum(xs[0].element_size() * n for p in params if p["name"] in ("W", "B"))
        copy_tbps = 2 * m * n * xs[0].element_size() / t_copy / 1e9
        tbps = nbytes / t_tlc / 1e9
        print("perf %s: tlc %.4f ms %.2f TB/s; copy %.4f ms %.2f TB/s; torch %.4f ms" %
              (name, t_tlc, tbps, t_copy, copy_tbps, t_torch))
        rows.append((name, "%dx%d" % (m, n), dtype, check, tbps, tbps / copy_tbps, t_torch / t_tlc))
    print()
    print("%-20s %-10s %-9s %-5s %6s %8s %9s" % ("kernel", "shape", "dtype", "check", "TB/s", "of copy",
                                                 "vs torch"))
    for r in rows:
        print("%-20s %-10s %-9s %-5s %6.2f %8.2f %8.2fx" % r)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
