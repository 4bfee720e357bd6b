# Helpers inlined in kernels take keywords and defaults, read compile-time
# arguments as Python values (their asserts are checked while tlc inlines
# them, `x.dtype == dtype` by the bound expression's dtype), and may be
# written against TVM's TIR (`from tvm import tirx`: tirx.const(v, dtype) is
# a typed constant, tirx.reinterpret and tirx.Select are T.reinterpret and
# T.if_then_else). TileLang's dequantize_gemm examples are written this way.
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: %tlc %s --call 'f()' --emit=ir | FileCheck %s --check-prefix=IR
# RUN: not %tlc %s --call 'bad_dtype()' 2>&1 | FileCheck %s --check-prefix=DTYPE --match-full-lines
# RUN: not %tlc %s --call 'bad_bits()' 2>&1 | FileCheck %s --check-prefix=BITS --match-full-lines
# RUN: not %tlc %s --call 'runtime_assert()' 2>&1 | FileCheck %s --check-prefix=RUNTIME --match-full-lines
# RUN: not %tlc %s --call 'unknown_keyword()' 2>&1 | FileCheck %s --check-prefix=KEYWORD --match-full-lines
# RUN: not %tlc %s --call 'missing()' 2>&1 | FileCheck %s --check-prefix=MISSING --match-full-lines
# RUN: %tlc %s --call 'rebind()' --emit=ir | FileCheck %s --check-prefix=REBIND
import tilelang.language as T
from tvm import tirx


def u4_to_f16(nbit: int, val, pos, dtype: str = "float16"):
    assert nbit == 4
    assert dtype == T.float16
    assert val.dtype == T.uint8
    mask = tirx.const((1 << nbit) - 1, T.uint16)
    f4 = (val >> (pos.astype(T.uint16) * tirx.const(nbit, T.uint16))) & mask
    return tirx.reinterpret(T.float16, (f4 << tirx.const(10, T.uint16)).astype(T.uint16))


def pick(a, b, cond, scale=2):
    return tirx.Select(cond, a * scale, b)


# CHECK: tl_bitcast<half_t>(((unsigned short)(((unsigned short)(((unsigned short)((unsigned short)(B[
# CHECK-SAME: >> ((unsigned short)((unsigned short)(
# CHECK-SAME: * 4)))) & 15)) << 10)));
# CHECK: w_C_{{[0-9]+}}[lane_{{[0-9]+}}] = (int)((B[{{.*}}] < 8 ? ((unsigned char)(B[{{.*}}] * 3)) : 7));
# IR: w_C[lane] = cast<int32>(select(B[tx * 4 + lane] < 8:uint8, B[tx * 4 + lane] * 3:uint8, 7:uint8))
def f(num_bits=4):
    @T.prim_func
    def main(B: T.Tensor((64,), "uint8"), D: T.Tensor((128,), "float16"),
             C: T.Tensor((64,), "int32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(128):
                D[i] = u4_to_f16(num_bits, B[i // 2], i % 2, dtype="float16")
            for i in T.Parallel(64):
                C[i] = pick(B[i], 7, B[i] < 8, scale=3)
    return main


def bad_dtype():
    @T.prim_func
    def main(B: T.Tensor((64,), "int8"), D: T.Tensor((128,), "float16")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(128):
                D[i] = u4_to_f16(4, B[i // 2], i % 2)
    return main
# DTYPE: {{.*}}helper-keywords-tir.py:22:5: error: assertion failed in helper 'u4_to_f16'
# DTYPE-NEXT:     assert val.dtype == T.uint8
# DTYPE-NEXT:     ^~~~~~


def bad_bits():
    @T.prim_func
    def main(B: T.Tensor((64,), "uint8"), D: T.Tensor((128,), "float16")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(128):
                D[i] = u4_to_f16(2, B[i // 2], i % 2)
    return main
# BITS: {{.*}}helper-keywords-tir.py:20:5: error: assertion failed in helper 'u4_to_f16'


def checks_value(x):
    assert x > 0
    return x


def runtime_assert():
    @T.prim_func
    def main(C: T.Tensor((64,), "int32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                C[i] = checks_value(C[i])
    return main
# RUNTIME: {{.*}}helper-keywords-tir.py:[[#@LINE-11]]:14: error: this assert in helper 'checks_value' needs the value of a kernel expression
# RUNTIME: {{.*}}note: a helper's asserts are checked while tlc inlines it: compile-time values and 'x.dtype == dtype' only


def unknown_keyword():
    @T.prim_func
    def main(C: T.Tensor((64,), "int32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                C[i] = pick(C[i], 1, C[i] > 0, factor=2)
    return main
# KEYWORD: {{.*}}helper-keywords-tir.py:[[#@LINE-2]]:48: error: 'pick' has no parameter 'factor'
# KEYWORD: {{.*}}helper-keywords-tir.py:28:5: note: 'pick' defined here


def missing():
    @T.prim_func
    def main(C: T.Tensor((64,), "int32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                C[i] = pick(C[i], scale=2)
    return main
# MISSING: {{.*}}helper-keywords-tir.py:[[#@LINE-2]]:24: error: 'pick' needs a value for parameter 'b'


# A helper's local may rebind a parameter (`x = x + n` reads the argument,
# later uses see the new value); n, a compile-time argument, folds.
def shift(x, n):
    n = n * 2
    x = x + n
    return x * x


def rebind():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                A[i] = shift(A[i], 3)
    return main
# REBIND: w_A[lane] = (v_A[lane] + cast<float32>(6:~int32)) * (v_A[lane] + cast<float32>(6:~int32))
