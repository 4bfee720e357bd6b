# A kernel whose fragments need more registers per thread than a thread has
# (TileLang's flash attention at 128 threads with 128 x 128 score and output
# tiles at head dim 128: acc_s 128 + acc_o 128 + acc_s_cast 64 + row
# statistics) runs with 256 threads, with a note; the launch, the
# __launch_bounds__ and the gemm's warpgroups follow. --keep-threads keeps
# 128 (and layout-inference warns of the spill). Pinned kernels keep their
# count: a thread index, an accumulator of 64 rows (one warpgroup's slab).
# RUN: %tlc %s --call 'attention(128, "plain")' -o %t.cu 2>&1 | FileCheck %s --check-prefix=NOTE --implicit-check-not=warning:
# RUN: FileCheck %s --check-prefix=CUDA < %t.cu
# RUN: %tlc %s --call 'attention(128, "plain")' --stop-after=widen-threads --emit=ir | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'attention(128, "plain")' --keep-threads -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEEP
# RUN: %tlc %s --call 'attention(128, "thread_index")' -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEEP
# RUN: %tlc %s --call 'attention(64, "plain", 192, 256)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SLAB
# NOTE: attention-tiles.py:[[@LINE+19]]:9: note: kernel 'attention' runs with 256 threads, not 128: its fragments need about 324 registers per thread at 128 (a thread has 255), 164 at 256; --keep-threads keeps 128
# (and its num_stages=1 loop a TMA ring of two stages: 256 compute threads
# beside the producer warpgroup)
# CUDA: // Warp-specialized: threads 0..255 compute, threads 256..383 (one warpgroup) load tiles by TMA
# CUDA: __launch_bounds__(384, 1) attention_kernel(
# CUDA: dim3(384, 1, 1)
# IR: kernel attention({{.*}} threads(256, 1, 1)
# KEEP-NOT: runs with
# KEEP: warning: the fragments of kernel 'attention' hold {{[0-9]+}} registers per thread
# SLAB-NOT: runs with
# SLAB: warning: the fragments of kernel 'attention' hold {{[0-9]+}} registers per thread
import tilelang.language as T


def attention(block_M, variant, dim=128, block_N=128):
    seq = 1024
    scale = 0.125 * 1.44269504

    @T.prim_func
    def main(Q: T.Tensor((seq, dim), "float16"), K: T.Tensor((seq, dim), "float16"),
             V: T.Tensor((seq, dim), "float16"), O: T.Tensor((seq, dim), "float16"),
             Idx: T.Tensor((seq,), "int32")):
        with T.Kernel(T.ceildiv(seq, block_M), threads=128) as bx:
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
            T.copy(Q[bx * block_M, 0], Q_s)
            T.fill(acc_o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity("float32"))
            for k in T.Pipelined(seq // block_N, num_stages=1):
                T.copy(K[k * block_N, 0], K_s)
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
                T.copy(V[k * block_N, 0], V_s)
                T.gemm(acc_s_cast, V_s, acc_o)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= l[i]
            if variant == "thread_index":
                tx = T.get_thread_binding()
                Idx[bx * block_M + tx % block_M] = tx
            T.copy(acc_o, O[bx * block_M, 0])

    return main
