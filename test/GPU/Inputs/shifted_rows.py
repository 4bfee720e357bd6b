# T.Parallel nests that read a gemm accumulator at rows shifted by a loop
# variable (TileLang's split stores: half of the tile at a time through a
# small shared tile). The nest follows the accumulator's layout over its own
# rows instead of staging it in shared memory; checked against the reference
# at sizes that do not divide the tiles, with a second fragment read the same
# way and a store guarded by the row.
import tilelang.language as T


@T.prim_func
def split_store(A: T.Tensor((100, 72), "float16"), B: T.Tensor((72, 64), "float16"),
                C: T.Tensor((100, 64), "float32"), D: T.Tensor((100, 64), "float32")):
    with T.Kernel(T.ceildiv(100, 32), threads=128) as bx:
        A_s = T.alloc_shared((32, 72), "float16")
        B_s = T.alloc_shared((72, 64), "float16")
        acc = T.alloc_fragment((32, 64), "float32")
        half = T.alloc_shared((16, 64), "float32")
        T.copy(A[bx * 32, 0], A_s)
        T.copy(B, B_s)
        T.clear(acc)
        T.gemm(A_s, B_s, acc)
        for s in range(2):
            for i, j in T.Parallel(32, 64):
                if i < 16:
                    half[i, j] = acc[i + s * 16, j] * 2.0
            for i, j in T.Parallel(16, 64):
                if bx * 32 + s * 16 + i < 100:
                    C[bx * 32 + s * 16 + i, j] = half[i, j]
        for s in range(4):
            for i, j in T.Parallel(8, 64):
                if bx * 32 + s * 8 + i < 100:
                    D[bx * 32 + s * 8 + i, j] = acc[s * 8 + i, j] + 1.0
