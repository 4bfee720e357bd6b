# TileLang's autotune config helper, as its examples write it:
# dict(zip(names, values)) over itertools.product(*params.values()). `dict`
# takes a dict or (key, value) pairs, and `*seq` spreads a list or tuple into
# itertools.product and the other builtins. Misuse is located.
# RUN: %tlc %s --call 'add(256, 32)' --emit=ir --stop-after=sema | FileCheck %s
# RUN: not %tlc %s --call 'bad_pairs()' 2>&1 | FileCheck %s --check-prefix=PAIRS --match-full-lines
# RUN: not %tlc %s --call 'bad_star()' 2>&1 | FileCheck %s --check-prefix=STAR --match-full-lines
import itertools

import tilelang.language as T


def get_configs():
    iter_params = dict(block_M=[64, 128], block_N=[32], threads=[128, 256])
    return [dict(zip(iter_params, values)) for values in itertools.product(*iter_params.values())]


CONFIGS = get_configs()


def add(M, N):
    # inside the factory, so that a failing assert is an error (a module-level
    # statement that fails is host code, skipped)
    assert len(CONFIGS) == 4
    assert CONFIGS[3] == {"block_M": 128, "block_N": 32, "threads": 256}
    assert dict(CONFIGS[1]) == CONFIGS[1]
    assert list(zip(*[(1, 2), (3, 4)])) == [(1, 3), (2, 4)]
    cfg = CONFIGS[2]
    block_M = cfg["block_M"]

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=cfg["threads"]) as bx:
            for i, j in T.Parallel(block_M, N):
                B[bx * block_M + i, j] = A[bx * block_M + i, j]

    return main


def bad_pairs():
    return dict([(1, 2), (3, 4, 5)])
# PAIRS:{{.*}}dict-from-pairs-and-star-args.py:[[@LINE-1]]:12: error: 'dict' takes a dict or a sequence of (key, value) pairs; item 1 is not a pair
# PAIRS-NEXT:    return dict([(1, 2), (3, 4, 5)])
# PAIRS-NEXT:           ^~~~


def bad_star():
    return itertools.product(*5)
# STAR:{{.*}}dict-from-pairs-and-star-args.py:[[@LINE-1]]:30: error: '*' needs a list or tuple, found an int
# STAR-NEXT:    return itertools.product(*5)
# STAR-NEXT:                             ^


# CHECK: kernel add(A: global float32[256, 32] read @{{[0-9:]+}}, B: global float32[256, 32] written @{{[0-9:]+}}) grid(2, 1, 1) threads(128, 1, 1)
