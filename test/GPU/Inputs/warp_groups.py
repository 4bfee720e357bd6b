# TileLang's explicit warp specialization (T.ws scopes, T.alloc_barrier,
# T.create_list_of_mbarrier, T.barrier_wait/arrive, T.mbarrier_wait_parity/
# arrive, T.tma_copy), checked against the reference on sizes that do not
# divide the tiles.
import tilelang.language as T


# A producer warpgroup (0) copies the tiles, a consumer (1) multiplies; two
# mbarriers hand the single-buffered tiles back and forth.
@T.prim_func
def producer_consumer(A: T.Tensor((200, 136), "float16"), B: T.Tensor((136, 72), "float16"),
                      C: T.Tensor((200, 72), "float32")):
    with T.Kernel(2, 4, threads=256) as (bx, by):
        A_s = T.alloc_shared((64, 32), "float16")
        B_s = T.alloc_shared((32, 64), "float16")
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
                T.barrier_arrive(ready)
            with T.ws(1):
                T.barrier_wait(ready, ko % 2)
                T.gemm(A_s, B_s, acc)
                T.barrier_arrive(done)
        with T.ws(1):
            T.copy(acc, C[by * 64, bx * 64])


# v0.1.5's style: a list of mbarriers named by index, the producer in
# warpgroup 1, T.copy in the producer scope; a row sum in the consumer (its
# shared-memory reduction meets at the scope's named barrier).
@T.prim_func
def indexed_barriers(A: T.Tensor((96, 128), "float32"), S: T.Tensor((96,), "float32")):
    with T.Kernel(3, threads=256) as bx:
        A_s = T.alloc_shared((32, 128), "float32")
        x = T.alloc_fragment((32, 128), "float32")
        r = T.alloc_fragment((32,), "float32")
        T.create_list_of_mbarrier(128, 128)
        for k in T.Pipelined(2, num_stages=2):
            with T.ws(1):
                T.mbarrier_wait_parity(1, (k & 1) ^ 1)
                T.copy(A[bx * 32, 0], A_s)
                T.mbarrier_arrive(0)
            with T.ws(0):
                T.mbarrier_wait_parity(mbarrier=0, parity=k & 1)
                T.copy(A_s, x)
                T.reduce_sum(x, r, dim=1)
                for i in T.Parallel(32):
                    S[bx * 32 + i] = r[i] * (k + 1)
                T.mbarrier_arrive(mbarrier=1)


# No mbarriers: a copy outside the scopes (every warpgroup stores the same
# values), then each scope multiplies its own half of the columns.
@T.prim_func
def shared_a_two_halves(A: T.Tensor((128, 96), "float16"), B: T.Tensor((96, 128), "float16"),
                        C: T.Tensor((128, 128), "float32")):
    with T.Kernel(1, 2, threads=256) as (bx, by):
        A_s = T.alloc_shared((64, 32), "float16")
        B0 = T.alloc_shared((32, 64), "float16")
        B1 = T.alloc_shared((32, 64), "float16")
        c0 = T.alloc_fragment((64, 64), "float32")
        c1 = T.alloc_fragment((64, 64), "float32")
        with T.ws(0):
            T.clear(c0)
        with T.ws(1):
            T.clear(c1)
        for ko in T.Pipelined(3, num_stages=0):
            T.copy(A[by * 64, ko * 32], A_s)
            with T.ws(0):
                T.copy(B[ko * 32, 0], B0)
                T.gemm(A_s, B0, c0)
            with T.ws(1):
                T.copy(B[ko * 32, 64], B1)
                T.gemm(A_s, B1, c1)
        with T.ws(0):
            T.copy(c0, C[by * 64, 0])
        with T.ws(1):
            T.copy(c1, C[by * 64, 64])


# v0.1.5's style with the fills and the epilogue outside the scopes: the
# fills run in every thread, each epilogue copy in the scope whose threads
# hold the fragment it reads.
@T.prim_func
def epilogue_outside_scopes(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 128), "float16"),
                            C: T.Tensor((64, 128), "float32")):
    with T.Kernel(1, threads=256) as bx:
        A_s = T.alloc_shared((64, 32), "float16")
        B0 = T.alloc_shared((32, 64), "float16")
        B1 = T.alloc_shared((32, 64), "float16")
        c0 = T.alloc_fragment((64, 64), "float32")
        c1 = T.alloc_fragment((64, 64), "float32")
        T.clear(c0)
        T.clear(c1)
        for ko in T.Pipelined(2, num_stages=0):
            T.copy(A[0, ko * 32], A_s)
            with T.ws(1):
                T.copy(B[ko * 32, 0], B1)
                T.gemm(A_s, B1, c1)
            with T.ws(0):
                T.copy(B[ko * 32, 64], B0)
                T.gemm(A_s, B0, c0)
        T.copy(c1, C[0, 0])
        T.copy(c0, C[0, 64])


# FlashMLA's shape of specialization: a one-warpgroup producer (warpgroup 2)
# copies single-buffered tiles with T.copy for a two-warpgroup consumer
# (warpgroups 0 and 1) that multiplies and reduces; mbarriers by index, the
# producer's copies partitioned over its own 128 threads. The loop is around
# the scopes (the reference runs the scopes of one iteration in order).
# Sizes that do not divide the tiles.
@T.prim_func
def two_sizes(A: T.Tensor((150, 200), "float16"), B: T.Tensor((100, 200), "float16"),
              C: T.Tensor((150, 100), "float32"), R: T.Tensor((150,), "float32")):
    with T.Kernel(T.ceildiv(100, 64), T.ceildiv(150, 64), threads=384) as (bx, by):
        A_s = T.alloc_shared((64, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        r = T.alloc_fragment((64,), "float32")
        T.create_list_of_mbarrier(128, 256)
        with T.ws(0, 1):
            T.clear(acc)
        for k in T.serial(T.ceildiv(200, 64)):
            with T.ws(2):
                T.barrier_wait(1, (k & 1) ^ 1)
                T.copy(A[by * 64, k * 64], A_s)
                T.copy(B[bx * 64, k * 64], B_s)
                T.barrier_arrive(0)
            with T.ws(0, 1):
                T.barrier_wait(0, k & 1)
                T.gemm(A_s, B_s, acc, transpose_B=True)
                T.barrier_arrive(1)
        with T.ws(0, 1):
            T.reduce_sum(acc, r, dim=1)
            T.copy(acc, C[by * 64, bx * 64])
            if bx == 0:
                T.copy(r, R[by * 64])
