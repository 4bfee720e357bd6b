# TileLang's explicit warp specialization in sema: `with T.ws(i)` is an if
# over warpgroup i's threads marked as a scope (warpgroups LO N), the
# kernel's own mbarriers are counted in its header, waits and arrives name
# them by index (ring `user`), a T.Pipelined loop around scopes runs as a
# plain loop (the user's barriers are the pipeline), T.tma_copy is a copy,
# and the tile operations are partitioned over one scope (threads(128))
# while the block launches 256 threads.
# RUN: %tlc %s --call 'ok()' --print-after=sema --stop-after=sema | FileCheck %s
# RUN: %tlc %s --call 'ok()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: not %tlc %s --call 'nested()' 2>&1 | FileCheck %s --check-prefix=NESTED
# RUN: not %tlc %s --call 'sizes()' 2>&1 | FileCheck %s --check-prefix=SIZES
# RUN: %tlc %s --call 'two_sizes()' -o - | FileCheck %s --check-prefix=TWO
# RUN: not %tlc %s --call 'small_fragments()' 2>&1 | FileCheck %s --check-prefix=SMALL
# RUN: not %tlc %s --call 'beyond()' 2>&1 | FileCheck %s --check-prefix=BEYOND
# RUN: not %tlc %s --call 'gaps()' 2>&1 | FileCheck %s --check-prefix=GAPS
# RUN: not %tlc %s --call 'unindexed()' 2>&1 | FileCheck %s --check-prefix=UNINDEXED
# RUN: not %tlc %s --call 'no_barriers()' 2>&1 | FileCheck %s --check-prefix=NOBAR
# RUN: not %tlc %s --call 'gemm_outside()' 2>&1 | FileCheck %s --check-prefix=OUTSIDE
# RUN: not %tlc %s --call 'two_owners()' 2>&1 | FileCheck %s --check-prefix=OWNERS
import tilelang.language as T

# CHECK: kernel ok({{.*}}) grid(1, 1, 1) threads(128, 1, 1) level tile launch_threads 256 mbarriers [128, 128, 128, 128]
# CHECK: for serial ko#{{[0-9]+}} in 0..2
# CHECK-NEXT: if tx >= 0 and tx < 128 warpgroups 0 128
# CHECK-NEXT: mbar_wait user parity ko % 2 ^ 1 stage_a ko % 2 + 2
# CHECK-NEXT: copy A[0 +: 64, ko * 32 +: 32] -> A_s
# CHECK-NEXT: copy B[ko * 32 +: 32, 0 +: 64] -> B_s
# CHECK-NEXT: mbar_arrive user stage_a ko % 2
# CHECK: if tx >= 128 and tx < 256 warpgroups 128 128
# CHECK-NEXT: mbar_wait user parity ko // 2 % 2 stage_a ko % 2
# CHECK-NEXT: gemm A_s, B_s -> acc

# CUDA: __launch_bounds__(256, 1) ok_kernel(
# CUDA: __shared__ __align__(8) uint64_t tl_user[4];
# CUDA: tl_mbar_init(&tl_user[3], 128);
# CUDA: if ((int)threadIdx.x >= 0 && (int)threadIdx.x < 128) {
# CUDA-NEXT: // T.ws: threads 0..127
# CUDA-NEXT: tl_mbar_wait(&tl_user[ko_{{[0-9]+}} % 2 + 2], ko_{{[0-9]+}} % 2 ^ 1);
# CUDA: (int)threadIdx.x % 128 * 8
# CUDA: asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
# CUDA-NEXT: tl_mbar_arrive(&tl_user[ko_{{[0-9]+}} % 2]);
# CUDA: ok_kernel<<<{{.*}}, dim3(256, 1, 1), smem, stream>>>


def ok():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"),
             C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=256) as bx:
            A_s = T.alloc_shared((64, 32), "float16")
            B_s = T.alloc_shared((32, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            full = T.alloc_barrier([128, 128])
            empty = T.alloc_barrier(arrive_count=[128] * 2)
            with T.ws(1):
                T.clear(acc)
            for ko in T.Pipelined(2, num_stages=2):
                with T.ws(0):
                    T.mbarrier_wait_parity(mbarrier=empty[ko % 2], parity=(ko % 2) ^ 1)
                    T.tma_copy(A[0, ko * 32], A_s, barrier=full[ko % 2])
                    T.copy(B[ko * 32, 0], B_s)
                    T.mbarrier_arrive(mbarrier=full[ko % 2])
                with T.ws(1):
                    T.barrier_wait(full[ko % 2], (ko // 2) % 2)
                    T.gemm(A_s, B_s, acc)
                    T.barrier_arrive(empty[ko % 2])
            with T.ws(1):
                T.copy(acc, C[0, 0])
    return main


def nested():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=256) as bx:
            with T.ws(0):
                # NESTED: warp-groups.py:[[#@LINE+1]]:17: error: T.ws scopes do not nest
                with T.ws(1):
                    A[0] = 1.0
    return main


def sizes():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=384) as bx:
            with T.ws(0):
                A[0] = 1.0
            # SIZES: warp-groups.py:[[#@LINE+1]]:18: error: a T.ws scope of 256 threads starts at a multiple of 256 (this one at thread 128)
            with T.ws(1, 2):
                A[1] = 1.0
    return main


# Scopes of two sizes (FlashMLA's one-warpgroup producer, two-warpgroup
# consumer): the kernel's tile operations are laid out over the largest
# scope, the producer's copies over its own 128 threads (numbered within
# it), its barriers are its own named barrier.
# TWO: 384 threads in T.ws scopes of 256
# TWO: // T.ws: threads 256..383
# TWO: T.Parallel(64, 64) at line {{[0-9]+}} (copy): 4096 points, 128 threads x vector 8 -> 4 steps
# TWO: (int)threadIdx.x % 128 * 8
# TWO: tl_mbar_arrive(&tl_user[0]);
# TWO: // T.ws: threads 0..255
# TWO: T.Parallel at line {{[0-9]+}} (copy) follows the fragment layout gemm_c(64x64, warps 4x2
def two_sizes():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=384) as bx:
            A_s = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            T.create_list_of_mbarrier(128)
            with T.ws(2):
                T.copy(A, A_s)
                T.barrier_arrive(0)
            with T.ws(0, 1):
                T.barrier_wait(0, 0)
                T.gemm(A_s, A_s, acc, clear_accum=True)
                T.copy(acc, C)
    return main


# Scopes of two sizes: fragment work belongs to the largest.
def small_fragments():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=384) as bx:
            A_s = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            with T.ws(0, 1):
                T.copy(A, A_s)
                T.gemm(A_s, A_s, acc, clear_accum=True)
            with T.ws(2):
                # SMALL: warp-groups.py:[[#@LINE+2]]:17: error: fragment work in a T.ws scope of 128 threads, smaller than the kernel's largest scope (256 threads)
                # SMALL: warp-groups.py:[[#@LINE-2]]:13: note: tlc lays fragments out over the largest scope's threads
                T.copy(acc, C)
    return main


def beyond():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            # BEYOND: warp-groups.py:[[#@LINE+1]]:18: error: T.ws(1) needs threads 128..255, but the block has threads=(128, 1, 1)
            with T.ws(1):
                A[0] = 1.0
    return main


def gaps():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=512) as bx:
            # GAPS: warp-groups.py:[[#@LINE+1]]:26: error: tlc takes consecutive warpgroups in T.ws (here 2 after 0)
            with T.ws(0, 2):
                A[0] = 1.0
    return main


def unindexed():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=256) as bx:
            bars = T.alloc_barrier([128, 128])
            with T.ws(0):
                # UNINDEXED: warp-groups.py:[[#@LINE+1]]:34: error: 'bars' is a list of 2 mbarriers; index it
                T.barrier_arrive(bars)
    return main


def no_barriers():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=256) as bx:
            with T.ws(0):
                # NOBAR: warp-groups.py:[[#@LINE+2]]:17: error: T.mbarrier_wait_parity in a kernel without mbarriers
                # NOBAR: note: make them with T.alloc_barrier(arrive_count) first
                T.mbarrier_wait_parity(0, 0)
    return main


def gemm_outside():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=256) as bx:
            A_s = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            with T.ws(0):
                T.copy(A, A_s)
            # OUTSIDE: warp-groups.py:[[#@LINE+2]]:13: error: this tile operation outside the T.ws scopes of the kernel is not a copy, a fill or a nest of plain stores
            # OUTSIDE: note: tlc partitions the tile operations of a warp-specialized kernel over one scope's 128 threads (outside the scopes each part is run by 2 threads alike); put it in a 'with T.ws(...)' scope
            T.gemm(A_s, A_s, acc)
    return main


def two_owners():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=256) as bx:
            x = T.alloc_fragment((64, 64), "float32")
            with T.ws(0):
                T.copy(A, x)
            with T.ws(1):
                T.copy(A, x)
            # OWNERS: warp-groups.py:[[#@LINE+1]]:13: error: this tile operation reads fragments that different T.ws scopes compute
            T.copy(x, C)
    return main
