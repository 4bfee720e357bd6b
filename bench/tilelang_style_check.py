#!/usr/bin/env python3
"""bench/tilelang_style_check.py DIR: run the TileLang-style kernels against torch.

DIR holds shared libraries built from `tlc FILE.py --call ...` outputs (see
bench/tilelang_style.sh) and a manifest.txt with one line per library:

    LIB KIND LAUNCHER ARGS...

KIND is gemm (M N K), add (M N), attn (batch heads seq dim causal [dtype
[groups]], K/V with heads // groups heads, BSHD), attn2 (KEY=VALUE fields,
below) or rmsnorm (M N eps). Each launcher is called through ctypes on torch tensors
filled with fresh random data and compared with torch's own computation
(matmul, add, scaled_dot_product_attention, an RMSNorm written in torch),
so the check does not share code or assumptions with tlc. Times are CUDA
event medians over 50 runs, next to torch's time for the same work.
Prints one line per kernel and a table last; exit status 1 on a mismatch.

attn2 (bench/attn_gpu.sh's tl/: TileLang's own example files) takes
KEY=VALUE fields: layout=bshd|bhsd, batch, heads, seq_q, seq_kv (default
seq_q), dim, groups (default 1: K/V have heads // groups heads), causal (0|1;
with seq_q < seq_kv the mask is aligned bottom-right, as TileLang's bhsd
examples do), dtype (float16), scale (default: SDPA's 1/sqrt(dim)), args (the
launcher's parameters in order: q, k, v, o, sinks (an attention-sink file's
per-head [heads] logit, which joins each row's softmax denominator), tmp:AxB..
(a scratch tensor of that shape, e.g. a split-KV file's partial outputs)),
src (TAG:FILE, shown), call (the --call, shown) and sig (tlc --emit=signature
JSON: the check refuses to call a launcher whose parameter names, shapes or
dtypes disagree with args). The reference is
torch.nn.functional.scaled_dot_product_attention; with sinks it is multiplied
by sigmoid(lse - sink) per row, lse (the row's logsumexp) computed in fp32 in
chunks; SDPA's own time (no sink) is the reference time. Its table shows
name, upstream file and tag, config, tlc ms, SDPA ms and SDPA/tlc.
"""
import ctypes
import json
import math
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


def attn2_fields(args):
    kv = dict(a.split("=", 1) for a in args)
    f = {
        "layout": kv.get("layout", "bshd"),
        "batch": int(kv["batch"]), "heads": int(kv["heads"]),
        "seq_q": int(kv["seq_q"]), "dim": int(kv["dim"]),
        "groups": int(kv.get("groups", 1)), "causal": int(kv.get("causal", 0)),
        "dtype": kv.get("dtype", "float16"),
        "scale": float(kv["scale"]) if "scale" in kv else None,
        "args": kv.get("args", "q,k,v,o").split(","),
        "src": kv.get("src", "?"), "call": kv.get("call", ""), "sig": kv.get("sig"),
    }
    f["seq_kv"] = int(kv.get("seq_kv", f["seq_q"]))
    if f["layout"] not in ("bshd", "bhsd"):
        raise ValueError(f"layout={f['layout']}: bshd or bhsd")
    if f["heads"] % f["groups"]:
        raise ValueError(f"heads {f['heads']} not a multiple of groups {f['groups']}")
    return f


def attn2_config(f):
    heads = f"h{f['heads']}" + (f"/kv{f['heads'] // f['groups']}" if f["groups"] > 1 else "")
    seq = f"s{f['seq_q']}" + (f"/kv{f['seq_kv']}" if f["seq_kv"] != f["seq_q"] else "")
    extra = (" causal" if f["causal"] else "") + (" sink" if "sinks" in f["args"] else "")
    extra += f" scale={f['scale']:g}" if f["scale"] is not None else ""
    dt = {"float16": "fp16", "bfloat16": "bf16"}.get(f["dtype"], f["dtype"])
    return f"{f['layout']} b{f['batch']} {heads} {seq} d{f['dim']}{extra} {dt}"


def attn2_shapes(f):
    b, h, d = f["batch"], f["heads"], f["dim"]
    hkv = h // f["groups"]
    if f["layout"] == "bshd":
        return (b, f["seq_q"], h, d), (b, f["seq_kv"], hkv, d)
    return (b, h, f["seq_q"], d), (b, hkv, f["seq_kv"], d)


def attn2_check_signature(f, name, shapes):
    """Compares args= with the launcher's parameters in tlc's signature JSON:
    a launcher of several kernels (NAME_part0, NAME_part1, ...) takes the
    parameters that each of its kernels lists."""
    sig = json.load(open(f["sig"]))
    parts = [k for k in sig["kernels"]
             if k["name"] == name or k["name"].startswith(name + "_part")]
    if not parts:
        raise ValueError(f"{f['sig']}: no launcher {name}")
    params = sorted(parts[0]["params"], key=lambda p: p["index"])
    if any(k.get("sizes") for k in parts) or any(p.get("role", "tensor") != "tensor" for p in params):
        raise ValueError(f"{name}: takes runtime sizes or scalars; attn2 passes tensors only")
    if any(k.get("stream", "last") != "last" for k in parts):
        raise ValueError(f"{name}: the stream is not its last parameter")
    if len(params) != len(f["args"]):
        raise ValueError(f"{name}: {len(params)} parameters, args= lists {len(f['args'])}")
    written = {p["index"] for k in parts for p in k["params"] if p.get("output")}
    want_name = {"q": "q", "k": "k", "v": "v", "o": "o", "sinks": "sink"}
    for p, role, shape in zip(params, f["args"], shapes):
        role = role.split(":")[0]
        if role in want_name and not p["name"].lower().startswith(want_name[role]):
            raise ValueError(f"{name}: parameter {p['index']} is {p['name']}, args= says {role}")
        if list(p["shape"]) != list(shape):
            raise ValueError(f"{name}: {p['name']} is {p['shape']}, args= makes {list(shape)}")
        if p["dtype"] != f["dtype"]:
            raise ValueError(f"{name}: {p['name']} is {p['dtype']}, not {f['dtype']}")
        if (role == "o") != (p["index"] in written) and role != "tmp":
            raise ValueError(f"{name}: {p['name']} written={p['index'] in written}, args= says {role}")


def attn2_lse(q, k, causal, scale):
    """Row logsumexp of the scaled scores in fp32 (B, H, Sq), q/k in BHSD
    with K/V already repeated per query head; a few heads at a time."""
    b, h, sq, _ = q.shape
    skv = k.shape[2]
    lse = torch.empty((b, h, sq), device=q.device, dtype=torch.float32)
    masked = None
    if causal:
        masked = ~torch.ones(sq, skv, device=q.device, dtype=torch.bool).tril(skv - sq)
    step = max(1, (1 << 29) // (sq * skv))  # ~2 GB of fp32 scores at a time
    for bi in range(b):
        for h0 in range(0, h, step):
            s = torch.matmul(q[bi, h0:h0 + step].float(),
                             k[bi, h0:h0 + step].float().transpose(-1, -2)) * scale
            if masked is not None:
                s.masked_fill_(masked, float("-inf"))
            lse[bi, h0:h0 + step] = torch.logsumexp(s, dim=-1)
            del s
    return lse


def run_attn2(lib, name, args, dev):
    f = attn2_fields(args)
    dt = getattr(torch, f["dtype"])
    qshape, kvshape = attn2_shapes(f)
    shapes = []
    for a in f["args"]:
        role = a.split(":")[0]
        if role in ("q", "o"):
            shapes.append(qshape)
        elif role in ("k", "v"):
            shapes.append(kvshape)
        elif role == "sinks":
            shapes.append((f["heads"],))
        elif role == "tmp":
            shapes.append(tuple(int(x) for x in a.split(":")[1].split("x")))
        else:
            raise ValueError(f"args=: unknown parameter kind {a}")
    if f["sig"]:
        attn2_check_signature(f, name, shapes)
    q = torch.randn(qshape, device=dev, dtype=dt)
    k, v = (torch.randn(kvshape, device=dev, dtype=dt) for _ in range(2))
    o = torch.empty_like(q)
    sinks = torch.randn((f["heads"],), device=dev, dtype=dt)
    tensors = []
    for a, shape in zip(f["args"], shapes):
        role = a.split(":")[0]
        tensors.append({"q": q, "k": k, "v": v, "o": o, "sinks": sinks}.get(role)
                       if role != "tmp" else torch.zeros(shape, device=dev, dtype=dt))
    call = launcher(lib, name, len(tensors))
    tlc = lambda: call(*tensors)

    bshd, groups, causal = f["layout"] == "bshd", f["groups"], bool(f["causal"])
    sq, skv = f["seq_q"], f["seq_kv"]
    head_dim = 2 if bshd else 1
    to_bhsd = (lambda t: t.transpose(1, 2)) if bshd else (lambda t: t)
    kw = {}
    if f["scale"] is not None:
        kw["scale"] = f["scale"]
    if causal and sq != skv:
        # TileLang's examples align the causal mask bottom-right (past_len =
        # seq_kv - seq_q); SDPA's is_causal aligns it top-left
        kw["attn_mask"] = torch.ones(sq, skv, device=dev, dtype=torch.bool).tril(skv - sq)
    elif causal:
        kw["is_causal"] = True
    # GQA: K/V repeated per query head beforehand (not timed); SDPA's own
    # enable_gqa timed as well where torch has it, the faster is the reference
    kr, vr = ((t.repeat_interleave(groups, dim=head_dim) for t in (k, v))
              if groups > 1 else (k, v))
    sdpa = lambda: to_bhsd(F.scaled_dot_product_attention(
        to_bhsd(q), to_bhsd(kr), to_bhsd(vr), **kw))
    refs = [sdpa]
    if groups > 1:
        try:
            gqa = lambda: to_bhsd(F.scaled_dot_product_attention(
                to_bhsd(q), to_bhsd(k), to_bhsd(v), enable_gqa=True, **kw))
            gqa()
            refs.append(gqa)
        except (TypeError, RuntimeError):
            pass
    tol = 1e-2 if dt == torch.float16 else 2e-2

    status = tlc()
    torch.cuda.synchronize()
    base = sdpa().float()
    ok = status == 0
    note = "" if ok else f" launcher returned {status}"
    if "sinks" in f["args"]:
        # out = sum_j e^l_j v_j / (sum_j e^l_j + e^sink) = SDPA * sigmoid(lse - sink)
        scale = f["scale"] if f["scale"] is not None else 1.0 / math.sqrt(f["dim"])
        lse = attn2_lse(to_bhsd(q), to_bhsd(kr), causal, scale)
        factor = torch.sigmoid(lse - sinks.float().view(1, -1, 1)).unsqueeze(-1)
        want = to_bhsd(to_bhsd(base) * factor)
        # the sink's own share, checked apart: near 1 if the kernel left it out
        sink_err = rel_err(o.float() - base, want - base)
        note += f" sink_term_err={sink_err:.2e}"
        ok = ok and sink_err < 0.1
        del lse, factor
    else:
        want = base
    err = rel_err(o, want)
    ok = ok and err < tol
    del base, want
    t_tlc, t_ref = median_ms(tlc), min(median_ms(r) for r in refs)
    return ok, err, t_tlc, t_ref, f, note


def run(line):
    parts = line.split()
    lib = ctypes.CDLL(parts[0])
    kind, name, args = parts[1], parts[2], parts[3:]
    if kind == "attn2":
        return run_attn2(lib, name, args, "cuda")
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
    return ok, err, t_tlc, t_ref, None, ""


def main():
    rows, rows2 = [], []
    bad = 0
    for line in open(sys.argv[1] + "/manifest.txt"):
        if not line.strip():
            continue
        parts = line.split()
        attn2 = parts[1] == "attn2"
        label = parts[2] if attn2 else " ".join(parts[1:])
        try:
            ok, err, t_tlc, t_ref, f, note = run(line)
        except Exception as e:  # a crash is a failure, reported, not fatal to the others
            ok, err, t_tlc, t_ref, f, note = False, float("nan"), float("nan"), float("nan"), None, ""
            print(f"{label}: {e}")
        torch.cuda.empty_cache()
        bad += not ok
        res = "PASS" if ok else "FAIL"
        if attn2:
            kv = dict(a.split("=", 1) for a in parts[3:] if "=" in a)
            try:
                config = attn2_config(f or attn2_fields(parts[3:]))
            except Exception:
                config = "?"
            rows2.append((label, kv.get("src", "?"), config, res, err, t_tlc, t_ref, kv.get("call", "")))
            print(f"{label}: {res} rel_err={err:.2e}{note} ({kv.get('src', '?')}: {kv.get('call', '')})",
                  flush=True)
        else:
            rows.append((label, res, err, t_tlc, t_ref))
            print(f"{label}: {res} rel_err={err:.2e}", flush=True)
    if rows:
        print(f"\n{'kernel (kind launcher args)':58} {'result':6} {'rel_err':>9} {'tlc ms':>8} "
              f"{'torch ms':>9} {'torch/tlc':>9}")
        for label, res, err, t1, t2 in rows:
            print(f"{label:58} {res:6} {err:9.2e} {t1:8.4f} {t2:9.4f} {t2 / t1:9.2f}")
    if rows2:
        # TileLang's own example files at their own configs: SDPA_time / tlc_time
        print(f"\n{'name':22} {'upstream file (tag)':76} {'config':40} {'result':6} {'rel_err':>9} "
              f"{'tlc ms':>8} {'SDPA ms':>8} {'SDPA/tlc':>8}")
        for label, src, config, res, err, t1, t2, _ in rows2:
            tag, _, path = src.partition(":")
            upstream = f"{path} ({tag})"
            print(f"{label:22} {upstream:76} {config:40} {res:6} {err:9.2e} {t1:8.4f} {t2:8.4f} "
                  f"{t2 / t1:8.2f}")
        if any(" sink" in r[2] for r in rows2):
            print("sink: SDPA ms is SDPA's causal attention without the sink term (the same work less "
                  "one exp per row)")
        print("\ncalls (bench/tilelang_corpus_calls.txt: the file's __main__ config; an autotuned "
              "factory called without its tuned parameters gets tlc's first config):")
        for label, src, _, _, _, _, _, call in rows2:
            print(f"  {label:22} {call}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
