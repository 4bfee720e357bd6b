# A shared tile one T.ws scope writes and another only reads, with no
# mbarrier between the write and the read, gets a named barrier pair: the
# writer arrives after its last write (bar.arrive: it does not wait), the
# reader meets it before its first read. Ids past the scopes' own (1 + first
# thread / 128); the count is both scopes' threads.
# RUN: %tlc %s --emit=ir | FileCheck %s
# RUN: %tlc %s | FileCheck %s --check-prefix=CUDA
import tilelang.language as T


# CHECK-LABEL: kernel handed_over
# CHECK: if {{.*}} warpgroups 0 128
# CHECK: sums_s[{{.*}}] = total
# CHECK: sync barrier 3 256 arrive @[[@LINE+24]]:13
# CHECK-NEXT: }
# CHECK-NEXT: if {{.*}} warpgroups 128 128
# CHECK-NEXT: sync barrier 3 256 @[[@LINE+24]]:13
# CHECK-NEXT: for serial k
# CUDA-LABEL: handed_over_kernel
# CUDA: fence.proxy.async.shared::cta;
# CUDA-NEXT: bar.arrive 3, 256;
# CUDA: bar.sync 3, 256;
@T.prim_func
def handed_over(A: T.Tensor((64, 128), "float32"), Out: T.Tensor((64, 128), "float32")):
    with T.Kernel(2, threads=256) as bx:
        sums_s = T.alloc_shared((32,), "float32")
        x = T.alloc_fragment((32, 64), "float32")
        part = T.alloc_fragment((32,), "float32")
        total = T.alloc_fragment((32,), "float32")
        y = T.alloc_fragment((32, 64), "float32")
        with T.ws(0):
            T.clear(total)
            for k in T.serial(2):
                T.copy(A[bx * 32, k * 64], x)
                T.reduce_sum(x, part, dim=1)
                for i in T.Parallel(32):
                    total[i] += part[i]
            for i in T.Parallel(32):
                sums_s[i] = total[i]
        with T.ws(1):
            for k in T.serial(2):
                T.copy(A[bx * 32, k * 64], y)
                for i, j in T.Parallel(32, 64):
                    y[i, j] = y[i, j] / sums_s[i]
                T.copy(y, Out[bx * 32, k * 64])


# Both scopes touch the tile inside loops paced by mbarriers: meeting before
# the reader's loop would wait for a writer that waits for the reader (a
# deadlock), so the mbarriers are the only order and no barrier is added.
# CHECK-LABEL: kernel paced_by_mbarriers
# CHECK-NOT: sync barrier
# CHECK: }
@T.prim_func
def paced_by_mbarriers(A: T.Tensor((64, 256), "float32"), Out: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=256) as bx:
        tile_s = T.alloc_shared((64, 64), "float32")
        x = T.alloc_fragment((64, 64), "float32")
        acc = T.alloc_fragment((64, 64), "float32")
        full = T.alloc_barrier(arrive_count=128)
        empty = T.alloc_barrier(arrive_count=128)
        with T.ws(0):
            for k in T.serial(4):
                T.barrier_wait(empty, (k + 1) % 2)
                T.copy(A[0, k * 64], x)
                T.copy(x, tile_s)
                T.barrier_arrive(full)
        with T.ws(1):
            T.clear(acc)
            for k in T.serial(4):
                T.barrier_wait(full, k % 2)
                for i, j in T.Parallel(64, 64):
                    acc[i, j] += tile_s[i, j]
                T.barrier_arrive(empty)
            T.copy(acc, Out[0, 0])


# Each scope writes its own half of one tile (MLA's output staging): neither
# only reads what the other writes, so nothing is handed over.
# CHECK-LABEL: kernel halves
# CHECK-NOT: sync barrier
# CHECK: }
@T.prim_func
def halves(A: T.Tensor((64, 128), "float32"), Out: T.Tensor((64, 128), "float32")):
    with T.Kernel(1, threads=256) as bx:
        o_s = T.alloc_shared((64, 128), "float32")
        x = T.alloc_fragment((64, 64), "float32")
        y = T.alloc_fragment((64, 64), "float32")
        with T.ws(0):
            T.copy(A[0, 0], x)
            T.copy(x, o_s[:, 0:64])
            T.copy(o_s[:, 0:64], Out[0, 0])
        with T.ws(1):
            T.copy(A[0, 64], y)
            T.copy(y, o_s[:, 64:128])
            T.copy(o_s[:, 64:128], Out[0, 64])
