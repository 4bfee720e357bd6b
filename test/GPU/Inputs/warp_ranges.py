# Thread-index branches over whole warps (TileLang's thread bounds per
# branch, as DeepSeek's mhc_pre writes them): threads 0..31 run a 4x4
# softmax-like block with row and column reductions, threads 32..95 a
# pipelined copy and a column reduction, each laid out over its own threads;
# a shared tile written by the whole block before the branches feeds both.
import tilelang.language as T


@T.prim_func
def warp_ranges(X: T.Tensor((8, 4, 256), "float32"), S: T.Tensor((8, 4), "float32"),
                M: T.Tensor((8, 4, 4), "float32"), Y: T.Tensor((8, 256), "float32")):
    with T.Kernel(8, threads=96) as i:
        w_s = T.alloc_shared((4,), "float32")
        for j in T.Parallel(4):
            w_s[j] = S[i, j]
        if T.get_thread_binding() < 32:
            m = T.alloc_fragment((4, 4), "float32")
            row_max = T.alloc_fragment((4,), "float32")
            col_sum = T.alloc_fragment((4,), "float32")
            for j, k in T.Parallel(4, 4):
                m[j, k] = X[i, j, k] * w_s[k]
            T.reduce_max(m, row_max, dim=1)
            for j, k in T.Parallel(4, 4):
                m[j, k] = T.exp(m[j, k] - row_max[j])
            T.reduce_sum(m, col_sum, dim=0)
            for j, k in T.Parallel(4, 4):
                M[i, j, k] = m[j, k] / col_sum[k]
        else:
            xs = T.alloc_shared((4, 64), "float32")
            xl = T.alloc_fragment((4, 64), "float32")
            acc = T.alloc_fragment((64,), "float32")
            for h in T.Pipelined(4, num_stages=2):
                T.copy(X[i, 0, h * 64], xs)
                T.copy(xs, xl)
                T.reduce_sum(xl, acc, dim=0)
                for c in T.Parallel(64):
                    Y[i, h * 64 + c] = acc[c] * w_s[c % 4]


# Three ranges of different sizes over 128 threads (an elif chain).
@T.prim_func
def three_ranges(A: T.Tensor((4, 128), "float32"), B: T.Tensor((4, 128), "float32"),
                 R: T.Tensor((4, 3), "float32")):
    with T.Kernel(4, threads=128) as i:
        tx = T.get_thread_binding()
        if tx < 64:
            a = T.alloc_fragment((128,), "float32")
            s = T.alloc_fragment((1,), "float32")
            T.copy(A[i, 0:128], a)
            T.reduce_sum(a, s, dim=0)
            R[i, 0] = s[0]
        elif tx < 96:
            b = T.alloc_fragment((128,), "float32")
            mx = T.alloc_fragment((1,), "float32")
            T.copy(B[i, 0:128], b)
            T.reduce_max(b, mx, dim=0)
            R[i, 1] = mx[0]
        else:
            c = T.alloc_fragment((128,), "float32")
            t = T.alloc_fragment((1,), "float32")
            for k in T.Parallel(128):
                c[k] = A[i, k] * B[i, k]
            T.reduce_sum(c, t, dim=0)
            R[i, 2] = t[0]
