# A T.gemm on CUDA cores (logits: 32 x 16, too narrow for the warps' mma
# tiles) reading shared tiles that the kernel's tensor-core gemms need
# swizzled (K_s and Q_s are ldmatrix operands of dq and dk), as in
# TileLang's dsa_sparse_finetune/indexer_bwd: the CUDA-core helper must read
# them through their swizzle (it read them row-major; bench/RESULTS.md
# part 16). test/CodeGen/gemm-cuda-cores-swizzled-operands.test checks the
# helper's indexing; this input runs it against the reference on the GPU.
import tilelang.language as T


@T.prim_func
def mixed_engines(K: T.Tensor((32, 128), "float16"), Q: T.Tensor((16, 128), "float16"),
                  L: T.Tensor((32, 16), "float16"), Logits: T.Tensor((32, 16), "float32"),
                  DQ: T.Tensor((16, 128), "float32"), DK: T.Tensor((32, 128), "float32")):
    with T.Kernel(1, threads=128) as bx:
        K_s = T.alloc_shared((32, 128), "float16")
        Q_s = T.alloc_shared((16, 128), "float16")
        L_s = T.alloc_shared((32, 16), "float16")
        logits = T.alloc_fragment((32, 16), "float32")
        dq = T.alloc_fragment((16, 128), "float32")
        dk = T.alloc_fragment((32, 128), "float32")
        T.copy(K, K_s)
        T.copy(Q, Q_s)
        T.copy(L, L_s)
        T.gemm(K_s, Q_s, logits, transpose_B=True, clear_accum=True)
        T.gemm(L_s, K_s, dq, transpose_A=True, clear_accum=True)
        T.gemm(L_s, Q_s, dk, clear_accum=True)
        T.copy(logits, Logits)
        T.copy(dq, DQ)
        T.copy(dk, DK)
