// `for v0, ..., vn in T.Persistent(domain, wave_size, index, group_size=8)`:
// TileLang's persistent tile loop (tilelang/language/loop.py Persistent,
// src/ir.cc PersistentFor), lowered here to a serial loop over waves.
//
// TileLang's meaning, which this reproduces: with `last` the last extent of
// the domain and g = max(1, min(group_size, last)), the tiles are numbered
// over the grouped domain [ceildiv(last, g), d0, ..., d(n-2), g] (row-major:
// g fastest, so consecutive tiles of a wave share the other coordinates and
// walk g columns of the last one, an L2-friendly order). Wave w gives this
// block the tile number t = w * wave_size + index; its coordinates are
// v_i = digit i+1 of t for i < n-1 and v(n-1) = digit0 * g + digit(n); a tile
// whose last coordinate is not below `last` is skipped (the padding of the
// groups, and the tail of the last wave).
#include "SemaInternal.h"

// A fresh integer scalar `name` = value, declared in the current scope under
// that name when `target` is given (the loop's coordinates), else internal.
static TlVar *let(Sema *s, const TlNode *target, const char *name, TlExpr *value, TlLoc loc,
                  TlVec *out) {
  TlVar *v = tl_var_new(s->arena, s->kernel, target ? target->name : name, VAR_SCALAR,
                        s->index_dtype, target ? target->loc : loc);
  if (target) {
    TlSym *y = tl_scope_define(s, s->scope, target->name, SYM_VAR, target->loc);
    y->var = v;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_LET, loc);
  st->var = v;
  st->value = tl_sema_convert(s, value, s->index_dtype);
  tl_vec_push(s->arena, out, st);
  return v;
}

static TlExpr *bin(Sema *s, TlLoc loc, TlOp op, TlExpr *l, TlExpr *r) {
  return tl_sema_fold(s, tl_expr_binary(s->arena, loc, op, l, r, s->index_dtype));
}

static TlExpr *var(Sema *s, TlLoc loc, TlVar *v) {
  return tl_expr_var(s->arena, loc, v);
}

static TlExpr *int_expr(Sema *s, TlLoc loc, int64_t i) {
  return tl_expr_int(s->arena, loc, i, s->index_dtype);
}

// ceildiv(a, b) of non-negative integers.
static TlExpr *ceildiv(Sema *s, TlLoc loc, TlExpr *a, TlExpr *b) {
  return bin(s, loc, OP_FLOORDIV,
             bin(s, loc, OP_SUB, bin(s, loc, OP_ADD, a, b), int_expr(s, loc, 1)), b);
}

void tl_sema_persistent_loop(Sema *s, const TlNode *n, const TlNode *call, TlVec *out) {
  static const char *const kws[] = {"group_size", NULL};
  if (!tl_sema_check_keywords(s, call, "T.Persistent", kws)) return;
  int na = call->list.len;
  const TlNode *group_node =
      na == 4 ? TL_VEC_AT(call->list, TlNode, 3) : tl_sema_kwarg(call, "group_size");
  if (na < 3 || na > 4 || (na == 4 && tl_sema_kwarg(call, "group_size"))) {
    tl_error(s->diag, call->loc,
             "T.Persistent takes (domain, wave_size, index) and an optional group_size");
    return;
  }
  const TlNode *domain = TL_VEC_AT(call->list, TlNode, 0);
  if (domain->kind != ND_LIST && domain->kind != ND_TUPLE) {
    tl_error(s->diag, domain->loc,
             "the domain of T.Persistent is a list of extents, e.g. "
             "[T.ceildiv(M, block_M), T.ceildiv(N, block_N)]");
    return;
  }
  int nd = domain->list.len;
  if (!tl_sema_nest_arity(s, n, domain->loc, nd, TL_MAX_DIMS, "T.Persistent")) return;
  for (int i = 0; i < nd; i++) {
    const TlNode *t = TL_VEC_AT(n->list2, TlNode, i);
    if (t->kind != ND_NAME) {
      tl_error(s->diag, t->loc, "the loop variables of T.Persistent must be names");
      return;
    }
  }
  if (s->in_parallel) {
    tl_error(s->diag, n->loc, "T.Persistent inside T.Parallel; it is a block-level tile loop");
    return;
  }
  TlLoc loc = call->loc;
  TlExpr *extent[TL_MAX_DIMS];
  for (int i = 0; i < nd; i++)
    extent[i] =
        tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(domain->list, TlNode, i)), s->index_dtype);
  TlExpr *wave =
      tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 1)), s->index_dtype);
  TlExpr *index =
      tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 2)), s->index_dtype);
  TlExpr *group = group_node ? tl_sema_convert(s, tl_sema_expr(s, group_node), s->index_dtype)
                             : int_expr(s, loc, 8);
  int64_t c;
  if (tl_expr_is_const(wave, &c) && c <= 0) {
    tl_error(s->diag, wave->loc, "the wave size of T.Persistent must be positive, got %lld",
             (long long)c);
    return;
  }
  TlExpr *last = extent[nd - 1];
  // The names are the loop's own (they are C identifiers already); the
  // internal ones start with `persistent_` so they cannot meet a user's.
  // g = max(1, min(group_size, last)): a constant when both are, else a local.
  int64_t gc, lc;
  TlExpr *g;
  if (tl_expr_is_const(group, &gc) && tl_expr_is_const(last, &lc))
    g = int_expr(s, loc, gc < lc ? (gc > 1 ? gc : 1) : (lc > 1 ? lc : 1));
  else
    g = var(s, loc,
            let(s, NULL, "persistent_group",
                bin(s, loc, OP_MAX, int_expr(s, loc, 1), bin(s, loc, OP_MIN, group, last)), loc,
                out));
  // The grouped domain, outermost first: [ceildiv(last, g), d0, ..., d(n-2), g].
  TlExpr *grouped[TL_MAX_DIMS + 1];
  grouped[0] = ceildiv(s, loc, tl_expr_clone(s->arena, last), tl_expr_clone(s->arena, g));
  for (int i = 0; i + 1 < nd; i++)
    grouped[i + 1] = extent[i];
  grouped[nd] = g;
  TlExpr *padded = grouped[0];
  for (int i = 1; i <= nd; i++)
    padded = bin(s, loc, OP_MUL, padded, tl_expr_clone(s->arena, grouped[i]));
  TlStmt *waves = tl_stmt_new(s->arena, ST_FOR, n->loc);
  waves->loop_kind = LOOP_SERIAL;
  waves->start = int_expr(s, loc, 0);
  waves->stop = ceildiv(s, loc, padded, wave);
  waves->step = int_expr(s, loc, 1);
  tl_scope_push(s);
  waves->var = tl_var_new(s->arena, s->kernel, "persistent_wave", VAR_LOOP, s->index_dtype, n->loc);
  // Digits of the tile number, fastest (the group column) first.
  TlVar *rest = let(s, NULL, "persistent_tile",
                    bin(s, loc, OP_ADD,
                        bin(s, loc, OP_MUL, var(s, loc, waves->var), tl_expr_clone(s->arena, wave)),
                        tl_expr_clone(s->arena, index)),
                    loc, &waves->body);
  TlExpr *digit[TL_MAX_DIMS + 1];
  TlExpr *r = var(s, loc, rest);
  for (int i = nd; i >= 1; i--) {
    digit[i] =
        bin(s, loc, OP_FLOORMOD, tl_expr_clone(s->arena, r), tl_expr_clone(s->arena, grouped[i]));
    r = bin(s, loc, OP_FLOORDIV, r, tl_expr_clone(s->arena, grouped[i]));
  }
  digit[0] = r;
  for (int i = 0; i + 1 < nd; i++)
    let(s, TL_VEC_AT(n->list2, TlNode, i), NULL, digit[i + 1], loc, &waves->body);
  TlVar *last_coord =
      let(s, TL_VEC_AT(n->list2, TlNode, nd - 1), NULL,
          bin(s, loc, OP_ADD, bin(s, loc, OP_MUL, digit[0], tl_expr_clone(s->arena, g)), digit[nd]),
          loc, &waves->body);
  TlStmt *in_range = tl_stmt_new(s->arena, ST_IF, n->loc);
  in_range->cond = tl_expr_binary(s->arena, loc, OP_LT, var(s, loc, last_coord),
                                  tl_expr_clone(s->arena, last), TY_BOOL);
  tl_scope_push(s);
  tl_sema_body(s, &n->list, &in_range->body);
  tl_scope_pop(s);
  tl_vec_push(s->arena, &waves->body, in_range);
  tl_scope_pop(s);
  tl_vec_push(s->arena, out, waves);
}
