# T.reshape of a wgmma accumulator (fp16 inputs): the (64, 72) tile viewed as
# (64, 3, 24), a 3-D T.Parallel over the view, then T.reduce_sum along its last
# dimension into a (64, 3) fragment; fragment_reshape.py has the same kernel
# on CUDA cores. Checked against the reference.
import tilelang.language as T


@T.prim_func
def reshape_wgmma_segments(A: T.Tensor((128, 32), "float16"), B: T.Tensor((72, 32), "float16"),
                           W: T.Tensor((3, 24), "float32"), S: T.Tensor((128,), "float32"),
                           O: T.Tensor((128, 3), "float32")):
    with T.Kernel(2, threads=128) as bx:
        A_s = T.alloc_shared((64, 32), "float16")
        B_s = T.alloc_shared((72, 32), "float16")
        acc = T.alloc_fragment((64, 72), "float32")
        acc_r = T.reshape(acc, (64, 3, 24))
        w = T.alloc_fragment((3, 24), "float32")
        scale = T.alloc_fragment((64,), "float32")
        o = T.alloc_fragment((64, 3), "float32")
        T.copy(A[bx * 64, 0], A_s)
        T.copy(B, B_s)
        T.copy(W, w)
        T.copy(S[bx * 64], scale)
        T.gemm(A_s, B_s, acc, transpose_B=True, clear_accum=True)
        for i, q, h in T.Parallel(64, 3, 24):
            acc_r[i, q, h] = T.max(acc_r[i, q, h] * scale[i], 0) * w[q, h]
        T.reduce_sum(acc_r, o, dim=-1, clear=True)
        for q, i in T.Parallel(3, 64):
            O[bx * 64 + i, q] = o[i, q]
