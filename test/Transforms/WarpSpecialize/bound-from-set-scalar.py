# A pipelined loop whose trip count comes from a scalar set after its let
# (`n = T.alloc_var(...)`, then `n = T.max(n, ...)` in a loop: TileLang's
# index kernels take the block's key range this way) is not warp-specialized:
# the producer warpgroup would compute the trip count from the let's first
# value (here 0 tiles) while the compute threads wait for every tile, a hang
# (dsa_hisa/pool_mqa_fp8 hung so on the H200). The same loop over a plain
# let of the same load is specialized.
# RUN: %tlc %s --call 'kernel(True)' --emit=plan | FileCheck %s --check-prefix=SET
# RUN: %tlc %s --call 'kernel(False)' --emit=plan | FileCheck %s --check-prefix=LET
# SET: warp_specialization:
# SET-NEXT: applied: no
# SET-NEXT: why_not: the pipelined loop's bounds use values the producer warpgroup cannot compute
# LET: warp_specialization:
# LET-NEXT: applied: yes
import tilelang.language as T


def kernel(set_later):
    @T.prim_func
    def main(A: T.Tensor((1024, 64), "float16"), B: T.Tensor((64, 64), "float16"),
             End: T.Tensor((4,), "int32"), C: T.Tensor((128, 64), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((64, 64), "float16")
            B_s = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            T.copy(B, B_s)
            T.clear(acc)
            if set_later:
                n = T.alloc_var("int32")
                n = 0
                for q in T.serial(4):
                    n = T.max(n, End[q])
            else:
                n = bx * 512 + 256
            for k in T.Pipelined(T.ceildiv(n, 64), num_stages=3):
                T.copy(A[k * 64, 0], A_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C[0, 0])
    return main
