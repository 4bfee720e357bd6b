#!/usr/bin/env python3
"""bench/checks-s11/indexer/check.py SODIR: standalone torch checks of three tlc kernels
(built by build.sh into SODIR/NAME.so), on fresh random but valid inputs (seed 1234):

  mqa_logits      deepseek_v32/fp8_lighting_indexer.py mqa_attn_return_logits(heads=32,
                  index_dim=64): Logits[m, n] = sum_h relu(Q[m,h].K[n]) * W[m,h] * Kscale[n],
                  fp8 e4m3 Q/K. Reference in float64 from the same fp8 values. The kernel
                  writes only the 256-column tiles spanning [min ks, max ke) of each 4-query
                  block, so only n in [ks[m], ke[m]) is compared (Logits starts as NaN, so an
                  unwritten in-range entry fails). Tolerance: norm-relative error < 2e-3.
  clean_logits    same file, clean_logits_: in place, Logits[m, n] = -inf outside [ks, ke),
                  untouched inside. Exact comparison, plus a guard band after the buffer that
                  must stay untouched. Second case: seq_len_kv = 6000, not a multiple of
                  block_K = 4096, where TileLang's LegalizeSafeMemoryAccess guards the store
                  with idx < seq_len_kv (the .py has no explicit check).
  pipeline        mqa_logits then clean_logits, the file's mqa_attn_return_logits_interface,
                  against its ref_fp8_mqa_logits (on the fp8 inputs): -inf pattern exact,
                  finite values within 2e-3. Also prints, for information only, the file's own
                  metric 1 - 2<a,b>/(|a|^2+|b|^2) against the bf16 (unquantized) reference.
  clean_maintain  dsa_hisa/clean_and_maintain_logits.py (seq_len = seq_len_kv = 4096): like
                  clean_logits, plus +inf at ks and at ke - 1. Exact comparison against the
                  file's ref_clean_and_maintain_logits.

Per-query ranges [ks, ke) are causal prefill ranges: the keys are split into packed sequences
of random lengths, query m sits at key position p, ks = start of p's sequence, ke = p + 1
(as prepare_ks_ke_from_cu_seqlens / generate_random_cu_seqlens make them); for the indexer a
few rows are (INT32_MAX, 0), the value utils.cal_cu_seqlen_k*_for_q give queries outside
every sequence. Launchers (NAME.json): tensors, then int sizes, then the stream; 0 = success.
Prints one PASS/FAIL line per check, with the median time of 20 runs (CUDA events).
"""
import ctypes
import os
import sys

import torch

H, D, BLOCK_K = 32, 64, 4096
INT_MAX = 2**31 - 1


def launcher(sodir, name):
    f = getattr(ctypes.CDLL(os.path.join(sodir, name + ".so")), name)
    f.restype = ctypes.c_int
    return f


def call(f, *args):
    """Tensors as pointers, ints as C ints, then the current stream."""
    c = [ctypes.c_void_p(a.data_ptr()) if torch.is_tensor(a) else ctypes.c_int(a) for a in args]
    return f(*c, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))


def median_ms(fn, n=20):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b))
    return sorted(ts)[n // 2]


def causal_ranges(s, skv, n_empty=0):
    """s queries at sorted random distinct key positions; keys packed in random-length sequences."""
    cuts = torch.randperm(skv - 1)[: max(1, skv // 700)] + 1           # sequence boundaries
    is_start = torch.zeros(skv, dtype=torch.bool)
    is_start[0], is_start[cuts] = True, True
    starts = torch.where(is_start, torch.arange(skv), 0).cummax(0).values  # start of each key's sequence
    pos = torch.randperm(skv)[:s].sort().values
    ks, ke = starts[pos].int(), (pos + 1).int()
    if n_empty:                                                         # queries outside every sequence
        rows = torch.randperm(s)[:n_empty]
        ks[rows], ke[rows] = INT_MAX, 0
    return ks.cuda(), ke.cuda()


def mask_of(ks, ke, skv):
    n = torch.arange(skv, device="cuda")[None, :]
    return (n >= ks.long()[:, None]) & (n < ke.long()[:, None])


def indexer_inputs(s, skv):
    """As test_fp8_lighting_indexer: bf16 randn, Q cast to fp8, K per-row scaled to fp8."""
    q = torch.randn(s, H, D, device="cuda", dtype=torch.bfloat16)
    kv = torch.randn(skv, D, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(s, H, device="cuda", dtype=torch.float32)
    sf = kv.abs().float().amax(dim=1, keepdim=True).clamp(1e-4) / 448.0  # per_custom_dims_cast_to_fp8
    kv8 = (kv * (1.0 / sf)).to(torch.float8_e4m3fn)
    return q, kv, w, q.to(torch.float8_e4m3fn), kv8, sf.squeeze(1).contiguous()


def ref_logits(q, k, scale, w):
    """sum_h relu(q[:, h] . k) * w[:, h] * scale, float64, one head at a time."""
    q, k = q.float().double(), k.float().double()  # (fp8 -> float32 is exact)
    out = torch.zeros(q.shape[0], k.shape[0], device="cuda", dtype=torch.float64)
    for h in range(q.shape[1]):
        out += (q[:, h] @ k.T).relu() * w[:, h, None].double()
    return out * scale.double()[None, :]


def rel(a, b):
    return ((a.double() - b.double()).norm() / b.double().norm()).item()


def line(ok, name, msg, ms=None):
    return f"{'PASS' if ok else 'FAIL'} {name} {msg}" + (f" tlc_ms={ms:.3f}" if ms is not None else "")


def check_mqa(f, s, skv):
    q, kv, w, q8, kv8, sc = indexer_inputs(s, skv)
    ks, ke = causal_ranges(s, skv, n_empty=5)
    out = torch.full((s, skv), float("nan"), device="cuda")
    err = call(f, q8.view(s * H, D), kv8, sc, w, ks, ke, out, s, skv)
    torch.cuda.synchronize()
    m = mask_of(ks, ke, skv)
    r = rel(out[m], ref_logits(q8, kv8, sc, w)[m])       # only [ks, ke) is defined by the kernel
    ok = err == 0 and r < 2e-3
    ms = median_ms(lambda: call(f, q8.view(s * H, D), kv8, sc, w, ks, ke, out, s, skv)) if ok else None
    return line(ok, f"mqa_logits S={s} SKV={skv}", f"err={err} rel_err={r:.2e} compared={m.sum().item()}", ms)


def check_clean(f, s, skv):
    ks, ke = causal_ranges(s, skv, n_empty=5)
    buf = torch.randn(s * skv + BLOCK_K, device="cuda")  # guard band after the tensor
    x0 = buf.clone()
    x = buf[: s * skv].view(s, skv)
    err = call(f, x, ks, ke, s, skv)
    torch.cuda.synchronize()
    ref = x0[: s * skv].view(s, skv).masked_fill(~mask_of(ks, ke, skv), float("-inf"))
    bad = (x != ref).sum().item()
    guard = (buf[s * skv:] != x0[s * skv:]).sum().item()
    ok = err == 0 and bad == 0 and guard == 0
    ms = median_ms(lambda: call(f, x, ks, ke, s, skv)) if ok else None
    return line(ok, f"clean_logits S={s} SKV={skv}", f"err={err} mismatches={bad} guard_band_writes={guard}", ms)


def check_pipeline(fm, fc, s, skv):
    q, kv, w, q8, kv8, sc = indexer_inputs(s, skv)
    ks, ke = causal_ranges(s, skv, n_empty=5)
    out = torch.full((s, skv), float("nan"), device="cuda")
    e1 = call(fm, q8.view(s * H, D), kv8, sc, w, ks, ke, out, s, skv)
    e2 = call(fc, out, ks, ke, s, skv)
    torch.cuda.synchronize()
    m = mask_of(ks, ke, skv)
    ref = ref_logits(q8, kv8, sc, w).masked_fill(~m, float("-inf"))
    inf_ok = torch.equal(torch.isneginf(out), ~m) and not torch.isnan(out).any().item()
    r = rel(out[m], ref[m])
    ref16 = ref_logits(q, kv, torch.ones(skv, device="cuda"), w)[m]   # the file's bf16 reference
    corr_diff = 1 - (2 * (out[m].double() * ref16).sum() / (out[m].double().square() + ref16.square()).sum()).item()
    ok = e1 == 0 and e2 == 0 and inf_ok and r < 2e-3
    return line(ok, f"pipeline S={s} SKV={skv}", f"err={e1},{e2} neg_inf_pattern={'ok' if inf_ok else 'WRONG'} "
                f"rel_err={r:.2e} info_corr_diff_vs_bf16_ref={corr_diff:.2e}")


def check_clean_maintain(f, s=4096, skv=4096):
    pos = torch.arange(s)                                    # row m = key position m (M = N)
    cuts = torch.randperm(s - 1)[:7] + 1                      # 8 packed causal sequences
    is_start = torch.zeros(s, dtype=torch.bool)
    is_start[0], is_start[cuts] = True, True
    ks = torch.where(is_start, pos, 0).cummax(0).values.int().cuda()
    ke = (pos + 1).int().cuda()
    x0 = torch.randn(s, skv, device="cuda")
    x = x0.clone()
    err = call(f, x, ks, ke)
    torch.cuda.synchronize()
    ref = x0.masked_fill(~mask_of(ks, ke, skv), float("-inf"))   # ref_clean_and_maintain_logits
    rows = torch.arange(s, device="cuda")
    ref[rows, ks.long()] = float("inf")
    ref[rows, (ke - 1).clamp(min=0).long()] = float("inf")
    bad = (x != ref).sum().item()
    ok = err == 0 and bad == 0
    ms = median_ms(lambda: call(f, x, ks, ke)) if ok else None
    return line(ok, f"clean_maintain M={s} N={skv}", f"err={err} mismatches={bad}", ms)


def main():
    sodir = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
    torch.manual_seed(1234)
    fm, fc = launcher(sodir, "mqa_logits"), launcher(sodir, "clean_logits")
    checks = [lambda: check_mqa(fm, 2048, 8192),
              lambda: check_mqa(fm, 1024, 3001),        # seq_len_kv % 4 != 0: the launcher's unaligned twin
              lambda: check_clean(fc, 2048, 8192),
              lambda: check_clean(fc, 1024, 6000),      # seq_len_kv % block_K != 0
              lambda: check_pipeline(fm, fc, 2048, 8192),
              lambda: check_clean_maintain(launcher(sodir, "clean_maintain"))]
    fails = 0
    for c in checks:
        s = c()
        print(s, flush=True)
        fails += not s.startswith("PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
