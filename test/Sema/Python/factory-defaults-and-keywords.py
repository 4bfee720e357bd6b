# A GEMM-like factory in TileLang's style: positional, keyword and default
# arguments reach the kernel's shapes, dtypes, grid and threads; the kernel
# takes the factory's name (TileLang names the inner prim_func 'main').
# RUN: %tlc %s --call 'scale_copy(256, 192, 64, dtype="bfloat16")' | FileCheck %s
# RUN: %tlc %s --call 'scale_copy(256, 192, block_N=32, threads=64)' | FileCheck %s --check-prefix=KW
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale_copy(M, N, block_M=64, block_N=64, dtype="float16", accum_dtype="float", threads=128):
    """Y = 2 * X, tile by tile."""

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                Y[by * block_M + i, bx * block_N + j] = X[by * block_M + i, bx * block_N + j] * 2

    return main

# CHECK: // kernel scale_copy ({{.*}}factory-defaults-and-keywords.py:15): grid (3, 4, 1), 128 threads
# CHECK: scale_copy_kernel(const bfloat16_t* __restrict__ X, bfloat16_t* __restrict__ Y)
# CHECK: extern "C" cudaError_t scale_copy(const bfloat16_t* X, bfloat16_t* Y, cudaStream_t stream)
# KW: // kernel scale_copy ({{.*}}): grid (6, 4, 1), 64 threads
# KW: scale_copy_kernel(const half_t* __restrict__ X, half_t* __restrict__ Y)
