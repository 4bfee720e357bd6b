# A slice between two kernel scalars, `A[st:ed]`, has the constant extent
# that their values give (TileLang simplifies the same way): the values of
# scalars assigned once are put in, through chains of them, and the slice
# starts at the value (so the copy is as if written A[bx * 64:(bx + 1) * 64]:
# no guard, 16-byte vectors). A scalar seen through may not be assigned again
# later (the extent would change); one assigned twice before the slice, or
# whose value reads memory, is not seen through. Lets that nothing reads
# once the slices are rewritten are dropped (nvcc would warn).
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: %tlc %s --call 'f()' | FileCheck %s --check-prefix=LETS
# LETS-NOT: int {{st|ed|h0|h1|hi}}_{{[0-9]+}} =
# LETS: int lo_{{[0-9]+}} = starts[bx_0 % 8];
# LETS-NOT: int {{st|ed|h0|h1|hi}}_{{[0-9]+}} =
# RUN: not %tlc %s --call 'reassigned_after()' 2>&1 | FileCheck %s --check-prefix=PIN
# RUN: not %tlc %s --call 'reassigned_before()' 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not %tlc %s --call 'value_reads_memory()' 2>&1 | FileCheck %s --check-prefix=LOAD
import tilelang.language as T

N = 1024


def f(block=64, heads=4):
    @T.prim_func
    def main(A: T.Tensor((N, N), "float16"), B: T.Tensor((N, N), "float16"),
             starts: T.Tensor((8,), "int32")):
        with T.Kernel(N // block, threads=128) as bx:
            S = T.alloc_shared((block, 2 * heads), "float16")
            st = bx * block
            ed = (bx + 1) * block
            # CHECK: *(uint4*)v_A_{{[0-9]+}} = *(const uint4*)&A[bx_0 * 65536 +
            T.copy(A[st:ed, 0:2 * heads], S)
            h0 = bx * heads + T.if_then_else(bx % 2 == 0, 0, 8)
            h1 = h0 + heads
            # CHECK: B[bx_0 * 65540 + {{.*}} + (bx_0 % 2 == 0 ? 0 : 8) +
            T.copy(S[0:block, 0:heads], B[st:ed, h0:h1])
            # A value that reads memory stays a name; the difference still cancels.
            lo = starts[bx % 8]
            hi = lo + heads
            # CHECK: B[bx_0 * 65536 + {{.*}}lo_{{[0-9]+}}
            T.copy(S[0:block, heads:2 * heads], B[st:ed, lo:hi])
    return main


def reassigned_after():
    @T.prim_func
    def main(A: T.Tensor((N, N), "float16")):
        with T.Kernel(16, threads=128) as bx:
            S = T.alloc_shared((64, N), "float16")
            st = bx * 64
            ed = st + 64
            T.copy(A[st:ed, :], S)
            # PIN: slice-extent-through-scalars.py:[[#@LINE+4]]:16: error: 'st' is assigned again after its value fixed the extent of a slice
            # PIN: slice-extent-through-scalars.py:[[#@LINE-2]]:22: note: the slice whose extent uses 'st'; give the new value a new name
            # PIN-NEXT: T.copy(A[st:ed, :], S)
            # PIN: 1 error generated
            st = 0
            T.copy(S, A[st:st + 64, :])
    return main


def reassigned_before():
    @T.prim_func
    def main(A: T.Tensor((N, N), "float16")):
        with T.Kernel(16, threads=128) as bx:
            S = T.alloc_shared((64, N), "float16")
            st = bx * 64
            ed = (bx + 1) * 64
            st = st + 1
            # TWICE: slice-extent-through-scalars.py:[[#@LINE+1]]:22: error: the extent of this slice is not a compile-time constant
            T.copy(A[st:ed, :], S)
    return main


def value_reads_memory():
    @T.prim_func
    def main(A: T.Tensor((N, N), "float16"), ends: T.Tensor((16,), "int32")):
        with T.Kernel(16, threads=128) as bx:
            S = T.alloc_shared((64, N), "float16")
            st = bx * 64
            ed = ends[bx]
            # LOAD: slice-extent-through-scalars.py:[[#@LINE+1]]:22: error: the extent of this slice is not a compile-time constant
            T.copy(A[st:ed, :], S)
    return main
