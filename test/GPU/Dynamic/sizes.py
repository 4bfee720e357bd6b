"""Kernels with runtime sizes, in both of TileLang's styles, for the
emulated (sizes 1, 17, 1000) and GPU (also 4096, 8191) runs of
sizes_driver.cu: one .cu serves every size.

add:   C = A + B over (m, 256) float32, m = T.dynamic("m") (eager style);
       tiles of 64 x 128 go through shared memory, so the copies are guarded
       against the runtime edge in m.
scale: B = 2 * A over (m, n) float32 with both sizes T.symbolic (classic
       style); the row stride is the runtime n, the tiles of 32 x 64 are
       guarded in both dimensions.
"""
import tilelang
import tilelang.language as T


@tilelang.jit
def add(A, B, block_M=64, block_N=128, threads=128, dtype=T.float32):
    M = T.dynamic("m")
    N = T.const("N")
    A: T.Tensor((M, N), dtype)
    B: T.Tensor((M, N), dtype)
    C = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_s = T.alloc_shared((block_M, block_N), dtype)
        B_s = T.alloc_shared((block_M, block_N), dtype)
        T.copy(A[by * block_M, bx * block_N], A_s)
        T.copy(B[by * block_M, bx * block_N], B_s)
        for i, j in T.Parallel(block_M, block_N):
            A_s[i, j] = A_s[i, j] + B_s[i, j]
        T.copy(A_s, C[by * block_M, bx * block_N])
    return C


def scale(block_M=32, block_N=64, dtype="float32"):
    m = T.symbolic("m")
    n = T.symbolic("n")

    @T.prim_func
    def main(A: T.Tensor((m, n), dtype), B: T.Tensor((m, n), dtype)):
        with T.Kernel(T.ceildiv(n, block_N), T.ceildiv(m, block_M), threads=128) as (bx, by):
            tile = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], tile)
            for i, j in T.Parallel(block_M, block_N):
                tile[i, j] = tile[i, j] * 2
            T.copy(tile, B[by * block_M, bx * block_N])

    return main
