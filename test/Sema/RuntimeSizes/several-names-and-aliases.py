# T.dynamic("batch, seq_len") declares one runtime size per name (a tuple, as
# T.const does), each an int parameter of the kernel and launcher in order of
# use; `O_shared = Q_shared` in a kernel is a second name for the same shared
# tile (TileLang's sparse MLA reuses its Q tile for the output this way).
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: not %tlc %s --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD
# A runtime size alone is a 1-D shape (`(n)` is `n` in Python); accesses along a
# runtime dimension in a T.Parallel are guarded by it (idx < n: loads read 0, stores
# are skipped, as TileLang's LegalizeSafeMemoryAccess); TileLang's
# T.tfloat32 is stored and computed as float32 (tlc has no TF32 path):
# RUN: %tlc %s --call 'one_dim()' | FileCheck %s --check-prefix=ONE
import tilelang.language as T


def f(block=64):
    batch, seq_len = T.dynamic("batch, seq_len")
    rows = T.dynamic("rows")

    @T.prim_func
    def main(X: T.Tensor((batch, seq_len, 64), "float16"), Y: T.Tensor((batch, seq_len, 64), "float16"),
             Z: T.Tensor((rows, 64), "float16")):
        with T.Kernel(T.ceildiv(seq_len, block), batch, threads=128) as (bx, by):
            Q_shared = T.alloc_shared((block, 64), "float16")
            O_shared = Q_shared
            T.copy(X[by, bx * block:(bx + 1) * block, :], Q_shared)
            T.copy(O_shared, Y[by, bx * block:(bx + 1) * block, :])
            if bx == 0 and by == 0:
                T.copy(Z[0:block, :], O_shared)

    return main


# CHECK: extern "C" __global__ void __launch_bounds__(128, 1) f_kernel(const half_t* __restrict__ X, half_t* __restrict__ Y, const half_t* __restrict__ Z, int batch_0, int seq_len_1, int rows_2) {
# CHECK-NOT: O_shared
# CHECK: extern "C" cudaError_t f(const half_t* X, half_t* Y, const half_t* Z, int batch_0, int seq_len_1, int rows_2, cudaStream_t stream) {


def one_dim():
    n = T.dynamic("n")

    @T.prim_func
    def main(X: T.Tensor((n), T.tfloat32), Y: T.Tensor(n, "float32")):
        with T.Kernel(T.ceildiv(n, 128), threads=128) as bx:
            for i in T.Parallel(128):
                Y[bx * 128 + i] = X[bx * 128 + i] * 2.0

    return main


# ONE: extern "C" __global__ void __launch_bounds__(128, 1) one_dim_kernel(const float* __restrict__ X, float* __restrict__ Y, int n_0) {
# ONE: if (bx_{{[0-9]+}} * 128 + (int)threadIdx.x * 4 < n_0) {
# ONE: (bx_{{[0-9]+}} * 128 + ((int)threadIdx.x * 4 + lane_{{[0-9]+}}) < n_0 ? X[bx_{{[0-9]+}} * 128 + (int)threadIdx.x * 4 + lane_{{[0-9]+}}] : 0.0f) * 2.0f;


def bad():
    a, b = T.dynamic("a, 1b")
# BAD: several-names-and-aliases.py:[[@LINE-1]]:22: error: '1b' in T.dynamic is not a name
    return a
