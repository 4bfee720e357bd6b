// uniform-select: a T.Parallel nest that stores `select(cond, a, b)`, where
// cond is a comparison (or an `and` of comparisons) affine in the nest's
// variables with constant coefficients and otherwise uniform across the
// block (block indices, loop counters, constants), gets a block-uniform fast
// path: when cond holds at every corner of the nest's box it holds on the
// whole box (a half-space, and an intersection of half-spaces, is convex),
// so the nest stores `a` without evaluating cond per element:
//
//   if cond(corner 0) and cond(corner 1) and ... { parallel: dst = a }
//   else { parallel: dst = select(cond, a, b) }
//
// Why: flash attention's causal mask `select(bx * M + i >= k * N + j, 0,
// -inf)` is evaluated on every element of every K/V block, but only blocks
// on the diagonal have masked elements; the others take the fast path (a
// plain fill), as FlashAttention-3 masks only the diagonal blocks.
#include "tlc/Passes.h"

enum { MAX_NEST_VARS = 3 }; // 2^3 corners at most

typedef struct Nest {
  int n;
  TlVar *const *vars;
  const int64_t *extents;
} Nest;

static int nest_index(const Nest *nest, const TlVar *v) {
  for (int i = 0; i < nest->n; i++)
    if (nest->vars[i] == v) return i;
  return -1;
}

static bool uses_nest_var(const Nest *nest, const TlExpr *e) {
  if (!e) return false;
  if (e->kind == EX_VAR && nest_index(nest, e->var) >= 0) return true;
  for (int i = 0; i < e->nargs; i++)
    if (uses_nest_var(nest, e->args[i])) return true;
  return false;
}

// The same value in every thread of the block: integer arithmetic on
// constants, block indices and loop counters outside the nest.
static bool uniform(const Nest *nest, const TlExpr *e) {
  switch (e->kind) {
  case EX_INT:
    return true;
  case EX_VAR:
    return nest_index(nest, e->var) < 0 &&
           (e->var->kind == VAR_BLOCK_IDX || e->var->kind == VAR_LOOP ||
            e->var->kind == VAR_TILE_ITER);
  case EX_BINARY:
    switch (e->op) {
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_FLOORDIV:
    case OP_FLOORMOD:
    case OP_MIN:
    case OP_MAX:
      return uniform(nest, e->args[0]) && uniform(nest, e->args[1]);
    default:
      return false;
    }
  default:
    return false;
  }
}

// Affine in the nest variables with constant coefficients, uniform otherwise.
static bool affine(const Nest *nest, const TlExpr *e) {
  if (!uses_nest_var(nest, e)) return uniform(nest, e);
  if (e->kind == EX_VAR) return true;
  if (e->kind != EX_BINARY) return false;
  if (e->op == OP_ADD || e->op == OP_SUB)
    return affine(nest, e->args[0]) && affine(nest, e->args[1]);
  if (e->op == OP_MUL)
    return (e->args[0]->kind == EX_INT && affine(nest, e->args[1])) ||
           (e->args[1]->kind == EX_INT && affine(nest, e->args[0]));
  return false;
}

// A comparison of affine integer sides, or an `and` of such: a convex set.
static bool convex(const Nest *nest, const TlExpr *c) {
  if (c->kind != EX_BINARY) return false;
  if (c->op == OP_AND) return convex(nest, c->args[0]) && convex(nest, c->args[1]);
  if (c->op != OP_LT && c->op != OP_LE && c->op != OP_GT && c->op != OP_GE) return false;
  return !tl_dtype_is_float(c->args[0]->dtype) && !tl_dtype_is_float(c->args[1]->dtype) &&
         affine(nest, c->args[0]) && affine(nest, c->args[1]);
}

// cond at every corner of the nest's box, joined by `and`.
static TlExpr *at_every_corner(TlArena *a, const Nest *nest, const TlExpr *cond) {
  TlExpr *all = NULL;
  for (int corner = 0; corner < 1 << nest->n; corner++) {
    TlExpr *with[MAX_NEST_VARS];
    for (int d = 0; d < nest->n; d++) {
      int64_t v = corner >> d & 1 ? nest->extents[d] - 1 : 0;
      with[d] = tl_expr_int(a, cond->loc, v, nest->vars[d]->dtype);
    }
    TlExpr *c = tl_simplify(a, tl_expr_substitute(a, cond, nest->n, nest->vars, with));
    all = all ? tl_expr_binary(a, cond->loc, OP_AND, all, c, cond->dtype) : c;
  }
  return all;
}

// Loads only registers (a fragment), not shared or global memory.
static bool registers_only(const TlExpr *e) {
  if (!e) return true;
  if (e->kind == EX_LOAD && e->buf->scope != SCOPE_FRAGMENT) return false;
  for (int i = 0; i < e->nargs; i++)
    if (!registers_only(e->args[i])) return false;
  return true;
}

// The fast path of nest s, or NULL when s is not such a nest. Only nests
// that compute a fragment from registers: a copy's edge guard stays as it
// is (the copy lowerings, TMA and cp.async, have their own edge handling).
static TlStmt *split(TlArena *a, TlStmt *s) {
  if (s->kind != ST_PARALLEL || s->nvars < 1 || s->nvars > MAX_NEST_VARS || s->body.len != 1)
    return NULL;
  TlStmt *st = TL_VEC_AT(s->body, TlStmt, 0);
  if (st->kind != ST_STORE || st->update_op != OP_EQ || !st->value ||
      st->value->kind != EX_SELECT || !st->buf || st->buf->scope != SCOPE_FRAGMENT ||
      !registers_only(st->value))
    return NULL;
  for (int d = 0; d < s->nvars; d++)
    if (s->extents[d] < 1) return NULL;
  Nest nest = {s->nvars, s->vars, s->extents};
  const TlExpr *cond = st->value->args[0];
  if (!uses_nest_var(&nest, cond) || !convex(&nest, cond)) return NULL;
  TlStmt *fast = tl_stmt_clone(a, s);
  TlStmt *fast_store = TL_VEC_AT(fast->body, TlStmt, 0);
  fast_store->value = fast_store->value->args[1];
  TlStmt *g = tl_stmt_new(a, ST_IF, s->loc);
  g->cond = at_every_corner(a, &nest, cond);
  tl_vec_push(a, &g->body, fast);
  tl_vec_push(a, &g->else_body, s);
  return g;
}

static void walk(TlArena *a, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    TlStmt *g = split(a, s);
    if (g) {
      body->items[i] = g;
      continue;
    }
    if (s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_SEQ || s->kind == ST_IF) {
      walk(a, &s->body);
      walk(a, &s->else_body);
    }
  }
}

bool tl_uniform_select(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++)
    walk(a, &TL_VEC_AT(m->kernels, TlKernel, k)->body);
  return true;
}
