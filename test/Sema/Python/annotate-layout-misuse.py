# T.annotate_layout misuse: not one dict, a key that is not a buffer (or not a
# name), a layout that is not a layout, and the call inside T.Parallel.
# RUN: not %tlc %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace --implicit-check-not=error:
import tilelang
import tilelang.language as T

SCALE = 2


@T.prim_func
def kernel(A: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        A_shared = T.alloc_shared((64, 64), "float16")
        T.annotate_layout(A_shared)
# CHECK:{{.*}}annotate-layout-misuse.py:[[@LINE-1]]:9: error: T.annotate_layout takes one dict literal {buffer: layout, ...}
# CHECK-NEXT:        T.annotate_layout(A_shared)
# CHECK-NEXT:        ^~~~~~~~~~~~~~~~~
        T.annotate_layout({SCALE: tilelang.layout.make_swizzled_layout(A_shared)})
# CHECK-NEXT:{{.*}}annotate-layout-misuse.py:[[@LINE-1]]:28: error: 'SCALE' is not a buffer; T.annotate_layout maps buffers to layouts
# CHECK-NEXT:        T.annotate_layout({SCALE: tilelang.layout.make_swizzled_layout(A_shared)})
# CHECK-NEXT:                           ^~~~~
        T.annotate_layout({A_shared[0, 0]: tilelang.layout.make_swizzled_layout(A_shared)})
# CHECK-NEXT:{{.*}}annotate-layout-misuse.py:[[@LINE-1]]:28: error: a key of T.annotate_layout must name a buffer
# CHECK-NEXT:        T.annotate_layout({A_shared[0, 0]: tilelang.layout.make_swizzled_layout(A_shared)})
# CHECK-NEXT:                           ^~~~~~~~
        T.annotate_layout({A_shared: 128})
# CHECK-NEXT:{{.*}}annotate-layout-misuse.py:[[@LINE-1]]:38: error: the layout of 'A_shared' must be a layout (a call such as tilelang.layout.make_swizzled_layout(A_shared), or a name bound to one)
# CHECK-NEXT:        T.annotate_layout({A_shared: 128})
# CHECK-NEXT:                                     ^~~
        for i, j in T.Parallel(64, 64):
            T.annotate_layout({A_shared: tilelang.layout.make_swizzled_layout(A_shared)})
# CHECK-NEXT:{{.*}}annotate-layout-misuse.py:[[@LINE-1]]:13: error: T.annotate_layout inside T.Parallel; it belongs to the kernel body, before the buffers' first use
# CHECK-NEXT:            T.annotate_layout({A_shared: tilelang.layout.make_swizzled_layout(A_shared)})
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~
            A_shared[i, j] = 0
# CHECK-NEXT:5 errors generated.
