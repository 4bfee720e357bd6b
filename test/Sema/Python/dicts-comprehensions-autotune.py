# Dicts, comprehensions, itertools.product, zip/enumerate, **config and
# @autotune: a factory called without its tuned parameters takes the first
# config (tlc cannot benchmark while compiling) and warns; passing them
# explicitly, or with **config, needs no warning.
# RUN: %tlc %s --call 'scaled(1024)' -o %t.cu 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s --input-file=%t.cu
# RUN: %tlc %s --call 'scaled(1024, **CONFIGS[-1])' 2>&1 | FileCheck %s --check-prefix=LAST
import itertools
from itertools import product

import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune


def get_configs():
    blocks = [64, 128]
    threads = [128, 256]
    return [{"block": b, "threads": t} for b, t in itertools.product(blocks, threads)]


CONFIGS = get_configs()
PAIRS = [x * y for x, y in product(range(3), (10, 20)) if x]        # [10, 20, 20, 40]
TABLE = {k: v for k, v in zip("ab", (1, 2))}                        # {'a': 1, 'b': 2}
EXTRA = dict(c=3, **TABLE)
TOTAL = sum(v for v in EXTRA.values()) + len({1, 2, 2}) + EXTRA.get("zz", 5)  # 6 + 2 + 5
ORDER = [i for i, _ in enumerate("xyz")][-1]                         # 2
assert {x % 3 for x in range(10)} == [0, 1, 2]                       # sets are lists of distinct items


@autotune(configs=CONFIGS, warmup=10, rep=20)
@tilelang.jit(out_idx=[-1])
def scaled(M, block, threads):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(M // block, threads=threads) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = PAIRS[-1] + TOTAL + ORDER + TABLE["b"]

    return main

# WARN: --call:1:1: warning: 'scaled' is autotuned; tlc does not tune, it takes the first of 4 configs for block, threads
# WARN: note: pass them in the call to choose another config
# CHECK: // kernel scaled ({{.*}}): grid (16, 1, 1), 128 threads
# CHECK: = 57.0f;
# LAST-NOT: warning
# LAST: // kernel scaled ({{.*}}): grid (8, 1, 1), 256 threads
