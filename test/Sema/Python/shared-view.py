# X = T.view(src, shape=None, dtype=None): a shared tile's bytes as another
# tile (IR `alias_of src`; src is `aliased`): X has src's offset, adds no
# shared memory, and src is not multi-buffered by a pipeline.
# RUN: %tlc %s --call 'f()' --stop-after=plan-shared --emit=ir | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang.language as T

# IR: shared_bytes 24576
# IR: alloc S: shared float16[128, 64] offset 0 swizzle 8 aliased
# IR: alloc V: shared float32[128, 32] offset 0 alias_of S
# IR: alloc W: shared float32[128, 32] offset 0 alias_of S
def f():
    @T.prim_func
    def k(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((128, 32), "float32")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((128, 64), "float16")
            Bs = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((128, 64), "float32")
            V = T.view(S, shape=[128, 32], dtype="float32")
            W = T.view(S, dtype=T.float32)
            T.copy(A, S)
            T.copy(B, Bs)
            T.clear(acc)
            T.gemm(S, Bs, acc)
            T.copy(acc[:, 0:32], V)
            T.copy(W, C)
    return k


def misuse():
    @T.prim_func
    def k(A: T.Tensor((128, 64), "float16")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((128, 64), "float16")
            F = T.alloc_fragment((128, 64), "float16")
            V = T.view(S, shape=[128, 64], dtype="float32")
            W = T.view(F, dtype="float32")
            X = T.view(A)
            T.copy(A, S)
    return k
# BAD: shared-view.py:[[#@LINE-5]]:17: error: the view 'V' takes 32768 bytes, more than the 16384 of 'S'
# BAD: shared-view.py:[[#@LINE-8]]:13: note: 'S' declared here
# BAD: shared-view.py:[[#@LINE-6]]:24: error: 'F' is a fragment buffer; tlc takes T.view of shared tiles
# BAD: shared-view.py:[[#@LINE-9]]:13: note: 'F' declared here
# BAD: shared-view.py:[[#@LINE-7]]:24: error: 'A' is a global buffer; tlc takes T.view of shared tiles
# BAD: shared-view.py:[[#@LINE-14]]:11: note: 'A' declared here
