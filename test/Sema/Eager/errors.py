# Errors of eager @tilelang.jit functions, each at its location: a T.const
# the call does not bind, a keyword that binds nothing, misuse of tensors
# and outputs. The call's own text is the source '--call'.
# RUN: not %tlc %s --call 'scale.compile(M=64, block=64)' 2>&1 | FileCheck %s --check-prefix=UNBOUND --match-full-lines
# RUN: not %tlc %s --call 'scale.compile(M=64, N=64, Q=3, block=64)' 2>&1 | FileCheck %s --check-prefix=UNUSED --match-full-lines
# RUN: not %tlc %s --call 'scale.compile(M=64, N=64, A=3, block=64)' 2>&1 | FileCheck %s --check-prefix=TENSORKW --match-full-lines
# RUN: not %tlc %s --call 'scale.compile(M=64, N=64)' 2>&1 | FileCheck %s --check-prefix=NOPARAM --match-full-lines
# RUN: not %tlc %s --call 'scale.compile(64, M=64, N=64)' 2>&1 | FileCheck %s --check-prefix=POSITIONAL --match-full-lines
# RUN: not %tlc %s --call 'scale(64)' 2>&1 | FileCheck %s --check-prefix=DIRECT --match-full-lines
# RUN: not %tlc %s --call 'scale.compile(M=64, N="wide", block=64)' 2>&1 | FileCheck %s --check-prefix=NOTINT --match-full-lines
# RUN: not %tlc %s --call 'not_returned.compile(M=64)' 2>&1 | FileCheck %s --check-prefix=NOTRETURNED --match-full-lines
# RUN: not %tlc %s --call 'returns_input.compile(M=64)' 2>&1 | FileCheck %s --check-prefix=RETINPUT --match-full-lines
# RUN: not %tlc %s --call 'stray_tensor.compile(M=64)' 2>&1 | FileCheck %s --check-prefix=STRAY --match-full-lines
# RUN: not %tlc %s --call 'classic(64)' 2>&1 | FileCheck %s --check-prefix=CLASSIC --match-full-lines
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(A, block, dtype=T.float32):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), dtype)
    B = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
        for i, j in T.Parallel(block, N):
            B[bx * block + i, j] = A[bx * block + i, j] * 2
    return B


@tilelang.jit
def not_returned(A):
    M = T.const("M")
    A: T.Tensor((M,), T.float32)
    B = T.empty((M,), T.float32)
    with T.Kernel(1, threads=M) as bx:
        for i in T.Parallel(M):
            B[i] = A[i]


@tilelang.jit
def returns_input(A):
    M = T.const("M")
    A: T.Tensor((M,), T.float32)
    with T.Kernel(1, threads=M) as bx:
        for i in T.Parallel(M):
            A[i] = 0
    return A


@tilelang.jit
def stray_tensor(A):
    M = T.const("M")
    A: T.Tensor((M,), T.float32)
    B: T.Tensor((M,), T.float32)
    with T.Kernel(1, threads=M) as bx:
        for i in T.Parallel(M):
            A[i] = 0


def classic(block):
    M = T.const("M")

    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=block) as bx:
            for i in T.Parallel(block):
                A[i] = 0

    return main


# UNBOUND:{{.*}}errors.py:21:12: error: 'N' is declared with T.const but the call does not bind it
# UNBOUND-NEXT:    M, N = T.const("M, N")
# UNBOUND-NEXT:           ^~~~~~~
# UNBOUND-NEXT:--call:1:1: note: bind it in the call, e.g. scale.compile(..., N=1024)
# UNBOUND-NEXT:scale.compile(M=64, block=64)
# UNBOUND-NEXT:^~~~~~~~~~~~~

# UNUSED:--call:1:27: error: 'scale.compile' got 'Q', which is neither a parameter nor a T.const of 'scale'
# UNUSED-NEXT:scale.compile(M=64, N=64, Q=3, block=64)
# UNUSED-NEXT:                          ^

# TENSORKW:--call:1:27: error: 'A' is a tensor parameter of 'scale'; its shape comes from T.const sizes, which the call binds (M=1024, ...)
# TENSORKW-NEXT:scale.compile(M=64, N=64, A=3, block=64)
# TENSORKW-NEXT:                          ^

# NOPARAM:--call:1:1: error: 'scale.compile' does not bind parameter 'block'
# NOPARAM-NEXT:scale.compile(M=64, N=64)
# NOPARAM-NEXT:^~~~~~~~~~~~~
# NOPARAM-NEXT:{{.*}}errors.py:20:14: note: 'block' is not a tensor (no 'block: T.Tensor(...)' in the body), so the call must give it a value
# NOPARAM-NEXT:def scale(A, block, dtype=T.float32):
# NOPARAM-NEXT:             ^~~~~

# POSITIONAL:--call:1:1: error: 'scale.compile' takes keyword arguments only, e.g. scale.compile(M=1024, block_M=128)
# POSITIONAL-NEXT:scale.compile(64, M=64, N=64)
# POSITIONAL-NEXT:^~~~~~~~~~~~~

# DIRECT:--call:1:1: error: 'scale' is an eager @tilelang.jit function (its body holds the T.Kernel); tlc compiles it with scale.compile(NAME=value, ...)
# DIRECT-NEXT:scale(64)
# DIRECT-NEXT:^~~~~

# NOTINT:--call:1:21: error: T.const 'N' is a size; it must be bound to an integer, not a str
# NOTINT-NEXT:scale.compile(M=64, N="wide", block=64)
# NOTINT-NEXT:                    ^

# NOTRETURNED:{{.*}}errors.py:34:5: error: 'B' is created with T.empty but not returned; an eager function returns its outputs (return B)
# NOTRETURNED-NEXT:    B = T.empty((M,), T.float32)
# NOTRETURNED-NEXT:    ^

# RETINPUT:{{.*}}errors.py:47:12: error: an eager function returns the tensors it creates with T.empty
# RETINPUT-NEXT:    return A
# RETINPUT-NEXT:           ^

# STRAY:{{.*}}errors.py:54:5: error: 'B' is annotated as a tensor but is not a parameter of 'stray_tensor'
# STRAY-NEXT:    B: T.Tensor((M,), T.float32)
# STRAY-NEXT:    ^
# STRAY-NEXT:{{.*}}errors.py:54:5: note: an output is created with B = T.empty(shape, dtype)
# STRAY-NEXT:    B: T.Tensor((M,), T.float32)
# STRAY-NEXT:    ^

# CLASSIC:{{.*}}errors.py:61:9: error: T.const declares the sizes of an eager @tilelang.jit function; tlc evaluates it when the function is compiled with f.compile(NAME=value, ...)
# CLASSIC-NEXT:    M = T.const("M")
# CLASSIC-NEXT:        ^~~~~~~
# CLASSIC-NEXT:--call:1:1: note: in the call to 'classic' here
# CLASSIC-NEXT:classic(64)
# CLASSIC-NEXT:^~~~~~~

# T.const takes one string of distinct names.
# RUN: not %tlc %s --call 'twice.compile(M=4)' 2>&1 | FileCheck %s --check-prefix=TWICE --match-full-lines
# RUN: not %tlc %s --call 'not_a_name.compile()' 2>&1 | FileCheck %s --check-prefix=NOTNAME --match-full-lines
# RUN: not %tlc %s --call 'no_string.compile()' 2>&1 | FileCheck %s --check-prefix=NOSTRING --match-full-lines
# TWICE:{{.*}}errors.py:[[#@LINE+7]]:17: error: T.const declares 'M' twice
# NOTNAME:{{.*}}errors.py:[[#@LINE+14]]:17: error: '1M' in T.const is not a name
# NOSTRING:{{.*}}errors.py:[[#@LINE+21]]:9: error: T.const takes one string of names, e.g. T.const("M, N, K")


@tilelang.jit
def twice(A):
    M = T.const("M, M")
    A: T.Tensor((M,), T.float32)
    with T.Kernel(1) as bx:
        A[0] = 0


@tilelang.jit
def not_a_name(A):
    M = T.const("1M")
    A: T.Tensor((4,), T.float32)
    with T.Kernel(1) as bx:
        A[0] = 0


@tilelang.jit
def no_string(A):
    M = T.const(3)
    A: T.Tensor((4,), T.float32)
    with T.Kernel(1) as bx:
        A[0] = 0
