"""TileLang's pointer parameters (`P: T.ptr` shaped by
`X = T.make_tensor(P, shape, dtype)`) with their sizes as scalar
parameters: one .cu for every size, checked under the harness with --size.

scale: Y = 2 * X + 1 over (m, n) float32 through shared tiles of 32 x 64,
       guarded at the runtime edge in both dimensions.
gemm:  TileLang's own pointer GEMM test (testing/python/language/
       test_tilelang_language_ptr.py): C = A @ B^T, A (m, k), B (n, k) float16
       into float32, the grid fixed by the factory's M and N.
"""
import tilelang.language as T


def scale(block_M=32, block_N=64):
    @T.prim_func
    def main(x_ptr: T.ptr, y_ptr: T.ptr, m: T.int32, n: T.int32):
        X = T.make_tensor(x_ptr, (m, n), T.float32)
        Y = T.make_tensor(y_ptr, (m, n), T.float32)
        with T.Kernel(T.ceildiv(n, block_N), T.ceildiv(m, block_M), threads=128) as (bx, by):
            S = T.alloc_shared((block_M, block_N), T.float32)
            T.copy(X[by * block_M, bx * block_N], S)
            for i, j in T.Parallel(block_M, block_N):
                S[i, j] = S[i, j] * 2 + 1
            T.copy(S, Y[by * block_M, bx * block_N])

    return main


def gemm(M, N, K, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(a_ptr: T.ptr, b_ptr: T.ptr, c_ptr: T.ptr, m: T.int32, n: T.int32, k: T.int32):
        A = T.make_tensor(a_ptr, (m, k), dtype)
        B = T.make_tensor(b_ptr, (n, k), dtype)
        C = T.make_tensor(c_ptr, (m, n), accum_dtype)
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(k, block_K), num_stages=3):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[bx * block_N, ko * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main
