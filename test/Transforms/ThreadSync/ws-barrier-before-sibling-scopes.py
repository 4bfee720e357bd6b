# Sibling T.ws scopes run side by side and wait on each other's mbarriers,
# so the block barrier that orders what the whole block wrote before them
# (the Q tile) against a scope that reads it goes before the first scope of
# the run, never between two of them: there, the producer (waiting for the
# consumer's "slot free" arrival) and the consumer (waiting at the barrier)
# would wait for each other (TileLang's deepseek_v32 sparse_mla_fwd_seesaw
# hung this way).
# RUN: %tlc %s --emit=ir | FileCheck %s
# RUN: %tlc %s | FileCheck %s --check-prefix=CUDA
import tilelang.language as T


# CHECK-LABEL: kernel seesaw_like
# CHECK: q_s[{{.*}}] = {{.*}}Q[
# CHECK: sync @[[@LINE+24]]:9
# CHECK-NEXT: if {{.*}} warpgroups 128 128 @[[@LINE+23]]:9
# CHECK: mbar_arrive user stage_a 0
# CHECK-NEXT: sync @
# CHECK-NEXT: }
# CHECK-NEXT: }
# CHECK-NEXT: if {{.*}} warpgroups 0 128 @[[@LINE+18]]:9
# CUDA-LABEL: seesaw_like_kernel
# CUDA: if ((int)threadIdx.x >= 128 && (int)threadIdx.x < 256) {
# CUDA-NOT: __syncthreads();
# CUDA: if ((int)threadIdx.x >= 0 && (int)threadIdx.x < 128) {
# CUDA-NOT: __syncthreads();
@T.prim_func
def seesaw_like(Q: T.Tensor((64, 64), "float32"), K: T.Tensor((8, 64, 64), "float32"),
                Out: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=256) as bx:
        q_s = T.alloc_shared((64, 64), "float32")
        k_s = T.alloc_shared((64, 64), "float32")
        acc = T.alloc_fragment((64, 64), "float32")
        full = T.alloc_barrier(arrive_count=128)
        free = T.alloc_barrier(arrive_count=128)
        tx = T.get_thread_binding()
        for i, j in T.Parallel(64, 64):
            q_s[i, j] = Q[i, j]
        if tx >= 128:
            for it in T.serial(8):
                T.barrier_wait(free, it & 1)
                for i, j in T.Parallel(64, 64):
                    k_s[i, j] = K[it, i, j]
                T.barrier_arrive(full)
        else:
            T.barrier_arrive(free)
            T.clear(acc)
            for it in T.serial(8):
                T.barrier_wait(full, it & 1)
                for i, j in T.Parallel(64, 64):
                    acc[i, j] += q_s[i, j] * k_s[i, j]
                T.barrier_arrive(free)
            T.copy(acc, Out[0:64, 0:64])
