"""Row-wise RMS normalisation in TileLang's eager style.

The same kernel as ``rms_norm.py``: ``y = x / sqrt(mean(x ** 2) + eps) * w``
per row of an M x N matrix, ``block_M`` rows per thread block, statistics
in float32. The sizes are ``T.const``s bound when the kernel is compiled.

Usage:
    python eager_rms_norm.py
    tlc eager_rms_norm.py --call 'rms_norm.compile(M=4096, N=2048, block_M=2)'
"""

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def rms_norm(X, W, block_M=2, eps=1e-6, dtype="float16", accum_dtype="float", threads=128):
    """Normalises the rows of X and scales them by W; returns Y."""
    M, N = T.const("M, N")
    X: T.Tensor((M, N), dtype)
    W: T.Tensor((N,), dtype)
    Y = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
        X_shared = T.alloc_shared((block_M, N), dtype)
        W_shared = T.alloc_shared((N,), dtype)
        X_sq = T.alloc_fragment((block_M, N), accum_dtype)
        inv_rms = T.alloc_fragment((block_M,), accum_dtype)

        T.copy(X[bx * block_M:(bx + 1) * block_M, :], X_shared)
        T.copy(W, W_shared)

        for i, j in T.Parallel(block_M, N):
            xv = T.cast(X_shared[i, j], accum_dtype)
            X_sq[i, j] = xv * xv
        T.reduce_sum(X_sq, inv_rms, dim=1)

        for i in T.Parallel(block_M):
            inv_rms[i] = T.rsqrt(inv_rms[i] / N + eps)

        for i, j in T.Parallel(block_M, N):
            X_shared[i, j] = T.cast(
                T.cast(X_shared[i, j], accum_dtype) * inv_rms[i] *
                T.cast(W_shared[j], accum_dtype), dtype)

        T.copy(X_shared, Y[bx * block_M:(bx + 1) * block_M, :])

    return Y


def main():
    x = torch.randn(4096, 2048, dtype=torch.float16, device="cuda")
    w = torch.randn(2048, dtype=torch.float16, device="cuda")
    xf = x.float()
    ref = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).half()
    torch.testing.assert_close(rms_norm(x, w), ref, rtol=1e-2, atol=1e-2)
    print("All checks pass.")


if __name__ == "__main__":
    main()
