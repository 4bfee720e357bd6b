# TileLang's hand-written pipelines (its MLA decode, sparse MLA and FlashMLA
# examples): branches on the thread index become warp-specialized scopes,
# T.ptx_cp_async is each thread's element stores (async_copy: thread-sync
# puts no barrier between two of them), T.cp_async_barrier_noinc the
# thread's arrival, T.ptx_commit_group / T.ptx_wait_group and prefer_async=
# have nothing to do, T.wgmma_gemm is a T.gemm, a gemm operand that is a
# region of a shared tile is copied into a tile of its own (with a warning),
# and clear_accum= may be a runtime condition.
# RUN: %tlc %s --call 'f()' --stop-after=sema --emit=ir 2>&1 | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' -o - 2>/dev/null | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'f()' --emit=ir > %t.tir 2>/dev/null && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang.language as T


# IR: warning: T.gemm operand A is a region of shared tile 'K_s'; tlc copies it into a 64x32 tile of its own before the gemm (4096 bytes of shared memory, one shared-to-shared copy per call)
# IR: warning: T.gemm operand B is a region of shared tile 'K_s'; tlc copies it into a 64x32 tile of its own before the gemm (4096 bytes of shared memory, one shared-to-shared copy per call)
# IR: if tx#{{[0-9]+}} >= 0 and tx#{{[0-9]+}} < 128 warpgroups 0 128 @[[#@LINE+29]]:13 {
# IR: copy K_s[it % 2 +: 1, 0 +: 64, 0 +: 32] -> gemm_A_64x32_float16[0 +: 64, 0 +: 32] @[[#@LINE+32]]:38
# IR-NEXT: copy K_s[it % 2 +: 1, 0 +: 64, 32 +: 32] -> gemm_B_64x32_float16[0 +: 64, 0 +: 32] @[[#@LINE+31]]:59
# IR-NEXT: if j == 0 @[[#@LINE+31]]:53 {
# IR-NEXT: fill acc[0 +: 64, 0 +: 64] = 0.0 @[[#@LINE+29]]:25
# IR-NEXT: }
# IR-NEXT: gemm gemm_A_64x32_float16, gemm_B_64x32_float16^T -> acc gemm_id 0 @[[#@LINE+27]]:25
# IR: if tx#{{[0-9]+}} >= 128 and tx#{{[0-9]+}} < 256 warpgroups 128 128 @[[#@LINE+31]]:13 {
# IR: K_s[it % 2, row, (tx - 128) % 8 * 8] = K[bx, it * 64 + row, (tx - 128) % 8 * 8] async_copy @[[#@LINE+35]]:25
# IR-NEXT: K_s[it % 2, row, (tx - 128) % 8 * 8 + 1] = K[bx, it * 64 + row, (tx - 128) % 8 * 8 + 1] async_copy
# IR: K_s[it % 2, row, (tx - 128) % 8 * 8 + 7] = K[bx, it * 64 + row, (tx - 128) % 8 * 8 + 7] async_copy
# IR-NEXT: }
# IR-NEXT: mbar_arrive user stage_a it % 2 @[[#@LINE+33]]:21
# The producer's 8 element stores per call follow each other without a
# barrier; its arrival fences for the consumer's wgmma.
# CUDA: // T.ws: threads 128..255
# CUDA: K_s[{{.*}}] = K[{{.*}} + 7];
# CUDA-NEXT: }
# CUDA-NEXT: asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
# CUDA-NEXT: tl_mbar_arrive(&tl_user[it_{{[0-9]+}} % 2]);
def f():
    @T.prim_func
    def k(K: T.Tensor((4, 256, 64), "float16"), O: T.Tensor((4, 64, 64), "float32")):
        with T.Kernel(4, threads=256) as bx:
            K_s = T.alloc_shared((2, 64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            ready = T.alloc_barrier(arrive_count=[128, 128])
            free = T.alloc_barrier(arrive_count=[128, 128])
            tx = T.get_thread_binding()
            if tx < 128:
                for it in T.serial(4):
                    T.barrier_wait(ready[it % 2], (it // 2) % 2)
                    for j in T.unroll(1):
                        T.wgmma_gemm(K_s[it % 2, :, :32], K_s[it % 2, :, 32:], acc, transpose_B=True,
                                     clear_accum=(j == 0))
                    T.wait_wgmma(0)
                    T.barrier_arrive(free[it % 2])
                T.copy(acc, O[bx, :, :])
            elif tx >= 128:
                for it in T.serial(4):
                    T.barrier_wait(free[it % 2], ((it // 2) % 2) ^ 1)
                    for r in T.serial(4):
                        row = r * 16 + (tx - 128) // 8
                        T.ptx_cp_async(T.access_ptr(K_s[it % 2, row, (tx - 128) % 8 * 8], "w", 8),
                                       T.access_ptr(K[bx, it * 64 + row, (tx - 128) % 8 * 8], "r", 8), 8)
                    T.cp_async_barrier_noinc(ready[it % 2])
    return k


def misuse():
    @T.prim_func
    def k(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((64, 64), "float16")
            F = T.alloc_fragment((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            tx = T.get_thread_binding()
            T.ptx_cp_async(T.access_ptr(S[0, tx], "w", 3), T.access_ptr(A[0, tx], "r", 3), 3)
            T.ptx_cp_async(T.access_ptr(A[0, tx], "w", 8), T.access_ptr(S[0, tx], "r", 8), 8)
            T.ptx_cp_async(S[0, tx], A[0, tx], 8)
            T.gemm(F[0:64, 0:32], S[0:32, :], acc)
            T.gemm(S[0, :], S, acc)
            T.cp_async_barrier_noinc(0)
    return k
# BAD: hand-written-async.py:[[#@LINE-7]]:92: error: T.ptx_cp_async moves 4, 8 or 16 bytes; 3 float16 elements are 6
# BAD: hand-written-async.py:[[#@LINE-7]]:13: error: T.ptx_cp_async copies global memory into shared memory; here the source 'S' is shared and the destination 'A' is global
# BAD: hand-written-async.py:[[#@LINE-7]]:28: error: the destination of T.ptx_cp_async must be T.access_ptr(buffer[indices], mode)
# BAD: hand-written-async.py:[[#@LINE-8]]:38: error: the source of T.ptx_cp_async must be T.access_ptr(buffer[indices], mode)
# BAD: hand-written-async.py:[[#@LINE-8]]:20: error: T.gemm operand A is a slice of fragment 'F'; only slices of shared tiles are taken
# BAD: hand-written-async.py:[[#@LINE-8]]:20: error: T.gemm operand A must be a 2-D region of 'S' (slices in two dimensions)
# BAD: hand-written-async.py:[[#@LINE-8]]:13: error: T.cp_async_barrier_noinc in a kernel without mbarriers
