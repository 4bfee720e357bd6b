# A kernel for bench/checks-s12/rand_check.py: 128 threads per block, each with its own
# generator (T.rng_init without seq=: subsequence threadIdx.x + blockIdx.x * 128), drawing
# 32-bit values for the 512 points of its block's row in the partition's order.
import tilelang.language as T


@T.prim_func
def rng_threads(B: T.Tensor((8, 512), "uint32")):
    with T.Kernel(8, threads=128) as bx:
        T.rng_init(1234)
        for i in T.Parallel(512):
            B[bx, i] = T.rng_rand()
