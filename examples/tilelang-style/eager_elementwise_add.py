"""Element-wise addition in TileLang's eager style.

The same kernel as ``elementwise_add.py`` (``C = A + B`` over M x N
tensors), with the sizes declared by ``T.const`` and the output created by
``T.empty`` inside the jit function.

Usage:
    python eager_elementwise_add.py
    tlc eager_elementwise_add.py --call 'elementwise_add.compile(M=1000, N=1000, block_M=32, block_N=256, threads=256)'
"""

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def elementwise_add(A, B, block_M=64, block_N=128, threads=128, in_dtype=T.float32,
                    out_dtype=T.float32):
    M, N = T.const("M N")
    A: T.Tensor((M, N), in_dtype)
    B: T.Tensor[(M, N), in_dtype]
    C = T.empty((M, N), out_dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        for (local_y, local_x) in T.Parallel(block_M, block_N):
            y = by * block_M + local_y
            x = bx * block_N + local_x
            C[y, x] = A[y, x] + B[y, x]

    return C


def main():
    a = torch.randn(1000, 1000, dtype=torch.float32, device="cuda")
    b = torch.randn(1000, 1000, dtype=torch.float32, device="cuda")
    torch.testing.assert_close(elementwise_add(a, b), a + b)
    print("All checks pass.")


if __name__ == "__main__":
    main()
