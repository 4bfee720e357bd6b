"""Tiled half-precision GEMM, written in the style of TileLang's examples.

Computes ``C = A @ B`` for row-major ``A`` (M x K) and ``B`` (K x N) in
float16 with float32 accumulation. Each thread block owns one
``block_M x block_N`` tile of ``C`` and walks the K dimension in
``block_K`` steps through a software pipeline, so the global -> shared
copies of step ``k + 1`` overlap the tensor-core math of step ``k``.

Usage:
    python gemm.py --m 4096 --n 4096 --k 4096
"""

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def matmul(M,
           N,
           K,
           block_M,
           block_N,
           block_K,
           dtype="float16",
           accum_dtype="float",
           num_stages=3,
           threads=128):
    """Build a GEMM kernel for fixed problem and tile sizes.

    Args:
        M, N, K: problem size (C is M x N, the reduction runs over K).
        block_M, block_N: output tile computed by one thread block.
        block_K: reduction step; one A tile and one B tile per step.
        dtype: storage type of A, B and C.
        accum_dtype: type of the on-chip accumulator.
        num_stages: depth of the copy/compute software pipeline.
        threads: threads per block.
    """

    @T.prim_func
    def gemm(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        # Grid: x walks the columns of C, y walks the rows.
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            # The accumulator lives in registers, spread over the block.
            T.clear(C_local)

            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                # Stage the next A and B tiles in shared memory.
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, bx * block_N], B_shared)

                # C_local += A_shared @ B_shared on the tensor cores.
                T.gemm(A_shared, B_shared, C_local)

            # Write the finished tile back (cast to dtype on the way out).
            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm


def ref_program(A, B):
    """PyTorch reference: plain matmul, accumulated by cuBLAS."""
    return A @ B


def main():
    parser = argparse.ArgumentParser(description="TileLang-style tiled GEMM")
    parser.add_argument("--m", type=int, default=1024, help="rows of A and C")
    parser.add_argument("--n", type=int, default=1024, help="columns of B and C")
    parser.add_argument("--k", type=int, default=1024, help="reduction length")
    parser.add_argument("--block_m", type=int, default=128)
    parser.add_argument("--block_n", type=int, default=128)
    parser.add_argument("--block_k", type=int, default=32)
    parser.add_argument("--num_stages", type=int, default=3)
    parser.add_argument("--threads", type=int, default=128)
    args = parser.parse_args()

    M, N, K = args.m, args.n, args.k
    kernel = matmul(
        M,
        N,
        K,
        args.block_m,
        args.block_n,
        args.block_k,
        num_stages=args.num_stages,
        threads=args.threads,
    )

    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)

    # out_idx=[-1]: C is allocated by the kernel wrapper and returned.
    c = kernel(a, b)
    ref_c = ref_program(a, b)
    torch.testing.assert_close(c, ref_c, rtol=1e-2, atol=1e-2)
    print("All checks pass.")

    profiler = kernel.get_profiler(tensor_supply_type=tilelang.TensorSupplyType.Normal)
    latency = profiler.do_bench(ref_program, warmup=100)
    print(f"Ref: {latency:.3f} ms")
    latency = profiler.do_bench(warmup=100)
    print(f"TileLang: {latency:.3f} ms")
    tflops = 2 * M * N * K / latency * 1e-9
    print(f"TileLang: {tflops:.2f} TFLOPS")


if __name__ == "__main__":
    main()
#call matmul(256, 256, 256, 64, 64, 32)
