# A cp.async pipeline whose loop runs from one local variable to another
# (first/last computed from blockIdx.x: a sliding window of K tiles), as
# TileLang's attention backward and block-causal files have (hazard-local-bound.test).
import tilelang.language as T

@T.prim_func
def triangular(A: T.Tensor((512, 64), "float16"), B: T.Tensor((512, 64), "float16"),
               C: T.Tensor((512, 64), "float32")):
    with T.Kernel(8, threads=128) as bx:
        A_s = T.alloc_shared((64, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        C_l = T.alloc_fragment((64, 64), "float32")
        T.clear(C_l)
        first = T.max(0, bx - 3)
        last = T.min(bx + 1, 8)
        for k in T.Pipelined(first, last, num_stages=2):
            T.copy(A[k * 64, 0], A_s)
            T.copy(B[k * 64, 0], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[bx * 64, 0])


# The bounds found by a min/max loop over loaded offsets (variables assigned
# more than once, all before the pipelined loop), as TileLang's DeepSeek
# lightning indexer finds its key range.
@T.prim_func
def ranged(A: T.Tensor((512, 64), "float16"), B: T.Tensor((512, 64), "float16"),
           Offs: T.Tensor((10,), "int32"), C: T.Tensor((512, 64), "float32")):
    with T.Kernel(8, threads=128) as bx:
        A_s = T.alloc_shared((64, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        C_l = T.alloc_fragment((64, 64), "float32")
        lo = T.alloc_var("int32")
        hi = T.alloc_var("int32")
        T.clear(C_l)
        lo = 8
        hi = 0
        for i in T.serial(2):
            lo = T.min(lo, Offs[bx + i])
            hi = T.max(hi, Offs[bx + i + 1])
        for k in T.Pipelined(lo, hi, num_stages=2):
            T.copy(A[k * 64, 0], A_s)
            T.copy(B[k * 64, 0], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[bx * 64, 0])
