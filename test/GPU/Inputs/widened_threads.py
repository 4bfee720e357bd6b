# Flash attention at 128 threads with 128 x 128 score and output tiles at
# head dim 128: its fragments (acc_s, its fp16 copy, acc_o: about 324
# registers per thread) do not fit a thread, so widen-threads runs it with
# 256 threads (test/Transforms/WidenThreads). Checked against the reference.
import tilelang.language as T

seq, dim, block_M, block_N = 640, 128, 128, 128
scale = 0.125 * 1.44269504


@T.prim_func
def widened_attention(Q: T.Tensor((2, seq, dim), "float16"), K: T.Tensor((2, seq, dim), "float16"),
                      V: T.Tensor((2, seq, dim), "float16"), O: T.Tensor((2, seq, dim), "float16")):
    with T.Kernel(T.ceildiv(seq, block_M), 2, threads=128) as (bx, bz):
        Q_s = T.alloc_shared((block_M, dim), "float16")
        K_s = T.alloc_shared((block_N, dim), "float16")
        V_s = T.alloc_shared((block_N, dim), "float16")
        acc_s = T.alloc_fragment((block_M, block_N), "float32")
        acc_s_cast = T.alloc_fragment((block_M, block_N), "float16")
        acc_o = T.alloc_fragment((block_M, dim), "float32")
        m = T.alloc_fragment((block_M,), "float32")
        m_prev = T.alloc_fragment((block_M,), "float32")
        l = T.alloc_fragment((block_M,), "float32")
        r = T.alloc_fragment((block_M,), "float32")
        T.copy(Q[bz, bx * block_M, 0], Q_s)
        T.fill(acc_o, 0)
        T.fill(l, 0)
        T.fill(m, -T.infinity("float32"))
        for k in T.Pipelined(T.ceildiv(seq, block_N), num_stages=2):
            T.copy(K[bz, k * block_N, 0], K_s)
            T.clear(acc_s)
            T.gemm(Q_s, K_s, acc_s, transpose_B=True)
            T.copy(m, m_prev)
            T.reduce_max(acc_s, m, dim=1, clear=False)
            for i, j in T.Parallel(block_M, block_N):
                acc_s[i, j] = T.exp2(acc_s[i, j] * scale - m[i] * scale)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] *= T.exp2(m_prev[i] * scale - m[i] * scale)
            T.reduce_sum(acc_s, r, dim=1)
            for i in T.Parallel(block_M):
                l[i] = l[i] * T.exp2(m_prev[i] * scale - m[i] * scale) + r[i]
            T.copy(acc_s, acc_s_cast)
            T.copy(V[bz, k * block_N, 0], V_s)
            T.gemm(acc_s_cast, V_s, acc_o)
        for i, j in T.Parallel(block_M, dim):
            acc_o[i, j] /= l[i]
        T.copy(acc_o, O[bz, bx * block_M, 0])
