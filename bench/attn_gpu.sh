#!/bin/sh
# bench/attn_gpu.sh prepare|run: issue #16's flash-attention configurations
# (fp16 and bf16; (8,32,4096,128), (4,16,4096,64), GQA (1,64,8192,128) with
# 16 groups, causal (2,16,8192,128)), TileLang's own forward-attention example
# files, unchanged, at their own configs (the --call strings of
# bench/tilelang_corpus_calls.txt), and the row-wise kernels (LayerNorm,
# RMSNorm, softmax over 8192 x 8192), built HERE so that the GPU call only
# runs them (a short device call).
#
#   sh bench/attn_gpu.sh prepare   HERE: tlc writes bench/gen-attn/{attn,tl,
#                                  rowwise}/*.cu, nvcc builds each into a shared
#                                  library (ptxas -v: registers and spills of
#                                  every kernel in bench/gen-attn/ptxas.txt).
#                                  tl/ holds TileLang's example files' kernels
#                                  (tl/NAME.json: --emit=signature, which the
#                                  check compares its argument order with),
#                                  read from CORPUS (default
#                                  /work/tilelang-corpus: TAG/examples/...;
#                                  missing: a note, tl/ stays empty)
#   sh bench/attn_gpu.sh run       on the GPU machine, from the repository
#                                  root (carry bench/gen-attn; rowwise_check.py
#                                  reads eps from examples/*.tl):
#                                  bench/tilelang_style_check.py (attention vs
#                                  torch SDPA; for tl/ a table of upstream
#                                  file + tag, config, tlc ms, SDPA ms and
#                                  SDPA/tlc) and bench/rowwise_check.py (vs
#                                  torch and a torch copy), tables last
set -eu
cd "$(dirname "$0")/.."
GEN=bench/gen-attn
E=examples/tilelang-style
case "${1:-}" in
prepare)
  TLC=${TLC:-build/bin/tlc}
  NVCC=${NVCC:-nvcc}
  JOBS=${JOBS:-2}
  rm -rf "$GEN"
  mkdir -p "$GEN/attn" "$GEN/rowwise"
  : >"$GEN/attn/manifest.txt"
  : >"$GEN/rowwise/manifest.txt"
  # NAME FILE CALL KIND ARGS (as bench/tilelang_style.sh)
  while read -r name file call kind args; do
    [ -n "$name" ] || continue
    "$TLC" -w "$E/$file" --call "$name=$call" -o "$GEN/attn/$name.cu"
    echo "$GEN/attn/lib$name.so $kind $name $args" >>"$GEN/attn/manifest.txt"
  done <<'LIST'
attn_d64 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2) attn 4 16 4096 64 0
attn_d64_bf16 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2,dtype="bfloat16") attn 4 16 4096 64 0 bfloat16
attn_d64_wg2 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 4 16 4096 64 0
attn_d128 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 8 32 4096 128 0
attn_d128_bf16 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16") attn 8 32 4096 128 0 bfloat16
attn_causal flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256) attn 2 16 8192 128 1
attn_causal_bf16 flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16") attn 2 16 8192 128 1 bfloat16
attn_gqa flash_attention_gqa.py flashattn_gqa(1,64,8192,128,False,groups=16) attn 1 64 8192 128 0 float16 16
attn_gqa_bf16 flash_attention_gqa.py flashattn_gqa(1,64,8192,128,False,groups=16,dtype="bfloat16") attn 1 64 8192 128 0 bfloat16 16
attn_gqa_odd flash_attention_gqa.py flashattn_gqa(2,8,1000,64,True,groups=4,block_M=128,block_N=64,threads=128) attn 2 8 1000 64 1 float16 4
attn_causal_small flash_attention.py flashattn(2,3,1024,64,is_causal=True,block_M=128,block_N=64,num_stages=2) attn 2 3 1024 64 1
LIST
  # NAME EXAMPLE KIND DTYPE [NAME=VALUE] (as bench/rowwise.sh)
  while read -r name example kind dtype define; do
    [ -n "$name" ] || continue
    set -- -D "dtype=$dtype"
    [ -z "$define" ] || set -- "$@" -D "$define"
    "$TLC" "examples/$example.tl" "$@" -o "$GEN/rowwise/$name.cu"
    "$TLC" "examples/$example.tl" "$@" --emit=signature -o "$GEN/rowwise/$name.json"
    echo "$name $example $kind $dtype" >>"$GEN/rowwise/manifest.txt"
  done <<'LIST'
layer_norm_fp16 layer_norm layer_norm float16
layer_norm_bf16 layer_norm layer_norm bfloat16
rms_norm_fp16 rms_norm rms_norm float16
softmax_fp16 softmax_rows softmax float16
LIST
  # TileLang's own forward-attention example files (not ours: read from
  # CORPUS, never copied into the repository), unchanged, each at the --call
  # of bench/tilelang_corpus_calls.txt (its own __main__ defaults). One
  # NAME TAG FILE | CALL | CHECK per line: CHECK is what
  # bench/tilelang_style_check.py's attn2 kind needs to feed and check the
  # launcher (args= lists its parameters in order: q k v o, sinks, tmp:SHAPE
  # for a scratch buffer; every file here scales by 1/sqrt(dim), SDPA's
  # default). Names avoid a leading "tl" (tlc escapes it to "utl").
  # upmain_sink_bhsd calls the autotuned factory without its tuned parameters,
  # as the calls file has it: tlc takes the first autotune config (128x128
  # blocks, 0 stages, 128 threads), TileLang would time all 6; _t256 is the
  # config of the file's __main__.
  CORPUS=${CORPUS:-/work/tilelang-corpus}
  mkdir -p "$GEN/tl"
  : >"$GEN/tl/manifest.txt"
  if [ -d "$CORPUS" ]; then
    while IFS='|' read -r head call check; do
      # shellcheck disable=SC2086
      set -- $head
      [ $# -eq 3 ] || continue
      name=$1 tag=$2 file=$3
      call=$(echo "$call" | sed 's/^ *//; s/ *$//')
      if [ ! -f "$CORPUS/$tag/$file" ]; then
        echo "note: $CORPUS/$tag/$file missing: $name not built"
        continue
      fi
      if "$TLC" -w "$CORPUS/$tag/$file" --call "$name=$call" -o "$GEN/tl/$name.cu" 2>"$GEN/tl/$name.tlc.log" &&
        "$TLC" -w "$CORPUS/$tag/$file" --call "$name=$call" --emit=signature -o "$GEN/tl/$name.json" 2>>"$GEN/tl/$name.tlc.log"; then
        echo "$GEN/tl/lib$name.so attn2 $name src=$tag:$file call=$(echo "$call" | tr -d ' ') sig=$GEN/tl/$name.json$(echo "$check" | sed 's/ *$//')" >>"$GEN/tl/manifest.txt"
      else
        echo "TLC FAILED: $name ($tag:$file): $(grep -m1 error "$GEN/tl/$name.tlc.log")"
        rm -f "$GEN/tl/$name.cu" "$GEN/tl/$name.json"
      fi
    done <<'LIST'
up015_mha_bshd v0.1.5 examples/flash_attention/example_mha_fwd_bshd.py | flashattn(8, 32, 4096, 128, False, tune=False)(block_M=128, block_N=128, num_stages=1, threads=128) | layout=bshd batch=8 heads=32 seq_q=4096 dim=128 causal=0 args=q,k,v,o
up015_mha_bshd_wg v0.1.5 examples/flash_attention/example_mha_fwd_bshd_wgmma_pipelined.py | flashattn(8, 32, 4096, 128, False, tune=False)(block_M=128, block_N=128, num_stages=2, threads=256) | layout=bshd batch=8 heads=32 seq_q=4096 dim=128 causal=0 args=q,k,v,o
up015_mha_bhsd v0.1.5 examples/flash_attention/example_mha_fwd_bhsd.py | flashattn(1, 1, 256, 256, 64, False, tune=False)(block_M=64, block_N=64, num_stages=1, threads=128) | layout=bhsd batch=1 heads=1 seq_q=256 seq_kv=256 dim=64 causal=0 args=q,k,v,o
up015_mha_bhsd_wg v0.1.5 examples/flash_attention/example_mha_fwd_bhsd_wgmma_pipelined.py | flashattn(8, 32, 4096, 4096, 128, False, tune=False)(block_M=128, block_N=128, num_stages=2, threads=256) | layout=bhsd batch=8 heads=32 seq_q=4096 seq_kv=4096 dim=128 causal=0 args=q,k,v,o
up015_gqa_bshd v0.1.5 examples/flash_attention/example_gqa_fwd_bshd.py | flashattn(1, 64, 8192, 128, False, tune=False, groups=16)(block_M=128, block_N=128, num_stages=2, threads=128) | layout=bshd batch=1 heads=64 seq_q=8192 dim=128 groups=16 causal=0 args=q,k,v,o
up015_gqa_bshd_wg v0.1.5 examples/flash_attention/example_gqa_fwd_bshd_wgmma_pipelined.py | flashattn(1, 64, 8192, 128, False, tune=False, groups=16)(block_M=128, block_N=128, num_stages=2, threads=256) | layout=bshd batch=1 heads=64 seq_q=8192 dim=128 groups=16 causal=0 args=q,k,v,o
up015_mha_infer v0.1.5 examples/flash_attention/example_mha_inference.py | flashattn(1, 32, 128, 8192, 128, False, 128, 64) | layout=bshd batch=1 heads=32 seq_q=128 seq_kv=8192 dim=128 causal=0 args=q,k,v,tmp:1x32x4x128,tmp:1x128x32x4x128,o
up015_dec_mha_infer v0.1.5 examples/flash_decoding/example_mha_inference.py | flashattn(1, 32, 128, 8192, 128, False, 128, 64) | layout=bshd batch=1 heads=32 seq_q=128 seq_kv=8192 dim=128 causal=0 args=q,k,v,tmp:1x32x4x128,tmp:1x128x32x4x128,o
upmain_mha_bshd main examples/flash_attention/example_mha_fwd_bshd.py | flashattn(8, 32, 4096, 128, False, block_M=128, block_N=128, num_stages=1, threads=128) | layout=bshd batch=8 heads=32 seq_q=4096 dim=128 causal=0 args=q,k,v,o
upmain_mha_bhsd main examples/flash_attention/example_mha_fwd_bhsd.py | flashattn(1, 1, 256, 256, 64, False, block_M=64, block_N=64, num_stages=1, threads=128) | layout=bhsd batch=1 heads=1 seq_q=256 seq_kv=256 dim=64 causal=0 args=q,k,v,o
upmain_mha_bhsd_h32 main examples/flash_attention/example_mha_fwd_bhsd.py | flashattn(1, 32, 256, 256, 64, False, block_M=128, block_N=128, num_stages=2, threads=256) | layout=bhsd batch=1 heads=32 seq_q=256 seq_kv=256 dim=64 causal=0 args=q,k,v,o
upmain_gqa_bshd main examples/flash_attention/example_gqa_fwd_bshd.py | flashattn(1, 64, 4096, 128, False, groups=16, block_M=64, block_N=64, num_stages=2, threads=128) | layout=bshd batch=1 heads=64 seq_q=4096 dim=128 groups=16 causal=0 args=q,k,v,o
upmain_sink_bhsd main examples/attention_sink/example_mha_sink_fwd_bhsd.py | flashattn(8, 32, 4096, 4096, 128, None, dtype=T.float16) | layout=bhsd batch=8 heads=32 seq_q=4096 seq_kv=4096 dim=128 causal=1 args=q,k,v,o,sinks
upmain_sink_bhsd_t256 main examples/attention_sink/example_mha_sink_fwd_bhsd.py | flashattn(8, 32, 4096, 4096, 128, None, block_M=128, block_N=128, num_stages=2, threads=256, dtype=T.float16) | layout=bhsd batch=8 heads=32 seq_q=4096 seq_kv=4096 dim=128 causal=1 args=q,k,v,o,sinks
LIST
  else
    echo "note: no TileLang corpus at $CORPUS (set CORPUS=DIR holding TAG/examples/...): $GEN/tl left empty"
  fi
  # BASE_TLC=path/to/other/tlc: the same run also times that compiler's
  # kernels for a few of the configurations (names base_*), for same-run ratios
  if [ -n "${BASE_TLC:-}" ]; then
    while read -r name file call kind args; do
      "$BASE_TLC" -w "$E/$file" --call "$name=$call" -o "$GEN/attn/$name.cu"
      echo "$GEN/attn/lib$name.so $kind $name $args" >>"$GEN/attn/manifest.txt"
    done <<'LIST'
base_d64 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2) attn 4 16 4096 64 0
base_d128 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 8 32 4096 128 0
base_causal flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256) attn 2 16 8192 128 1
LIST
    "$BASE_TLC" examples/layer_norm.tl -o "$GEN/rowwise/base_layer_norm_fp16.cu"
    "$BASE_TLC" examples/layer_norm.tl --emit=signature -o "$GEN/rowwise/base_layer_norm_fp16.json"
    echo "base_layer_norm_fp16 layer_norm layer_norm float16" >>"$GEN/rowwise/manifest.txt"
  fi
  ls "$GEN"/*/*.cu | xargs -P "$JOBS" -I{} sh -c '
    cu=$1; d=$(dirname "$cu"); n=$(basename "$cu" .cu)
    "$0" -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared \
      -o "$d/lib$n.so" "$cu" >"$d/$n.ptxas.log" 2>&1 || echo "NVCC FAILED: $n"' "$NVCC" {}
  # one line per kernel: registers, spill stores/loads
  for log in "$GEN"/*/*.ptxas.log; do
    printf '%-22s %s\n' "$(basename "$log" .ptxas.log)" \
      "$(grep -E 'Used [0-9]+ registers|spill' "$log" | grep -oE '[0-9]+ bytes spill (stores|loads)|Used [0-9]+ registers' | tr '\n' ' ')"
  done >"$GEN/ptxas.txt"
  git rev-parse --short HEAD >"$GEN/commit.txt"
  cat "$GEN/ptxas.txt"
  ;;
run)
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader || true
  status=0
  python3 bench/rowwise_check.py "$GEN/rowwise" || status=1
  python3 bench/tilelang_style_check.py "$GEN/attn" || status=1
  if [ -s "$GEN/tl/manifest.txt" ]; then
    python3 bench/tilelang_style_check.py "$GEN/tl" || status=1
  else
    echo "== no TileLang example kernels in $GEN/tl (prepare found no corpus)"
  fi
  echo "== ptxas (built at $(cat "$GEN/commit.txt"))"
  cat "$GEN/ptxas.txt"
  exit $status
  ;;
*)
  echo "usage: sh bench/attn_gpu.sh prepare|run" >&2
  exit 2
  ;;
esac
