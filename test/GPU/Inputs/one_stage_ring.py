# num_stages=1 loops on the Hopper path: warp-specialize gives each a TMA
# ring of two stages (the producer warpgroup loads the next K/V or A/B tiles
# while the compute threads work on these). A GEMM with a K loop that is not
# a multiple of the tile, and flash attention over a sequence that is not a
# multiple of the block, checked against the reference.
import tilelang.language as T

M, N, K = 320, 256, 1000


@T.prim_func
def gemm_one_stage(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
                   C: T.Tensor((M, N), "float32")):
    with T.Kernel(T.ceildiv(N, 128), T.ceildiv(M, 128), threads=128) as (bx, by):
        A_s = T.alloc_shared((128, 64), "float16")
        B_s = T.alloc_shared((64, 128), "float16")
        C_l = T.alloc_fragment((128, 128), "float32")
        T.clear(C_l)
        for k in T.Pipelined(T.ceildiv(K, 64), num_stages=1):
            T.copy(A[by * 128, k * 64], A_s)
            T.copy(B[k * 64, bx * 128], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[by * 128, bx * 128])


seq, dim, block_M, block_N = 600, 64, 64, 64
scale = 0.125 * 1.44269504


@T.prim_func
def attention_one_stage(Q: T.Tensor((2, seq, dim), "float16"), K_: T.Tensor((2, seq, dim), "float16"),
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
        for k in T.Pipelined(T.ceildiv(seq, block_N), num_stages=1):
            T.copy(K_[bz, k * block_N, 0], K_s)
            T.clear(acc_s)
            T.gemm(Q_s, K_s, acc_s, transpose_B=True)
            for i, j in T.Parallel(block_M, block_N):
                acc_s[i, j] = T.if_then_else(k * block_N + j < seq, acc_s[i, j], -T.infinity("float32"))
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
