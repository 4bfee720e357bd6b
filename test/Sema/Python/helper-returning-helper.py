# A helper that returns a helper, called at once (`f(a)(b)`: TVM's quantize
# converters, `_tir_packed_to_unsigned_convert(storage, nbit)(nbit, val,
# pos, dtype=...)`): the outer call runs at compile time (its `str(nbit)`
# and `tvm.tirx.const(v, dtype)` included) and the returned function is
# inlined like any helper. A callee that is not a function stays an error.
# RUN: %tlc %s --call 'ok()' --emit=ir --stop-after=sema | FileCheck %s
# RUN: not %tlc %s --call 'not_a_function()' 2>&1 | FileCheck %s --check-prefix=BAD
import tilelang.language as T
from tilelang import tvm as tvm


def unpack_unsigned(storage_type="uint", storage_nbit=8):
    storage_dtype = storage_type + str(storage_nbit)

    def convert(nbit, val, pos, dtype):
        mask = tvm.tirx.const((1 << nbit) - 1, storage_dtype)
        return ((val >> (pos * nbit).astype(storage_dtype)) & mask).astype(dtype)

    return convert


# CHECK: kernel ok(
# CHECK: Y[i] = cast<float16>(P[i // 2] >> cast<int8>(i % 2 * 4) & 15:int8)
def ok():
    @T.prim_func
    def main(P: T.Tensor((32,), "int8"), Y: T.Tensor((64,), "float16")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                Y[i] = unpack_unsigned("int", 8)(4, P[i // 2], i % 2, dtype="float16")
    return main


def not_a_function():
    @T.prim_func
    def main(Y: T.Tensor((64,), "float16")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                # BAD: helper-returning-helper.py:[[#@LINE+1]]:24: error: unknown function '(expression)'
                Y[i] = str(3)(i)
    return main
