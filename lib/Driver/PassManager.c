// The pass pipeline, in order, in one place. Each pass is one file in
// lib/Transforms/ with one entry point; the verifier runs after each one
// (--verify-each, on by default), and --print-after / --print-after-all
// print the IR between passes. --passes=P1,P2 runs a list of its passes
// instead, in the order given (for resuming from a .tir file).
#include <string.h>

#include "tlc/Driver.h"
#include "tlc/Passes.h"

const TlPass tl_pipeline_passes[] = {
    {"widen-threads", tl_widen_threads}, // fragments past 255 registers: twice the threads
    {"specialize-sizes",
     tl_specialize_sizes},                 // runtime row lengths: aligned kernel + unaligned twin
    {"lower-tile-ops", tl_lower_tile_ops}, // T.copy / T.fill -> T.Parallel nests
    {"replicate-fragments",
     tl_replicate_fragments},                  // fragments read at block level -> per-thread copies
    {"uniform-select", tl_uniform_select},     // select nests: a block-uniform fast path
    {"layout-inference", tl_layout_inference}, // a layout for every fragment
    {"tma-copy", tl_tma_copy},                 // T.ws scopes' T.tma_copy -> TMA loads
    {"warp-specialize", tl_warp_specialize},   // T.Pipelined on TMA + mbarriers, producer warpgroup
    {"pipeline", tl_pipeline},                 // T.Pipelined loops (cp.async)
    {"partition", tl_partition},               // T.Parallel -> per-thread loops (thread IR)
    {"flatten", tl_flatten},                   // N-d accesses -> flat offsets, simplified
    {"vectorize", tl_vectorize},               // lane loops -> vector loads and stores
    {"swizzle", tl_swizzle},                   // swizzled shared tiles -> physical offsets
    {"thread-sync", tl_thread_sync},           // barriers between memory hazards
    {"plan-shared", tl_plan_shared},           // shared-memory offsets and budget
};
const int tl_pipeline_npasses = (int)(sizeof tl_pipeline_passes / sizeof tl_pipeline_passes[0]);

static void dump(TlBuf *out, const TlModule *m, const char *after) {
  tl_buf_printf(out, "// ----- IR after %s -----\n", after);
  tl_ir_print_module(out, m);
}

const TlPass *tl_find_pass(const char *name, size_t len) {
  for (int i = 0; i < tl_pipeline_npasses; i++)
    if (strlen(tl_pipeline_passes[i].name) == len &&
        strncmp(tl_pipeline_passes[i].name, name, len) == 0)
      return &tl_pipeline_passes[i];
  return NULL;
}

bool tl_run_pipeline(TlArena *a, TlModule *m, const TlOptions *o, TlDiag *d, TlBuf *out) {
  // The input (sema's module, or a parsed .tir file) is checked first.
  // IR text from a file is checked always: it is input, not a pass result.
  if ((o->verify_each || o->ir_input) && !tl_ir_verify(m, o->ir_input ? NULL : "sema", d))
    return false;
  if (o->print_after_all || (o->print_after && strcmp(o->print_after, "sema") == 0))
    dump(out, m, "sema");
  if (o->stop_after && strcmp(o->stop_after, "sema") == 0) return true;
  // --no-warp-specialize: the module is compiled as if the target had no
  // TMA, so warp-specialize leaves every pipeline to the cp.async schedule.
  if (o->no_warp_specialize) m->has_tma = false;
  if (o->cluster) m->clusters = true;
  if (o->keep_threads) m->keep_threads = true;
  if (o->overlap_pv) m->overlap_pv = true;
  // The default list, or --passes (already checked by the driver).
  const TlPass *list[64];
  int n = 0;
  if (o->passes) {
    for (const char *s = o->passes; *s && n < 64;) {
      size_t len = strcspn(s, ",");
      const TlPass *p = tl_find_pass(s, len);
      if (p) list[n++] = p;
      s += len + (s[len] == ',');
    }
  } else if (!o->ir_input) {
    for (int i = 0; i < tl_pipeline_npasses; i++)
      list[n++] = &tl_pipeline_passes[i];
  }
  for (int i = 0; i < n; i++) {
    const TlPass *p = list[i];
    if (!p->run(a, m, d) || d->nerrors > 0) return false;
    if (o->verify_each && !tl_ir_verify(m, p->name, d)) return false;
    if (o->print_after_all || (o->print_after && strcmp(o->print_after, p->name) == 0))
      dump(out, m, p->name);
    if (o->stop_after && strcmp(o->stop_after, p->name) == 0) break;
  }
  return true;
}
