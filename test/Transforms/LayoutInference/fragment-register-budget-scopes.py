# In a kernel of T.ws scopes each scope's threads hold only the fragments
# that scope (or the code outside the scopes) uses: two consumer warpgroups
# with a 128 x 128 fp32 tile each hold 128 + 128 registers per thread, not
# the kernel's sum (MLA decode's acc_o_l and acc_o_r). A scope that does hold
# three such tiles is warned about, with its own fragments only.
# RUN: %tlc %s --call 'kernel(False)' -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=SPLIT --implicit-check-not=warning:
# RUN: %tlc %s --call 'kernel(True)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEAVY --implicit-check-not=warning:
# SPLIT-NOT: warning
# HEAVY: warning: the fragments of kernel 'kernel' hold 384 registers per thread (x 128, y 128, z 128) over 128 threads; a thread has 255, so ptxas will spill to local memory
import tilelang.language as T


def kernel(third_in_first):
    @T.prim_func
    def main(A: T.Tensor((128, 128), "float32"), B: T.Tensor((128, 128), "float32"),
             C: T.Tensor((128, 128), "float32")):
        with T.Kernel(1, threads=256) as bx:
            x = T.alloc_fragment((128, 128), "float32")
            y = T.alloc_fragment((128, 128), "float32")
            z = T.alloc_fragment((128, 128), "float32")
            u = T.alloc_fragment((128, 128), "float32")
            with T.ws(0):
                T.copy(A, x)
                for i, j in T.Parallel(128, 128):
                    y[i, j] = x[i, j] * 2.0
                if third_in_first:
                    for i, j in T.Parallel(128, 128):
                        z[i, j] = y[i, j] + x[i, j]
                    T.copy(z, B)
                else:
                    T.copy(y, B)
            with T.ws(1):
                T.copy(A, u)
                for i, j in T.Parallel(128, 128):
                    z[i, j] = u[i, j] - 1.0
                T.copy(z, C)

    return main
