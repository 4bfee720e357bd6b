# & | ^ << >> ~ on integers inside a kernel of a .py file: C's operators with
# C's precedence, a result narrower than int cast back to its type (TVM keeps
# uint16 << 13 a uint16), constants folded with Python's integers; the IR
# text prints and parses them back. Floats are an error with a hint.
# RUN: %tlc %S/../../GPU/Inputs/bitwise_ops.py | FileCheck %s
# RUN: %tlc %S/../../GPU/Inputs/bitwise_ops.py --stop-after=sema --emit=ir -o %t.tir
# RUN: FileCheck %s --check-prefix=IR < %t.tir
# RUN: %tlc %t.tir --stop-after=sema --emit=ir | diff - %t.tir
# RUN: not %tlc %s --call 'on_float()' 2>&1 | FileCheck %s --check-prefix=ERR
# A uint32 constant past INT32_MAX stays a uint32 literal (the product wraps
# at 2^32); uint8 + - * and unary - are cast back before >> reads them;
# bitwise augmented assignments; a literal that does not fit the other
# operand's type is an error (TVM refuses it too):
# RUN: %tlc %S/../../GPU/Inputs/bitwise_update.py | FileCheck %s --check-prefix=UPD
# RUN: not %tlc %s --call 'too_wide()' 2>&1 | FileCheck %s --check-prefix=WIDE
import tilelang.language as T

# CHECK: B[{{.*}}] = (half_t)((float)((int)(A[{{.*}}]) >> (int)threadIdx.x % 64 % 2 * 4 & 15)) - half_t(8.0f);
# CHECK: w_C_{{[0-9]+}}[lane_{{[0-9]+}}] = (int)(v_A_{{[0-9]+}}[lane_{{[0-9]+}}]) << 3 ^ ~(int)(((unsigned char)(v_A_{{[0-9]+}}[lane_{{[0-9]+}}] | 1)));
# CHECK: = ((unsigned short)(((unsigned short)((unsigned short)(v_A_{{[0-9]+}}[lane_{{[0-9]+}}]) << 13)) | ((unsigned short)(((unsigned short)~(unsigned short)(v_A_{{[0-9]+}}[lane_{{[0-9]+}}])) >> 2))));
# CHECK: = ((signed char)(((signed char)(v_S_{{[0-9]+}}[lane_{{[0-9]+}}] >> 1)) ^ ((signed char)(((signed char)~v_S_{{[0-9]+}}[lane_{{[0-9]+}}]) & 15))));

# IR: B[i, j] = cast<float16>(cast<int32>(A[i, j // 2]) >> j % 2 * 4 & 15) - 8.0:float16
# IR: C[i, j] = cast<int32>(A[i, j]) << 3 ^ ~cast<int32>(A[i, j] | 1:uint8)
# IR: D[i, j] = cast<uint16>(A[i, j]) << 13:uint16 | ~cast<uint16>(A[i, j]) >> 2:uint16
# IR: E[i, j] = S[i, j] >> 1:int8 ^ ~S[i, j] & 15:int8


# UPD: = v_A_{{[0-9]+}}[lane_{{[0-9]+}}] * 2654435761u >> 16u;
# UPD: = ((unsigned char)(((unsigned char)(((unsigned char)(v_C_{{[0-9]+}}[lane_{{[0-9]+}}] + ((unsigned char)(v_C_{{[0-9]+}}[lane_{{[0-9]+}}] * 13)))) >> 1)) ^ ((unsigned char)(((unsigned char)(-v_C_{{[0-9]+}}[lane_{{[0-9]+}}])) >> 4))));
# UPD: x_{{[0-9]+}} = x_{{[0-9]+}} << 2;
# UPD: E[i_{{[0-9]+}}] ^= x_{{[0-9]+}};
# UPD: E[i_{{[0-9]+}}] >>= 1;


def too_wide():
    @T.prim_func
    def main(X: T.Tensor((32,), "int32"), Y: T.Tensor((32,), "int32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(32):
                Y[i] = X[i] & 0xFFFFFFFF
# WIDE: bitwise-ops.py:[[@LINE-1]]:31: error: the literal 4294967295 does not fit in int32, the type of the other operand of '&'
# WIDE: note: cast the other operand to a wider type first, e.g. T.cast(x, "int64")

    return main


def on_float():
    @T.prim_func
    def main(X: T.Tensor((32,), "float32"), Y: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(32):
                Y[i] = X[i] >> 1
# ERR: bitwise-ops.py:[[@LINE-1]]:29: error: operator '>>' needs integer operands, not float32
# ERR: note: convert the operand first, e.g. T.cast(x, "int32")
            for i in T.Parallel(32):
                Y[i] = ~X[i]
# ERR: bitwise-ops.py:[[@LINE-1]]:24: error: operator '~' needs an integer operand, not float32

    return main
