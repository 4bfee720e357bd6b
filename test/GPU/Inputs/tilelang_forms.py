# TileLang forms tlc took in later (checked against the reference): the
# float-to-sortable-integer keys of TileLang's top-k selector (T.reinterpret
# both ways round, in both argument orders), T.fill of one shared element, a
# perfect nest of TIR's T.parallel loops, T.reduce_sum without dim= (the last
# dimension), a slice between two kernel scalars.
import tilelang.language as T


@T.prim_func
def sortable_keys(A: T.Tensor((256,), "float32"), H: T.Tensor((256,), "float16"),
                  K: T.Tensor((256,), "uint32"), K16: T.Tensor((256,), "uint16"),
                  B: T.Tensor((256,), "float32")):
    with T.Kernel(2, threads=128) as bx:
        for i in T.Parallel(128):
            x = A[bx * 128 + i]
            u = T.reinterpret(x, T.uint32)
            K[bx * 128 + i] = T.if_then_else(x < 0, ~u, u | T.uint32(0x80000000))
            h = T.reinterpret(H[bx * 128 + i], "uint16")
            K16[bx * 128 + i] = T.if_then_else(H[bx * 128 + i] < T.float16(0), ~h & T.uint16(0xFFFF), h | T.uint16(0x8000)) >> 8
            B[bx * 128 + i] = T.reinterpret(T.float32, u & T.uint32(0xFFFF0000))


@T.prim_func
def masked_row_sums(A: T.Tensor((4, 64, 96), "float32"), C: T.Tensor((4, 4), "int32"),
                    R: T.Tensor((4, 64), "float32")):
    with T.Kernel(4, threads=128) as bx:
        S = T.alloc_shared((64, 96), "float32")
        cnt = T.alloc_shared((4,), "int32")
        v = T.alloc_fragment((64, 96), "float32")
        r = T.alloc_fragment((64,), "float32")
        T.fill(cnt, 3)
        T.fill(cnt[bx], bx * 10)
        T.copy(cnt, C[bx, :])
        st = bx * 64 - bx * 64
        ed = st + 64
        T.copy(A[bx, st:ed, :], S)
        for i in T.parallel(64):
            for j in T.parallel(96):
                if j >= 90:
                    S[i, j] = 0.0
        T.copy(S, v)
        T.reduce_sum(v, r)
        T.copy(r, R[bx, :])
