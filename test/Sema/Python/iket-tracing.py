# TileLang's intra-kernel event tracer (tilelang.tools.cuda.iket): tlc
# records no trace, so `with T.Kernel(...) as bx, iket.range("name"):` (a
# second with item, as Python reads it), `with iket.range(...)` and
# iket.mark(...) are dropped with one warning; the kernel is the same.
# RUN: %tlc %s --call 'traced(256)' --emit=ir 2>&1 | FileCheck %s
# RUN: %tlc %s --call 'untraced(256)' --emit=ir 2>/dev/null | sed 1d | sed -E 's/(@|at |line )[0-9]+(:[0-9]+)?//g' > %t.plain
# RUN: %tlc %s --call 'traced(256)' --emit=ir 2>/dev/null | sed 1d | sed -E 's/(@|at |line )[0-9]+(:[0-9]+)?//g' | sed 's/traced/untraced/' | diff - %t.plain
import tilelang.language as T
from tilelang.tools.cuda import iket


# CHECK: iket-tracing.py:[[#@LINE+6]]:70: warning: iket tracing is not recorded by tlc; its calls in this kernel are dropped
# CHECK-NOT: warning
# CHECK: kernel traced(
def traced(n, threads=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), C: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, threads), threads=threads) as bx, iket.range("block"):
            iket.mark("enter", payload=iket.payload(bx, dtype="int32"))
            for i in T.Parallel(threads):
                with iket.range("store"):
                    C[bx * threads + i] = A[bx * threads + i] + 1.0
    return main


def untraced(n, threads=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), C: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, threads), threads=threads) as bx:
            for i in T.Parallel(threads):
                C[bx * threads + i] = A[bx * threads + i] + 1.0
    return main
