"""Element-wise addition of two 2-D tensors, TileLang example style.

``C = A + B`` over an M x N grid. Each thread block owns a
``block_M x block_N`` tile; ``T.Parallel`` lets the compiler spread the tile
over the block's threads and pick a vector width. The tile shape and the
thread count are tunable: ``get_configs`` lists the search space and the
``@autotune`` decorator benchmarks every point of it when the factory is
called without explicit tile sizes.

Usage:
    python elementwise_add.py --m 4096 --n 4096
    python elementwise_add.py --m 4096 --n 4096 --use_autotune
"""

import argparse
import itertools

import tilelang
import tilelang.language as T
import torch
from tilelang.autotuner import autotune


def ref_program(x, y):
    return x + y


def get_configs():
    """Search space for the autotuner: tile shape x threads per block."""
    block_M = [32, 64, 128]
    block_N = [64, 128, 256]
    threads = [128, 256]
    return [{
        "block_M": bm,
        "block_N": bn,
        "threads": th,
    } for bm, bn, th in itertools.product(block_M, block_N, threads)]


@autotune(configs=get_configs(), warmup=10, rep=20)
@tilelang.jit(out_idx=[-1])
def elementwise_add(M,
                    N,
                    block_M=64,
                    block_N=128,
                    threads=128,
                    in_dtype="float32",
                    out_dtype="float32"):
    """Return a kernel computing C = A + B for M x N tensors.

    The tile sizes and thread count are captured by the nested prim_func,
    so every distinct configuration yields its own specialised kernel.
    """

    @T.prim_func
    def elem_add(
            A: T.Tensor((M, N), in_dtype),
            B: T.Tensor((M, N), in_dtype),
            C: T.Tensor((M, N), out_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            for (local_y, local_x) in T.Parallel(block_M, block_N):
                # Global coordinates of this element.
                y = by * block_M + local_y
                x = bx * block_N + local_x
                C[y, x] = A[y, x] + B[y, x]

    return elem_add


def main():
    parser = argparse.ArgumentParser(description="TileLang-style element-wise add")
    parser.add_argument("--m", type=int, default=1024)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--use_autotune", action="store_true", default=False)
    args, _ = parser.parse_known_args()
    M, N = args.m, args.n

    a = torch.randn(M, N, dtype=torch.float32, device="cuda")
    b = torch.randn(M, N, dtype=torch.float32, device="cuda")

    if args.use_autotune:
        # No tile sizes given: the autotuner times every config and keeps the best.
        kernel = elementwise_add(M, N)
        print(f"Best config: {kernel.config}")
    else:
        config = {"block_M": 64, "block_N": 128, "threads": 128}
        kernel = elementwise_add(M, N, **config)

    out = kernel(a, b)
    torch.testing.assert_close(out, ref_program(a, b), rtol=1e-2, atol=1e-2)
    print("All checks pass.")

    profiler = kernel.get_profiler()
    latency = profiler.do_bench(warmup=100)
    gbytes = 3 * M * N * a.element_size() / 1e9
    print(f"TileLang: {latency:.4f} ms, {gbytes / (latency * 1e-3):.1f} GB/s")


if __name__ == "__main__":
    main()
#call elementwise_add(256, 256)
