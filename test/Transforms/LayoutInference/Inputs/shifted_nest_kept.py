import tilelang.language as T


# The nest also stores something that does not read the fragment: dropping
# the points whose shifted row leaves the fragment would lose those stores,
# so the nest is left alone and the fragment is staged.
@T.prim_func
def kept(A: T.Tensor((32, 64), "float16"), B: T.Tensor((64, 64), "float16"),
         C: T.Tensor((32, 64), "float32"), E: T.Tensor((32, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((32, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((32, 64), "float32")
        T.copy(A, A_s)
        T.copy(B, B_s)
        T.clear(acc)
        T.gemm(A_s, B_s, acc)
        for s in range(2):
            for i, j in T.Parallel(32, 64):
                E[i, j] = 1.0
                if i < 16:
                    C[i + s * 16, j] = acc[i + s * 16, j]
