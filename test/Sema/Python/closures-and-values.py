# The evaluator runs the Python that builds a kernel: lists and tuples
# (indexing, negative indexes, slicing, len, unpacking, +, *), float
# arithmetic (** 0.5), conditional expressions, if/elif/else and for loops on
# compile-time values, bitwise operators, nested helper functions with
# closures, a factory returning a factory, and `is None` / `in` tests.
# RUN: %tlc %s --call 'outer(3)' | FileCheck %s
import math

import tilelang.language as T


def pick_block(n, candidates=(32, 64, 128)):
    best = None
    for c in candidates:
        if n % c != 0:
            continue
        if best is None or c > best:
            best = c
        if best >= 128:
            break
    return best


def outer(level):
    sizes = [1024, 768, 96][:level]      # slicing
    M, N, dim = sizes                    # unpacking
    shape = [M] + [N]                    # list concatenation
    scale = (1.0 / dim) ** 0.5 * 1.44269504
    block = pick_block(N)
    rows = 1 << 6 if "fast" in ("fast", "safe") else 16
    if level > 3:
        threads = 256
    elif level == 3:
        threads = 128 | 0
    else:
        threads = 32
    total: int = 0  # an annotated assignment
    for k in range(1, 4):
        total += k * 2
    assert total == 12, "loop evaluation"
    bump = lambda x: x + total

    def inner():
        @T.prim_func
        def main(X: T.Tensor(shape, "float32"), Y: T.Tensor((shape[0], shape[-1]), "float32")):
            with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, rows), threads=threads) as (bx, by):
                for i, j in T.Parallel(rows, block):
                    Y[by * rows + i, bx * block + j] = X[by * rows + i, bx * block + j] * scale + bump(len(shape))

        return main

    return inner

# CHECK: // kernel outer ({{.*}}): grid (6, 16, 1), 128 threads
# CHECK: T.Parallel(64, 128)
# CHECK: v_X_{{[0-9]+}}[lane_{{[0-9]+}}] * 0.147244446f + 14.0f
