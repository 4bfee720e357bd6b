# A persistent warp-specialized GEMM over 3 batches (two compute warpgroups:
# one block per SM walks the 96 tiles) whose epilogue scales each row by S,
# read with an edge guard `bz * 1000 + by * 128 + i < 3000 ? S[...] : 0`;
# bz = tl_tile / 32 (no modulo) is not periodic in the tile loop.
import tilelang.language as T

@T.prim_func
def scaled(A: T.Tensor((1000, 1024), "float16"), B: T.Tensor((1024, 1024), "float16"),
           S: T.Tensor((3000,), "float32"), C: T.Tensor((3, 1000, 1024), "float32")):
    with T.Kernel(T.ceildiv(1024, 256), T.ceildiv(1000, 128), 3, threads=256) as (bx, by, bz):
        A_s = T.alloc_shared((128, 64), "float16")
        B_s = T.alloc_shared((64, 256), "float16")
        C_l = T.alloc_fragment((128, 256), "float32")
        s_l = T.alloc_fragment((128,), "float32")
        T.clear(C_l)
        for k in T.Pipelined(T.ceildiv(1024, 64), num_stages=3):
            T.copy(A[by * 128, k * 64], A_s)
            T.copy(B[k * 64, bx * 256], B_s)
            T.gemm(A_s, B_s, C_l)
        for i in T.Parallel(128):
            s_l[i] = S[bz * 1000 + by * 128 + i]
        for i, j in T.Parallel(128, 256):
            C_l[i, j] *= s_l[i]
        T.copy(C_l, C[bz, by * 128, bx * 256])
