# tma-copy: a T.ws scope's T.tma_copy(src, dst, barrier=b) becomes TMA
# loads (one per swizzle panel of the tile) completing on b, issued by the
# scope's first thread after it announces the tile's bytes on b without
# arriving (mbarrier.expect_tx); the user's arrive and wait are unchanged.
# A copy TMA cannot make (converting its elements) and one outside the
# scopes stay copies by the threads. mbarriers need sm_90.
# RUN: %tlc %s --call 'f()' --print-after=tma-copy --stop-after=tma-copy | FileCheck %s
# RUN: %tlc %s --call 'f()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: not %tlc %s --call 'f()' --target=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
import tilelang.language as T

# CHECK: tma_map 0: A -> A_s rows 0 cols 1 box [64, 32] panel_cols 32 swizzle 64
# CHECK: tma_map 1: B -> B_s rows 0 cols 1 box [32, 64] panel_cols 64 swizzle 128
# CHECK: if tx >= 0 and tx < 128 warpgroups 0 128
# CHECK-NEXT: mbar_wait user parity (ko + 1) % 2 stage_a 1
# CHECK-NEXT: if tx % 128 == 0
# CHECK-NEXT: mbar_arrive user width 4096 stage_a 0
# CHECK-NEXT: tma_load A[by * 64 +: 64, ko * 32 +: 32] -> A_s map 0 stage_a 0 stage_b 0
# CHECK: tma_load B[ko * 32 +: 32, bx * 64 +: 64] -> B_s map 1 stage_a 0 stage_b 0
# CHECK: parallel
# CHECK-SAME: from copy
# CHECK: mbar_arrive user stage_a 0
# CHECK-NOT: tma_load

# CUDA: tl_mbar_expect_tx_only(uint64_t *bar, unsigned bytes)
# CUDA: mbarrier.expect_tx.relaxed.cta.shared::cta.b64
# CUDA: if ((int)threadIdx.x % 128 == 0) {
# CUDA-NEXT: tl_mbar_expect_tx_only(&tl_user[0], 4096);
# CUDA-NEXT: tl_tma_load_2d(&A_s[0 * 2048], &tl_tmap_0, &tl_user[0], ko_{{[0-9]+}} * 32, by_{{[0-9]+}} * 64);

# SM80: tma-copy.py:[[#@LINE+12]]:21: error: mbarriers need sm_90 or later; the target is sm_80


def f():
    @T.prim_func
    def main(A: T.Tensor((200, 136), "float16"), B: T.Tensor((136, 72), "float16"),
             F: T.Tensor((136, 64), "float32"), C: T.Tensor((200, 72), "float32")):
        with T.Kernel(2, 4, threads=256) as (bx, by):
            A_s = T.alloc_shared((64, 32), "float16")
            B_s = T.alloc_shared((32, 64), "float16")
            F_s = T.alloc_shared((32, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            ready = T.alloc_barrier(arrive_count=128)
            done = T.alloc_barrier(arrive_count=128)
            with T.ws(1):
                T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(136, 32), num_stages=0):
                with T.ws(0):
                    T.barrier_wait(done, (ko + 1) % 2)
                    T.tma_copy(A[by * 64, ko * 32], A_s, barrier=ready)
                    T.tma_copy(B[ko * 32, bx * 64], B_s, barrier=ready)
                    T.tma_copy(F[ko * 32, 0], F_s, barrier=ready)
                    T.barrier_arrive(ready)
                with T.ws(1):
                    T.barrier_wait(ready, ko % 2)
                    T.gemm(A_s, B_s, acc)
                    T.gemm(A_s, F_s, acc)
                    T.barrier_arrive(done)
            with T.ws(1):
                T.copy(acc, C[by * 64, bx * 64])
    return main
