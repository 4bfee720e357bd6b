// Part of layout-inference: T.Parallel nests that read a fragment at rows
// shifted by an amount fixed for the nest, as TileLang's split stores do:
//
//   for s in range(2):
//       for i, j in T.Parallel(BS, D):
//           if i < BS // 2:
//               half[i, j] = acc[i + s * (BS // 2), j]
//
// No layout fits `acc[i + c, j]` indexed by (i, j), so the nest would stage
// the whole fragment in shared memory (64 KB for sparse_mla_bwd's dKV tile).
// Instead the nest runs over the fragment's own rows u (and the same j):
// i = u - c, under the guard 0 <= u - c < BS. Then it indexes acc by its
// variables and follows acc's layout: each thread visits the elements it
// holds.
//
// Points dropped that way are the ones whose acc row u would fall outside
// the fragment. That is only the same program when every statement of the
// body with an effect (a store) reads acc itself: then each dropped point
// would have read outside the fragment (undefined) or done nothing (its
// guard false). Other nests are left as they are.
#include <stdbool.h>

#include "tlc/IR.h"
#include "tlc/Passes.h"

// Does e mention one of the nest's variables?
static bool uses_nest_var(const TlExpr *e, const TlStmt *nest) {
  if (!e) return false;
  if (e->kind == EX_VAR)
    for (int v = 0; v < nest->nvars; v++)
      if (e->var == nest->vars[v]) return true;
  for (int i = 0; i < e->nargs; i++)
    if (uses_nest_var(e->args[i], nest)) return true;
  return false;
}

// c when e is `v0 + c` or `c + v0` with c free of the nest's variables.
static const TlExpr *shift_of(const TlExpr *e, const TlStmt *nest) {
  if (e->kind != EX_BINARY || e->op != OP_ADD) return NULL;
  for (int k = 0; k < 2; k++) {
    const TlExpr *x = e->args[k], *c = e->args[1 - k];
    if (x->kind == EX_VAR && x->var == nest->vars[0] && !uses_nest_var(c, nest)) return c;
  }
  return NULL;
}

typedef struct Scan {
  const TlStmt *nest;
  TlBuffer *frag;    // the one fragment the nest touches
  const TlExpr *c;   // its row shift
  bool ok;           // every access is frag[v0 + c, v1], loads only
} Scan;

static void scan_expr(Scan *sc, const TlExpr *e) {
  if (!e || !sc->ok) return;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT) {
    const TlExpr *c = e->nargs == 2 ? shift_of(e->args[0], sc->nest) : NULL;
    if (!c || (sc->frag && sc->frag != e->buf) || e->buf->ndims != 2 ||
        e->args[1]->kind != EX_VAR || e->args[1]->var != sc->nest->vars[1] ||
        (sc->c && !tl_expr_equal(sc->c, c))) {
      sc->ok = false;
      return;
    }
    sc->frag = e->buf;
    sc->c = c;
    return; // its indices hold no other fragment access (checked above)
  }
  for (int i = 0; i < e->nargs; i++)
    scan_expr(sc, e->args[i]);
}

static void scan_body(Scan *sc, const TlVec *body) {
  for (int i = 0; i < body->len && sc->ok; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT) {
      sc->ok = false; // a store into a fragment: not this rewrite's
      return;
    }
    for (int d = 0; d < s->nindices; d++)
      scan_expr(sc, s->indices[d]);
    scan_expr(sc, s->value);
    scan_expr(sc, s->cond);
    scan_body(sc, &s->body);
    scan_body(sc, &s->else_body);
  }
}

static bool reads_frag(const TlExpr *e, const TlBuffer *f) {
  if (!e) return false;
  if (e->kind == EX_LOAD && e->buf == f) return true;
  for (int i = 0; i < e->nargs; i++)
    if (reads_frag(e->args[i], f)) return true;
  return false;
}

// Does every store of the body (under its ifs) read f, and is there nothing
// else with an effect?
static bool every_store_reads(const TlVec *body, const TlBuffer *f) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    switch (s->kind) {
    case ST_IF:
      if (!every_store_reads(&s->body, f) || !every_store_reads(&s->else_body, f)) return false;
      break;
    case ST_LET:
    case ST_COMMENT:
      break;
    case ST_STORE: {
      bool reads = reads_frag(s->value, f);
      for (int d = 0; d < s->nindices && !reads; d++)
        reads = reads_frag(s->indices[d], f);
      if (!reads || s->atomic) return false;
      break;
    }
    default:
      return false;
    }
  }
  return true;
}

static void index_rows_by(TlArena *a, TlExpr *e, const TlBuffer *f, TlVar *u) {
  if (!e) return;
  if (e->kind == EX_LOAD && e->buf == f) {
    e->args[0] = tl_expr_var(a, e->args[0]->loc, u);
    return;
  }
  for (int i = 0; i < e->nargs; i++)
    index_rows_by(a, e->args[i], f, u);
}

static void index_body_rows_by(TlArena *a, TlVec *body, const TlBuffer *f, TlVar *u) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    for (int d = 0; d < s->nindices; d++)
      index_rows_by(a, s->indices[d], f, u);
    index_rows_by(a, s->value, f, u);
    index_rows_by(a, s->cond, f, u);
    index_body_rows_by(a, &s->body, f, u);
    index_body_rows_by(a, &s->else_body, f, u);
  }
}

static void shift_nest(TlArena *a, TlKernel *k, TlStmt *nest) {
  if (nest->nvars != 2 || nest->layout) return;
  Scan sc = {nest, NULL, NULL, true};
  scan_body(&sc, &nest->body);
  if (!sc.ok || !sc.frag || nest->extents[1] != sc.frag->shape[1] ||
      !every_store_reads(&nest->body, sc.frag))
    return;
  TlLoc loc = nest->loc;
  TlVar *v0 = nest->vars[0];
  TlVar *u = tl_var_new(a, k, v0->name, VAR_LOOP, v0->dtype, loc);
  u->extent = sc.frag->shape[0];
  const TlExpr *c = tl_expr_clone(a, sc.c);
  index_body_rows_by(a, &nest->body, sc.frag, u);
  // i = u - c everywhere else, under 0 <= u - c < extent.
  TlExpr *i = tl_expr_binary(a, loc, OP_SUB, tl_expr_var(a, loc, u), tl_expr_clone(a, c), v0->dtype);
  for (int q = 0; q < nest->body.len; q++)
    tl_stmt_substitute(a, TL_VEC_AT(nest->body, TlStmt, q), 1, &v0, &i);
  TlStmt *guard = tl_stmt_new(a, ST_IF, loc);
  guard->cond = tl_expr_binary(
      a, loc, OP_AND,
      tl_expr_binary(a, loc, OP_GE, tl_expr_clone(a, i), tl_expr_int(a, loc, 0, v0->dtype), TY_BOOL),
      tl_expr_binary(a, loc, OP_LT, tl_expr_clone(a, i),
                     tl_expr_int(a, loc, nest->extents[0], v0->dtype), TY_BOOL),
      TY_BOOL);
  guard->body = nest->body;
  nest->body = (TlVec){0};
  tl_vec_push(a, &nest->body, guard);
  nest->vars[0] = u;
  nest->extents[0] = sc.frag->shape[0];
}

static void walk(TlArena *a, TlKernel *k, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_PARALLEL) {
      shift_nest(a, k, s);
      continue;
    }
    walk(a, k, &s->body);
    walk(a, k, &s->else_body);
  }
}

void tl_shift_fragment_nests(TlArena *a, TlKernel *k) {
  walk(a, k, &k->body);
}
