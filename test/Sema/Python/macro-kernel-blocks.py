# TileLang's flash decoding builds its two kernels in macros: the prim_func
# body calls a split macro and a combine macro, each holding one
# `with T.Kernel` block. Each call is a kernel block (NAME_part0, _part1)
# with the macro's parameters bound to the prim_func's tensors, and the
# launcher NAME runs them in order. A macro without a T.Kernel block called
# there is an error.
# RUN: %tlc %s --call 'decode(4, 256, 64)' | FileCheck %s
# RUN: not %tlc %s --call 'no_launch()' 2>&1 | FileCheck %s --check-prefix=NOLAUNCH
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def decode(heads, seqlen, block):
    splits = seqlen // block

    @T.macro
    def split(X: T.Tensor((heads, seqlen), "float32"), partial: T.Tensor((heads, splits), "float32")):
        with T.Kernel(splits, heads, threads=64) as (bx, by):
            tile = T.alloc_fragment((block,), "float32")
            total = T.alloc_fragment((1,), "float32")
            T.copy(X[by, bx * block:(bx + 1) * block], tile)
            T.reduce_sum(tile, total, dim=0)
            partial[by, bx] = total[0]

    @T.macro
    def combine(partial: T.Tensor((heads, splits), "float32"), out: T.Tensor((heads,), "float32")):
        with T.Kernel(heads, threads=32) as bx:
            acc = T.alloc_var("float32")
            for k in T.serial(splits):
                acc += partial[bx, k]
            out[bx] = acc

    @T.prim_func
    def main(X: T.Tensor((heads, seqlen), "float32"), partial: T.Tensor((heads, splits), "float32"),
             out: T.Tensor((heads,), "float32")):
        split(X, partial)
        combine(partial, out)

    return main


def no_launch():
    @T.macro
    def scale(X: T.Tensor((64,), "float32")):
        for i in T.Parallel(64):
            X[i] = X[i] * 2.0

    @T.prim_func
    def main(X: T.Tensor((64,), "float32")):
        scale(X)

    return main

# CHECK: decode_part0_kernel<<<dim3(4, 4, 1), dim3(64, 1, 1), smem, stream>>>(X, partial, out);
# CHECK: decode_part1_kernel<<<dim3(4, 1, 1), dim3(32, 1, 1), smem, stream>>>(X, partial, out);
# CHECK:      extern "C" cudaError_t decode(const float* X, float* partial, float* out, cudaStream_t stream) {
# CHECK-NEXT:   cudaError_t err;
# CHECK-NEXT:   if ((err = decode_part0(X, partial, out, stream)) != cudaSuccess)
# CHECK:        if ((err = decode_part1(X, partial, out, stream)) != cudaSuccess)
# NOLAUNCH: macro-kernel-blocks.py:51:9: error: the macro 'scale' has no 'with T.Kernel(...)' block; in a prim_func body, each statement is a kernel launch
