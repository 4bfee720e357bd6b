# TileLang's autotuner API, AutoTuner.from_kernel(kernel=f, configs=c) with
# its set_* builder calls and .run(...): tlc cannot time kernels while it
# compiles, so, as for @autotune, it compiles f with the first config (the
# tuner's own "pass_configs" key left out) and warns, naming the function to
# call for another config. PassConfigKey.X is the option's name.
# RUN: %tlc %s --call 'get_best_config(256, 256, 256)' -o %t.cu 2>&1 | FileCheck %s --check-prefix=WARN --match-full-lines
# RUN: FileCheck %s --input-file=%t.cu
# RUN: not %tlc %s --call 'no_configs()' 2>&1 | FileCheck %s --check-prefix=EMPTY --match-full-lines
# RUN: not %tlc %s --call 'unknown_method()' 2>&1 | FileCheck %s --check-prefix=METHOD --match-full-lines
import itertools

import tilelang.language as T
from tilelang.autotuner import AutoTuner
from tilelang.transform import PassConfigKey


def get_configs():
    return [
        {"block_M": bm, "threads": t, "pass_configs": {PassConfigKey.TL_DISABLE_TMA_LOWER: True}}
        for bm, t in itertools.product([64, 128], [128, 256])
    ]


def make_kernel(M, N):
    def kernel(block_M=None, threads=None):
        @T.prim_func
        def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
            with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
                for i, j in T.Parallel(block_M, N):
                    B[bx * block_M + i, j] = A[bx * block_M + i, j] * 2.0

        return main

    return kernel


def get_best_config(M, N, K):
    autotuner = (
        AutoTuner.from_kernel(kernel=make_kernel(M, N), configs=get_configs())
        .set_compile_args(out_idx=[-1], target="auto")
        .set_profile_args(supply_type=tl.TensorSupplyType.Auto, ref_prog=None)
    )
    return autotuner.run(warmup=3, rep=20)
# WARN: {{.*}}autotuner-from-kernel.py:[[#@LINE-1]]:12: warning: 'kernel' is autotuned; tlc does not tune, it takes the first of 4 configs for block_M, threads
# WARN: {{.*}}autotuner-from-kernel.py:25:9: note: 'kernel' is defined here; call it with a config's values to choose another

# The first config: 64-row blocks of 128 threads.
# CHECK: __global__ void __launch_bounds__(128, 1) get_best_config_kernel(
# CHECK: get_best_config_kernel<<<dim3(4, 1, 1), dim3(128, 1, 1)


def no_configs():
    return AutoTuner.from_kernel(kernel=make_kernel(64, 64), configs=[]).run()
# EMPTY: {{.*}}autotuner-from-kernel.py:[[#@LINE-1]]:12: error: 'AutoTuner.from_kernel' needs configs=, a non-empty list of dicts


def unknown_method():
    return AutoTuner.from_kernel(kernel=make_kernel(64, 64), configs=get_configs()).tune()
# METHOD: {{.*}}autotuner-from-kernel.py:[[#@LINE-1]]:12: error: tlc does not evaluate 'AutoTuner.tune'
