# X = T.reshape(src, shape): an index view of a fragment (never in the IR):
# X[i, q, h] of a (64, 2, 32) view of a (64, 64) fragment is src[i, q * 32 + h];
# a T.Parallel whose trailing variables index the split dimensions is fused
# into one variable over src's dimension (q_h), so it follows src's layout;
# T.reduce_* of the view along its last dimension reduces src masked to each
# segment into a row, then one nest stores the rows; a one-segment view is the
# reduction of src's rows; a view that re-splits dimensions divides the
# linear index; a shared tile's reshape is a T.view alias, a local buffer's
# an index view.
# RUN: %tlc %s --call 'f()' --print-after=sema -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f()' -o %t.cu 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
# RUN: FileCheck %s --check-prefix=CUDA < %t.cu
# RUN: %tlc %s --call 'local()' --print-after=sema -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOCAL
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang.language as T

# IR: alloc S2: shared float16[32, 128] alias_of S
# IR: alloc s: fragment float32[64, 64]
# IR-NOT: alloc s_r:
# IR: parallel (i#{{[0-9]+}} < 64, q_h#{{[0-9]+}} < 64)
# IR-NEXT: s[i, q_h] = max(s[i, q_h], 0.0) * w[q_h // 32, q_h % 32]
# IR: parallel (i#{{[0-9]+}} < 64, j#{{[0-9]+}} < 64)
# IR-NEXT: s_r_seg{{[0-9]+}}[i, j] = select(j // 32 == 0, s[i, j], -inf)
# IR: reduce_max s_r_seg{{[0-9]+}}[0 +: 64, 0 +: 64] -> s_r_row0[0 +: 64] dim 1 clear
# IR: s_r_seg{{[0-9]+}}[i, j] = select(j // 32 == 1, s[i, j], -inf)
# IR: reduce_max s_r_seg{{[0-9]+}}[0 +: 64, 0 +: 64] -> s_r_row1[0 +: 64] dim 1 clear
# IR: parallel (i#{{[0-9]+}} < 64, q#{{[0-9]+}} < 2)
# IR-NEXT: o[i, q] = select(q == 0, s_r_row0[i], s_r_row1[i])
# IR: reduce_sum t[0 +: 64, 0 +: 32] -> r[0 +: 64] dim 1 clear @
# IR: parallel (k#{{[0-9]+}} < 4096)
# IR-NEXT: F[k] = s[k // 64, k % 64]
# IR: parallel (a#{{[0-9]+}} < 32, b#{{[0-9]+}} < 128)
# IR-NEXT: G[a, b] = s[(a * 128 + b) // 64, (a * 128 + b) % 64]
# The user's nest that reads the (2, 32) fragment w by q_h // 32 and
# q_h % 32 stages it (a warning), as do the nests that re-split s's
# indices; the reduction's own nests stage quietly.
# WARN: fragment-reshape.py:[[#@LINE+29]]:57: warning: fragment 'w' is staged through shared memory
# WARN: fragment-reshape.py:[[#@LINE+35]]:24: warning: fragment 's' is staged through shared memory
# WARN: fragment-reshape.py:[[#@LINE+36]]:27: warning: fragment 's' is staged through shared memory
# CUDA: T.reduce_max at line [[#@LINE+27]]
def f():
    @T.prim_func
    def k(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"),
          W: T.Tensor((2, 32), "float32"), O: T.Tensor((64, 2), "float32"),
          R: T.Tensor((64,), "float32"), F: T.Tensor((4096,), "float32"),
          G: T.Tensor((32, 128), "float32"), H: T.Tensor((32, 128), "float16")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((64, 64), "float16")
            S2 = T.reshape(S, (32, 128))
            Bs = T.alloc_shared((64, 64), "float16")
            s = T.alloc_fragment((64, 64), "float32")
            s_r = T.reshape(s, (64, 2, 32))
            s_flat = T.reshape(s, [4096])
            s_wide = T.reshape(s, (32, 128))
            w = T.alloc_fragment((2, 32), "float32")
            o = T.alloc_fragment((64, 2), "float32")
            t = T.alloc_fragment((64, 32), "float32")
            t_r = T.reshape(t, (64, 1, 32))
            r = T.alloc_fragment((64, 1), "float32")
            T.copy(A, S)
            T.copy(B, Bs)
            T.copy(W, w)
            T.gemm(S, Bs, s, transpose_B=True, clear_accum=True)
            T.copy(S2, H)
            for i, q, h in T.Parallel(64, 2, 32):
                s_r[i, q, h] = T.max(s_r[i, q, h], 0) * w[q, h]
            T.reduce_max(s_r, o, dim=2)
            T.copy(o, O)
            T.copy(A[0:64, 0:32], t)
            T.reduce_sum(t_r, r, dim=-1, clear=True)
            T.copy(r, R)
            for k in T.Parallel(4096):
                F[k] = s_flat[k]
            for a, b in T.Parallel(32, 128):
                G[a, b] = s_wide[a, b]
    return k


def misuse():
    @T.prim_func
    def k(A: T.Tensor((64, 64), "float32"), O: T.Tensor((64, 2), "float32")):
        with T.Kernel(1, threads=128) as bx:
            s = T.alloc_fragment((64, 64), "float32")
            bad = T.reshape(s, (64, 3, 32))
            g = T.reshape(A, (4096,))
            v = T.reshape(s, (2, 32, 64))
            o = T.alloc_fragment((2, 32), "float32")
            o2 = T.alloc_fragment((64, 3), "float32")
            u = T.reshape(s, (64, 2, 32))
            T.copy(A, s)
            T.copy(v, O)
            T.reduce_sum(v, o, dim=2)
            T.reduce_sum(u, o2, dim=2)
    return k
# BAD: fragment-reshape.py:[[#@LINE-11]]:19: error: T.reshape of 's' to (64, 3, 32) has 6144 elements, but 's' (64, 64) has 4096
# BAD: fragment-reshape.py:[[#@LINE-13]]:13: note: a reshape keeps the elements: the product of the new shape must be 4096
# BAD: fragment-reshape.py:[[#@LINE-12]]:27: error: 'A' is a global tensor; tlc takes T.reshape of shared tiles, fragments and local buffers
# BAD: fragment-reshape.py:[[#@LINE-17]]:11: note: declare the tensor parameter with the shape you need, or use T.Tensor(shape, dtype, A.data)
# BAD: fragment-reshape.py:[[#@LINE-8]]:20: error: the reshape 'v' of a fragment is an index view: index it, or reduce it with T.reduce_*; other tile operators take 's' itself
# BAD: fragment-reshape.py:[[#@LINE-8]]:13: error: T.reduce_sum of the reshape 'v' is supported along its last dimension, when it splits the last dimension of a 2-D fragment in two ((N, Q * H) viewed as (N, Q, H))
# BAD: fragment-reshape.py:[[#@LINE-15]]:13: note: 'v' declared here
# BAD: fragment-reshape.py:[[#@LINE-9]]:13: error: shape mismatch in T.reduce_sum: reducing the reshape 'u' (64, 2, 32) along dim 2 needs a (64, 2) fragment or shared tile, not 'o2'


# A local buffer's reshape is an index view too.
# LOCAL: l[a * 4 + b] = l[a * 4 + b] * 2.0
# LOCAL: A[i, 0] = l[1 * 4 + 3]
def local():
    @T.prim_func
    def k(A: T.Tensor((128, 8), "float32")):
        with T.Kernel(1, threads=128) as bx:
            l = T.alloc_local((8,), "float32")
            l2 = T.reshape(l, (2, 4))
            for j in T.serial(8):
                l[j] = A[0, j]
            for a in T.serial(2):
                for b in T.serial(4):
                    l2[a, b] = l2[a, b] * 2
            for i in T.Parallel(128):
                A[i, 0] = l2[1, 3]
    return k
