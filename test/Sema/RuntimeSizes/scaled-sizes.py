# A runtime size times a compile-time integer (`seq_len * heads`, the query
# tensor of TileLang's MQA indexers) is a tensor dimension: the kernel and
# launcher still take the size itself (seq_len), the extent is the product
# wherever tlc needs it (edge guards, the launcher's 32-bit check, the IR,
# the header and --emit=signature), and the kernel's expressions may use it.
# The contiguous (last) dimension and strides must be sizes themselves.
# RUN: %tlc %s --call 'rows()' --print-after=sema -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'rows()' --emit=ir -o %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: %tlc %s --call 'rows()' -o %t.cu && FileCheck %s --check-prefix=CUDA < %t.cu
# RUN: %tlc %s --call 'rows()' --emit=signature | FileCheck %s --check-prefix=SIG
# RUN: %tlc %s --call 'rows()' --harness --size seq_len=37 -o %t_harness.cu && FileCheck %s --check-prefix=HARNESS < %t_harness.cu
# RUN: not %tlc %s --call 'last_dim()' 2>&1 | FileCheck %s --check-prefix=LAST
import tilelang.language as T

seq_len = T.dynamic("seq_len")

# IR: kernel rows(Q: global float32[seq_len#{{[0-9]+}} * 4, 64] read @{{.*}}, W: global float32[seq_len#{{[0-9]+}}, 4]
# IR: parallel (h#{{[0-9]+}} < 4, d#{{[0-9]+}} < 64)
# IR-NEXT: if bx * 4 + h < seq_len * 4
# CUDA: < seq_len_0 * 4 ? Q[
# CUDA: if ((double)seq_len_0 * 4.0 * 64.0 > 2147483647.0) // Q: past 32-bit indexing
# SIG: "shape": ["seq_len*4", 64]
# SIG: "shape": ["seq_len", 4]
# SIG: "shape": ["seq_len*4", 64]
# HARNESS: {"Q", TLH_F32, 2, {148LL, 64LL}
def rows(heads=4, dim=64):
    @T.prim_func
    def k(Q: T.Tensor((seq_len * heads, dim), "float32"), W: T.Tensor((seq_len, heads), "float32"),
          O: T.Tensor((seq_len * heads, dim), "float32")):
        with T.Kernel(seq_len, threads=128) as bx:
            for h, d in T.Parallel(heads, dim):
                if bx * heads + h < seq_len * heads:
                    O[bx * heads + h, d] = Q[bx * heads + h, d] * W[bx, h]
    return k


def last_dim():
    @T.prim_func
    def k(Q: T.Tensor((64, seq_len * 2), "float32")):
        with T.Kernel(1, threads=128) as bx:
            Q[0, 0] = 1.0
    return k
# LAST: scaled-sizes.py:[[#@LINE-4]]:36: error: the last dimension of a tensor may be a runtime size, not a multiple of one ('seq_len * 2')
# LAST: scaled-sizes.py:[[#@LINE-5]]:36: note: give the contiguous dimension a size of its own, e.g. T.dynamic("seq_len_x2")
