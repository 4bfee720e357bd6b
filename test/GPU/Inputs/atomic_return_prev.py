# T.atomic_add(..., return_prev=True) on the GPU: every point of a T.Parallel
# nest claims the next free slot of its bin with the old value of the bin's
# shared counter. Which point gets which slot depends on the order of the
# atomics, but the slots marked (the first count[b] of bin b) and the counts
# do not, so the kernel matches the reference whatever the order.
import tilelang.language as T


@T.prim_func
def claim_slots(A: T.Tensor((512,), "int32"), Mark: T.Tensor((8, 512), "int32"),
                Count: T.Tensor((8,), "int32")):
    with T.Kernel(1, threads=128) as bx:
        hist = T.alloc_shared((8,), "int32")
        T.fill(hist, 0)
        for i in T.Parallel(512):
            Mark[A[i] % 8, T.atomic_add(hist[A[i] % 8], 1, return_prev=True)] = 1
        T.copy(hist, Count)
