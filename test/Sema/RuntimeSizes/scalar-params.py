# An integer scalar kernel parameter (`max_seqlen_q: T.int32`, TileLang's
# varlen attention) is a runtime size: an `int` parameter of the kernel and
# the launcher, after the tensors, usable in the grid, in bounds and in
# expressions; the launcher computes the grid from it. A name assigned in a
# compile-time branch stays visible after the if, as in Python.
# RUN: %tlc %s --call 'varlen(64, True)' | FileCheck %s
# RUN: %tlc %s --call 'varlen(64, False)' | FileCheck %s --check-prefix=NOCAUSAL
# RUN: %tlc %s --call 'varlen(64, True)' --emit=signature | FileCheck %s --check-prefix=SIG
# RUN: %tlc %s --call 'varlen(64, True)' --harness --size max_len=300 | FileCheck %s --check-prefix=HARNESS
import tilelang
import tilelang.language as T


def varlen(block, causal):
    @T.prim_func
    def main(X: T.Tensor((4096,), "float32"), offsets: T.Tensor((3,), "int32"),
             max_len: T.int32, Y: T.Tensor((4096,), "float32")):
        with T.Kernel(T.ceildiv(max_len, block), 2, threads=64) as (bx, by):
            start = offsets[by]
            if causal:
                end = T.min(offsets[by + 1], start + max_len)
            else:
                end = offsets[by + 1]
            for i in T.Parallel(block):
                if start + bx * block + i < end:
                    Y[start + bx * block + i] = X[start + bx * block + i] * 2.0

    return main

# CHECK: extern "C" __global__ void {{.*}}varlen_kernel(const float* __restrict__ X, const int* __restrict__ offsets, float* __restrict__ Y, int [[N:max_len[_0-9]*]]) {
# CHECK: int end_{{[0-9]+}} = min(offsets[{{.*}}], start_{{[0-9]+}} + [[N]]);
# CHECK: extern "C" cudaError_t varlen(const float* X, const int* offsets, float* Y, int [[N]], cudaStream_t stream) {
# CHECK: const long long grid_x = ([[N]] + 63) / 64;
# NOCAUSAL: int end_{{[0-9]+}} = offsets[by_{{[0-9]+}} + 1];
# SIG: "sizes": ["max_len"]
# The harness runs the launcher with the value given by --size.
# HARNESS: return varlen((float *)tlh_p[0], (int *)tlh_p[1], (float *)tlh_p[2], 300 /* max_len */, tlh_s);
