# TileLang's TensorCoreIntrinEmitter (warp-level MMA by hand): its ldmatrix_a
# / ldmatrix_b load each thread's fragment elements of the warp's tiles
# (TileLang's register layout: rows lane / 4 (+8), K pairs (lane % 4) * 2
# (+8)), mma is one mma.sync atom per 16x8 tile (ST_MMA, on 16-byte aligned
# local buffers), stmatrix stores the accumulators (rows lane / 4 (+8),
# column pairs (lane % 4) * 2). int8 and float8 take the k32 atoms. The IR
# reads back unchanged. Checked on the H200 against torch (bench/torch_checks.py gemm).
# RUN: %tlc %s --call 'gemm("float16", "float32")' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'gemm("float16", "float32")' -o - | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'gemm("int8", "int32")' -o - | FileCheck %s --check-prefix=INT8
# RUN: %tlc %s --call 'gemm("float16", "float32")' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
# RUN: not %tlc %s --call 'gemm("float16", "float16")' 2>&1 | FileCheck %s --check-prefix=ACC
import tilelang.language as T
from tilelang.cuda.intrinsics.macro.mma_macro_generator import TensorCoreIntrinEmitter


def gemm(in_dtype, accum_dtype):
    chunk = 32 if in_dtype == "float16" else 64
    emitter = TensorCoreIntrinEmitter(a_dtype=in_dtype, b_dtype=in_dtype, accum_dtype=accum_dtype,
                                      a_transposed=False, b_transposed=True, block_row_warps=2,
                                      block_col_warps=1, warp_row_tiles=32, warp_col_tiles=16,
                                      chunk=chunk)
    k_step = 16 if in_dtype == "float16" else 32
    per_a = 16 * k_step // 32

    @T.prim_func
    def main(A: T.Tensor((64, chunk), in_dtype), B: T.Tensor((16, chunk), in_dtype),
             C: T.Tensor((64, 16), accum_dtype)):
        with T.Kernel(1, threads=64) as bx:
            A_shared = T.alloc_shared((64, chunk), in_dtype)
            B_shared = T.alloc_shared((16, chunk), in_dtype)
            C_shared = T.alloc_shared((64, 16), accum_dtype)
            A_local = T.alloc_local((2 * per_a,), in_dtype)
            B_local = T.alloc_local((per_a,), in_dtype)
            C_local = T.alloc_local((16,), accum_dtype)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.clear(C_local)
            for ki in T.serial(chunk // k_step):
                emitter.ldmatrix_a(A_local, A_shared, ki)
                emitter.ldmatrix_b(B_local, B_shared, ki)
                emitter.mma(A_local, B_local, C_local)
            emitter.stmatrix(C_local, C_shared)
            T.copy(C_shared, C)
    return main

# IR: A_local[0] = A_shared[tx // 32 % 2 * 32 + tx % 32 // 4, ki * 16 + tx % 32 % 4 * 2] @[[#@LINE-7]]:17
# IR: A_local[2] = A_shared[tx // 32 % 2 * 32 + (tx % 32 // 4 + 8), ki * 16 + tx % 32 % 4 * 2]
# IR: A_local[4] = A_shared[tx // 32 % 2 * 32 + tx % 32 // 4, ki * 16 + (tx % 32 % 4 * 2 + 8)]
# IR: B_local[4] = B_shared[tx % 32 // 4 + 8, ki * 16 + tx % 32 % 4 * 2]
# IR: mma A_local[0], B_local[0] -> C_local[0] k 16
# IR-NEXT: mma A_local[0], B_local[4] -> C_local[4] k 16
# IR-NEXT: mma A_local[8], B_local[0] -> C_local[8] k 16
# IR-NEXT: mma A_local[8], B_local[4] -> C_local[12] k 16
# IR: C_shared[tx // 32 % 2 * 2 * 16 + tx % 32 // 4, tx % 32 % 4 * 2] = C_local[0]
# CUDA: __align__(16) half_t A_local[16];
# CUDA: tl_mma_half(C_local + 0, (const unsigned*)(A_local + 0), (const unsigned*)(B_local + 0));
# INT8: void tl_mma_s8(int *d, const unsigned *a, const unsigned *b) {
# INT8: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
# INT8: tl_mma_s8(C_local + 4, (const unsigned*)(A_local + 0), (const unsigned*)(B_local + 8));
# ACC: error: tlc's TensorCoreIntrinEmitter takes float16 or bfloat16 operands into float32, int8 into int32 or float8 into float32 (a_dtype float16, b_dtype float16, accum_dtype float16)


def misuse():
    emitter = TensorCoreIntrinEmitter(a_dtype="float16", b_dtype="float16", accum_dtype="float32",
                                      b_transposed=True, warp_row_tiles=16, warp_col_tiles=16,
                                      chunk=16)

    @T.prim_func
    def main(A: T.Tensor((16, 16), "float16")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((16, 16), "float16")
            A_local = T.alloc_local((4,), "float16")
            C_local = T.alloc_local((8,), "float32")
            T.copy(A, A_shared)
            emitter.ldmatrix_a(A_local, A_shared, 0)
            emitter.ldmatrix_c(A_local, A_shared, 0)
            emitter.mma(A_local, A_local, A_local)
            emitter.stmatrix(C_local, A_shared, wrong=1)
            for i in T.Parallel(16):
                emitter.ldmatrix_a(A_local, A_shared, 0)
    return main
# BAD: mma-emitter.py:[[#@LINE-7]]:13: error: fragment 'A_local' holds 4 elements; this emitter needs 8
# BAD: mma-emitter.py:[[#@LINE-7]]:13: error: tlc's TensorCoreIntrinEmitter has ldmatrix_a, ldmatrix_b, mma and stmatrix, not 'ldmatrix_c'
# BAD: mma-emitter.py:[[#@LINE-7]]:13: error: mma's buffers are float16, float16 and float16; the emitter takes float16, float16 into float32
# BAD: mma-emitter.py:[[#@LINE-7]]:49: error: unexpected keyword argument 'wrong' to 'stmatrix'
# BAD: mma-emitter.py:[[#@LINE-6]]:17: error: TensorCoreIntrinEmitter's 'ldmatrix_a' inside T.Parallel; it is warp code, called by every thread
