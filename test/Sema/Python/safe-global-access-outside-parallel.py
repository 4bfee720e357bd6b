# Global accesses outside T.Parallel are guarded too, as TileLang (HEAD)
# legalizes the whole kernel body: TileLang's clean_logits stores
# Logits[bx, idx] per thread for idx up to a multiple of 4096, past
# seq_len_kv when it is not one. The block index of a grid that is the
# runtime size itself (`T.Kernel(seq_len)`) needs no `bx < seq_len`, and a
# stepped loop's variable ends at its last value (T.serial(0, 64, 2): k + 1
# stays below 64, no guard).
# RUN: %tlc %s --emit=ir --stop-after=sema | FileCheck %s
import tilelang.language as T

seq_len = T.dynamic("seq_len")
seq_len_kv = T.dynamic("seq_len_kv")


@T.prim_func
def clean(Logits: T.Tensor([seq_len, seq_len_kv], "float32"), KS: T.Tensor([seq_len], "int32"),
          A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(seq_len, threads=512) as bx:
        tx = T.get_thread_binding()
        ks = KS[bx]
        for n_i in T.serial(T.ceildiv(seq_len_kv, 4096)):
            for k_i in T.serial(8):
                idx = n_i * 4096 + k_i * 512 + tx
                if idx < ks:
                    Logits[bx, idx] = -T.infinity("float32")
        for k in T.serial(0, 64, 2):
            B[k + 1] = A[k + 1]

# CHECK: let ks{{.*}} = KS[bx]
# CHECK: if idx < ks
# CHECK-NEXT: if idx >= 0 and idx < seq_len_kv
# CHECK-NEXT: Logits[bx, idx] = -inf
# CHECK: B[k + 1] = A[k + 1]
