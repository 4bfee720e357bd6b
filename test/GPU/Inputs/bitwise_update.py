# uint32 hashing with a constant past INT32_MAX (printed as a uint32 literal,
# so the product wraps at 2^32), uint8 + - * and unary - cast back to uint8
# before a >> reads them (as TVM and the reference lowering compute), and
# augmented assignments with bitwise operators on scalars and buffers.
import tilelang.language as T

@T.prim_func
def bitwise_update(A: T.Tensor((64,), "uint32"), B: T.Tensor((64,), "uint32"), C: T.Tensor((64,), "uint8"), D: T.Tensor((64,), "uint8"), E: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = (A[i] * 2654435761) >> 16
        for i in T.Parallel(64):
            D[i] = ((C[i] + C[i] * 13) >> 1) ^ ((-C[i]) >> 4)
        for i in T.serial(4):
            E[i] = 0
        for i, j in T.grid(4, 3):
            x = T.alloc_var("int32", init=i)
            x <<= 2
            x |= j
            x ^= 5
            E[i] ^= x
            E[i] >>= 1
