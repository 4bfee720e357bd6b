# Two T.ws scopes that hand a shared tile over with no mbarrier between them
# (MLA decode's row sums: the first consumer warpgroup writes them after its
# loop, the second reads them for its rescale). thread-sync gives the pair a
# named barrier: the writer arrives after its last write, the reader meets
# it before its first read. Rows and columns that do not divide the tiles.
import tilelang.language as T


@T.prim_func
def normalize_rows(A: T.Tensor((100, 200), "float32"), Out: T.Tensor((100, 200), "float32")):
    with T.Kernel(T.ceildiv(100, 32), threads=256) as bx:
        sums_s = T.alloc_shared((32,), "float32")
        x = T.alloc_fragment((32, 64), "float32")
        part = T.alloc_fragment((32,), "float32")
        total = T.alloc_fragment((32,), "float32")
        y = T.alloc_fragment((32, 64), "float32")
        with T.ws(0):
            T.clear(total)
            for k in T.serial(T.ceildiv(200, 64)):
                T.copy(A[bx * 32, k * 64], x)
                for i, j in T.Parallel(32, 64):
                    x[i, j] = T.if_then_else(k * 64 + j < 200, T.abs(x[i, j]) + 1.0, 0.0)
                T.reduce_sum(x, part, dim=1)
                for i in T.Parallel(32):
                    total[i] += part[i]
            for i in T.Parallel(32):
                sums_s[i] = total[i]
        with T.ws(1):
            for k in T.serial(T.ceildiv(200, 64)):
                T.copy(A[bx * 32, k * 64], y)
                for i, j in T.Parallel(32, 64):
                    y[i, j] = (T.abs(y[i, j]) + 1.0) / sums_s[i]
                T.copy(y, Out[bx * 32, k * 64])
