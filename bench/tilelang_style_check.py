#!/usr/bin/env python3
"""bench/tilelang_style_check.py DIR: run the TileLang-style kernels against torch.

DIR holds shared libraries built from `tlc FILE.py --call ...` outputs (see
bench/tilelang_style.sh) and a manifest.txt with one line per library:

    LIB KIND LAUNCHER ARGS...

KIND is gemm (M N K), add (M N), attn (batch heads seq dim causal [dtype
[groups]], K/V with heads // groups heads) or
rmsnorm (M N eps). Each launcher is called through ctypes on torch tensors
filled with fresh random data and compared with torch's own computation
(matmul, add, scaled_dot_product_attention, an RMSNorm written in torch),
so the check does not share code or assumptions with tlc. Times are CUDA
event medians over 50 runs, next to torch's time for the same work.
Prints one line per kernel and a table last; exit status 1 on a mismatch.
"""
import ctypes
import sys

import torch
import torch.nn.functional as F


def median_ms(fn, reps=50):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def launcher(lib, name, nargs):
    fn = getattr(lib, name)
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * (nargs + 1)
    return lambda *ts: fn(*[t.data_ptr() for t in ts], None)


def rel_err(got, want):
    got, want = got.float(), want.float()
    return ((got - want).norm() / want.norm().clamp_min(1e-12)).item()


def run(line):
    parts = line.split()
    lib = ctypes.CDLL(parts[0])
    kind, name, args = parts[1], parts[2], parts[3:]
    alt_refs = []  # other torch ways to do the same work, timed too
    dev = "cuda"
    if kind == "gemm":
        m, n, k = map(int, args)
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        call = launcher(lib, name, 3)
        tlc = lambda: call(a, b, c)
        ref = lambda: a @ b
        tol = 1e-2
    elif kind == "add":
        m, n = map(int, args)
        a = torch.randn(m, n, device=dev)
        b = torch.randn(m, n, device=dev)
        c = torch.empty(m, n, device=dev)
        call = launcher(lib, name, 3)
        tlc = lambda: call(a, b, c)
        ref = lambda: a + b
        tol = 1e-6
    elif kind == "attn":
        # batch heads seq dim causal [dtype [groups]]: K/V have heads // groups heads
        batch, heads, seq, dim, causal = map(int, args[:5])
        dt = getattr(torch, args[5]) if len(args) > 5 else torch.float16
        groups = int(args[6]) if len(args) > 6 else 1
        q = torch.randn((batch, seq, heads, dim), device=dev, dtype=dt)
        k, v = (torch.randn((batch, seq, heads // groups, dim), device=dev, dtype=dt)
                for _ in range(2))
        o = torch.empty_like(q)
        call = launcher(lib, name, 4)
        tlc = lambda: call(q, k, v, o)
        # GQA: torch's reference gets K/V repeated per query head beforehand
        # (not timed), the same work as SDPA's own enable_gqa (timed as well
        # where torch has it; the faster of the two is the reference time)
        kr, vr = (t.repeat_interleave(groups, dim=2) for t in (k, v))
        ref = lambda: F.scaled_dot_product_attention(
            q.transpose(1, 2), kr.transpose(1, 2), vr.transpose(1, 2),
            is_causal=bool(causal)).transpose(1, 2)
        if groups > 1:
            try:
                gqa = lambda: F.scaled_dot_product_attention(
                    q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                    is_causal=bool(causal), enable_gqa=True).transpose(1, 2)
                gqa()
                alt_refs.append(gqa)
            except (TypeError, RuntimeError):
                pass
        tol = 1e-2 if dt == torch.float16 else 2e-2
    elif kind == "rmsnorm":
        m, n, eps = int(args[0]), int(args[1]), float(args[2])
        x = torch.randn(m, n, device=dev, dtype=torch.float16)
        w = torch.randn(n, device=dev, dtype=torch.float16)
        y = torch.empty(m, n, device=dev, dtype=torch.float16)
        call = launcher(lib, name, 3)
        tlc = lambda: call(x, w, y)

        def ref():
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float()).half()
        tol = 1e-2
    else:
        raise SystemExit(f"unknown kind {kind}")
    status = tlc()
    torch.cuda.synchronize()
    out = {"gemm": lambda: c, "add": lambda: c, "attn": lambda: o, "rmsnorm": lambda: y}[kind]()
    err = rel_err(out, ref())
    ok = status == 0 and err < tol
    t_tlc, t_ref = median_ms(tlc), min(median_ms(f) for f in [ref] + alt_refs)
    return ok, err, t_tlc, t_ref


def main():
    rows = []
    bad = 0
    for line in open(sys.argv[1] + "/manifest.txt"):
        if not line.strip():
            continue
        label = " ".join(line.split()[1:])
        try:
            ok, err, t_tlc, t_ref = run(line)
        except Exception as e:  # a crash is a failure, reported, not fatal to the others
            ok, err, t_tlc, t_ref = False, float("nan"), float("nan"), float("nan")
            print(f"{label}: {e}")
        bad += not ok
        rows.append((label, "PASS" if ok else "FAIL", err, t_tlc, t_ref))
        print(f"{label}: {'PASS' if ok else 'FAIL'} rel_err={err:.2e}", flush=True)
    print(f"\n{'kernel (kind launcher args)':58} {'result':6} {'rel_err':>9} {'tlc ms':>8} "
          f"{'torch ms':>9} {'torch/tlc':>9}")
    for label, res, err, t1, t2 in rows:
        print(f"{label:58} {res:6} {err:9.2e} {t1:8.4f} {t2:9.4f} {t2 / t1:9.2f}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
