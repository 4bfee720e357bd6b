# T.Tensor(shape, dtype, P.data) in a kernel: parameter P's memory seen
# with another shape (a view: no memory of its own, indexed under P's name;
# a view of a view views the parameter). T.im2col(img, col, nhw, c, kernel,
# stride, dilation, pad): a tile of an NHWC image's im2col matrix, lowered to
# the T.Parallel nest TileLang builds, taps outside the image read as 0.
# RUN: %tlc %s --call 'conv()' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'conv()' -o - | FileCheck %s
# RUN: not %tlc %s --call 'wrong_dtype()' 2>&1 | FileCheck %s --check-prefix=DTYPE --match-full-lines
# RUN: not %tlc %s --call 'too_big()' 2>&1 | FileCheck %s --check-prefix=BIG --match-full-lines
# RUN: not %tlc %s --call 'not_data()' 2>&1 | FileCheck %s --check-prefix=DATA --match-full-lines
# RUN: not %tlc %s --call 'shared_data()' 2>&1 | FileCheck %s --check-prefix=SHARED --match-full-lines
# RUN: not %tlc %s --call 'im2col_3d()' 2>&1 | FileCheck %s --check-prefix=IMG --match-full-lines
# RUN: not %tlc %s --call 'im2col_args()' 2>&1 | FileCheck %s --check-prefix=ARGS --match-full-lines
import tilelang.language as T


# IR: alloc kernel_flat: global float16[72, 32] view_of kernel read
# IR: alloc out_flat: global float16[50, 32] view_of out written
# IR: alloc out_rows: global float16[100, 16] view_of out
# The im2col nest: pixel m = by * 16 + i, tap k = k_iter * 32 + j.
# IR: parallel (i#{{[0-9]+}} < 16, j#{{[0-9]+}} < 32) @[[#@LINE+18]]:17 {
# IR-NEXT: data_shared[i, j] = select(by * 16 + i < 50 and k_iter * 32 + j < 72 and (by * 16 + i) % 25 // 5 * 2 + (k_iter * 32 + j) // 24 * 1 - 1 >= 0
# IR-SAME: data[(by * 16 + i) // 25, (by * 16 + i) % 25 // 5 * 2 + (k_iter * 32 + j) // 24 * 1 - 1, (by * 16 + i) % 5 * 2 + (k_iter * 32 + j) // 8 % 3 * 1 - 1, (k_iter * 32 + j) % 8]
# The launcher's parameters stay the three tensors; the views index them.
# CHECK: extern "C" cudaError_t conv(const half_t* data, const half_t* kernel, half_t* out, cudaStream_t stream)
def conv():
    @T.prim_func
    def main(data: T.Tensor((2, 9, 9, 8), "float16"), kernel: T.Tensor((3, 3, 8, 32), "float16"),
             out: T.Tensor((2, 5, 5, 32), "float16")):
        with T.Kernel(1, 4, threads=128) as (bx, by):
            data_shared = T.alloc_shared((16, 32), "float16")
            kernel_shared = T.alloc_shared((32, 32), "float16")
            out_local = T.alloc_fragment((16, 32), "float32")
            kernel_flat = T.Tensor((72, 32), "float16", kernel.data)
            out_flat = T.Tensor((50, 32), "float16", out.data)
            out_rows = T.Tensor((100, 16), "float16", out_flat.data)
            T.clear(out_local)
            for k_iter in T.Pipelined(3, num_stages=2):
                T.im2col(data, data_shared, by, k_iter, 3, 2, 1, 1)
                T.copy(kernel_flat[k_iter * 32, bx * 32], kernel_shared)
                T.gemm(data_shared, kernel_shared, out_local)
            T.copy(out_local, out_flat[by * 16, bx * 32])
    return main


def wrong_dtype():
    @T.prim_func
    def main(A: T.Tensor((4, 8), "float16")):
        with T.Kernel(1, threads=32) as bx:
            F = T.Tensor((32,), "float32", A.data)
    return main
# DTYPE: {{.*}}tensor-view-im2col.py:[[#@LINE-2]]:33: error: the view 'F' is float32 but 'A' holds float16; a view keeps the elements' type


def too_big():
    @T.prim_func
    def main(A: T.Tensor((4, 8), "float16")):
        with T.Kernel(1, threads=32) as bx:
            F = T.Tensor((8, 8), "float16", A.data)
    return main
# BIG: {{.*}}tensor-view-im2col.py:[[#@LINE-2]]:26: error: the view 'F' has 64 elements, more than the 32 of 'A'


def not_data():
    @T.prim_func
    def main(A: T.Tensor((4, 8), "float16")):
        with T.Kernel(1, threads=32) as bx:
            F = T.Tensor((32,), "float16", A)
    return main
# DATA: {{.*}}tensor-view-im2col.py:[[#@LINE-2]]:44: error: T.Tensor's third argument is the memory it views, 'P.data' of a tensor parameter P


def shared_data():
    @T.prim_func
    def main(A: T.Tensor((4, 8), "float16")):
        with T.Kernel(1, threads=32) as bx:
            S = T.alloc_shared((4, 8), "float16")
            F = T.Tensor((32,), "float16", S.data)
    return main
# SHARED: {{.*}}tensor-view-im2col.py:[[#@LINE-2]]:44: error: 'S' is a shared buffer; T.Tensor views a tensor parameter's memory


def im2col_3d():
    @T.prim_func
    def main(A: T.Tensor((9, 9, 8), "float16")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((16, 32), "float16")
            T.im2col(A, S, bx, 0, 3, 1, 1, 1)
    return main
# IMG: {{.*}}tensor-view-im2col.py:[[#@LINE-2]]:22: error: T.im2col reads an NHWC image of 4 compile-time dimensions; 'A' is not one


def im2col_args():
    @T.prim_func
    def main(A: T.Tensor((1, 9, 9, 8), "float16")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((16, 32), "float16")
            T.im2col(A, S, bx, 0, 3, 1, 1)
    return main
# ARGS: {{.*}}tensor-view-im2col.py:[[#@LINE-2]]:13: error: T.im2col takes 8 arguments (img, col, nhw_step, c_step, kernel, stride, dilation, pad), 7 given
