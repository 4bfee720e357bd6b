# TVM's thread all-reduce as TileLang's GEMV examples write it:
#   with T.attr(T.comm_reducer(f, [identity]), "reduce_scope", ...):
#       T.evaluate(T.tvm_thread_allreduce(1, value, True, out[0], tk, ...))
# Each thread writes its value to its slot of a shared scratch tile, a
# barrier, then each thread folds the slots of its group (the threads that
# differ only along the reduce axes) with the reducer, inlined like a helper.
# RUN: %tlc %s --call 'f()' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'f()' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: %tlc %s --call 'two_axes()' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=TWO
# RUN: %tlc %s --call 'in_macro()' -o - | FileCheck %s --check-prefix=MACRO
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang
import tilelang.language as T


# IR: alloc allreduce_[[#@LINE+27]]_28: shared float32[1, 16, 8] @[[#@LINE+27]]:28
# IR: allreduce_[[#@LINE+26]]_28[tz, tk, tx] = acc[0] @[[#@LINE+26]]:28
# IR-NEXT: sync @[[#@LINE+25]]:28
# IR-NEXT: out[0] = allreduce_[[#@LINE+24]]_28[tz, 0, tx] @[[#@LINE+24]]:28
# IR-NEXT: for serial r#{{[0-9]+}} in 1..16 @[[#@LINE+23]]:28 {
# IR-NEXT: out[0] = out[0] + allreduce_[[#@LINE+22]]_28[tz, r % 16, tx] @[[#@LINE+22]]:28
# IR-NEXT: }
# IR: hi[0] = allreduce_[[#@LINE+24]]_28[tz, 0, tx]
# IR-NEXT: for serial r#{{[0-9]+}} in 1..16
# IR-NEXT: hi[0] = max(hi[0], allreduce_[[#@LINE+22]]_28[tz, r % 16, tx])
# CUDA: allreduce_{{[0-9_]+}}[(int)threadIdx.z * 128 + tk_{{[0-9]+}} * 8 + (int)threadIdx.x] = acc[0];
# CUDA-NEXT: __syncthreads();
# CUDA-NEXT: out[0] = allreduce_{{[0-9_]+}}[(int)threadIdx.z * 128 + (int)threadIdx.x];
def f():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64,), "float32"), M: T.Tensor((64,), "float32")):
        with T.Kernel(8, threads=(8, 16)) as bn:
            tn = T.get_thread_binding(0)
            tk = T.get_thread_binding(1)
            acc = T.alloc_local((1,), "float32")
            acc[0] = 0
            for k in T.serial(4):
                acc[0] += A[bn * 8 + tn, k * 16 + tk]
            out = T.alloc_local((1,), "float32")
            hi = T.alloc_local((1,), "float32")
            with T.attr(T.comm_reducer(lambda x, y: x + y, [T.Cast("float32", 0)]), "reduce_scope",
                        T.reinterpret(T.uint64(0), dtype="handle")):
                T.evaluate(T.tvm_thread_allreduce(T.uint32(1), acc[0], True, out[0], tk, dtype="handle"))
            C[bn * 8 + tn] = out[0]
            with T.attr(T.comm_reducer(lambda x, y: T.max(x, y), [T.min_value("float32")]),
                        "reduce_scope", T.reinterpret(T.uint64(0), dtype="handle")):
                T.evaluate(T.tvm_thread_allreduce(T.uint32(1), A[bn, tk], True, hi[0], tk, dtype="handle"))
            M[bn * 8 + tn] = hi[0]
    return main


# TWO: out[0] = allreduce_{{[0-9]+}}_{{[0-9]+}}[tz, 0, 0]
# TWO-NEXT: for serial r#{{[0-9]+}} in 1..64
# TWO-NEXT: out[0] = out[0] + allreduce_{{[0-9]+}}_{{[0-9]+}}[tz, r // 8 % 8, r % 8]
def two_axes():
    @T.prim_func
    def main(A: T.Tensor((64,), "int32"), C: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=(8, 8)) as bx:
            tx = T.get_thread_binding(0)
            out = T.alloc_local((1,), "int32")
            with T.attr(T.comm_reducer(lambda x, y: x + y, [0]), "reduce_scope", 0):
                T.evaluate(T.tvm_thread_allreduce(1, A[T.get_thread_binding(1) * 8 + tx], True, out[0],
                                                  T.get_thread_binding(0), T.get_thread_binding(1)))
            C[0] = out[0]
    return main


# A macro's all-reduce inlined twice gets a scratch tile per call; the axis is
# the macro's parameter, bound to the caller's T.get_thread_binding().
# MACRO: float* allreduce_[[#@LINE+6]]_20_ = (float*)(tl_smem + 0); // 256 bytes
# MACRO-NEXT: float* allreduce_[[#@LINE+5]]_20_2_ = (float*)(tl_smem + 256); // 256 bytes
# MACRO: allreduce_[[#@LINE+4]]_20_[(int)threadIdx.z * 64 + (int)threadIdx.y * 64 + tk_{{[0-9]+}}] = v_{{[0-9]+}};
@T.macro
def row_sum(v, out, tk):
    with T.attr(T.comm_reducer(lambda x, y: x + y, [0.0]), "reduce_scope", 0):
        T.evaluate(T.tvm_thread_allreduce(1, v, True, out[0], tk))


def in_macro():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), C: T.Tensor((2,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            tx = T.get_thread_binding()
            o = T.alloc_local((1,), "float32")
            p = T.alloc_local((1,), "float32")
            row_sum(A[tx], o, tx)
            row_sum(A[tx] * 2.0, p, T.get_thread_binding())
            if tx == 0:
                C[0] = o[0]
                C[1] = p[0]
    return main


# BAD: thread-allreduce.py:[[#@LINE+14]]:40: error: tlc reduces one value per thread: the reducer must be a function of two values, e.g. lambda x, y: x + y
# BAD: thread-allreduce.py:[[#@LINE+16]]:61: error: T.tvm_thread_allreduce's condition must be True: every thread contributes
# BAD: thread-allreduce.py:[[#@LINE+17]]:67: error: the result of T.tvm_thread_allreduce is each thread's own: an element of a T.alloc_local buffer
# BAD: thread-allreduce.py:[[#@LINE+18]]:75: error: T.tvm_thread_allreduce reduces across thread axes: T.get_thread_binding(d) values
# BAD: thread-allreduce.py:[[#@LINE+19]]:51: error: T.tvm_thread_allreduce of 2 values at once; tlc reduces one
# BAD: thread-allreduce.py:[[#@LINE+19]]:13: error: a 'reduce_scope' attribute holds one T.tvm_thread_allreduce(...) call
def misuse():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), C: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=(8, 8)) as bx:
            tx = T.get_thread_binding(0)
            tk = T.get_thread_binding(1)
            S = T.alloc_shared((1,), "float32")
            out = T.alloc_local((1,), "float32")
            with T.attr(T.comm_reducer(lambda a, b, c, d: (a + c, b + d), [0, 0]), "reduce_scope", 0):
                T.evaluate(T.tvm_thread_allreduce(1, A[tx], True, out[0], tk))
            with T.attr(T.comm_reducer(lambda x, y: x + y, [0]), "reduce_scope", 0):
                T.evaluate(T.tvm_thread_allreduce(1, A[tx], False, out[0], tk))
            with T.attr(T.comm_reducer(lambda x, y: x + y, [0]), "reduce_scope", 0):
                T.evaluate(T.tvm_thread_allreduce(1, A[tx], True, S[0], tk))
            with T.attr(T.comm_reducer(lambda x, y: x + y, [0]), "reduce_scope", 0):
                T.evaluate(T.tvm_thread_allreduce(1, A[tx], True, out[0], bx))
            with T.attr(T.comm_reducer(lambda x, y: x + y, [0]), "reduce_scope", 0):
                T.evaluate(T.tvm_thread_allreduce(2, A[tx], True, out[0], tk))
            with T.attr(T.comm_reducer(lambda x, y: x + y, [0]), "reduce_scope", 0):
                C[tx] = A[tx]
            C[tx] = out[0]
    return main
