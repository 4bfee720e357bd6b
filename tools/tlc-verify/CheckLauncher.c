// Check 5: every __global__ kernel NAME_kernel has its host launcher
//   extern "C" cudaError_t NAME(params..., cudaStream_t stream)
// whose parameters (before the stream) are the kernel's, in type, name and
// order, and which launches NAME_kernel<<<grid, block, smem, stream>>> with
// exactly those parameters in order. Callers (the harness, Python through
// ctypes) bind to the launcher, so a mismatch here silently swaps buffers.
// The launch's block size must also respect the kernel's __launch_bounds__.
// A TMA kernel's trailing CUtensorMap parameters are the launcher's own:
// it encodes them from the tensors and passes its local maps in order.
#include "Verify.h"

#include <string.h>

// A type for comparison: canonical, without __restrict.
static const char *norm_type(const char *t) {
  char *out = tv_strdup(t);
  char *r;
  while ((r = strstr(out, "__restrict")))
    memmove(r, r + 10, strlen(r + 10) + 1);
  size_t n = strlen(out);
  while (n && out[n - 1] == ' ')
    out[--n] = '\0';
  return out;
}

static const char *display_type(const TvVar *v) {
  return norm_type(v->type);
}

static bool is_stream(const TvVar *v) {
  return !strcmp(v->type, "cudaStream_t") || !strcmp(norm_type(v->ctype), "struct CUstream_st *") ||
         !strcmp(norm_type(v->ctype), "CUstream_st *");
}

static bool is_tensor_map(const TvVar *v) {
  return strstr(v->type, "CUtensorMap") != NULL;
}

static void check_launch(const TvProgram *p, TvFunc *k, TvFunc *launcher, TvLaunch *l, int nparams,
                         const TvVar *stream, bool params_match) {
  TvExpr *e = l->e;
  // With mismatched parameters the argument order says nothing new.
  int nargs = params_match ? e->nkids - e->nconfig : 0;
  for (int i = 0; i < nargs && i < k->params.len; i++) {
    TvExpr *a = tv_strip(e->kids[e->nconfig + i]);
    const TvVar *want = i < nparams ? TV_AT(launcher->params, TvVar, i) : NULL;
    const TvVar *kp = TV_AT(k->params, TvVar, i);
    if (a && a->kind == EX_VAR && a->var == want) continue;
    if (i >= nparams && is_tensor_map(kp)) { // a tensor map the launcher encoded
      if (!a || a->kind != EX_VAR || !is_tensor_map(a->var))
        tv_error(e->kids[e->nconfig + i]->loc,
                 "launch of '%s' passes '%s' as tensor map '%s', not a CUtensorMap", k->name,
                 tv_expr_text(p, e->kids[e->nconfig + i]), kp->name);
      continue;
    }
    int j = -1;
    for (int q = 0; a && a->kind == EX_VAR && q < launcher->params.len; q++)
      if (TV_AT(launcher->params, TvVar, q) == a->var) j = q;
    if (j >= 0)
      tv_error(e->kids[e->nconfig + i]->loc,
               "launch of '%s' passes launcher parameter %d '%s' as argument %d, which is kernel "
               "parameter '%s'",
               k->name, j + 1, a->var->name, i + 1, kp->name);
    else
      tv_error(e->kids[e->nconfig + i]->loc,
               "launch of '%s' passes '%s' as argument %d, not launcher parameter %d%s%s%s",
               k->name, tv_expr_text(p, e->kids[e->nconfig + i]), i + 1, i + 1, want ? " '" : "",
               want ? want->name : "", want ? "'" : "");
  }
  if (stream) {
    TvExpr *s = e->nconfig >= 4 ? tv_strip(e->kids[3]) : NULL;
    if (!s || s->kind != EX_VAR || s->var != stream)
      tv_error(e->loc, "launch of '%s' does not run on the launcher's stream '%s'", k->name,
               stream->name);
  }
  if (l->dims_known && k->launch_bounds > 0) {
    long long threads = l->block[0] * l->block[1] * l->block[2];
    if (threads > k->launch_bounds)
      tv_error(e->loc,
               "launch of '%s' uses %lld threads per block, more than its __launch_bounds__(%lld)",
               k->name, threads, k->launch_bounds);
  }
}

// The kernel's parameters that the launcher passes through (its tensor maps
// after them are built by the launcher).
static int passed_params(const TvFunc *k) {
  int n = k->params.len;
  while (n > 0 && is_tensor_map(TV_AT(k->params, TvVar, n - 1)))
    n--;
  return n;
}

// Returns whether they match (then the launch's arguments are worth checking).
static bool check_params(TvFunc *k, TvFunc *launcher, int nparams) {
  if (nparams != k->params.len && nparams != passed_params(k)) {
    tv_error(launcher->loc,
             "launcher '%s' takes %d parameter%s before the stream, but kernel '%s' takes %d",
             launcher->name, nparams, nparams == 1 ? "" : "s", k->name, passed_params(k));
    return false;
  }
  bool ok = true;
  for (int i = 0; i < nparams; i++) {
    const TvVar *lp = TV_AT(launcher->params, TvVar, i), *kp = TV_AT(k->params, TvVar, i);
    if (strcmp(norm_type(lp->ctype), norm_type(kp->ctype)) || strcmp(lp->name, kp->name))
      ok = false;
    if (strcmp(norm_type(lp->ctype), norm_type(kp->ctype)))
      tv_error(
          lp->loc,
          "parameter %d of launcher '%s' is '%s' of type '%s', but parameter %d of kernel '%s' is "
          "'%s' of type '%s'",
          i + 1, launcher->name, lp->name, display_type(lp), i + 1, k->name, kp->name,
          display_type(kp));
    else if (strcmp(lp->name, kp->name))
      tv_error(lp->loc,
               "parameter %d of launcher '%s' is '%s', but parameter %d of kernel '%s' is '%s'",
               i + 1, launcher->name, lp->name, i + 1, k->name, kp->name);
  }
  return ok;
}

typedef struct {
  const TvFunc *callee;
  bool found;
} CallSearch;

static void note_call(TvExpr *e, void *ctx) {
  CallSearch *search = ctx;
  if (e->kind == EX_CALL && e->func == search->callee) search->found = true;
}

/* Whether an extern "C" host function with a body calls `callee`. */
static bool called_from_extern_c(TvProgram *p, const TvFunc *callee) {
  CallSearch search = {callee, false};
  for (int i = 0; i < p->funcs.len && !search.found; i++) {
    TvFunc *f = TV_AT(p->funcs, TvFunc, i);
    if (f != callee && f->is_host && f->is_extern_c && f->body)
      tv_for_each_expr(f->body, note_call, &search);
  }
  return search.found;
}

static void check_kernel(TvProgram *p, TvFunc *k) {
  size_t n = strlen(k->name);
  const char *want =
      n > 7 && !strcmp(k->name + n - 7, "_kernel") ? tv_strndup(k->name, n - 7) : NULL;
  TvFunc *launcher = want ? tv_find_func(p, want) : NULL;
  if (launcher && (!launcher->is_host || !launcher->body)) launcher = NULL;
  for (int i = 0; !launcher && i < k->launches.len; i++) {
    TvLaunch *l = TV_AT(k->launches, TvLaunch, i);
    if (l->in && l->in->is_host) launcher = l->in;
  }
  if (!launcher) {
    if (want)
      tv_error(k->loc, "kernel '%s' has no host launcher '%s'", k->name, want);
    else
      tv_error(k->loc, "kernel '%s' has no host launcher (no host function launches it)", k->name);
    return;
  }
  /* A `static` launcher is a helper of a public one (tlc's unaligned twin of
     a runtime-size kernel): it need not be extern "C", but an extern "C"
     host function of the file must call it, or nothing can reach it. */
  if (launcher->is_internal) {
    if (!called_from_extern_c(p, launcher))
      tv_error(launcher->loc,
               "launcher '%s' is static and no extern \"C\" host function of the file calls it",
               launcher->name);
  } else if (!launcher->is_extern_c)
    tv_error(launcher->loc, "launcher '%s' is not extern \"C\"", launcher->name);
  if (strcmp(launcher->return_type, "cudaError_t"))
    tv_error(launcher->loc, "launcher '%s' returns '%s', not cudaError_t", launcher->name,
             launcher->return_type);
  int nparams = launcher->params.len;
  const TvVar *stream = NULL;
  if (nparams > 0 && is_stream(TV_AT(launcher->params, TvVar, nparams - 1)))
    stream = TV_AT(launcher->params, TvVar, --nparams);
  else
    tv_error(launcher->loc, "launcher '%s' does not end with a cudaStream_t parameter",
             launcher->name);
  bool match = check_params(k, launcher, nparams);
  bool launched = false;
  for (int i = 0; i < k->launches.len; i++) {
    TvLaunch *l = TV_AT(k->launches, TvLaunch, i);
    if (l->in != launcher) continue;
    launched = true;
    check_launch(p, k, launcher, l, nparams, stream, match);
  }
  if (!launched)
    tv_error(launcher->loc, "launcher '%s' does not launch kernel '%s'", launcher->name, k->name);
}

void tv_check_launchers(TvProgram *p) {
  for (int i = 0; i < p->funcs.len; i++) {
    TvFunc *f = TV_AT(p->funcs, TvFunc, i);
    if (f->is_global) check_kernel(p, f);
  }
}
