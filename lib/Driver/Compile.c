// The front half of a compilation, written once: read, lex, parse, sema (and
// optionally the pass pipeline), for the driver, the explain tools and the fuzzer.
#include "tlc/Ast.h"
#include "tlc/Driver.h"
#include "tlc/Sema.h"

#include <string.h>

bool tl_front_half(TlArena *a, const TlSource *src, const TlTarget *target,
                   const TlSemaOptions *sema, TlFrontStop stop, TlDiag *d, TlFront *out) {
  *out = (TlFront){0};
  out->tokens = tl_lex(a, src, d);
  if (d->nerrors || stop == TL_FRONT_TOKENS) return !d->nerrors;
  out->ast = tl_parse(a, out->tokens, d);
  if (d->nerrors || stop == TL_FRONT_AST) return !d->nerrors;
  out->module = tl_sema(a, out->ast, src, target, sema, d);
  return !d->nerrors;
}

TlModule *tl_compile_to_module(TlArena *a, const TlOptions *o, TlDiag *d, bool run_passes) {
  char err[512];
  TlSource *src = tl_source_read(a, o->input, err, sizeof err);
  if (!src) {
    tl_error_noloc(d, "%s", err);
    return NULL;
  }
  TlTarget target;
  if (!tl_target_load(a, o->target ? o->target : "sm_90a", &target, err, sizeof err)) {
    tl_error_noloc(d, "%s", err);
    return NULL;
  }
  tl_source_set_language(src, o);
  TlFront front;
  if (!tl_front_half(a, src, &target, &o->sema, TL_FRONT_MODULE, d, &front)) return NULL;
  TlModule *m = front.module;
  if (run_passes) {
    TlBuf ignored;
    tl_buf_init(&ignored, a);
    if (!tl_run_pipeline(a, m, o, d, &ignored))
      return NULL;
  }
  return m;
}

TlModule *tl_compile_file(TlArena *a, const char *path, const TlSemaOptions *sema,
                          const char *target, TlDiag *d) {
  TlOptions o = {0};
  o.input = path;
  if (sema) o.sema = *sema;
  o.target = target;
  o.verify_each = true; // the explain tools read pass facts the verifier checks
  return tl_compile_to_module(a, &o, d, true);
}

void tl_source_set_language(TlSource *src, const TlOptions *o) {
  size_t n = strlen(src->name);
  src->python = o->python || (n > 3 && strcmp(src->name + n - 3, ".py") == 0);
}
