# More of the Python that kernel factories run, each checked by an assert at
# compile time: isinstance with builtin classes, int()/float() of strings,
# math.gcd/lcm, int.bit_length, str methods, list.append/extend (in place on
# the name). In kernels: `for i, j in T.grid(...)` (a nest of serial loops),
# x.astype(dtype), T.copy(src, dst=...), T.wait_wgmma(n) (accepted: every
# tlc T.gemm has already waited).
# RUN: %tlc %s --call 'f(4)' | FileCheck %s
# RUN: not %tlc %s --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not %tlc %s --call 'bad_isinstance()' 2>&1 | FileCheck %s --check-prefix=B1
# RUN: not %tlc %s --call 'bad_int()' 2>&1 | FileCheck %s --check-prefix=B2
# RUN: not %tlc %s --call 'bad_append()' 2>&1 | FileCheck %s --check-prefix=B3
import math

import tilelang.language as T


def f(n):
    assert isinstance(n, int) and isinstance(True, int) and not isinstance(n, (float, str))
    assert isinstance([1], list) and isinstance((1,), tuple) and not isinstance((1,), list)
    assert isinstance({}, dict) and isinstance("a", str) and isinstance(1.5, (int, float))
    xs = []
    for i in range(3):
        xs.append(i * n)
    ys = list(xs)
    ys.extend((7, 8))
    assert xs == [0, 4, 8] and ys == [0, 4, 8, 7, 8]
    assert "128".isdigit() and not "a1".isdigit() and not "".isdigit()
    assert "float16".startswith(("bf", "fl")) and "e4m3_float8".endswith("float8")
    assert "AbC".lower() == "abc" and "AbC".upper() == "ABC" and "  x ".strip() == "x"
    assert "bfloat16".replace("b", "") == "float16"
    assert (64).bit_length() == 7 and (0).bit_length() == 0 and (-5).bit_length() == 3
    assert math.gcd(96, 64) == 32 and math.gcd(0, 0) == 0 and math.gcd(-4, 6) == 2
    assert math.lcm(4, 6) == 12 and math.lcm(0, 5) == 0
    assert float("-inf") < -1e308 and float(" 2.5 ") == 2.5 and int(" 12 ") == 12

    @T.prim_func
    def main(A: T.Tensor((n, 16), "float16"), B: T.Tensor((n, 16), "float32")):
        with T.Kernel(1, threads=32) as bx:
            S = T.alloc_shared((n, 16), "float32")
            for i, j in T.grid(n, 16):
                S[i, j] = A[i, j].astype("float32") + xs[2]
            T.wait_wgmma(0)
            T.copy(S, dst=B)

    return main


# CHECK: for (int i_{{[0-9]+}} = 0; i_{{[0-9]+}} < 4; ++i_{{[0-9]+}}) {
# CHECK-NEXT: for (int j_{{[0-9]+}} = 0; j_{{[0-9]+}} < 16; ++j_{{[0-9]+}}) {
# CHECK: (float)(A[i_{{[0-9]+}} * 16 + j_{{[0-9]+}}]) + 8.0f;
# CHECK: B[


def bad_isinstance():
    assert isinstance(1, Foo)
# B1: builtins-methods-grid.py:[[@LINE-1]]:26: error: tlc's isinstance knows the classes int, float, bool, str, tuple, list and dict


def bad_int():
    return int("12a")
# B2: builtins-methods-grid.py:[[@LINE-1]]:12: error: invalid literal for int(): '12a'


def bad_append():
    (1, 2).append(3)
# B3: builtins-methods-grid.py:[[@LINE-1]]:5: error: tlc cannot call '.append' on a tuple at compile time


def bad():
    @T.prim_func
    def main(A: T.Tensor((4, 4), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i, j in T.grid(4):
                A[i, j] = 0
# BAD: builtins-methods-grid.py:[[@LINE-2]]:13: error: T.grid has 1 extent but the loop binds 2 variables
            T.copy(A, src=A)
# BAD: builtins-methods-grid.py:[[@LINE-1]]:23: error: repeated keyword argument 'src' to T.copy

    return main
