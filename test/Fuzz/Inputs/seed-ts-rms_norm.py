"""Row-wise RMS normalisation (as used in LLaMA-style models), TileLang style.

For every row ``x`` of an M x N matrix::

    y = x / sqrt(mean(x ** 2) + eps) * weight

Each thread block normalises ``block_M`` whole rows: the rows are staged in
shared memory, squared into a register fragment, reduced along the row with
``T.reduce_sum``, and the scaled result is written back through shared
memory. The statistics are kept in float32 even for float16 data.

Usage:
    python rms_norm.py --m 4096 --n 2048
"""

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def rms_norm(M, N, block_M=2, eps=1e-6, dtype="float16", accum_dtype="float", threads=128):
    """Build an RMSNorm kernel for an M x N input and a length-N weight.

    ``block_M`` rows are handled per block; a whole row (N elements) must fit
    in shared memory, which is fine for hidden sizes up to a few thousand.
    """

    @T.prim_func
    def main(
            X: T.Tensor((M, N), dtype),
            W: T.Tensor((N,), dtype),
            Y: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            X_shared = T.alloc_shared((block_M, N), dtype)
            W_shared = T.alloc_shared((N,), dtype)
            X_sq = T.alloc_fragment((block_M, N), accum_dtype)
            inv_rms = T.alloc_fragment((block_M,), accum_dtype)

            T.copy(X[bx * block_M:(bx + 1) * block_M, :], X_shared)
            T.copy(W, W_shared)

            # Sum of squares per row, accumulated in float32.
            for i, j in T.Parallel(block_M, N):
                xv = T.cast(X_shared[i, j], accum_dtype)
                X_sq[i, j] = xv * xv
            T.reduce_sum(X_sq, inv_rms, dim=1)

            # 1 / sqrt(mean + eps), one value per row.
            for i in T.Parallel(block_M):
                inv_rms[i] = T.rsqrt(inv_rms[i] / N + eps)

            # Scale in place and apply the learned per-channel weight.
            for i, j in T.Parallel(block_M, N):
                X_shared[i, j] = T.cast(
                    T.cast(X_shared[i, j], accum_dtype) * inv_rms[i] *
                    T.cast(W_shared[j], accum_dtype), dtype)

            T.copy(X_shared, Y[bx * block_M:(bx + 1) * block_M, :])

    return main


def ref_program(x, w, eps=1e-6):
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
    return (y * w.float()).to(x.dtype)


def main():
    parser = argparse.ArgumentParser(description="TileLang-style RMSNorm")
    parser.add_argument("--m", type=int, default=4096, help="number of rows (tokens)")
    parser.add_argument("--n", type=int, default=2048, help="row length (hidden size)")
    parser.add_argument("--block_m", type=int, default=2, help="rows per thread block")
    parser.add_argument("--eps", type=float, default=1e-6)
    args = parser.parse_args()

    M, N = args.m, args.n
    kernel = rms_norm(M, N, block_M=args.block_m, eps=args.eps)

    x = torch.randn(M, N, dtype=torch.float16, device="cuda")
    w = torch.randn(N, dtype=torch.float16, device="cuda")
    y = kernel(x, w)
    torch.testing.assert_close(y, ref_program(x, w, args.eps), rtol=1e-2, atol=1e-2)
    print("All checks pass.")

    profiler = kernel.get_profiler()
    latency = profiler.do_bench(warmup=100)
    gbytes = (2 * M * N + N) * x.element_size() / 1e9
    print(f"TileLang: {latency:.4f} ms, {gbytes / (latency * 1e-3):.1f} GB/s")


if __name__ == "__main__":
    main()
#call rms_norm(256, 512, 2)
