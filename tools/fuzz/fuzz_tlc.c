// libFuzzer target over the whole compiler: source text -> tokens -> AST ->
// tile IR -> every pass (with the verifier) -> CUDA text, and the plan YAML.
// Any crash, sanitizer report, hang or internal error is a finding. Errors in
// the input are expected and go to /dev/null. An input that starts with
// "module " is IR text (--emit=ir output): parsed, verified, printed again.
// Inputs of odd length run the pipeline with --overlap-pv.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tlc/CodeGen.h"
#include "tlc/Driver.h"
#include "tlc/Sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
static void compile_once(const uint8_t *data, size_t size, int python, FILE *devnull,
                         const TlTarget *target);

// IR text: the parser meets text no pass wrote (the reader of .tir files).
static void parse_ir_once(const uint8_t *data, size_t size, FILE *devnull) {
  TlArena a;
  tl_arena_init(&a);
  TlSource *src = tl_source_from_string(&a, "fuzz.tir", tl_arena_strndup(&a, (const char *)data, size));
  TlDiag d;
  tl_diag_init(&d, devnull);
  TlModule *m = tl_ir_parse(&a, src, &d);
  if (m && !d.nerrors && tl_ir_verify(m, "parsing", &d)) {
    TlBuf out;
    tl_buf_init(&out, &a);
    tl_ir_print_module(&out, m);
  }
  tl_arena_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  static TlTarget target;
  static TlArena target_arena;
  static bool have_target;
  if (!devnull) {
    devnull = fopen("/dev/null", "w");
    tl_arena_init(&target_arena);
    char err[256];
    have_target = tl_target_load(&target_arena, "sm_90a", &target, err, sizeof err);
  }
  if (!have_target || size > 64 * 1024 || memchr(data, 0, size))
    return 0;
  if (size >= 7 && memcmp(data, "module ", 7) == 0) {
    parse_ir_once(data, size, devnull);
    return 0;
  }
  // Each input runs twice: as a .tl file and as a TileLang Python file
  // (host code skipped, errors captured). A line "#call EXPR" adds --call.
  for (int python = 0; python < 2; python++)
    compile_once(data, size, python, devnull, &target);
  return 0;
}

static void compile_once(const uint8_t *data, size_t size, int python, FILE *devnull,
                         const TlTarget *target) {
  TlArena a;
  tl_arena_init(&a);
  char *text = tl_arena_strndup(&a, (const char *)data, size);
  TlSource *src = tl_source_from_string(&a, python ? "fuzz.py" : "fuzz.tl", text);
  src->python = python;
  const char *calls[1];
  TlSemaOptions opts = {.calls = calls};
  const char *c = strstr(text, "#call ");
  if (python && c) {
    size_t n = strcspn(c + 6, "\n");
    calls[0] = tl_arena_strndup(&a, c + 6, n);
    opts.ncalls = 1;
  }
  TlDiag d;
  tl_diag_init(&d, devnull);
  TlFront front;
  TlModule *m =
      tl_front_half(&a, src, target, &opts, TL_FRONT_MODULE, &d, &front) ? front.module : NULL;
  if (m) {
    TlOptions o = {0};
    o.verify_each = true;
    o.overlap_pv = size % 2 == 1;
    TlBuf dump, out;
    tl_buf_init(&dump, &a);
    tl_buf_init(&out, &a);
    if (tl_run_pipeline(&a, m, &o, &d, &dump) && !d.nerrors) {
      tl_emit_cuda(&a, m, &out);
      tl_emit_plan(m, &out, &d);
    }
  }
  tl_arena_free(&a);
}
