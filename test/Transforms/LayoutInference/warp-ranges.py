# A chain of thread-index branches over whole warps (not whole warpgroups of
# one size) splits the block into warp ranges: the kernel's partition stays
# the block (launch_threads = threads), each branch becomes a scope of its
# window, and layout inference lays each branch's fragments out over its own
# threads. The threads are numbered within a range by tx % size (a bijection
# onto 0..size-1, since each range starts at a multiple of 32); a barrier in a
# range is named barrier 1 + first thread / 32 of the range's threads.
# RUN: %tlc %s -w --emit=ir | FileCheck %s
# RUN: %tlc %s -w | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s -w --emit=ir -o %t.tir && %tlc %t.tir --emit=ir | diff %t.tir -
import tilelang.language as T


# CHECK-LABEL: kernel split({{.*}} launch_threads 96 
# CHECK-DAG: alloc m: fragment float32[4, 4] layout rows(rows 4, cols 4, threads 32,
# CHECK-DAG: alloc xl: fragment float32[4, 64] layout rows(rows 4, cols 64, threads 64,
# CHECK-DAG: alloc mixes: fragment float32[24] layout rows(rows 24, cols 1, threads 96,
# CHECK: if tx >= 0 and tx < 32 warpgroups 0 32 @[[@LINE+21]]:9
# The column sums' staging through shared memory (a nest reads rs[k] across
# its rows) is written inside the range, before the read:
# CHECK: rs_smem{{[0-9]+}}[r * 32 + tx % 32] = rs[r]
# CHECK: vload rs_smem
# CHECK: if tx >= 32 and tx < 96 warpgroups 32 64 @[[@LINE+16]]:9
# CHECK: cp_async xs[tx % 64 * 4]
# CUDA-LABEL: split_kernel
# CUDA: if ((int)threadIdx.x >= 0 && (int)threadIdx.x < 32) {
# CUDA: bar.sync 1, 32;
# CUDA: if ((int)threadIdx.x >= 32 && (int)threadIdx.x < 96) {
# CUDA: bar.sync 2, 64;
@T.prim_func
def split(X: T.Tensor((8, 4, 256), "float32"), Mix: T.Tensor((8, 24), "float32"),
          M: T.Tensor((8, 4, 4), "float32"), Y: T.Tensor((8, 256), "float32")):
    with T.Kernel(8, threads=96) as i:
        mixes = T.alloc_fragment((24,), "float32")
        mixes_s = T.alloc_shared((24,), "float32")
        for j in T.Parallel(24):
            mixes[j] = Mix[i, j] * 2.0
        T.copy(mixes, mixes_s)
        if T.get_thread_binding() < 32:
            m = T.alloc_fragment((4, 4), "float32")
            rs = T.alloc_fragment((4,), "float32")
            for j, k in T.Parallel(4, 4):
                m[j, k] = mixes_s[j * 4 + k]
            T.reduce_sum(m, rs, dim=0)
            for j, k in T.Parallel(4, 4):
                M[i, j, k] = m[j, k] / rs[k]
        else:
            xs = T.alloc_shared((4, 64), "float32")
            xl = T.alloc_fragment((4, 64), "float32")
            for h in T.Pipelined(4, num_stages=2):
                T.copy(X[i, 0, h * 64], xs)
                T.copy(xs, xl)
                for c in T.Parallel(64):
                    Y[i, h * 64 + c] = xl[0, c] + xl[3, c] * mixes_s[c % 24]
