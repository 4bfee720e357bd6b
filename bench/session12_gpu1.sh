#!/usr/bin/env bash
# Device script, run 1 of the twelfth session (carry bench/gen-corpus, bench/checks-s11,
# bench/checks-s12; outputs made here by `NVCC=none bash bench/tilelang_corpus.sh --harness` on
# the selected files, bench/checks-s11/sparse_mla/gen.sh and bench/checks-s12/gen.sh):
#  - dsa_sparse_finetune/indexer_bwd (main) with real token tables, after the CUDA-core gemm fix;
#    v0.1.5 linear_attn_bwd (exit 1 in the last full run), two seeds each;
#  - the new GPU inputs gemm_cuda_core_swizzled.py and ws_hand_over.py (harness + sanitizers);
#  - topk_selector's standalone check at the current compiler;
#  - sparse_mla_fwd_seesaw's torch check after the thread-sync fix (no block barrier between
#    sibling scopes), beside sparse_mla_fwd_pipelined.
set -u
cd "$(dirname "$0")/.."
A="-O3 -gencode=arch=compute_90a,code=sm_90a"
nvcc $A -o /tmp/ib bench/gen-corpus/s14-main/examples_dsa_sparse_finetune_indexer_bwd_harness.cu -lcuda &
nvcc $A -o /tmp/lab bench/gen-corpus/s14-v0.1.5/examples_linear_attention_example_linear_attn_bwd_harness.cu -lcuda &
nvcc $A -lineinfo -o /tmp/ccs bench/gen-corpus/s14/gemm_cuda_core_swizzled_harness.cu -lcuda &
nvcc $A -lineinfo -o /tmp/who bench/gen-corpus/s14/ws_hand_over_harness.cu -lcuda &
mkdir -p /tmp/topk && cp bench/checks-s10/check_topk.cu bench/checks-s12/topk.cu /tmp/topk/ && nvcc $A -o /tmp/topk/check_topk /tmp/topk/check_topk.cu &
for n in sparse_mla_pipelined sparse_mla_seesaw; do
  nvcc $A -shared -Xcompiler -fPIC bench/checks-s11/sparse_mla/$n.cu python/tlc/glue.cu -o /tmp/$n.so -lcuda &
done
wait
for s in 1234 7; do echo "== indexer_bwd seed $s"; timeout 60 /tmp/ib --no-perf --seed $s 2>&1 | tail -4; done
for s in 1234 7; do echo "== linear_attn_bwd (v0.1.5) seed $s"; timeout 120 /tmp/lab --seed $s 2>&1 | tail -4; echo "rc=$?"; done
echo "== gemm_cuda_core_swizzled"; timeout 60 /tmp/ccs 2>&1 | tail -4
echo "== ws_hand_over"; timeout 60 /tmp/who 2>&1 | tail -4
for x in ccs who; do for tool in memcheck racecheck synccheck; do
  echo "$x $tool: $(timeout 120 compute-sanitizer --tool $tool /tmp/$x --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
done; done
echo "== topk_selector"; timeout 120 /tmp/topk/check_topk 2>&1 | tail -3
echo "== sparse MLA (torch)"; timeout 240 python3 bench/checks-s11/sparse_mla/check.py /tmp 2>&1 | tail -4; echo "rc=$?"
