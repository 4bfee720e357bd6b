// Check 4: shared-memory accesses stay inside their arrays. It walks each
// kernel in order, keeping what the path knows: loop counters' ranges
// (for (int v = a; v < b; ...) with bounded a and b), the guards of
// enclosing ifs (and of earlier `if (c) return;`), and the block and grid
// sizes of the kernel's launches. Range.c bounds each index; an access is
// reported when its whole range is known and leaves the array. Accesses
// checked: X[i] (and X[i][j] for static arrays) and the vector form
// *(T*)&X[i], which covers sizeof(T) bytes from element i.
#include "Verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Walk {
  TvProgram *p;
  TvRangeEnv env;
} Walk;

static void scan(Walk *w, TvExpr *e);

// The shared array an access starts from, with its extents in elements.
typedef struct Target {
  TvVar *var;
  int rank;
  long long dims[4];
  long long bytes, elem;
} Target;

static bool target_of(const Walk *w, TvVar *v, Target *t) {
  memset(t, 0, sizeof *t);
  t->var = v;
  t->elem = v->elem_size;
  if (t->elem <= 0) return false;
  if (v->is_smem_view) {
    t->bytes = v->smem_bytes;
    if (t->bytes < 0) return false; // no "// B bytes" comment: size unknown
  } else if (v->is_dynamic_smem || (v->is_shared && v->is_array && v->rank == 0)) {
    // extern __shared__ T x[]: bounded by the smallest launch request.
    const TvFunc *k = w->env.kernel;
    t->bytes = -1;
    for (int i = 0; k && i < k->launches.len; i++) {
      const TvLaunch *l = TV_AT(k->launches, TvLaunch, i);
      if (!l->smem_known) return false;
      if (t->bytes < 0 || l->smem < t->bytes) t->bytes = l->smem;
    }
    if (t->bytes < 0) return false;
  } else if (v->is_shared && v->is_array) {
    t->rank = v->rank;
    memcpy(t->dims, v->dims, sizeof t->dims);
    t->bytes = v->size;
    return t->bytes > 0;
  } else {
    return false;
  }
  t->rank = 1;
  t->dims[0] = t->bytes / t->elem;
  return true;
}

// X[i0][i1]...: the base variable and the indices, outermost first.
static TvVar *subscripts(TvExpr *e, TvExpr **idx, int *n) {
  TvExpr *chain[4];
  int k = 0;
  while (e && e->kind == EX_SUBSCRIPT && k < 4) {
    chain[k++] = e;
    e = tv_strip(e->kids[0]);
  }
  if (!e || e->kind != EX_VAR) return NULL;
  for (int i = 0; i < k; i++)
    idx[i] = chain[k - 1 - i]->kids[1];
  *n = k;
  return e->var;
}

static const char *with_atoms(const char *atoms) {
  return atoms[0] ? tv_printf(" (%s)", atoms) : "";
}

static bool known(TvRange r) {
  return r.lo != TV_NEG_INF && r.hi != TV_POS_INF;
}

// TLC_VERIFY_DEBUG=1 shows every index range the check computes.
static void debug(Walk *w, TvExpr *access, TvExpr *idx, TvRange r, const char *atoms) {
  if (getenv("TLC_VERIFY_DEBUG"))
    fprintf(stderr, "%u:%u: %s in [%lld, %lld] (%s)\n", access->loc.line, access->loc.col,
            tv_expr_text(w->p, idx), r.lo, r.hi, atoms);
}

// X[i], X[i][j]: each index within its extent.
static void check_elements(Walk *w, TvExpr *access, const Target *t, TvExpr **idx, int n) {
  for (int i = 0; i < n && i < t->rank; i++) {
    char atoms[256];
    TvRange r = tv_range(&w->env, idx[i], atoms, sizeof atoms);
    debug(w, access, idx[i], r, atoms);
    if (!known(r) || (r.lo >= 0 && r.hi < t->dims[i])) continue;
    const char *dim = t->rank > 1 ? tv_printf(" (dimension %d)", i + 1) : "";
    tv_error(access->loc,
             "shared-memory index out of bounds: '%s' into '%s'%s ranges over [%lld, %lld], "
             "outside [0, %lld]%s",
             tv_expr_text(w->p, idx[i]), t->var->name, dim, r.lo, r.hi, t->dims[i] - 1,
             with_atoms(atoms));
  }
}

// A vector access must be aligned to its width (a misaligned one faults).
// Reported only when the index's congruence proves it misaligned for every
// thread, on views into tl_smem, whose base is aligned to at least 16.
static void check_alignment(Walk *w, TvExpr *access, const Target *t, TvExpr *idx, int n,
                            long long width, const char *type, TvRange r, const char *atoms) {
  long long g, res;
  if (n != 1 || !t->var->is_smem_view || width > 16 || (width & (width - 1))) return;
  tv_congruence(&w->env, idx, &g, &res);
  // byte = OFF + es * idx with idx = res (mod g): exact modulo width when
  // es * g is a multiple of it.
  if ((t->elem * g) % width != 0) return;
  long long off = (t->var->smem_offset + t->elem * res) % width;
  if (off == 0) return;
  tv_error(access->loc,
           "shared-memory access misaligned: %lld-byte '%s' access at index '%s' of '%s' (range "
           "[%lld, %lld]) is "
           "at byte %lld modulo %lld%s",
           width, type ? type : "vector", tv_expr_text(w->p, idx), t->var->name, r.lo, r.hi, off,
           width, with_atoms(atoms));
}

// *(T*)&X[...]: the bytes [offset, offset + width) must lie inside X.
static void check_vector(Walk *w, TvExpr *access, const Target *t, TvExpr **idx, int n,
                         long long width, const char *type) {
  char atoms[256] = "";
  // X[i] of a 2-D X is a row: the innermost index given steps by the
  // extents not indexed.
  long long stride = t->elem;
  for (int i = n; i < t->rank; i++)
    stride *= t->dims[i];
  TvRange bytes = {0, 0};
  const char *shown = NULL;
  TvRange shown_r = {0, 0};
  for (int i = n - 1; i >= 0; i--) {
    char a[256];
    TvRange r = tv_range(&w->env, idx[i], a, sizeof a);
    debug(w, access, idx[i], r, a);
    if (!known(r)) return;
    if (!shown) {
      shown = tv_expr_text(w->p, idx[i]);
      shown_r = r;
      snprintf(atoms, sizeof atoms, "%s", a);
    }
    bytes.lo += r.lo * stride;
    bytes.hi += r.hi * stride;
    stride *= i < t->rank ? t->dims[i] : 1;
  }
  if (n == 0) return;
  check_alignment(w, access, t, idx[n - 1], n, width, type, shown_r, atoms);
  bytes.hi += width - 1;
  if (bytes.lo >= 0 && bytes.hi < t->bytes) return;
  const char *tname = type ? tv_printf(" '%s'", type) : "";
  if (width % t->elem == 0 && n == 1)
    tv_error(access->loc,
             "shared-memory access out of bounds: %lld-byte%s access at index '%s' of '%s' (range "
             "[%lld, %lld]) "
             "covers elements [%lld, %lld], outside [0, %lld]%s",
             width, tname, shown, t->var->name, shown_r.lo, shown_r.hi, bytes.lo / t->elem,
             bytes.hi / t->elem, t->bytes / t->elem - 1, with_atoms(atoms));
  else
    tv_error(access->loc,
             "shared-memory access out of bounds: %lld-byte%s access at index '%s' of '%s' (range "
             "[%lld, %lld]) "
             "covers bytes [%lld, %lld], outside [0, %lld]%s",
             width, tname, shown, t->var->name, shown_r.lo, shown_r.hi, bytes.lo, bytes.hi,
             t->bytes - 1, with_atoms(atoms));
}

// The index expressions of an access are scanned too (they may load).
static void scan_indices(Walk *w, TvExpr **idx, int n) {
  for (int i = 0; i < n; i++)
    scan(w, idx[i]);
}

// An access of `width` bytes at `addr` when addr is &X[i] on a shared
// array; returns false (nothing checked) otherwise.
static bool access_at(Walk *w, TvExpr *addr, long long width, const char *type) {
  addr = tv_strip(addr);
  if (!addr || addr->kind != EX_UNARY || strcmp(addr->op, "&")) return false;
  TvExpr *sub = tv_strip(addr->kids[0]);
  TvExpr *idx[4];
  int n = 0;
  TvVar *v = sub ? subscripts(sub, idx, &n) : NULL;
  Target t;
  if (!v || !target_of(w, v, &t)) return false;
  check_vector(w, sub, &t, idx, n, width, type);
  scan_indices(w, idx, n);
  return true;
}

// *(T*)&X[i]: sizeof(T) bytes.
static bool vector_access(Walk *w, TvExpr *e) {
  if (e->kind != EX_UNARY || strcmp(e->op, "*")) return false;
  TvExpr *cast = tv_strip(e->kids[0]);
  if (!cast || cast->kind != EX_CAST || !cast->cast_to_pointer || cast->cast_pointee_size <= 0)
    return false;
  const char *type = cast->cast_type;
  size_t len = strlen(type);
  if (len > 2 && type[len - 1] == '*')
    type = tv_strndup(type, len - (type[len - 2] == ' ' ? 2 : 1));
  return access_at(w, cast->kids[0], cast->cast_pointee_size, type);
}

// tl_cp_async<N>(&X[i], src) and its _zfill form: tlc's cp.async helper
// writes N bytes at its first argument.
static bool cp_async_access(Walk *w, TvExpr *e) {
  if (e->kind != EX_CALL || !e->name || strncmp(e->name, "tl_cp_async", 11) || e->ntargs < 1 ||
      e->targs[0] <= 0 || e->nkids < 1)
    return false;
  if (!access_at(w, e->kids[0], e->targs[0], "cp.async")) return false;
  for (int i = 1; i < e->nkids; i++)
    scan(w, e->kids[i]);
  return true;
}

static void scan(Walk *w, TvExpr *e) {
  if (!e) return;
  if (vector_access(w, e) || cp_async_access(w, e)) return;
  if (e->kind == EX_SUBSCRIPT) {
    TvExpr *idx[4];
    int n = 0;
    TvVar *v = subscripts(e, idx, &n);
    Target t;
    if (v && target_of(w, v, &t)) {
      check_elements(w, e, &t, idx, n);
      scan_indices(w, idx, n);
      return;
    }
  }
  if (e->kind == EX_COND) {
    scan(w, e->kids[0]);
    for (int arm = 1; arm <= 2; arm++) {
      TvGuard *saved = tv_push_cond(&w->env, e->kids[0], arm == 2);
      scan(w, e->kids[arm]);
      tv_pop_guards(&w->env, saved);
    }
    return;
  }
  if (e->kind == EX_BINARY && (!strcmp(e->op, "&&") || !strcmp(e->op, "||"))) {
    scan(w, e->kids[0]);
    TvGuard *saved = tv_push_cond(&w->env, e->kids[0], e->op[0] == '|');
    scan(w, e->kids[1]);
    tv_pop_guards(&w->env, saved);
    return;
  }
  for (int i = 0; i < e->nkids; i++)
    scan(w, e->kids[i]);
}

static void walk(Walk *w, TvStmt *s);

// Does every path through s leave the enclosing block (return, break, continue)?
static bool exits(const TvStmt *s) {
  if (!s) return false;
  if (s->kind == ST_RETURN || s->kind == ST_BREAK || s->kind == ST_CONTINUE) return true;
  if (s->kind == ST_BLOCK) return s->nkids > 0 && exits(s->kids[s->nkids - 1]);
  if (s->kind == ST_IF) return exits(s->kids[0]) && exits(s->kids[1]);
  return false;
}

static void walk_for(Walk *w, TvStmt *s) {
  walk(w, s->kids[0]);
  TvVar *v = s->kids[0] && s->kids[0]->vars.len == 1 ? TV_AT(s->kids[0]->vars, TvVar, 0) : NULL;
  bool counter = v && v->loop == s && v->nassign == 0 && !v->addr_taken;
  TvExpr *c = tv_strip(s->cond);
  if (counter && c && c->kind == EX_BINARY && tv_strip(c->kids[0]) &&
      tv_strip(c->kids[0])->kind == EX_VAR && tv_strip(c->kids[0])->var == v &&
      (!strcmp(c->op, "<") || !strcmp(c->op, "<=") || !strcmp(c->op, "!="))) {
    TvRange start = tv_range(&w->env, v->init, NULL, 0),
            stop = tv_range(&w->env, c->kids[1], NULL, 0);
    if (known(start) && known(stop)) {
      long long hi = c->op[0] == '<' && c->op[1] == '=' ? stop.hi : stop.hi - 1;
      if (start.lo > hi) return; // the body never runs
      v->has_range = true;
      v->range_lo = start.lo;
      v->range_hi = hi;
    }
  }
  scan(w, s->cond);
  TvGuard *saved = tv_push_cond(&w->env, s->cond, false);
  walk(w, s->kids[1]);
  scan(w, s->inc);
  tv_pop_guards(&w->env, saved);
  if (v) v->has_range = false;
}

static void walk(Walk *w, TvStmt *s) {
  if (!s) return;
  TvGuard *saved = w->env.guards;
  switch (s->kind) {
  case ST_BLOCK:
    for (int i = 0; i < s->nkids; i++) {
      TvStmt *k = s->kids[i];
      walk(w, k);
      // if (c) return; ... : the rest of the block runs only when !c.
      if (k->kind == ST_IF && !k->kids[1] && exits(k->kids[0]))
        tv_push_cond(&w->env, k->cond, true);
    }
    break;
  case ST_DECL:
    for (int i = 0; i < s->vars.len; i++)
      scan(w, TV_AT(s->vars, TvVar, i)->init);
    break;
  case ST_EXPR:
  case ST_RETURN:
    scan(w, s->expr);
    break;
  case ST_IF:
    scan(w, s->cond);
    tv_push_cond(&w->env, s->cond, false);
    walk(w, s->kids[0]);
    tv_pop_guards(&w->env, saved);
    tv_push_cond(&w->env, s->cond, true);
    walk(w, s->kids[1]);
    break;
  case ST_FOR:
    walk_for(w, s);
    break;
  case ST_WHILE:
    scan(w, s->cond);
    tv_push_cond(&w->env, s->cond, false);
    walk(w, s->kids[0]);
    break;
  case ST_DO:
    walk(w, s->kids[0]);
    scan(w, s->cond);
    break;
  default:
    scan(w, s->cond);
    for (int i = 0; i < s->exprs.len; i++)
      scan(w, TV_AT(s->exprs, TvExpr, i));
    for (int i = 0; i < s->vars.len; i++)
      scan(w, TV_AT(s->vars, TvVar, i)->init);
    for (int i = 0; i < s->nkids; i++)
      walk(w, s->kids[i]);
    break;
  }
  tv_pop_guards(&w->env, saved);
}

void tv_check_shared_bounds(TvProgram *p) {
  for (int i = 0; i < p->funcs.len; i++) {
    TvFunc *f = TV_AT(p->funcs, TvFunc, i);
    if (!f->body) continue;
    Walk w = {.p = p, .env = {.kernel = f->is_global ? f : NULL}};
    walk(&w, f->body);
  }
}
