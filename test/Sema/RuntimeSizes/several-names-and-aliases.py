# T.dynamic("batch, seq_len") declares one runtime size per name (a tuple, as
# T.const does), each an int parameter of the kernel and launcher in order of
# use; `O_shared = Q_shared` in a kernel is a second name for the same shared
# tile (TileLang's sparse MLA reuses its Q tile for the output this way).
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: not %tlc %s --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD
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


def bad():
    a, b = T.dynamic("a, 1b")
# BAD: several-names-and-aliases.py:[[@LINE-1]]:22: error: '1b' in T.dynamic is not a name
    return a
