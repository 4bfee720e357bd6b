# T.cumsum on a shared tile (along rows, reversed), a fragment of one row
# (unit dimension dropped) and a 2-D fragment along columns, each against the
# reference; TileLang's chunk-local gate cumsum writes the first two.
import tilelang.language as T


@T.prim_func
def cumsums(A: T.Tensor((8, 64), "float32"), R: T.Tensor((8, 64), "float32"),
            F: T.Tensor((1, 64), "float32"), C: T.Tensor((32, 16), "float32")):
    with T.Kernel(1, threads=128) as bx:
        S = T.alloc_shared((8, 64), "float32")
        T.copy(A, S)
        T.cumsum(S, dim=1, reverse=True)
        T.copy(S, R)
        row = T.alloc_fragment((1, 64), "float32")
        T.copy(A[0:1, :], row)
        T.cumsum(row, dim=1)
        T.copy(row, F)
        cols = T.alloc_fragment((32, 16), "float32")
        out = T.alloc_fragment((32, 16), "float32")
        for i, j in T.Parallel(32, 16):
            cols[i, j] = A[i % 8, j * 4 + i // 8]
        T.cumsum(src=cols, dst=out, dim=0)
        T.copy(out, C)
