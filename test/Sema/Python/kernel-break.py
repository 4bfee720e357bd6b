# `break` in a kernel's T.serial / range / T.unroll loop, as TileLang's top-k
# selector writes it (`if l_new_topk <= 0: break`): a flag set by the break
# skips the rest of the body and every later iteration. A store under a
# branch that only some threads take (`if S[tx] >= k: S0[0] = tx`) is each
# taking thread's own (no thread-0 guard).
# RUN: %tlc %s --call 'f()' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'f()' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang
import tilelang.language as T


# IR: let broke#{{[0-9]+}}: int32 = 0 @[[#@LINE+21]]:13
# IR-NEXT: for serial r#{{[0-9]+}} in 0..4 @[[#@LINE+20]]:13 {
# IR-NEXT: if broke == 0 @[[#@LINE+19]]:13 {
# IR-NEXT: if n <= 0 @[[#@LINE+19]]:17 {
# IR-NEXT: broke: int32 = 1 @[[#@LINE+19]]:21
# IR-NEXT: }
# IR-NEXT: if broke == 0 @[[#@LINE+18]]:19 {
# IR-NEXT: n: int32 = n - S[r] @[[#@LINE+17]]:19
# CUDA: int broke_{{[0-9]+}} = 0;
# CUDA: if (S[tx_{{[0-9]+}}] >= 3) {
# CUDA-NEXT: First[0] = tx_{{[0-9]+}};
def f():
    @T.prim_func
    def main(A: T.Tensor((128,), "int32"), B: T.Tensor((1,), "int32"), First: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            tx = T.get_thread_binding()
            S = T.alloc_shared((128,), "int32")
            n = T.alloc_var("int32")
            S[tx] = A[tx]
            n = 10
            T.sync_threads()
            for r in T.serial(4):
                if n <= 0:
                    break
                n = n - S[r]
            if tx == 0:
                B[0] = n
            if S[tx] >= 3:
                First[0] = tx
    return main


# BAD: kernel-break.py:[[#@LINE+10]]:25: error: 'break' outside a T.serial, range or T.unroll loop; kernels break out of those only
# BAD: kernel-break.py:[[#@LINE+13]]:21: error: 'break' outside a T.serial, range or T.unroll loop; kernels break out of those only
# BAD: kernel-break.py:[[#@LINE+15]]:13: error: 'break' outside a T.serial, range or T.unroll loop; kernels break out of those only
def misuse():
    @T.prim_func
    def main(A: T.Tensor((128,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            for r in T.serial(4):
                for i in T.Parallel(128):
                    if A[i] > r:
                        break
                    A[i] = r
            while A[0] > 0:
                if A[1] > 0:
                    break
                A[0] = A[0] - 1
            A[2] = 1
            break
    return main
