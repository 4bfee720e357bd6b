#!/usr/bin/env python3
"""check.py DIR: checks tlc's builds (DIR/NAME.so, see build.sh) of two TileLang examples
against plain torch (float64) on fresh random data (seed 1234); one line per check.

  mhc_gemm_sqrsum  deepseek_mhc/example_mhc_pre.py mhc_pre_gemm_sqrsum_tilelang(24, 5120):
                   out = x.float() @ fn.T (TF32 in TileLang), sqrsum = (x.float()**2).sum(-1)
  mhc_big_fuse     mhc_pre_big_fuse_tilelang(hidden 1280, hc_mult 4, n_splits 1, eps 1e-6,
                   post_mult 1, sinkhorn 10): post_mix, comb_mix (sinkhorn), layer_input
  mhc_pre_e2e      both chained as the file's mhc_pre(), against its mhc_pre_ref()
  dequant_fine     dequantize_gemm/example_dequant_gemm_fine_grained.py matmul(256,256,256,
                   128,128,32, f16,f16,f16 accum, 3, 128): C = A @ unpack_uint4(B).T
Launchers (from NAME.json): pointers for tensors, then int runtime sizes, then the stream;
0 (cudaSuccess) is success. Outputs get a NaN-filled tail past the rows the kernel owns, which
must come back untouched. Tolerances: relative Frobenius error of each output.
"""
import ctypes
import os
import sys

import torch

HC, HID, HC3 = 4, 1280, 24
EPS, POST_MULT, REPEAT = 1e-6, 1.0, 10
PAD = 40  # canary rows past the end of every output


def launcher(d, name):
    f = getattr(ctypes.CDLL(os.path.join(d, name + ".so")), name)
    f.restype = ctypes.c_int
    return f


def call(f, tensors, sizes=()):
    args = tuple(ctypes.c_void_p(t.data_ptr()) for t in tensors) + tuple(ctypes.c_int(s) for s in sizes)
    args += (ctypes.c_void_p(torch.cuda.current_stream().cuda_stream),)
    return f(*args), args


def median_ms(fn, reps=20):
    for _ in range(5):
        fn()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[reps // 2]


def outbuf(n, *shape, dtype=torch.float32):
    """(rows 0..n-1 for the kernel, the NaN canary tail)"""
    full = torch.full((n + PAD, *shape), float("nan"), device="cuda", dtype=dtype)
    return full[:n], full[n:]


def rel(out, ref):
    ref = ref.double()
    return ((out.double() - ref).norm() / ref.norm()).item()


def report(name, err, checks, tails, f, args):
    """checks: [(label, rel_err, tol)]; tails: canary tensors that must stay all-NaN."""
    torch.cuda.synchronize()
    tail_ok = all(torch.isnan(t.float()).all().item() for t in tails)
    ok = err == 0 and tail_ok and all(r <= tol for _, r, tol in checks)  # NaN r fails
    line = f"{'PASS' if ok else 'FAIL'} {name}: err={err} tail_untouched={tail_ok} "
    line += " ".join(f"rel_err[{lbl}]={r:.2e}(tol {tol:.0e})" for lbl, r, tol in checks)
    if ok and f is not None:
        line += f" tlc_ms={median_ms(lambda: f(*args)):.4f}"
    print(line, flush=True)
    return ok


def sinkhorn_ref(x, repeat, eps):  # the file's sinkhorn_normalize_ref
    x = x.softmax(-1) + eps
    x = x / (x.sum(-2, keepdim=True) + eps)
    for _ in range(repeat - 1):
        x = x / (x.sum(-1, keepdim=True) + eps)
        x = x / (x.sum(-2, keepdim=True) + eps)
    return x


def big_fuse_ref(mul, sqrsum, hc_scale, hc_base, residual):
    """the kernel's math (n_splits = 1) in float64; mul [n, 24], sqrsum [n], residual [n, 4, H]"""
    mul, sqrsum, s, b = mul.double(), sqrsum.double(), hc_scale.double(), hc_base.double()
    mixes = mul * (sqrsum / (HC * HID) + EPS).rsqrt().unsqueeze(-1)
    pre = (mixes[:, :HC] * s[0] + b[:HC]).sigmoid() + EPS
    post = (mixes[:, HC:2 * HC] * s[1] + b[HC:2 * HC]).sigmoid() * POST_MULT
    cm = (mixes[:, 2 * HC:] * s[2] + b[2 * HC:]).view(-1, HC, HC)
    comb = sinkhorn_ref(cm, REPEAT, EPS).reshape(-1, HC * HC)
    layer = (residual.double() * pre.unsqueeze(-1)).sum(-2)
    return post, comb, layer


def bf16_ulp_bad(out, ref):
    """elements of a bfloat16 output more than one bfloat16 ulp away from the float64 ref"""
    ref = ref.double()
    return ((out.double() - ref).abs() > ref.abs() * 2.0 ** -7 + 1e-6).sum().item()


def gen_residual(n):  # the file's generate_test_data distribution
    scale = 1 + torch.arange(HC, device="cuda").mul(0.01).view(1, -1, 1)
    residual = (torch.randn(n, HC, HID, device="cuda") * scale).bfloat16()
    fn = (torch.randn(HC3, HC, HID, device="cuda") * 1e-4 * scale).flatten(1, 2)
    return residual, fn


def check_gemm_sqrsum(d, n):
    f = launcher(d, "mhc_gemm_sqrsum")
    residual, fn = gen_residual(n)
    fn = fn * 100  # O(1) outputs; any float32 is a valid TF32 input
    x = residual.view(n, HC * HID)
    (out, out_t), (sq, sq_t) = outbuf(n, HC3), outbuf(n)
    err, args = call(f, (x, fn, out, sq), (n,))
    xd = x.double()
    checks = [("out", rel(out, xd @ fn.double().T), 2e-3),  # TileLang runs this GEMM in TF32
              ("sqrsum", rel(sq, xd.square().sum(-1)), 1e-5)]
    return report(f"mhc_gemm_sqrsum num_tokens={n}", err, checks, (out_t, sq_t), f, args)


def check_big_fuse(d, n):
    f = launcher(d, "mhc_big_fuse")
    residual, _ = gen_residual(n)
    sqrsum = residual.float().square().sum((-1, -2))  # valid: what gemm_sqrsum would give
    mul = torch.randn(n, HC3, device="cuda")  # O(1) mixes: sigmoid/softmax/sinkhorn non-trivial
    hc_scale = torch.rand(3, device="cuda") + 0.5
    hc_base = torch.randn(HC3, device="cuda") * 0.1
    (post, post_t), (comb, comb_t) = outbuf(n, HC), outbuf(n, HC * HC)
    layer, layer_t = outbuf(n, HID, dtype=torch.bfloat16)
    err, args = call(f, (mul.unsqueeze(0), sqrsum.unsqueeze(0), hc_scale, hc_base, residual,
                         post, comb, layer), (n,))
    r_post, r_comb, r_layer = big_fuse_ref(mul, sqrsum, hc_scale, hc_base, residual)
    torch.cuda.synchronize()
    bad = bf16_ulp_bad(layer, r_layer)
    checks = [("post_mix", rel(post, r_post), 1e-5), ("comb_mix", rel(comb, r_comb), 1e-5),
              ("layer_input", rel(layer, r_layer), 5e-3), ("layer_input>1ulp", float(bad), 0)]
    return report(f"mhc_big_fuse num_tokens={n}", err, checks, (post_t, comb_t, layer_t), f, args)


def check_e2e(d, n):
    """the file's test(): mhc_pre (gemm_sqrsum then big_fuse) against mhc_pre_ref"""
    g, f = launcher(d, "mhc_gemm_sqrsum"), launcher(d, "mhc_big_fuse")
    residual, fn = gen_residual(n)
    hc_scale = torch.randn(3, device="cuda") * 0.1
    hc_base = torch.randn(HC3, device="cuda") * 0.1
    mul, sq = torch.empty(1, n, HC3, device="cuda"), torch.empty(1, n, device="cuda")
    post, comb = torch.empty(n, HC, device="cuda"), torch.empty(n, HC * HC, device="cuda")
    layer = torch.empty(n, HID, device="cuda", dtype=torch.bfloat16)
    e1, _ = call(g, (residual.view(n, HC * HID), fn, mul, sq), (n,))
    e2, _ = call(f, (mul, sq, hc_scale, hc_base, residual, post, comb, layer), (n,))
    # mhc_pre_ref: mixes = x @ fn.T * rsqrt(sqrsum / (4 * H) + eps), then as big_fuse_ref
    xd = residual.view(n, HC * HID).double()
    r_post, r_comb, r_layer = big_fuse_ref(xd @ fn.double().T, xd.square().sum(-1), hc_scale, hc_base, residual)
    checks = [("post_mix", rel(post, r_post), 1e-4), ("comb_mix", rel(comb, r_comb), 1e-4),
              ("layer_input", rel(layer, r_layer), 5e-3)]
    return report(f"mhc_pre_e2e num_tokens={n}", e1 or e2, checks, (), None, None)


def unpack_uint4(qb):  # the file's _unpack_unsigned_int4_to_half: low nibble first
    u = qb.view(torch.uint8)
    return torch.stack((u & 0x0F, u >> 4), dim=-1).reshape(u.shape[0], u.shape[1] * 2)


def check_dequant(d):
    M = N = K = 256
    f = launcher(d, "dequant_fine")
    a = torch.randn(M, K, device="cuda").half()
    qb = torch.randint(-128, 128, (N, K // 2), device="cuda", dtype=torch.int8)  # every byte
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    err, args = call(f, (a, qb, c))
    ref = a.double() @ unpack_uint4(qb).double().T
    checks = [("C", rel(c, ref), 1e-2)]  # float16 inputs, float16 accumulation
    return report(f"dequant_fine {M}x{N}x{K} int4->f16", err, checks, (), f, args)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
    results = []
    for name, fn in [("mhc_gemm_sqrsum", lambda: [check_gemm_sqrsum(d, n) for n in (512, 509)]),
                     ("mhc_big_fuse", lambda: [check_big_fuse(d, n) for n in (512, 509)]),
                     ("mhc_pre_e2e", lambda: [check_e2e(d, 512)]),
                     ("dequant_fine", lambda: [check_dequant(d)])]:
        torch.manual_seed(1234)
        try:
            results += fn()
        except Exception as e:  # a missing .so or a crash: report and go on
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            results.append(False)
    print(f"{sum(results)}/{len(results)} passed")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
