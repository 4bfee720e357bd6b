# A shared tile that one T.gemm reads on wgmma (so it is stored in wgmma's
# canonical layout, panels of 64 columns) and another reads on mma.sync (a
# 32-row product): the mma.sync helper must index it with the same layout.
# TileLang's attention backward (dQ = dS^T K with K_shared also the A of
# S = K Q^T) was wrong in dQ until the helper did (session 7).
import tilelang.language as T


@T.prim_func
def shared_by_two_engines(K: T.Tensor((128, 128), "float16"), Q: T.Tensor((64, 128), "float16"),
                          dS: T.Tensor((128, 32), "float16"), S: T.Tensor((128, 64), "float32"),
                          dQ: T.Tensor((32, 128), "float32")):
    with T.Kernel(1, threads=256) as bx:
        K_s = T.alloc_shared((128, 128), "float16")
        Q_s = T.alloc_shared((64, 128), "float16")
        dS_s = T.alloc_shared((128, 32), "float16")
        s = T.alloc_fragment((128, 64), "float32")
        dq = T.alloc_fragment((32, 128), "float32")
        T.copy(K, K_s)
        T.copy(Q, Q_s)
        T.copy(dS, dS_s)
        T.clear(s)
        T.gemm(K_s, Q_s, s, transpose_B=True)
        T.copy(s, S)
        T.clear(dq)
        T.gemm(dS_s, K_s, dq, transpose_A=True)
        T.copy(dq, dQ)
