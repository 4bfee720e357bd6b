# TileLang's hand-written pipelines, as its MLA, MInference and
# warp-specialization examples write them: T.gemm / T.wgmma_gemm on regions
# of shared tiles (a stage of a 3-D tile, a column half), `clear_accum=` a
# runtime condition, `prefer_async=` prefetch nests with
# T.ptx_commit_group / T.ptx_wait_group, and branches on the thread index
# as warp-specialized scopes. Checked against the reference on sizes that
# do not divide the tiles.
import tilelang.language as T


# Two stages of a 3-D tile written by a prefetch nest, multiplied stage by
# stage.
@T.prim_func
def staged_regions(A: T.Tensor((200, 136), "float16"), B: T.Tensor((136, 72), "float16"),
                   C: T.Tensor((200, 72), "float32")):
    with T.Kernel(2, 4, threads=128) as (bx, by):
        A_s = T.alloc_shared((2, 64, 32), "float16")
        B_s = T.alloc_shared((2, 32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.clear(acc)
        for ko in T.serial(T.ceildiv(136, 32)):
            stage = ko % 2
            for i, j in T.Parallel(64, 32, prefer_async=True):
                A_s[stage, i, j] = T.if_then_else(by * 64 + i < 200 and ko * 32 + j < 136,
                                                  A[by * 64 + i, ko * 32 + j], 0)
            for i, j in T.Parallel(32, 64, prefer_async=True,
                                   annotations={"parallel_async_without_async_commit_wait": True}):
                B_s[stage, i, j] = T.if_then_else(ko * 32 + i < 136 and bx * 64 + j < 72,
                                                  B[ko * 32 + i, bx * 64 + j], 0)
            T.ptx_commit_group()
            T.ptx_wait_group(0)
            T.gemm(A_s[stage, :, :], B_s[stage, :, :], acc)
        T.copy(acc, C[by * 64, bx * 64])


# The K dimension in halves of one tile: column slices of A_s and of a
# transposed B tile, the first half clearing the accumulator.
@T.prim_func
def column_halves(A: T.Tensor((130, 64), "float16"), B: T.Tensor((100, 64), "float16"),
                  C: T.Tensor((130, 100), "float32")):
    with T.Kernel(2, 3, threads=128) as (bx, by):
        A_s = T.alloc_shared((64, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(A[by * 64, 0], A_s)
        T.copy(B[bx * 64, 0], B_s)
        for j in T.unroll(2):
            T.wgmma_gemm(A_s[:, j * 32:(j + 1) * 32], B_s[:, j * 32:(j + 1) * 32], acc,
                         transpose_B=True, clear_accum=(j == 0))
        T.wait_wgmma(0)
        T.copy(acc, C[by * 64, bx * 64])


# Warp specialization by thread-index branches: warpgroup 1 copies, 0
# multiplies, two mbarriers hand the tiles over.
@T.prim_func
def thread_branches(A: T.Tensor((200, 136), "float16"), B: T.Tensor((136, 72), "float16"),
                    C: T.Tensor((200, 72), "float32")):
    with T.Kernel(2, 4, threads=256) as (bx, by):
        A_s = T.alloc_shared((64, 32), "float16")
        B_s = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        ready = T.alloc_barrier(arrive_count=128)
        done = T.alloc_barrier(arrive_count=128)
        tx = T.get_thread_binding()
        if tx < 128:
            T.clear(acc)
        for ko in T.serial(T.ceildiv(136, 32)):
            if tx >= 128:
                T.barrier_wait(done, (ko + 1) % 2)
                T.copy(A[by * 64, ko * 32], A_s)
                T.copy(B[ko * 32, bx * 64], B_s)
                T.barrier_arrive(ready)
            else:
                T.barrier_wait(ready, ko % 2)
                T.gemm(A_s, B_s, acc)
                T.barrier_arrive(done)
        if tx < 128:
            T.copy(acc, C[by * 64, bx * 64])
