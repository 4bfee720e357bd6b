"""Grouped-query attention forward (BSHD layout), FlashAttention-2 style.

Q is ``[batch, seq_len, heads, dim]``; K and V have ``heads // groups`` heads
(``[batch, seq_len, heads // groups, dim]``): query head ``h`` reads key/value
head ``h // groups``, so ``groups`` query heads share one K/V stream. One thread
block handles ``block_M`` query rows of one (batch, query head) pair with the
same online softmax (base 2) as flash_attention.py; with ``is_causal`` the K/V
loop stops at the diagonal.

Usage:
    python flash_attention_gqa.py --batch 1 --heads 64 --seq_len 8192 --dim 128 --groups 16
"""

import argparse

import tilelang
import tilelang.language as T
import torch
import torch.nn.functional as F


@tilelang.jit(
    out_idx=[3], pass_configs={
        tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True,
    })
def flashattn_gqa(batch, heads, seq_len, dim, is_causal, groups=1, block_M=128, block_N=128,
                  num_stages=2, threads=256, dtype="float16"):
    scale = (1.0 / dim)**0.5 * 1.44269504  # 1/sqrt(d) * log2(e)
    q_shape = [batch, seq_len, heads, dim]
    kv_shape = [batch, seq_len, heads // groups, dim]
    accum_dtype = "float"

    @T.prim_func
    def main(
        Q: T.Tensor(q_shape, dtype),
        K: T.Tensor(kv_shape, dtype),
        V: T.Tensor(kv_shape, dtype),
        Output: T.Tensor(q_shape, dtype),
    ):
        # bx: query block, by: query head, bz: batch.
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            O_shared = T.alloc_shared([block_M, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            scores_max = T.alloc_fragment([block_M], accum_dtype)
            scores_max_prev = T.alloc_fragment([block_M], accum_dtype)
            scores_scale = T.alloc_fragment([block_M], accum_dtype)
            scores_sum = T.alloc_fragment([block_M], accum_dtype)
            logsum = T.alloc_fragment([block_M], accum_dtype)

            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))

            loop_range = (
                T.min(T.ceildiv(seq_len, block_N), T.ceildiv((bx + 1) * block_M, block_N))
                if is_causal else T.ceildiv(seq_len, block_N))

            for k in T.Pipelined(loop_range, num_stages=num_stages):
                # the key/value head this query head shares with groups - 1 others
                T.copy(K[bz, k * block_N:(k + 1) * block_N, by // groups, :], K_shared)
                if is_causal:
                    for i, j in T.Parallel(block_M, block_N):
                        acc_s[i, j] = T.if_then_else(bx * block_M + i >= k * block_N + j, 0,
                                                     -T.infinity(acc_s.dtype))
                else:
                    T.clear(acc_s)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(scores_max, scores_max_prev)
                T.fill(scores_max, -T.infinity(accum_dtype))
                T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    scores_max[i] = T.max(scores_max[i], scores_max_prev[i])
                for i in T.Parallel(block_M):
                    scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                for i, j in T.Parallel(block_M, block_N):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                T.reduce_sum(acc_s, scores_sum, dim=1)
                for i in T.Parallel(block_M):
                    logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
                T.copy(acc_s, acc_s_cast)
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= scores_scale[i]
                T.copy(V[bz, k * block_N:(k + 1) * block_N, by // groups, :], V_shared)
                T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)

            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, O_shared)
            T.copy(O_shared, Output[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


def ref_program(Q, K, V, is_causal, groups):
    """Attention in PyTorch with each K/V head repeated for its query heads."""
    K = K.repeat_interleave(groups, dim=2)
    V = V.repeat_interleave(groups, dim=2)
    out = F.scaled_dot_product_attention(
        Q.transpose(1, 2), K.transpose(1, 2), V.transpose(1, 2), is_causal=is_causal)
    return out.transpose(1, 2)


def main():
    parser = argparse.ArgumentParser(description="TileLang-style grouped-query attention forward")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--heads", type=int, default=64)
    parser.add_argument("--seq_len", type=int, default=8192)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--groups", type=int, default=16)
    parser.add_argument("--is_causal", action="store_true")
    args = parser.parse_args()
    kernel = flashattn_gqa(args.batch, args.heads, args.seq_len, args.dim, args.is_causal,
                           groups=args.groups)
    profiler = kernel.get_profiler()
    profiler.assert_allclose(
        lambda q, k, v: ref_program(q, k, v, args.is_causal, args.groups), rtol=0.01, atol=0.01)
    print("All checks pass.")


if __name__ == "__main__":
    main()
