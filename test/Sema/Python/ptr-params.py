# Pointer parameters: `P: T.ptr` (or T.handle) shaped by
# `X = T.make_tensor(P, shape, dtype)` before the T.Kernel block is the
# tensor parameter X at P's position; scalar parameters in its shape are
# runtime sizes (the launcher takes them after the tensors).
# RUN: %tlc %s --call 'f()' --emit=signature | FileCheck %s --check-prefix=SIG
# RUN: %tlc %s --call 'f()' -o - | FileCheck %s --check-prefix=CUDA
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang.language as T

# SIG: {"name": "X", "c_name": "X", "index": 0, "role": "tensor", "dtype": "float16", "shape": ["m", 64],
# SIG: {"name": "W", "c_name": "W", "index": 1, "role": "tensor", "dtype": "float32", "shape": [64],
# SIG: {"name": "Y", "c_name": "Y", "index": 2, "role": "tensor", "dtype": "float16", "shape": ["m", 64],
# SIG: "sizes": ["m"]
# CUDA: extern "C" cudaError_t f(const half_t* X, const float* W, half_t* Y, int m_0, cudaStream_t stream)
def f():
    @T.prim_func
    def k(x: T.ptr, W: T.Tensor((64,), T.float32), y: T.handle, m: T.int32):
        X = T.make_tensor(x, (m, 64), T.float16)
        Y = T.make_tensor(y, shape=(m, 64), dtype=T.float16)
        with T.Kernel(T.ceildiv(m, 32), threads=128) as bx:
            for i, j in T.Parallel(32, 64):
                if bx * 32 + i < m:
                    Y[bx * 32 + i, j] = X[bx * 32 + i, j] * W[j]
    return k


def misuse():
    @T.prim_func
    def k(a: T.ptr, b: T.ptr, c: T.ptr, d: T.Tensor((4,), T.float32)):
        A = T.make_tensor(a, (4,), T.float32)
        A2 = T.make_tensor(a, (4,), T.float32)
        C = T.make_tensor(c, (4,), T.float32, strides=(1,))
        D = T.make_tensor(d, (4,), T.float32)
        with T.Kernel(1, threads=32) as bx:
            A[0] = 1.0
    return k
# BAD: ptr-params.py:[[#@LINE-6]]:9: error: pointer parameter 'a' is given a shape twice
# BAD: ptr-params.py:[[#@LINE-8]]:9: note: first T.make_tensor of 'a' here
# BAD: ptr-params.py:[[#@LINE-10]]:21: error: pointer parameter 'b' has no shape; give it one with NAME = T.make_tensor(b, shape, dtype) before the T.Kernel block
# BAD: ptr-params.py:[[#@LINE-8]]:55: error: strides= in T.make_tensor are not supported; tlc takes row-major tensors
# BAD: ptr-params.py:[[#@LINE-8]]:27: error: T.make_tensor here takes a pointer parameter of the prim_func (NAME: T.ptr)
