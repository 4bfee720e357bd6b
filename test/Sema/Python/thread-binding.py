# kr = T.thread_binding(start, stop, thread="threadIdx.x"): TVM's thread
# binding used as a value is the thread index (plus start); it spans the
# whole axis, so the block's extent there must be stop - start.
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: not %tlc %s --call 'wrong_extent()' 2>&1 | FileCheck %s --check-prefix=EXTENT
# RUN: not %tlc %s --call 'block_axis()' 2>&1 | FileCheck %s --check-prefix=AXIS
import tilelang.language as T


def f():
    @T.prim_func
    def main(A: T.Tensor((4096,), "float32"), B: T.Tensor((4096,), "float32")):
        with T.Kernel(8, threads=(128, 2)) as bx:
            tx = T.thread_binding(0, 128, thread="threadIdx.x")
            ty = T.thread_binding(2, thread="threadIdx.y")
            # CHECK: int tx_[[TX:[0-9]+]] = (int)threadIdx.x;
            # CHECK-NEXT: int ty_[[TY:[0-9]+]] = (int)threadIdx.y;
            for k in T.serial(2):
                # CHECK: B[bx_0 * 512 + k_{{[0-9]+}} * 256 + ty_[[TY]] * 128 + tx_[[TX]]] = A[
                B[bx * 512 + k * 256 + ty * 128 + tx] = A[bx * 512 + k * 256 + ty * 128 + tx] * 2.0
    return main


def wrong_extent():
    @T.prim_func
    def main(A: T.Tensor((4096,), "float32")):
        with T.Kernel(8, threads=128) as bx:
            # EXTENT: thread-binding.py:[[#@LINE+2]]:18: error: T.thread_binding over 64 threads along x, but the kernel has 128 there
            # EXTENT: note: tlc binds a whole axis: give T.Kernel threads= that extent
            tx = T.thread_binding(0, 64, thread="threadIdx.x")
            A[tx] = 1.0
    return main


def block_axis():
    @T.prim_func
    def main(A: T.Tensor((4096,), "float32")):
        with T.Kernel(8, threads=128) as bx:
            # AXIS: thread-binding.py:[[#@LINE+1]]:47: error: T.thread_binding binds threadIdx.x, threadIdx.y or threadIdx.z here
            b = T.thread_binding(0, 8, thread="blockIdx.x")
            A[b] = 1.0
    return main
