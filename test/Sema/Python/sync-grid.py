# T.sync_grid(): a barrier of every thread of the grid. Sema keeps it as
# `sync grid` at the top level of the kernel's body; the CUDA is a
# cooperative-groups grid sync and the launcher a cooperative launch (the
# runtime refuses a grid that cannot be resident at once); anywhere but the
# top level is a located error (not every thread would reach it).
# RUN: %tlc %s --call 'ok()' --emit=ir --stop-after=sema | FileCheck %s
# RUN: %tlc %s --call 'ok()' --emit=ir --stop-after=sema -o %t.tir && %tlc %t.tir --emit=ir -o - | FileCheck %s
# RUN: %tlc %s --call 'ok()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: not %tlc %s --call 'in_loop()' 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not %tlc %s --call 'with_args()' 2>&1 | FileCheck %s --check-prefix=ARGS
import tilelang.language as T

# CHECK: kernel ok(
# CHECK: P[bx] = X[bx]
# CHECK-NEXT: sync grid
# CHECK-NEXT: Y[bx] = P[
# CUDA: #include <cooperative_groups.h>
# CUDA: cooperative_groups::this_grid().sync();
# CUDA: void *tl_args[] = {(void *)&X, (void *)&P, (void *)&Y, nullptr};
# CUDA: return cudaLaunchCooperativeKernel((const void *)ok_kernel, dim3(4, 1, 1), dim3(128, 1, 1), tl_args, smem, stream);
def ok():
    @T.prim_func
    def main(X: T.Tensor((4,), "float32"), P: T.Tensor((4,), "float32"), Y: T.Tensor((4,), "float32")):
        with T.Kernel(4, threads=128) as bx:
            P[bx] = X[bx]
            T.sync_grid()
            Y[bx] = P[(bx + 1) % 4]
    return main


def in_loop():
    @T.prim_func
    def main(X: T.Tensor((4,), "float32")):
        with T.Kernel(4, threads=128) as bx:
            for k in T.serial(2):
                # LOOP: sync-grid.py:[[#@LINE+2]]:17: error: T.sync_grid() inside a loop, branch or scope; tlc takes it at the top level of the kernel's body
                # LOOP: note: every thread of every block must reach a grid barrier
                T.sync_grid()
                X[bx] = X[bx] + 1.0
    return main


def with_args():
    @T.prim_func
    def main(X: T.Tensor((4,), "float32")):
        with T.Kernel(4, threads=128) as bx:
            # ARGS: sync-grid.py:[[#@LINE+1]]:13: error: 'T.sync_grid' takes 0 arguments, 1 given
            T.sync_grid(1)
    return main
