"""T.StridedTensor parameters: tensors whose strides are given, constant or
runtime sizes, checked under the harness at odd sizes.

copy_with_stride: TileLang's own test (testing/python/language/
    test_tilelang_language_copy.py): B = A[:, :N] of an (M, NN) array.
tile_copy: B = A + 1 through a shared tile, A with a runtime row stride
    NN >= 100, B column-major (strides (1, M)).
"""
import tilelang.language as T


def copy_with_stride(M, N, NN, block_M, block_N, dtype=T.float16):
    @T.prim_func
    def main(A: T.StridedTensor((M, N), (NN, 1), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                B[by * block_M + i, bx * block_N + j] = A[by * block_M + i, bx * block_N + j]

    return main


def tile_copy(M, N, block_M, block_N, dtype=T.float32):
    NN = T.dynamic("NN")

    @T.prim_func
    def main(A: T.StridedTensor((M, N), (NN, 1), dtype), B: T.StridedTensor((M, N), (1, M), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            S = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], S)
            for i, j in T.Parallel(block_M, block_N):
                S[i, j] = S[i, j] + 1
            T.copy(S, B[by * block_M, bx * block_N])

    return main
