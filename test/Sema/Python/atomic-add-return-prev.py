# x = T.atomic_add(dst, value, return_prev=True): CUDA atomicAdd's result,
# the value dst held before the add, as TileLang's top-k selector uses it to
# claim output slots. The IR op round-trips; the position it gives makes the
# store it indexes each thread's own (no thread-0 guard); thread-sync counts
# it as a write of the shared histogram. Without return_prev=True the call
# is a statement.
# RUN: %tlc %s --call 'f()' --emit=ir | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'f()' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: %tlc %s --call 'par()' -o - | FileCheck %s --check-prefix=PAR
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --match-full-lines --implicit-check-not=error:
import tilelang
import tilelang.language as T


# IR: pos: int32 = atomic_add(hist[v % 4], 1) @[[#@LINE+20]]:21
# IR-NEXT: Idx[k * 256 + tx] = pos @[[#@LINE+20]]:35
# IR: let q#{{[0-9]+}}: float32 = atomic_add(Acc[bx], 0.5) + 1.0
# CUDA: pos_{{[0-9]+}} = atomicAdd(&hist[tl_floormod(v_{{[0-9]+}}, 4)], 1);
# CUDA-NEXT: Idx[k_{{[0-9]+}} * 256 + tx_{{[0-9]+}}] = pos_{{[0-9]+}};
# CUDA-NEXT: __syncthreads();
# CUDA: float q_{{[0-9]+}} = atomicAdd(&Acc[bx_{{[0-9]+}}], 0.5f) + 1.0f;
def f():
    @T.prim_func
    def main(A: T.Tensor((1024,), "int32"), Idx: T.Tensor((1024,), "int32"),
             Acc: T.Tensor((4,), "float32"), Out: T.Tensor((256,), "float32")):
        with T.Kernel(4, threads=256) as bx:
            tx = T.get_thread_binding()
            hist = T.alloc_shared((4,), "int32")
            pos = T.alloc_var("int32")
            if tx < 4:
                hist[tx] = 0
            T.sync_threads()
            for k in T.serial(4):
                v = A[k * 256 + tx]
                pos = T.atomic_add(hist[v % 4], 1, return_prev=True)
                Idx[k * 256 + tx] = pos
            q = T.atomic_add(Acc[bx], 0.5, return_prev=True) + 1.0
            Out[tx] = q
    return main


# PAR: Seen[atomicAdd(&Cnt[0], 1)] = 1;
def par():
    @T.prim_func
    def main(Seen: T.Tensor((256,), "int32"), Cnt: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(256):
                Seen[T.atomic_add(Cnt[0], 1, return_prev=True)] = 1
    return main


# BAD: {{.*}}.py:[[#@LINE+14]]:17: error: 'T.atomic_add' is a statement, not a value
# BAD: {{.*}}.py:[[#@LINE+13]]:17: note: T.atomic_add(dst, value, return_prev=True) gives the value dst had before the add
# BAD: {{.*}}.py:[[#@LINE+13]]:17: error: T.atomic_add(..., return_prev=True) adds to one element, e.g. T.atomic_add(C[i], 1, return_prev=True); a tile has no previous value
# BAD: {{.*}}.py:[[#@LINE+13]]:30: error: T.atomic_add into local buffer 'r'; only global and shared memory are shared between threads
# BAD: {{.*}}.py:[[#@LINE+13]]:52: error: return_prev= takes True or False, not a str
# BAD: {{.*}}.py:[[#@LINE+13]]:13: error: T.atomic_add(..., return_prev=True) adds to one element, e.g. T.atomic_add(C[i], 1, return_prev=True); a tile has no previous value
def misuse():
    @T.prim_func
    def main(A: T.Tensor((128,), "int32"), B: T.Tensor((128,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            tx = T.get_thread_binding()
            S = T.alloc_shared((128,), "int32")
            r = T.alloc_local((1,), "int32")
            r[0] = 0
            a = T.atomic_add(A[tx], 1)
            b = T.atomic_add(S, A, return_prev=True)
            c = T.atomic_add(r[0], 1, return_prev=True)
            d = T.atomic_add(A[tx], 1, return_prev="yes")
            T.atomic_add(S, A, return_prev=True)
            B[tx] = a + b + c + d
    return main
