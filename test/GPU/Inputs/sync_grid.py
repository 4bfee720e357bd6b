# T.sync_grid(): a barrier of every thread of the grid (a cooperative
# launch). Phase one: each block sums its slice of columns of every row into
# Partial[:, block]; after the grid barrier each block reads every block's
# partial sums and normalizes its slice by the row totals, still holding
# its slice in registers from phase one. Odd sizes (37 rows, 1000 columns
# over 8 blocks of 125).
import tilelang.language as T


@T.prim_func
def two_phase_normalize(X: T.Tensor((37, 1000), "float32"), Partial: T.Tensor((37, 8), "float32"),
                        Y: T.Tensor((37, 1000), "float32")):
    with T.Kernel(8, threads=128) as bx:
        tile = T.alloc_fragment((37, 125), "float32")
        row = T.alloc_fragment((37,), "float32")
        parts = T.alloc_fragment((37, 8), "float32")
        total = T.alloc_fragment((37,), "float32")
        T.copy(X[0, bx * 125], tile)
        T.reduce_sum(tile, row, dim=1)
        for i in T.Parallel(37):
            Partial[i, bx] = row[i]
        T.sync_grid()
        T.copy(Partial, parts)
        T.reduce_sum(parts, total, dim=1)
        for i, j in T.Parallel(37, 125):
            Y[i, bx * 125 + j] = tile[i, j] / total[i]
