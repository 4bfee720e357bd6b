"""Tiled half-precision GEMM in TileLang's eager style.

The same kernel as ``gemm.py``, written the way TileLang's current docs
write kernels: the jit function takes the tensors and the tile sizes, its
body declares the problem sizes with ``T.const``, annotates the input
tensors, creates the output with ``T.empty`` and returns it.

Usage:
    python eager_gemm.py
    tlc eager_gemm.py --call 'matmul.compile(M=1024, N=1024, K=1024, block_M=128, block_N=128, block_K=32)'
"""

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def matmul(A, B, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32,
           num_stages=3, threads=128):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
            T.copy(A[by * block_M, ko * block_K], A_shared)
            T.copy(B[ko * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.copy(C_local, C[by * block_M, bx * block_N])

    return C


def main():
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    b = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    c = matmul(a, b, 128, 128, 32)  # M, N, K come from the shapes of a and b
    torch.testing.assert_close(c, a @ b, rtol=1e-2, atol=1e-2)
    print("All checks pass.")


if __name__ == "__main__":
    main()
