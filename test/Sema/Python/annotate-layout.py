# T.annotate_layout, as TileLang's examples write it: swizzled shared tiles
# (tilelang.layout.make_swizzled_layout, or a file's own helper over
# TileLang's intrinsics), a T.Fragment thread mapping, and a global tensor's
# T.Layout. tlc checks the keys and keeps its own layouts: the CUDA is the
# same as without the annotation, and only the global tensor's (which code
# outside the kernel would see) gets a warning. The layout values are not
# evaluated: the helper here calls into a module tlc does not run.
# RUN: %tlc %s --call 'copy_scale(128, 64)' -o %t.cu 2>&1 | FileCheck %s --check-prefix=WARN --match-full-lines
# RUN: %tlc %s --call 'copy_scale(128, 64, annotate=False)' -o %t.plain.cu
# RUN: diff %t.cu %t.plain.cu
import tilelang
import tilelang.language as T
from tilelang.intrinsics import make_mma_swizzle_layout


def make_swizzle_layout(shared_buf):
    return make_mma_swizzle_layout(shared_buf)


def copy_scale(M, N, annotate=True):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), O: T.Tensor((M, N), "float32"), S: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((M, N), "float16")
            B_shared = T.alloc_shared((M, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            row = T.alloc_fragment((M,), "float32")
            if annotate:
                T.annotate_layout({
                    A_shared: tilelang.layout.make_swizzled_layout(A_shared),
                    B_shared: make_swizzle_layout(B_shared),
                    row: T.Fragment(row.shape, forward_thread_fn=lambda i: i),
                    O: T.Layout(O.shape, lambda i, j: [j, i]),
                })
            T.copy(A, A_shared)
            T.copy(A_shared, B_shared)
            T.copy(B_shared, acc)
            T.reduce_sum(acc, row, dim=1)
            T.copy(acc, O)
            T.copy(row, S)

    return main


# WARN:{{.*}}annotate-layout.py:33:21: warning: the layout of global tensor 'O' is ignored: tlc keeps tensors row-major
# WARN-NEXT:                    O: T.Layout(O.shape, lambda i, j: [j, i]),
# WARN-NEXT:                    ^
