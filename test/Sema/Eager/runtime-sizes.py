# Runtime sizes are not compiled yet: T.dynamic, T.symbolic (classic
# factories too) and T.dyn[...] are each a located error that names the size
# and says which compile-time form works.
# RUN: not %tlc %s --call 'dynamic.compile(N=64)' 2>&1 | FileCheck %s --check-prefix=DYNAMIC --match-full-lines
# RUN: not %tlc %s --call 'dyn_annotation.compile(N=64)' 2>&1 | FileCheck %s --check-prefix=DYN --match-full-lines
# RUN: not %tlc %s --call 'classic(64)' 2>&1 | FileCheck %s --check-prefix=SYMBOLIC --match-full-lines
import tilelang
import tilelang.language as T


@tilelang.jit
def dynamic(A, block=128):
    M = T.dynamic("m")
    N = T.const("N")
    A: T.Tensor((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
        for i, j in T.Parallel(block, N):
            A[bx * block + i, j] = 0


@tilelang.jit
def dyn_annotation(A, block=128):
    N = T.const("N")
    A: T.Tensor[(T.dyn["K"], N), T.float32]
    with T.Kernel(1, threads=block) as bx:
        for i, j in T.Parallel(block, N):
            A[i, j] = 0


def classic(N):
    M = T.symbolic("M")

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32")):
        with T.Kernel(1) as bx:
            for i in T.Parallel(128):
                A[i, 0] = 0

    return main

# DYNAMIC:{{.*}}runtime-sizes.py:13:9: error: 'm' is a runtime size (T.dynamic); tlc compiles static shapes only, so far
# DYNAMIC-NEXT:    M = T.dynamic("m")
# DYNAMIC-NEXT:        ^~~~~~~~~
# DYNAMIC-NEXT:{{.*}}runtime-sizes.py:13:9: note: make it a compile-time size: T.const("m") in an eager function, bound by f.compile(m=...), or a factory parameter

# DYN:{{.*}}runtime-sizes.py:24:18: error: 'K' is a runtime size (T.dyn); tlc compiles static shapes only, so far
# DYN-NEXT:    A: T.Tensor[(T.dyn["K"], N), T.float32]
# DYN-NEXT:                 ^~~~~

# SYMBOLIC:{{.*}}runtime-sizes.py:31:9: error: 'M' is a runtime size (T.symbolic); tlc compiles static shapes only, so far
# SYMBOLIC: --call:1:1: note: in the call to 'classic' here
