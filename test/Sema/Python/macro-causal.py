# @T.macro helpers are inlined where a kernel calls them: buffer parameters
# alias the caller's buffers, index arguments its variables, a Python bool
# folds `if is_causal:` away, and the macro sees its factory's closure.
# RUN: %tlc %s --call 'masked(True)' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=CAUSAL
# RUN: %tlc %s --call 'masked(False)' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=PLAIN
import tilelang.language as T


def masked(is_causal, block=64):
    fill = -T.infinity("float32")

    @T.macro
    def Mask(acc: T.FragmentBuffer([block, block], "float32"), k: T.int32, bx: T.int32):
        """Mask the scores above the diagonal, or do nothing."""
        if is_causal:
            for i, j in T.Parallel(block, block):
                acc[i, j] = T.if_then_else(bx * block + i >= k * block + j, acc[i, j], fill)

    @T.prim_func
    def main(S: T.Tensor((1024, block), "float32"), O: T.Tensor((1024, block), "float32")):
        with T.Kernel(1024 // block, threads=128) as bx:
            acc = T.alloc_fragment((block, block), "float32")
            T.copy(S[bx * block, 0], acc)
            for k in T.serial(2):
                Mask(acc, k, bx=bx)
            T.copy(acc, O[bx * block, 0])

    return main

# CAUSAL: for serial k#{{[0-9]+}} in 0..2
# CAUSAL-NEXT: parallel (i#{{[0-9]+}} < 64, j#{{[0-9]+}} < 64) @16:13 {
# CAUSAL-NEXT: acc[i, j] = select(bx * 64 + i >= k * 64 + j, acc[i, j], -inf) @17:27
# PLAIN: for serial k#{{[0-9]+}} in 0..2
# PLAIN-NEXT: }
# PLAIN-NEXT: copy acc
