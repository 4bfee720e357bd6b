# TileLang forms tlc took in (session 7), checked against the reference:
# a helper written against TVM's TIR (tirx.const, tirx.reinterpret, keyword
# and default arguments, asserts checked while it is inlined) unpacking 4-bit
# values as TileLang's dequantize GEMMs do; TVM script's
# `with T.If(c), T.Then():`; a grid whose y extent is past 65535 (launched
# folded into x).
import tilelang.language as T
from tvm import tirx


def u4_to_f16(nbit: int, val, pos, dtype: str = "float16"):
    assert nbit == 4
    assert dtype == T.float16
    assert val.dtype == T.uint8
    mask = tirx.const((1 << nbit) - 1, T.uint16)
    f4 = (val >> (pos.astype(T.uint16) * tirx.const(nbit, T.uint16))) & mask
    s = f4 >> tirx.const(3, T.uint16)
    e = ((f4 & tirx.const(6, T.uint16)) >> tirx.const(1, T.uint16)) + tirx.const(14, T.uint16)
    m = f4 & tirx.const(1, T.uint16)
    return tirx.reinterpret(T.float16, ((e | (s << tirx.const(5, T.uint16))) << tirx.const(10, T.uint16) | m << tirx.const(9, T.uint16)).astype(T.uint16))


@T.prim_func
def dequant_u4(B: T.Tensor((96, 48), "uint8"), D: T.Tensor((96, 96), "float16")):
    with T.Kernel(3, threads=128) as bx:
        for i, j in T.Parallel(32, 96):
            D[bx * 32 + i, j] = u4_to_f16(4, B[bx * 32 + i, j // 2], j % 2, dtype="float16")


@T.prim_func
def tvm_if_rows(A: T.Tensor((200, 64), "float32"), L: T.Tensor((4,), "int32"),
                C: T.Tensor((200, 64), "float32")):
    with T.Kernel(4, threads=128) as bx:
        rows = T.min(L[bx] % 64 + 8, 50)
        for i, j in T.Parallel(50, 64):
            with T.If(i < rows), T.Then():
                C[bx * 50 + i, j] = A[bx * 50 + i, j] * 2.0


@T.prim_func
def folded_grid(A: T.Tensor((66000, 32), "float32"), C: T.Tensor((66000, 32), "float32")):
    with T.Kernel(1, 66000, threads=32) as (bx, by):
        for i in T.Parallel(32):
            C[by, bx * 32 + i] = A[by, i] + T.cast(by % 7, "float32")

