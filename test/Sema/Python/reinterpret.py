# T.reinterpret: the bits of a value read as another dtype of the same size,
# in TileLang's order (value, dtype) and TVM's (dtype, value). CUDA reads the
# bytes through tl_bitcast; the IR text states the dtype and reads back.
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: %tlc %s --call 'f()' --emit=ir | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' --emit=ir -o %t.tir && %tlc %t.tir --passes=specialize-sizes,lower-tile-ops,replicate-fragments,uniform-select,layout-inference,warp-specialize,pipeline,partition,flatten,vectorize,swizzle,thread-sync,plan-shared | FileCheck %s
# RUN: not %tlc %s --call 'sizes()' 2>&1 | FileCheck %s --check-prefix=SIZES
# RUN: not %tlc %s --call 'literal()' 2>&1 | FileCheck %s --check-prefix=LIT
import tilelang.language as T


# CHECK: __device__ __forceinline__ To tl_bitcast(From x) {
# CHECK: unsigned int u_{{[0-9]+}} = tl_bitcast<unsigned int>(v_A_{{[0-9]+}}[lane_{{[0-9]+}}]);
# CHECK: ((unsigned short)(tl_bitcast<unsigned short>(v_H_{{[0-9]+}}[lane_{{[0-9]+}}]) >> 8))
# CHECK: tl_bitcast<float>(u_{{[0-9]+}} & 4294963200u)
# IR: let u#{{[0-9]+}}: uint32 = reinterpret<uint32>(v_A[lane]) @[[#@LINE+8]]:19
def f(N=256):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), H: T.Tensor((N,), "float16"),
             U: T.Tensor((N,), "uint32"), V: T.Tensor((N,), "uint16"),
             F: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(N):
                u = T.reinterpret(A[i], T.uint32)
                U[i] = u ^ T.if_then_else(A[i] < 0, T.uint32(0xFFFFFFFF), T.uint32(0x80000000))
                V[i] = T.reinterpret(H[i], "uint16") >> 8
                F[i] = T.reinterpret("float32", (u & T.uint32(0xFFFFF000)))
    return main


def sizes():
    @T.prim_func
    def main(H: T.Tensor((64,), "float16"), U: T.Tensor((64,), "uint32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                # SIZES: reinterpret.py:[[#@LINE+1]]:24: error: T.reinterpret from float16 (16 bits) to uint32 (32 bits): the sizes must match
                U[i] = T.reinterpret(H[i], T.uint32)
    return main


def literal():
    @T.prim_func
    def main(U: T.Tensor((64,), "uint32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                # LIT: reinterpret.py:[[#@LINE+2]]:48: error: T.reinterpret of a literal: its size is not known
                # LIT: note: give it a dtype first, e.g. T.reinterpret(T.float32(1.5), T.uint32)
                U[i] = T.reinterpret(T.uint32, 1.5)
    return main
