# T.reshape of fragments (an index view: X[i, q, h] is src[i, q * H + h]):
# a gemm accumulator viewed as (rows, segments, heads), updated by a 3-D
# T.Parallel over the view and reduced along its last dimension into a
# (rows, segments) fragment (DeepSeek's MQA indexer pattern), at sizes that
# are not powers of two (a float32 gemm on CUDA cores, so the CPU emulator
# runs it too; fragment_reshape_wgmma.py is the wgmma form); a fragment from
# a copy reduced with max, a one-segment view reduced into a running sum
# (clear=False), and a 1-D view whose accesses re-split the linear index.
# Checked against the reference.
import tilelang.language as T


@T.prim_func
def reshape_gemm_segments(A: T.Tensor((128, 32), "float32"), B: T.Tensor((72, 32), "float32"),
                          W: T.Tensor((3, 24), "float32"), S: T.Tensor((128,), "float32"),
                          O: T.Tensor((128, 3), "float32")):
    with T.Kernel(2, threads=128) as bx:
        A_s = T.alloc_shared((64, 32), "float32")
        B_s = T.alloc_shared((72, 32), "float32")
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


@T.prim_func
def reshape_rows(X: T.Tensor((40, 60), "float32"), M: T.Tensor((40, 3), "float32"),
                 R: T.Tensor((40,), "float32"), F: T.Tensor((2400,), "float32")):
    with T.Kernel(1, threads=96) as bx:
        x = T.alloc_fragment((40, 60), "float32")
        x_r = T.reshape(x, (40, 3, 20))
        x_flat = T.reshape(x, (2400,))
        m = T.alloc_fragment((40, 3), "float32")
        y = T.alloc_fragment((40, 20), "float32")
        y_r = T.reshape(y, (40, 1, 20))
        r = T.alloc_fragment((40, 1), "float32")
        T.copy(X, x)
        T.reduce_max(x_r, m, dim=2)
        T.copy(m, M)
        for i, j in T.Parallel(40, 20):
            y[i, j] = x[i, j] + x[i, 20 + j]
        T.fill(r, 1.0)
        T.reduce_sum(y_r, r, dim=-1, clear=False)
        for i in T.Parallel(40):
            R[i] = r[i, 0]
        for k in T.Parallel(2400):
            F[k] = x_flat[k] * 2.0
