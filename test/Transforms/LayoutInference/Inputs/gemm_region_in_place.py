# Kernels of gemm-region-in-place.test (its CHECK lines are here, next to each kernel).
import tilelang.language as T

# CHECK: kernel stages(
# CHECK: alloc K_s: shared float16[2, 64, 64] swizzle 8 aliased wgmma_operand
# CHECK: alloc K_s_view{{[0-9]+}}: shared float16[64, 64] swizzle 8 alias_of K_s wgmma_operand
# CHECK-NOT: region_tile
# CHECK: gemm Q_s, K_s_view[[V:[0-9]+]]^T -> acc (wgmma) gemm_id 0 offset_b ko % 2 * 4096
@T.prim_func
def stages(Q: T.Tensor((64, 64), "float16"), K: T.Tensor((256, 64), "float16"), O: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        Q_s = T.alloc_shared((64, 64), "float16")
        K_s = T.alloc_shared((2, 64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(Q, Q_s)
        T.clear(acc)
        for ko in T.serial(4):
            T.copy(K[ko * 64, 0], K_s[ko % 2, :, :])
            T.gemm(Q_s, K_s[ko % 2, :, :], acc, transpose_B=True)
        T.copy(acc, O)


# CHECK: kernel panels(
# CHECK: alloc Q_s: shared float16[64, 128] swizzle 8 aliased wgmma_operand
# CHECK: gemm Q_s_view{{[0-9]+}}, K_s^T -> acc (wgmma) gemm_id 0 offset_a 4096
@T.prim_func
def panels(Q: T.Tensor((64, 128), "float16"), K: T.Tensor((64, 64), "float16"), O: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        Q_s = T.alloc_shared((64, 128), "float16")
        K_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(Q, Q_s)
        T.copy(K, K_s)
        T.clear(acc)
        T.gemm(Q_s[:, 64:128], K_s, acc, transpose_B=True)
        T.copy(acc, O)


# CHECK: kernel inside_a_panel(
# CHECK: alloc [[T:gemm_A_64x64_float16]]: shared float16[64, 64] swizzle 8 region_tile wgmma_operand
# CHECK: gemm [[T]], K_s^T -> acc (wgmma)
@T.prim_func
def inside_a_panel(Q: T.Tensor((64, 128), "float16"), K: T.Tensor((64, 64), "float16"), O: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        Q_s = T.alloc_shared((64, 128), "float16")
        K_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(Q, Q_s)
        T.copy(K, K_s)
        T.clear(acc)
        T.gemm(Q_s[:, 16:80], K_s, acc, transpose_B=True)
        T.copy(acc, O)
