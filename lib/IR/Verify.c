// The IR verifier, run after every pass (--verify-each, on by default in
// builds with TLC_VERIFY_IR). It checks the invariants of the level a kernel
// is at: tile IR has no thread-level nodes and thread IR no tile-level ones;
// every variable is used inside the loop or let that defines it; buffer
// accesses have one index per dimension (one flat index after flatten);
// loops have bounds; stores have values. A failure is a compiler bug: it is
// reported as an internal error naming the pass that broke the invariant.
#include "tlc/IR.h"

enum { MAX_SCOPE = 4096 };

typedef struct V {
  const TlKernel *k;
  const char *after;
  TlDiag *d;
  const TlVar *vars[MAX_SCOPE];
  int nvars;
  bool ok;
} V;

static void fail(V *v, TlLoc loc, const char *what) {
  if (!v->ok)
    return; // one report per kernel is enough
  v->ok = false;
  tl_error(v->d, loc, "internal error: IR verifier failed after pass '%s' in kernel '%s': %s",
           v->after, v->k->name, what);
}

static bool in_scope(V *v, const TlVar *var) {
  if (var->kind == VAR_BLOCK_IDX || var->kind == VAR_THREAD_IDX)
    return true;
  for (int i = v->nvars - 1; i >= 0; i--)
    if (v->vars[i] == var)
      return true;
  return false;
}

static void push(V *v, const TlVar *var) {
  if (v->nvars < MAX_SCOPE)
    v->vars[v->nvars++] = var;
}

static void check_expr(V *v, const TlExpr *e) {
  if (!e) {
    fail(v, v->k->loc, "missing expression");
    return;
  }
  switch (e->kind) {
  case EX_VAR:
    if (!in_scope(v, e->var))
    {
      char msg[160];
      snprintf(msg, sizeof msg, "variable '%s' used outside its scope", e->var->name);
      fail(v, e->loc, msg);
    }
    break;
  case EX_LOAD:
    if (!e->buf)
      fail(v, e->loc, "load without a buffer");
    else if ((v->k->flat || (v->k->thread_level && e->buf->scope == SCOPE_FRAGMENT))
                 ? e->nargs != 1
                 : (e->nargs != e->buf->ndims && !(e->buf->stages > 1 && e->nargs == e->buf->ndims + 1)))
      fail(v, e->loc, "load with the wrong number of indices");
    break;
  case EX_ELEM:
    if (!e->var || e->var->kind != VAR_ARRAY || !in_scope(v, e->var))
      fail(v, e->loc, "element of an undeclared register array");
    break;
  case EX_BINARY:
  case EX_SELECT:
  case EX_UNARY:
  case EX_CAST:
  case EX_CALL:
    if (e->nargs < 1)
      fail(v, e->loc, "operator without operands");
    break;
  default:
    break;
  }
  for (int i = 0; i < e->nargs; i++)
    check_expr(v, e->args[i]);
}

static void check_body(V *v, const TlVec *body);

static void check_stmt(V *v, const TlStmt *s) {
  bool thread = v->k->thread_level;
  int mark = v->nvars;
  switch (s->kind) {
  case ST_GEMM:
    if (thread && (!s->c->layout || s->c->layout->kind != LAYOUT_GEMM_C))
      fail(v, s->loc, "gemm accumulator without a gemm layout in thread IR");
    break;
  case ST_PARALLEL:
  case ST_COPY:
  case ST_FILL:
  case ST_REDUCE:
    if (thread)
      fail(v, s->loc, "a tile-level statement is left in thread IR");
    if (s->kind == ST_PARALLEL) {
      if (s->nvars < 1)
        fail(v, s->loc, "T.Parallel without variables");
      for (int i = 0; i < s->nvars; i++) {
        if (s->extents[i] < 1)
          fail(v, s->loc, "T.Parallel with a non-positive extent");
        push(v, s->vars[i]);
      }
    }
    break;
  case ST_CP_ASYNC:
    if (!thread || !s->buf || !s->value || s->value->kind != EX_LOAD)
      fail(v, s->loc, "malformed async copy");
    else {
      check_expr(v, s->indices[0]);
      check_expr(v, s->value);
      if (s->cond)
        check_expr(v, s->cond);
    }
    break;
  case ST_ASYNC_COMMIT:
  case ST_ASYNC_WAIT:
    break;
  case ST_WGMMA_WAIT:
    if (!s->buf || s->buf->scope != SCOPE_FRAGMENT || !s->buf->layout || !s->buf->layout->wgmma)
      fail(v, s->loc, "wgmma_wait names no wgmma accumulator");
    break;
  case ST_SYNC: // the pipeline pass places barriers in tile IR already
    break;
  case ST_VLOAD:
  case ST_VSTORE:
  case ST_DECL:
    if (!thread)
      fail(v, s->loc, "a thread-level statement in tile IR");
    if (s->kind == ST_DECL)
      push(v, s->var);
    if ((s->kind == ST_VLOAD || s->kind == ST_VSTORE) && (!s->var || !in_scope(v, s->var) || s->width < 2))
      fail(v, s->loc, "vector access without a declared register array");
    if (s->kind == ST_VLOAD || s->kind == ST_VSTORE)
      check_expr(v, s->indices[0]);
    mark = v->nvars; // a declaration stays visible after the statement
    break;
  case ST_FOR:
    if (!s->var || !s->start || !s->stop || !s->step)
      fail(v, s->loc, "loop without a variable or bounds");
    else {
      check_expr(v, s->start);
      check_expr(v, s->stop);
    }
    push(v, s->var);
    break;
  case ST_STORE:
    if (!s->value)
      fail(v, s->loc, "store without a value");
    if (s->buf) {
      if ((v->k->flat || (thread && s->buf->scope == SCOPE_FRAGMENT))
              ? s->nindices != 1
              : (s->nindices != s->buf->ndims && !(s->buf->stages > 1 && s->nindices == s->buf->ndims + 1)))
        fail(v, s->loc, "store with the wrong number of indices");
    } else if (!s->var || s->var->kind != VAR_ARRAY || !in_scope(v, s->var)) {
      fail(v, s->loc, "store to nothing");
    }
    for (int i = 0; i < s->nindices; i++)
      check_expr(v, s->indices[i]);
    check_expr(v, s->value);
    break;
  case ST_LET:
    check_expr(v, s->value);
    push(v, s->var);
    mark = v->nvars;
    break;
  case ST_SET:
    check_expr(v, s->value);
    if (!in_scope(v, s->var))
      fail(v, s->loc, "assignment to a variable outside its scope");
    break;
  case ST_IF:
    check_expr(v, s->cond);
    break;
  default:
    break;
  }
  check_body(v, &s->body);
  check_body(v, &s->else_body);
  if (s->kind != ST_LET && s->kind != ST_DECL)
    v->nvars = mark;
}

static void check_body(V *v, const TlVec *body) {
  int mark = v->nvars;
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (!s) {
      fail(v, v->k->loc, "null statement");
      continue;
    }
    check_stmt(v, s);
  }
  v->nvars = mark;
}

bool tl_ir_verify(const TlModule *m, const char *after, TlDiag *d) {
  bool ok = true;
  for (int k = 0; k < m->kernels.len; k++) {
    V v = {0};
    v.k = TL_VEC_AT(m->kernels, TlKernel, k);
    v.after = after;
    v.d = d;
    v.ok = true;
    check_body(&v, &v.k->body);
    ok = ok && v.ok;
  }
  return ok;
}
