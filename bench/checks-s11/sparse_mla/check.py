#!/usr/bin/env python3
"""check.py SODIR [NAME...]: checks tlc's builds of TileLang's DeepSeek-V3.2 sparse MLA forward kernels
(examples/deepseek_v32/sparse_mla_fwd_pipelined.py and _seesaw.py, compiled by gen.sh with
heads=128 dim=512 tail_dim=64 topk=2048 kv_stride=1 kv_group=1 CP0=False) against torch.

Each SODIR/NAME.so exports NAME(Q, KV, Indices, q_start_index_s, Output, Lse, batch, seq_len,
seq_len_kv, stream) -> cudaError_t. For query s at global position p = q_start + s, the kernel
attends over the rows KV[b, i] with i in Indices[b, s, 0, :] and i <= p (others are masked):
  O = softmax(Q.K^T / sqrt(576)) @ V,   K = KV[..., :576], V = KV[..., :512],
  Lse = log2(sum exp(Q.K^T / sqrt(576)))  (base 2; only the seesaw kernel writes it).
The reference is the file's ref_sparse_mla_fwd_interface in float32, chunked over queries.
Prints PASS/FAIL per kernel with relative (Frobenius) errors and the median time (20 runs).
"""
import ctypes, math, os, sys
import torch

B, S, SKV, H, D, DT, TOPK, Q0 = 2, 1024, 4096, 128, 512, 64, 2048, 1024
KERNELS = [("sparse_mla_pipelined", False), ("sparse_mla_seesaw", True)]  # (name, writes Lse)
dev = "cuda"


def inputs():
    torch.manual_seed(1234)
    q = torch.randn(B, S, H, D + DT, device=dev).bfloat16()
    kv = torch.randn(B, SKV, 1, D + DT, device=dev).bfloat16()
    # Per query: distinct random rows among the visible ones [0, p], those first (as in the
    # file's test); the rest padding: SKV or a random future row in (p, SKV) (both masked).
    pos = Q0 + torch.arange(S, device=dev)
    nvalid = (pos + 1).clamp(max=SKV)
    keys = torch.rand(B, S, SKV, device=dev).masked_fill(torch.arange(SKV, device=dev) >= nvalid[:, None], 2.0)
    idx = keys.argsort(-1)[..., :TOPK]
    future = pos[:, None] + 1 + (torch.rand(B, S, TOPK, device=dev) * (SKV - 1 - pos[:, None])).long()
    pad = torch.where(torch.rand(B, S, TOPK, device=dev) < 0.5, torch.full_like(future, SKV), future)
    idx = torch.where(torch.arange(TOPK, device=dev) < nvalid[:, None], idx, pad)
    return q, kv, idx.int().view(B, S, 1, TOPK).contiguous()


def reference(q, kv, idx, chunk=128):
    scale = (D + DT) ** -0.5
    out = torch.empty(B, S, H, D, device=dev)
    lse = torch.empty(B, S, H, device=dev)
    for b in range(B):
        k = kv[b, :, 0].float()
        for s0 in range(0, S, chunk):
            qc = q[b, s0:s0 + chunk].float()
            c = qc.shape[0]
            mask = torch.zeros(c, SKV + 1, dtype=torch.bool, device=dev)
            mask.scatter_(1, idx[b, s0:s0 + c, 0].long(), True)
            mask = mask[:, :SKV] & (torch.arange(SKV, device=dev) <= (Q0 + s0 + torch.arange(c, device=dev))[:, None])
            sc = torch.einsum("chd,nd->chn", qc, k).mul_(scale).masked_fill_(~mask[:, None, :], float("-inf"))
            l = torch.logsumexp(sc, -1)
            out[b, s0:s0 + c] = torch.einsum("chn,nd->chd", torch.exp(sc - l[..., None]), k[:, :D])
            lse[b, s0:s0 + c] = l / math.log(2.0)
    return out, lse


def median_ms(fn):
    for _ in range(5):
        fn()
    times = []
    for _ in range(20):
        a, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(a.elapsed_time(e))
    return sorted(times)[len(times) // 2]


def rel(x, ref):
    return ((x.float() - ref).norm() / ref.norm()).item()


def main():
    sodir = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
    torch.backends.cuda.matmul.allow_tf32 = False
    q, kv, idx = inputs()
    qs = torch.tensor([Q0], dtype=torch.int32, device=dev)
    ref_o, ref_lse = reference(q, kv, idx)
    fails = 0
    for name, has_lse in KERNELS:
        if sys.argv[2:] and name not in sys.argv[2:]:
            continue
        so = os.path.join(sodir, name + ".so")
        if not os.path.exists(so):
            print(f"FAIL {name}: {so} missing"); fails += 1; continue
        f = getattr(ctypes.CDLL(so), name)
        f.restype = ctypes.c_int
        o = torch.full((B, S, H, D), float("nan"), device=dev, dtype=torch.bfloat16)
        lse = torch.full((B, S, H), float("nan"), device=dev)
        args = tuple(ctypes.c_void_p(t.data_ptr()) for t in (q, kv, idx, qs, o, lse)) + \
            (B, S, SKV, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
        try:
            err = f(*args)
            torch.cuda.synchronize()
        except RuntimeError as e:  # a fault poisons the context: stop here
            print(f"FAIL {name}: {str(e).splitlines()[0]}"); return 1
        nan = torch.isnan(o).sum().item()
        eo = rel(o, ref_o)
        ok = err == 0 and nan == 0 and eo < 1e-2
        line = (f"B={B} S={S} SKV={SKV} H={H} topk={TOPK} q_start={Q0}: err={err} out rel_err={eo:.2e} "
                f"max_abs={(o.float() - ref_o).abs().max().item():.2e} nan={nan}")
        if has_lse:
            el = rel(lse, ref_lse)
            ok = ok and el < 1e-3 and not torch.isnan(lse).any().item()
            line += f" lse rel_err={el:.2e} max_abs={(lse - ref_lse).abs().max().item():.2e}"
        else:
            line += " lse=unchecked(not written by this kernel)"
        if ok:
            t = median_ms(lambda: f(*args))
            tflops = B * S * H * TOPK * 2 * (D + DT + D) / (t * 1e-3) / 1e12
            line += f" tlc_ms={t:.3f} ({tflops:.0f} TFLOP/s at full topk)"
        print(f"{'PASS' if ok else 'FAIL'} {name} {line}", flush=True)
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
