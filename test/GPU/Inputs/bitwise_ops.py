# Bitwise operators in a kernel (a .py file: .tl has none): nibble unpacking
# as dequantization kernels do it, shifts that leave a narrow type (uint16
# << 13 wraps, as TVM's uint16 does), arithmetic >> on negative int8 values,
# ~ on narrow and wide types. The harness checks the kernel against tlc's
# reference lowering; the constants folded at compile time follow Python.
import tilelang.language as T


@T.prim_func
def bitwise_ops(
    A: T.Tensor((64, 32), "uint8"),
    S: T.Tensor((64, 32), "int8"),
    B: T.Tensor((64, 64), "float16"),
    C: T.Tensor((64, 32), "int32"),
    D: T.Tensor((64, 32), "uint16"),
    E: T.Tensor((64, 32), "int8"),
):
    with T.Kernel(1, threads=128) as bx:
        for i, j in T.Parallel(64, 64):
            B[i, j] = T.cast((A[i, j // 2] >> (j % 2 * 4)) & 15, "float16") - (1 << 3)
        for i, j in T.Parallel(64, 32):
            C[i, j] = (T.cast(A[i, j], "int32") << 3) ^ ~T.cast(A[i, j] | 1, "int32")
        for i, j in T.Parallel(64, 32):
            D[i, j] = (T.cast(A[i, j], "uint16") << 13) | ~T.cast(A[i, j], "uint16") >> 2
        for i, j in T.Parallel(64, 32):
            E[i, j] = (S[i, j] >> 1) ^ (~S[i, j] & T.cast(0x0F, "int8"))
