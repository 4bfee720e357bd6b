# T.view(src, shape, dtype): a shared tile's bytes reused as a tile of
# another shape and dtype once the gemm has read it (TileLang's sparse-MLA
# backward stages float32 results in its bfloat16 KV tile this way). The
# view sits on the tile's bytes; the barriers between the gemm's reads of
# the tile and the stores into the view, and between the two halves, are
# thread-sync's. Checked against the reference.
import tilelang.language as T


@T.prim_func
def view_reuse(A: T.Tensor((256, 64), "float16"), B: T.Tensor((64, 64), "float16"),
               C: T.Tensor((256, 64), "float32")):
    with T.Kernel(2, threads=128) as bx:
        A_s = T.alloc_shared((128, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((128, 64), "float32")
        C_s = T.view(A_s, shape=[128, 32], dtype="float32")
        T.copy(A[bx * 128, 0], A_s)
        T.copy(B, B_s)
        T.clear(acc)
        T.gemm(A_s, B_s, acc)
        for h in T.serial(2):
            T.copy(acc[:, h * 32:(h + 1) * 32], C_s)
            for i, j in T.Parallel(128, 32):
                C[bx * 128 + i, h * 32 + j] = C_s[i, j] + h
