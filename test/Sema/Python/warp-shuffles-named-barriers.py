# Warp shuffles (T.shfl_sync / shfl_down / shfl_up / shfl_xor and TVM's
# T.tvm_warp_shuffle), named barriers (T.sync_threads(id, count): the
# threads of a branch meet among themselves), T.get_thread_binding() in an
# if (a runtime condition, not a compile-time one), and TileLang's
# register-allocation hints (accepted, no effect), as TileLang's hadamard,
# top-k and MLA examples write them.
# RUN: %tlc %s --call 'f()' --emit=ir | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'f()' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --match-full-lines --implicit-check-not=error:
import tilelang
import tilelang.language as T


# IR: let lane#{{[0-9]+}}: float32 = shfl(4294967295:uint32, v[0], 0, 32):float32 @[[#@LINE+26]]:18
# IR: let down#{{[0-9]+}}: float32 = shfl_down(65535:uint32, v[0], 1, 16):float32
# IR: let up#{{[0-9]+}}: float32 = shfl_up(4294967295:uint32, v[0], 2, 32):float32
# IR: let x#{{[0-9]+}}: float32 = shfl_xor_masked(4294967295:uint32, v[0], 4, 8):float32
# IR: let t#{{[0-9]+}}: float32 = shfl(4294967295:uint32, v[0], (tx + 1) % 32, 32):float32
# IR: if tx < 64 @[[#@LINE+26]]:13 {
# IR-NEXT: sync barrier 3 64 @[[#@LINE+26]]:17
# IR: if tx#{{[0-9]+}} < 32 @[[#@LINE+26]]:13 {
# CUDA: float lane_{{[0-9]+}} = __shfl_sync((unsigned)4294967295u, v[0], 0, 32);
# CUDA-NEXT: float down_{{[0-9]+}} = __shfl_down_sync((unsigned)65535u, v[0], 1, 16);
# CUDA-NEXT: float up_{{[0-9]+}} = __shfl_up_sync((unsigned)4294967295u, v[0], 2, 32);
# CUDA-NEXT: float x_{{[0-9]+}} = __shfl_xor_sync((unsigned)4294967295u, v[0], 4, 8);
# CUDA-NEXT: float t_{{[0-9]+}} = __shfl_sync((unsigned)4294967295u, v[0], tl_floormod(tx_{{[0-9]+}} + 1, 32), 32);
# CUDA-NEXT: if (tx_{{[0-9]+}} < 64) {
# CUDA-NEXT: asm volatile("bar.sync 3, 64;\n" ::: "memory");
# CUDA: if ((int)threadIdx.x < 32) {
def f():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
        T.set_max_nreg(240, 1)
        with T.Kernel(1, threads=128) as bx:
            T.dec_max_nreg(40)
            T.annotate_producer_reg_dealloc()
            tx = T.get_thread_binding(0)
            v = T.alloc_local((1,), "float32")
            v[0] = A[tx]
            lane = T.shfl_sync(v[0], 0)
            down = T.shfl_down(v[0], 1, width=16, mask=0xFFFF)
            up = T.shfl_up(value=v[0], delta=2)
            x = T.shfl_xor(v[0], 4, 8)
            t = T.tvm_warp_shuffle(0xFFFFFFFF, v[0], (tx + 1) % 32, 32, 32)
            if tx < 64:
                T.sync_threads(3, 64)
            if T.get_thread_binding() < 32:
                B[tx] = lane + down + up + x + t
    return main


def misuse():
    @T.prim_func
    def main(A: T.Tensor((128,), "int8"), B: T.Tensor((128,), "int8")):
        with T.Kernel(1, threads=128) as bx:
            tx = T.get_thread_binding(0)
            T.sync_threads(16, 64)
            T.sync_threads(1, 48)
            T.sync_threads(0, 64)
            T.sync_threads(1)
            B[tx] = T.shfl_sync(A[tx], 0)
            B[tx] = T.shfl_down(A[tx])
            for i in T.Parallel(128):
                B[i] = T.shfl_xor(A[i], 1)
    return main
# BAD: {{.*}}.py:[[#@LINE-9]]:28: error: barrier id 16 is out of range; the GPU has named barriers 0-15
# BAD: {{.*}}.py:[[#@LINE-9]]:31: error: a barrier of 48 threads; it takes a positive multiple of 32 up to the block's 128 threads
# BAD: {{.*}}.py:[[#@LINE-9]]:28: error: barrier 0 is the whole block's (__syncthreads); a barrier of 64 threads needs an id from 1 to 15
# BAD: {{.*}}.py:[[#@LINE-9]]:13: error: 'T.sync_threads' takes no arguments, or a barrier id and a thread count
# BAD: {{.*}}.py:[[#@LINE-9]]:33: error: T.shfl_sync exchanges 16-, 32- or 64-bit values, not int8
# BAD: {{.*}}.py:[[#@LINE-9]]:21: error: 'T.shfl_down' needs a value and a delta
# BAD: {{.*}}.py:[[#@LINE-8]]:24: error: T.shfl_xor inside T.Parallel; a shuffle exchanges values between the threads of per-thread code
