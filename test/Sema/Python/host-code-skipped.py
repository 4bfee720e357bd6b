# A TileLang script as people write it: host code around the kernel
# (torch, argparse, classes, try/except, comprehensions, f-strings, a main
# guarded by __name__) is skipped without being understood; the
# module-level @T.prim_func compiles with no --call.
# RUN: %tlc %s | FileCheck %s
import argparse
import itertools

import tilelang
import tilelang.language as T
import torch

M, N = 256, 256
CONFIGS = [{"block": b, "threads": t} for b, t in itertools.product([32, 64], [128, 256])]
MASK = 0xFF & ~0x0F
LOG = f"{M}x{N} {'mask'!r}"


class Timer:
    def __enter__(self):
        self.t = torch.cuda.Event(enable_timing=True)
        return self


@T.prim_func
def add_one(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
    with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
        for i, j in T.Parallel(64, 64):
            B[by * 64 + i, bx * 64 + j] = A[by * 64 + i, bx * 64 + j] + (MASK >> 4)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=M)
    args = parser.parse_args()
    try:
        a = torch.randn(args.m, N, device="cuda")
    except RuntimeError as e:
        print(f"no GPU: {e}")
        return
    while False:
        pass
    print(*[x for x in range(3)], sep=", ")


if __name__ == "__main__":
    main()

# CHECK: // kernel add_one ({{.*}}): grid (4, 4, 1), 128 threads
# CHECK: = v_A_{{[0-9]+}}[lane_{{[0-9]+}}] + 15.0f;
