# A fragment of three dimensions (DeepSeek mHC backward's [tokens, n, n] tiles) is kept in
# shared memory, with a warning: copies in, an element-wise nest, reductions over its last and its
# middle dimension, and a nest that reads it with two 2-D tiles, checked against the reference.
import tilelang.language as T

t, n = 32, 16


@T.prim_func
def frag3(R: T.Tensor((256, n, n), "float32"), D: T.Tensor((256, n, n), "float32"),
          B1: T.Tensor((256, n), "float32"), B2: T.Tensor((256, n), "float32"),
          Res: T.Tensor((256, n, n), "float32")):
    with T.Kernel(256 // t, threads=128) as bx:
        Rf = T.alloc_fragment([t, n, n], "float32")
        Df = T.alloc_fragment([t, n, n], "float32")
        P = T.alloc_fragment([t, n, n], "float32")
        b1 = T.alloc_shared([t, n], "float32")
        b2 = T.alloc_shared([t, n], "float32")
        T.copy(R[bx * t:(bx + 1) * t, :, :], Rf)
        T.copy(D[bx * t:(bx + 1) * t, :, :], Df)
        for i, x, y in T.Parallel(t, n, n):
            P[i, x, y] = Rf[i, x, y] * Df[i, x, y]
        T.reduce_sum(P, b1, dim=-1)
        T.reduce_sum(P, b2, dim=-2)
        T.copy(b1, B1[bx * t:(bx + 1) * t, :])
        T.copy(b2, B2[bx * t:(bx + 1) * t, :])
        for i, x, y in T.Parallel(t, n, n):
            Res[bx * t + i, x, y] = (Df[i, x, y] - b1[i, x] - b2[i, y]) * Rf[i, x, y]
