#!/usr/bin/env python3
"""corpus_table.py MAIN_LOG V015_LOG: the per-file table of TileLang's example files for
bench/RESULTS.md (issue #18): each in-scope kernel file of both tags, whether tlc compiles it
(the output of `bench/tilelang_corpus.sh DIR` at the compiler measured, passed as the two logs)
and its latest result on the H200:

  - harness: the last PASS/FAIL line for its `*_harness.cu` in the device logs
    bench/hopper-runs/session11-runs.txt (full runs 1 and 3, then runs 4-6), then the twelfth
    session's runs (SESSION12 below: its log is a summary, not run-harnesses output);
  - torch / standalone: the files whose kernels the harness's reference cannot run (thread
    indices, scopes looping over mbarrier hand-overs, an iterative solver), checked another way
    (TORCH below, with the check and the run).

Prints the markdown rows and the counts per tag.
"""
import re
import sys

RUNS = "bench/hopper-runs/session11-runs.txt"

# (tag, path) -> result, from the twelfth session's runs (bench/hopper-runs/session12-runs.txt).
SESSION12 = {
    ("main", "examples/dsa_sparse_finetune/indexer_bwd.py"): "harness PASS (s12 run 2)",
    ("main", "examples/gdn/example_chunk_delta_h.py"): "harness PASS (s12 runs 2, 3)",
    ("main", "examples/deepseek_mhc/example_mhc_pre.py"): "harness PASS (s12 run 3)",
    ("v0.1.5", "examples/linear_attention/example_linear_attn_bwd.py"): "harness PASS (s12 run 1)",
}
# The eleventh session's run 4 (its log line is a summary): the two index-table files given fills.
SESSION12[("main", "examples/deepseek_nsa/example_tilelang_nsa_fwd_varlen.py")] = "harness PASS (s11 run 4, tokens:Offsets)"
SESSION12[("v0.1.5", "examples/deepseek_nsa/example_tilelang_nsa_fwd_varlen.py")] = "harness PASS (s11 run 4, tokens:Offsets)"
SESSION12[("main", "examples/deepseek_v4/sparse_attn_fwd_sm90.py")] = "harness PASS (s11 run 4, TopkIndices in range)"
for p in ["attention_sink/example_gqa_sink_bwd_bhsd", "attention_sink/example_mha_sink_bwd_bhsd",
          "flash_attention/example_gqa_bwd_tma_reduce", "flash_attention/example_mha_fwd_bhsd",
          "flash_attention/example_mha_fwd_bshd", "flash_decoding/example_gqa_decode",
          "fusedmoe/example_fusedmoe_tilelang", "gdn/example_chunk_o",
          "gemm/example_gemm_autotune_pass_configs"]:
    SESSION12[("main", "examples/%s.py" % p)] = "harness PASS (s12 run 3, 2-stage ring)"
for p in ["flash_attention/example_gqa_bwd", "flash_attention/example_mha_bwd",
          "flash_attention/example_mha_bwd_wgmma_pipelined", "flash_attention/example_mha_fwd_bhsd",
          "flash_attention/example_mha_fwd_bshd", "linear_attention/example_linear_attn_fwd"]:
    SESSION12[("v0.1.5", "examples/%s.py" % p)] = "harness PASS (s12 run 3, 2-stage ring)"

TORCH = {
    ("main", "examples/deepseek_mla/example_mla_decode_ws.py"): "torch PASS (s11 run 2)",
    ("main", "examples/deepseek_v32/fp8_lighting_indexer.py"): "torch PASS (s11 run 5)",
    ("main", "examples/deepseek_v32/sparse_mla_fwd_pipelined.py"): "torch PASS (s12 run 1)",
    ("main", "examples/deepseek_v32/sparse_mla_fwd_seesaw.py"): "torch PASS (s12 run 1)",
    ("main", "examples/deepseek_v32/topk_selector.py"): "standalone PASS (s12 run 1)",
    ("main", "examples/deepseek_mhc/example_mhc_bwd.py"): "torch autograd PASS (s12 run 6)",
    ("main", "examples/rand/rand_uint.py"): "Triton PASS, bit for bit (s12 run 7)",
    ("main", "examples/dequantize_gemm/example_dequant_gemm_fine_grained.py"): "torch PASS (s11 run 5)",
    ("main", "examples/dsa_hisa/clean_and_maintain_logits.py"): "torch PASS (s11 run 5)",
    ("main", "examples/warp_specialize/example_warp_specialize_flashmla.py"): "torch PASS (part 15)",
    ("main", "examples/gemm/example_gemm_intrinsics.py"): "torch PASS (part 13)",
    ("main", "examples/bitnet-1.58b/kernel_benchmark/tl_int8xint8.py"): "torch PASS (part 13)",
    ("main", "examples/hadamard_transform/example_hadamard.py"): "torch PASS (part 13)",
    ("main", "examples/gemv/example_gemv.py"): "standalone PASS (part 15)",
    ("v0.1.5", "examples/warp_specialize/example_warp_specialize_flashmla.py"): "torch PASS (part 15)",
    ("v0.1.5", "examples/bitnet-1.58b/kernel_benchmark/tl_int8xint8.py"): "torch PASS (part 13)",
    ("v0.1.5", "examples/gemm/example_gemm_intrinsics.py"): "torch PASS (part 13)",
    ("v0.1.5", "examples/gemm_fp8/example_tilelang_gemm_fp8_intrinsic.py"): "torch PASS (part 13)",
    ("v0.1.5", "examples/hadamard_transform/example_hadamard.py"): "torch PASS (part 13)",
    ("v0.1.5", "examples/gemv/example_gemv.py"): "standalone PASS (part 15)",
}


def compile_results(log):
    out = {}
    for line in open(log):
        m = re.match(r"(compiled|refused|nvcc-failed|no-call)\s+(\S+?\.py)(?::\s*(.*))?$", line.rstrip())
        if m:
            out[m.group(2)] = (m.group(1), (m.group(3) or "").strip())
    return out


def harness_name(path):
    return path[:-3].replace("/", "_") + "_harness.cu"


def harness_results():
    res = {}
    for line in open(RUNS):
        m = re.match(r"(PASS|FAIL)\s+bench/gen-corpus/(?:s1\d-)?(main|v0\.1\.5)/(\S+_harness\.cu)", line)
        if m:
            res[(m.group(2), m.group(3))] = m.group(1)
    return res


def main():
    logs = {"main": sys.argv[1], "v0.1.5": sys.argv[2]}
    harness = harness_results()
    for tag, log in logs.items():
        comp = compile_results(log)
        n = passed = compiled = 0
        for path in sorted(comp):
            status, why = comp[path]
            n += 1
            compiled += status == "compiled"
            if status != "compiled":
                result = "refused: " + why.split(" error ")[-1].split("error: ")[-1][:110]
            elif (tag, path) in TORCH:
                result = TORCH[(tag, path)]
            elif (tag, path) in SESSION12:
                result = SESSION12[(tag, path)]
            else:
                h = harness.get((tag, harness_name(path)))
                result = "harness %s (s11)" % h if h else "not run"
            ok = "PASS" in result
            passed += ok
            print("| %s | %s | %s | %s |" % (path, tag, status, result.replace("|", "\\|")))
        print("%s: %d files in scope, %d compile (%.0f%%), %d pass on the H200 (%.0f%%)"
              % (tag, n, compiled, 100.0 * compiled / n, passed, 100.0 * passed / n), file=sys.stderr)


if __name__ == "__main__":
    main()
