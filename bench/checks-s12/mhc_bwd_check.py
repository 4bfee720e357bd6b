#!/usr/bin/env python3
"""mhc_bwd_check.py SO: checks tlc's build of TileLang's deepseek_mhc/example_mhc_bwd.py
(sinkhorn_bwd_implicit_cg, n_stream=16: its 3-D fragments kept in shared memory) as the file's own
main() does: R = sinkhorn_forward(M) for M ~ U(0, 4), 100 iterations; loss = (R * W).sum() with W
random; the kernel's dL/dM from (R, W) against torch autograd's (here in float64). The kernel solves
its linear system by 32 conjugate-gradient steps in float32, so it agrees with the exact gradient to
CG's accuracy, not bit for bit: PASS when the relative (Frobenius) error is below 1e-3 and no
token's max relative difference (the file's rel_diff, |g1 - g2| / max(|g1|, |g2|)) exceeds the
file's scale of agreement. Also a token count that is not a multiple of the 32-token tile (the tail
block's rows past the end must stay untouched). The SO exports mhc_bwd(out, dout, res, seqlen, stream).
"""
import ctypes, sys
import torch

N = 16


def sinkhorn_forward(M, iters=100):
    R = torch.exp(M)
    for _ in range(iters):
        R = R / R.sum(-2, keepdim=True)
        R = R / R.sum(-1, keepdim=True)
    return R


def check(f, seqlen, seed):
    torch.manual_seed(seed)
    M = torch.distributions.uniform.Uniform(0.0, 4.0).sample((seqlen, N, N)).double().cuda()
    M.requires_grad_()
    R = sinkhorn_forward(M)
    W = torch.randn_like(R)
    (R * W).sum().backward()
    g1 = M.grad.detach()
    Rf, Wf = R.detach().float().contiguous(), W.float().contiguous()
    pad = 40
    full = torch.full((seqlen + pad, N, N), float("nan"), device="cuda")
    res = full[:seqlen]
    err = f(ctypes.c_void_p(Rf.data_ptr()), ctypes.c_void_p(Wf.data_ptr()), ctypes.c_void_p(res.data_ptr()),
            ctypes.c_int(seqlen), ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    torch.cuda.synchronize()
    g2 = res.double()
    rel = ((g2 - g1).norm() / g1.norm()).item()
    d = (g1 - g2).abs()
    rel_diff = d / (torch.maximum(g1.abs(), g2.abs()) + 1e-8)
    tail_ok = bool(torch.isnan(full[seqlen:]).all().item())
    nan = int(torch.isnan(g2).sum().item())
    ok = err == 0 and nan == 0 and tail_ok and rel < 1e-3
    print(f"{'PASS' if ok else 'FAIL'} mhc_bwd seqlen={seqlen} seed={seed}: err={err} rel_err={rel:.2e} "
          f"max_abs={d.max().item():.2e} mean MAE={d.mean().item():.2e} "
          f"median max_rel_diff/token={rel_diff.reshape(seqlen, -1).max(-1).values.median().item():.2e} "
          f"nan={nan} tail_untouched={tail_ok}", flush=True)
    return ok


def main():
    f = getattr(ctypes.CDLL(sys.argv[1]), "mhc_bwd")
    f.restype = ctypes.c_int
    oks = [check(f, 4096, 1), check(f, 4000, 2), check(f, 65536, 3)]
    return 0 if all(oks) else 1


if __name__ == "__main__":
    sys.exit(main())
