"""TileLang's dynamic-shape GEMM in the classic style (its
examples/dynamic_shape example, with T.symbolic for tvm.te.var): m, n and k
are runtime sizes of a @T.prim_func made by a factory, either operand may be
transposed. gemm_driver.cu runs it next to gemm.py's eager `matmul`.
"""
import tilelang
import tilelang.language as T


def matmul_dynamic_mnk(block_M=128, block_N=128, block_K=32, trans_A=False, trans_B=False,
                       in_dtype="float16", out_dtype="float16", accum_dtype="float32",
                       num_stages=3, threads=128):
    M = T.symbolic("m")
    N = T.symbolic("n")
    K = T.symbolic("k")

    A_shape = (K, M) if trans_A else (M, K)
    B_shape = (N, K) if trans_B else (K, N)
    A_shared_shape = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shared_shape = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def dynamic_matmul(
            A: T.Tensor(A_shape, in_dtype),
            B: T.Tensor(B_shape, in_dtype),
            C: T.Tensor((M, N), out_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, in_dtype)
            B_shared = T.alloc_shared(B_shared_shape, in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if trans_A:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, trans_A, trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return dynamic_matmul
