# Flash attention whose rows can see no key at all, or none in the first
# tiles: each batch sees the keys [KVRange[b, 0], KVRange[b, 1]) (padding on
# both sides; batch 0 sees none) under a bottom-right causal mask with more
# queries (1000) than keys (600). The kernel keeps such rows finite the way
# FlashAttention does: a row maximum still -inf counts as 0 (without that, a
# row whose first tiles are masked turns NaN and stays so: exp2(-inf - -inf)),
# and a row with no weight writes 0. No length divides its tile (128 x 64).
# Checked against a plain C++ attention by attention_masked_rows_check.cpp
# (no NaN, fully masked rows exactly 0), on the CPU emulator and the GPU.
import tilelang.language as T

batch, heads, seq_q, seq_kv, dim = 2, 2, 1000, 600, 64
block_M, block_N = 128, 64
scale = 0.125 * 1.44269504  # 1/sqrt(64) * log2(e)
NEG_INF = -T.infinity("float32")


@T.prim_func
def masked_rows_attention(Q: T.Tensor((batch, heads, seq_q, dim), "float16"),
                          K: T.Tensor((batch, heads, seq_kv, dim), "float16"),
                          V: T.Tensor((batch, heads, seq_kv, dim), "float16"),
                          KVRange: T.Tensor((batch, 2), "int32"),
                          O: T.Tensor((batch, heads, seq_q, dim), "float16")):
    with T.Kernel(T.ceildiv(seq_q, block_M), heads, batch, threads=128) as (bx, by, bz):
        Q_s = T.alloc_shared((block_M, dim), "float16")
        K_s = T.alloc_shared((block_N, dim), "float16")
        V_s = T.alloc_shared((block_N, dim), "float16")
        acc_s = T.alloc_fragment((block_M, block_N), "float32")
        acc_s_cast = T.alloc_fragment((block_M, block_N), "float16")
        acc_o = T.alloc_fragment((block_M, dim), "float32")
        m = T.alloc_fragment((block_M,), "float32")
        m_prev = T.alloc_fragment((block_M,), "float32")
        m_safe = T.alloc_fragment((block_M,), "float32")
        rescale = T.alloc_fragment((block_M,), "float32")
        row_sum = T.alloc_fragment((block_M,), "float32")
        logsum = T.alloc_fragment((block_M,), "float32")
        kv_start = KVRange[bz, 0]
        kv_end = KVRange[bz, 1]
        T.copy(Q[bz, by, bx * block_M:(bx + 1) * block_M, :], Q_s)
        T.fill(acc_o, 0)
        T.fill(logsum, 0)
        T.fill(m, NEG_INF)
        for k in T.Pipelined(T.ceildiv(seq_kv, block_N), num_stages=2):
            T.copy(K[bz, by, k * block_N:(k + 1) * block_N, :], K_s)
            T.clear(acc_s)
            T.gemm(Q_s, K_s, acc_s, transpose_B=True)
            for i, j in T.Parallel(block_M, block_N):
                acc_s[i, j] = T.if_then_else(
                    k * block_N + j >= kv_start,
                    T.if_then_else(
                        k * block_N + j < kv_end,
                        T.if_then_else(k * block_N + j <= bx * block_M + i + (seq_kv - seq_q), acc_s[i, j], NEG_INF),
                        NEG_INF),
                    NEG_INF)
            T.copy(m, m_prev)
            T.reduce_max(acc_s, m, dim=1, clear=False)
            for i in T.Parallel(block_M):
                m_safe[i] = T.if_then_else(m[i] == NEG_INF, 0, m[i])
            for i in T.Parallel(block_M):
                rescale[i] = T.exp2(m_prev[i] * scale - m_safe[i] * scale)
            for i, j in T.Parallel(block_M, block_N):
                acc_s[i, j] = T.exp2(acc_s[i, j] * scale - m_safe[i] * scale)
            T.reduce_sum(acc_s, row_sum, dim=1)
            for i in T.Parallel(block_M):
                logsum[i] = logsum[i] * rescale[i] + row_sum[i]
            T.copy(acc_s, acc_s_cast)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] *= rescale[i]
            T.copy(V[bz, by, k * block_N:(k + 1) * block_N, :], V_s)
            T.gemm(acc_s_cast, V_s, acc_o)
        for i, j in T.Parallel(block_M, dim):
            acc_o[i, j] = T.if_then_else(logsum[i] > 0, acc_o[i, j] / logsum[i], 0)
        T.copy(acc_o, O[bz, by, bx * block_M:(bx + 1) * block_M, :])
