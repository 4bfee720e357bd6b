// The partition pass, loop_layout half: `T.Parallel(..., loop_layout=F)`
// where F = T.Fragment(shape, forward_fn=f[, replicate=r]) and
// f(i, j[, rep]) -> (thread, local).
//
// tlc checks at compile time that f maps every (point, replica) of the nest
// to a distinct (thread < T, local >= 0) pair: two points on one register is
// a located error naming both. The inverse is kept as a constant table,
// table[local * T + thread] = flat point * r + replica (or -1: no point),
// which the generated loop reads:
//   for l in 0..L { e = table[l * T + tid]; if e >= 0 { point = e / r; ... } }
// With replication every replica runs the body (its registers are its own)
// but only replica 0 writes shared or global memory. The table is bounded
// (2^20 entries); larger spaces are an error rather than a slow compile.
#include "tlc/Passes.h"

#include "PartitionInternal.h"

enum { MAX_LAYOUT_ENTRIES = 1 << 20 };

static void describe_point(char *buf, size_t n, const TlStmt *nest, int64_t flat, int64_t rep,
                           int64_t r) {
  int64_t idx[TL_MAX_DIMS];
  for (int d = nest->nvars - 1; d >= 0; d--) {
    idx[d] = flat % nest->extents[d];
    flat /= nest->extents[d];
  }
  size_t off = (size_t)snprintf(buf, n, "(");
  for (int d = 0; d < nest->nvars && off < n; d++)
    off += (size_t)snprintf(buf + off, n - off, "%s%lld", d ? ", " : "", (long long)idx[d]);
  if (off < n)
    snprintf(buf + off, n - off, r > 1 ? ") replica %lld" : ")", (long long)rep);
}

// Evaluates f at one point; false after reporting.
static bool eval_point(const TlStmt *nest, int64_t flat, int64_t rep, int64_t *thread, int64_t *local,
                       TlDiag *d) {
  const TlLayoutFn *L = nest->layout;
  int64_t vals[TL_MAX_DIMS + 1];
  int64_t f = flat;
  for (int k = nest->nvars - 1; k >= 0; k--) {
    vals[k] = f % nest->extents[k];
    f /= nest->extents[k];
  }
  vals[nest->nvars] = rep;
  if (!tl_expr_eval_int(L->thread, L->params, vals, L->nparams, thread) ||
      !tl_expr_eval_int(L->local, L->params, vals, L->nparams, local)) {
    if (d)
      tl_error(d, L->loc, "forward_fn of loop_layout cannot be evaluated at compile time (it must be "
                        "integer arithmetic of its arguments)");
    return false;
  }
  return true;
}

// When f is exactly the default formula for some vector width V (the
// book's swap_layout is V = 4), the closed form with vectors is better than
// a table: returns that V, or 0.
int64_t tl_layout_default_width(const TlKernel *k, const TlStmt *nest) {
  const TlLayoutFn *F = nest->layout;
  int64_t T = k->threads[0] * k->threads[1] * k->threads[2], total = 1;
  for (int i = 0; i < nest->nvars; i++)
    total *= nest->extents[i];
  if (F->replicate != 1 || total > MAX_LAYOUT_ENTRIES)
    return 0;
  for (int64_t V = 16; V >= 1; V /= 2) {
    TlPartitionPlan plan;
    char err[64];
    if (nest->extents[nest->nvars - 1] % V ||
        !tl_partition_plan_default(&plan, nest->nvars, nest->extents, T, V, err, sizeof err))
      continue;
    bool same = true;
    for (int64_t p = 0; p < total && same; p++) {
      int64_t t, l, dt, dl, idx[TL_MAX_DIMS];
      if (!eval_point(nest, p, 0, &t, &l, NULL))
        return 0;
      tl_partition_unflatten(&plan, p, idx);
      tl_partition_point(&plan, idx, &dt, &dl);
      same = t == dt && l == dl;
    }
    if (same)
      return V;
  }
  return 0;
}

TlStmt *tl_partition_layout_nest(TlArena *a, TlKernel *k, TlStmt *nest, TlDiag *d, int serial) {
  const TlLayoutFn *F = nest->layout;
  TlLoc loc = nest->loc;
  int64_t T = k->threads[0] * k->threads[1] * k->threads[2], R = F->replicate, total = 1;
  for (int i = 0; i < nest->nvars; i++)
    total *= nest->extents[i];
  if (total * R > MAX_LAYOUT_ENTRIES) {
    tl_error(d, F->loc, "loop_layout over %lld points is too large to check (limit %d)",
             (long long)(total * R), MAX_LAYOUT_ENTRIES);
    return NULL;
  }
  // Pass 1: ranges.
  int64_t L = 0;
  for (int64_t p = 0; p < total; p++)
    for (int64_t rep = 0; rep < R; rep++) {
      int64_t t, l;
      if (!eval_point(nest, p, rep, &t, &l, d))
        return NULL;
      if (t < 0 || t >= T || l < 0 || l >= MAX_LAYOUT_ENTRIES) {
        char pt[96];
        describe_point(pt, sizeof pt, nest, p, rep, R);
        tl_error(d, F->loc, "loop_layout maps point %s to thread %lld, local %lld; threads must be in "
                            "0..%lld and locals non-negative", pt, (long long)t, (long long)l, (long long)(T - 1));
        return NULL;
      }
      if (l + 1 > L)
        L = l + 1;
    }
  if (L * T > MAX_LAYOUT_ENTRIES) {
    tl_error(d, F->loc, "loop_layout needs %lld registers per thread; its table would exceed %d entries",
             (long long)L, MAX_LAYOUT_ENTRIES);
    return NULL;
  }
  // Pass 2: the inverse table, and collisions.
  int32_t *table = TL_NEW_ARRAY(a, int32_t, L * T);
  for (int64_t i = 0; i < L * T; i++)
    table[i] = -1;
  int64_t holes = L * T;
  for (int64_t p = 0; p < total; p++)
    for (int64_t rep = 0; rep < R; rep++) {
      int64_t t, l;
      eval_point(nest, p, rep, &t, &l, d);
      int32_t *slot = &table[l * T + t];
      if (*slot >= 0) {
        char p1[96], p2[96];
        describe_point(p1, sizeof p1, nest, *slot / R, *slot % R, R);
        describe_point(p2, sizeof p2, nest, p, rep, R);
        tl_error(d, F->loc, "loop_layout is not one-to-one: points %s and %s both map to thread %lld, "
                            "local %lld", p1, p2, (long long)t, (long long)l);
        tl_note(d, loc, "every point of this T.Parallel needs its own (thread, local) pair");
        return NULL;
      }
      *slot = (int32_t)(p * R + rep);
      holes--;
    }
  TlBuffer *tb = TL_NEW(a, TlBuffer);
  tb->name = tl_arena_printf(a, "tl_layout_%s_%d", k->name, serial);
  tb->loc = F->loc;
  tb->scope = SCOPE_GLOBAL;
  tb->dtype = TY_INT32;
  tb->ndims = 1;
  tb->shape[0] = L * T;
  tb->stages = 1;
  tb->table = table;
  tb->table_len = L * T;
  tb->read = true;
  tl_vec_push(a, &k->buffers, tb);

  // for l in 0..L { ent = table[l*T + tid]; if ent >= 0 { body[idx := ...] } }
  TlStmt *loop = tl_stmt_new(a, ST_FOR, loc);
  loop->loop_kind = L <= 16 ? LOOP_UNROLL : LOOP_SERIAL;
  loop->var = tl_var_new(a, k, "slot", VAR_LOOP, TY_INT32, loc);
  loop->var->extent = L;
  loop->start = tl_expr_int(a, loc, 0, TY_INT32);
  loop->stop = tl_expr_int(a, loc, L, TY_INT32);
  loop->step = tl_expr_int(a, loc, 1, TY_INT32);
  TlExpr *tid_expr = tl_partition_thread_id(a, k, loc);
  TlVar *ent = tl_var_new(a, k, "point", VAR_SCALAR, TY_INT32, loc);
  ent->extent = total * R; // a point index wherever it is used (under ent >= 0)
  TlStmt *let = tl_stmt_new(a, ST_LET, loc);
  let->var = ent;
  TlExpr *at = tl_expr_binary(a, loc, OP_ADD,
                              tl_expr_binary(a, loc, OP_MUL, tl_expr_var(a, loc, loop->var),
                                             tl_expr_int(a, loc, T, TY_INT32), TY_INT32),
                              tid_expr, TY_INT32);
  let->value = tl_expr_load(a, loc, tb, &at, 1);
  tl_vec_push(a, &loop->body, let);
  TlExpr *ev = tl_expr_var(a, loc, ent);
  TlExpr *flat = R > 1 ? tl_expr_binary(a, loc, OP_FLOORDIV, ev, tl_expr_int(a, loc, R, TY_INT32), TY_INT32) : ev;
  TlExpr *with[TL_MAX_DIMS];
  TlExpr *rest = flat;
  for (int dd = nest->nvars - 1; dd >= 0; dd--) {
    TlExpr *ed = tl_expr_int(a, loc, nest->extents[dd], TY_INT32);
    with[dd] = dd == 0 ? rest : tl_expr_binary(a, loc, OP_FLOORMOD, rest, ed, TY_INT32);
    rest = tl_expr_binary(a, loc, OP_FLOORDIV, rest, ed, TY_INT32);
    with[dd] = tl_expr_cast(a, loc, with[dd], nest->vars[dd]->dtype);
  }
  for (int i = 0; i < nest->body.len; i++)
    tl_stmt_substitute(a, TL_VEC_AT(nest->body, TlStmt, i), nest->nvars, nest->vars, with);
  TlStmt *g = tl_stmt_new(a, ST_IF, loc);
  g->cond = tl_expr_binary(a, loc, OP_GE, tl_expr_var(a, loc, ent), tl_expr_int(a, loc, 0, TY_INT32), TY_BOOL);
  if (R > 1) {
    // Only replica 0 writes memory; every replica computes.
    TlExpr *primary = tl_expr_binary(a, loc, OP_EQ,
                                     tl_expr_binary(a, loc, OP_FLOORMOD, tl_expr_var(a, loc, ent),
                                                    tl_expr_int(a, loc, R, TY_INT32), TY_INT32),
                                     tl_expr_int(a, loc, 0, TY_INT32), TY_BOOL);
    for (int i = 0; i < nest->body.len; i++) {
      TlStmt *s = TL_VEC_AT(nest->body, TlStmt, i);
      if (s->kind == ST_STORE && s->buf && s->buf->scope != SCOPE_LOCAL && s->buf->scope != SCOPE_FRAGMENT) {
        TlStmt *w = tl_stmt_new(a, ST_IF, s->loc);
        w->cond = primary;
        tl_vec_push(a, &w->body, s);
        nest->body.items[i] = w;
      }
    }
  }
  g->body = nest->body;
  tl_vec_push(a, &loop->body, g);

  TlStmt *seq = tl_stmt_new(a, ST_SEQ, loc);
  char err[64];
  tl_partition_plan_default(&seq->plan, nest->nvars, nest->extents, T, 1, err, sizeof err);
  seq->plan.steps = L;
  seq->plan.slots = L;
  seq->plan.guard = holes > 0;
  seq->plan_loc = loc;
  seq->plan_origin = nest->origin;
  seq->plan_has_layout = true;
  TlStmt *note = tl_stmt_new(a, ST_COMMENT, loc);
  note->text = tl_arena_printf(a, "T.Parallel at line %d follows loop_layout %s%s: %lld points, "
                               "%lld threads x %lld slots (checked one-to-one; inverse in %s)",
                               loc.line, F->name ? F->name : "lambda",
                               R > 1 ? tl_arena_printf(a, " replicated %lld times", (long long)R) : "",
                               (long long)total, (long long)T, (long long)L, tb->name);
  tl_vec_push(a, &seq->body, note);
  tl_vec_push(a, &seq->body, loop);
  return seq;
}
