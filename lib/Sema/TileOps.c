// Tile operators -> Tile IR: T.copy, T.gemm, T.fill, T.clear, T.reduce_*
// and T.atomic_add (an atomic element store, or a copy that adds).
// Operands are buffers, points (A[i, j]: extents from the other side) or
// slices (A[0:64, k*32:(k+1)*32]); shapes and dtypes are checked here so
// every later pass can trust them.
#include <string.h>

#include "SemaInternal.h"

static const char *const tile_ops[] = {
    "copy",       "gemm",          "fill",          "clear",      "reduce_max",   "reduce_sum",
    "reduce_min", "reduce_abssum", "reduce_absmax", "atomic_add", "atomic_addx2", "atomic_addx4",
    "im2col",     "c2d_im2col",    "cumsum",        "wgmma_gemm", NULL};

bool tl_sema_is_tile_op(const char *name) {
  for (int i = 0; tile_ops[i]; i++)
    if (strcmp(name, tile_ops[i]) == 0) return true;
  return false;
}

static TlBuffer *buffer_named(Sema *s, const TlNode *n) {
  if (n->kind != ND_NAME) {
    tl_error(s->diag, n->loc, "expected a buffer");
    return NULL;
  }
  TlSym *y = tl_scope_lookup(s, n->name);
  if (!y || y->kind != SYM_BUFFER) {
    if (!y) {
      void tl_sema_unknown_name(Sema *, TlLoc, const char *);
      tl_sema_unknown_name(s, n->loc, n->name);
    } else
      tl_error(s->diag, n->loc, "'%s' is not a buffer", n->name);
    return NULL;
  }
  if (y->buf->reshape_of && !s->reshape_reduce) {
    tl_error(s->diag, n->loc,
             "the reshape '%s' of a %s is an index view: index it, or reduce it with "
             "T.reduce_*; other tile operators take '%s' itself",
             n->name, tl_scope_name(y->buf->scope), y->buf->reshape_of->name);
    return NULL;
  }
  return y->buf;
}

// The symbol of a kernel scalar whose single value so far may stand for it:
// an expression of constants, indices, sizes and such scalars, no loads or
// calls (a buffer element may change between the assignment and the use).
static TlSym *let_symbol(Sema *s, const TlExpr *e);

static bool pure_value(Sema *s, const TlExpr *e, int depth) {
  if (depth > 64) return false;
  switch (e->kind) {
  case EX_INT:
  case EX_FLOAT:
    return true;
  case EX_VAR:
    return e->var->kind != VAR_SCALAR || let_symbol(s, e) != NULL;
  case EX_BINARY:
  case EX_UNARY:
  case EX_CAST:
  case EX_SELECT:
    for (int i = 0; i < e->nargs; i++)
      if (!pure_value(s, e->args[i], depth + 1)) return false;
    return true;
  default:
    return false;
  }
}

static TlSym *let_symbol(Sema *s, const TlExpr *e) {
  if (e->kind != EX_VAR || e->var->kind != VAR_SCALAR) return NULL;
  TlSym *y = tl_scope_lookup(s, e->var->name);
  if (!y || y->kind != SYM_VAR || y->var != e->var || !y->let_value) return NULL;
  return y;
}

static void collect_lets(Sema *s, const TlExpr *e, TlSym **syms, int *n, int cap, int depth) {
  if (depth > 64) return;
  TlSym *y = let_symbol(s, e);
  if (y && pure_value(s, y->let_value, 0)) {
    for (int i = 0; i < *n; i++)
      if (syms[i] == y) return;
    if (*n < cap) syms[(*n)++] = y;
    return;
  }
  for (int i = 0; i < e->nargs; i++)
    collect_lets(s, e->args[i], syms, n, cap, depth + 1);
}

enum { MAX_LETS = 16, MAX_EXPANDED_NODES = 4096 };

// Nodes of e, counting stops past limit (a value that names another twice,
// eight levels deep, would otherwise grow the tree 256-fold).
static int count_nodes(const TlExpr *e, int limit) {
  if (!e || limit <= 0) return 0;
  int n = 1;
  for (int i = 0; i < e->nargs && n <= limit; i++)
    n += count_nodes(e->args[i], limit - n);
  return n;
}

// e with the values of single-assignment scalars put in (repeatedly: one
// value may name another); the scalars seen through are added to syms.
static TlExpr *expand_lets(Sema *s, TlExpr *e, TlSym **syms, int *nsyms) {
  for (int round = 0; round < 8; round++) {
    TlSym *found[MAX_LETS];
    int n = 0;
    collect_lets(s, e, found, &n, MAX_LETS, 0);
    if (n == 0) break;
    TlVar *vars[MAX_LETS];
    TlExpr *with[MAX_LETS];
    for (int i = 0; i < n; i++) {
      vars[i] = found[i]->var;
      with[i] = found[i]->let_value;
      bool seen = false;
      for (int j = 0; j < *nsyms; j++)
        seen = seen || syms[j] == found[i];
      if (!seen && *nsyms < 4 * MAX_LETS) syms[(*nsyms)++] = found[i];
    }
    TlExpr *next = tl_expr_substitute(s->arena, e, n, vars, with);
    if (count_nodes(next, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES) break; // not seen through
    e = next;
  }
  return e;
}

// The extent hi - lo of a slice. When it is not constant as written, the
// values of single-assignment scalars are put in, so that `st = bx * 64`,
// `ed = (bx + 1) * 64`, A[st:ed] has TileLang's extent 64; then *lo becomes
// its value too (bx * 64: the same number at this point, and one the
// bounds and vector analyses can read). Every scalar seen through is pinned
// at the slice: assigning it again later is an error (Stmt.c).
static TlExpr *slice_extent(Sema *s, TlExpr *hi, TlExpr **lo, TlLoc loc) {
  TlExpr *ext =
      tl_simplify(s->arena, tl_expr_binary(s->arena, loc, OP_SUB, hi, *lo, s->index_dtype));
  if (ext->kind == EX_INT) return ext;
  TlSym *syms[4 * MAX_LETS];
  int n = 0;
  TlExpr *hi_value = expand_lets(s, hi, syms, &n);
  TlExpr *lo_value = expand_lets(s, *lo, syms, &n);
  TlExpr *value = tl_simplify(
      s->arena, tl_expr_binary(s->arena, loc, OP_SUB, hi_value, lo_value, s->index_dtype));
  if (value->kind != EX_INT) return ext;
  for (int i = 0; i < n; i++)
    if (!syms[i]->pinned) {
      syms[i]->pinned = true;
      syms[i]->pinned_at = loc;
      tl_vec_push(s->arena, &s->seen_through, syms[i]->var);
    }
  *lo = tl_simplify(s->arena, lo_value);
  return value;
}

static bool region_reads(const TlRegion *r, const TlVar *v) {
  for (int i = 0; i < r->ndims; i++)
    if (tl_expr_uses_var(r->start[i], v)) return true;
  return false;
}

// Does any statement of body read v (its own let aside)?
static bool body_reads(const TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind == ST_SET && st->var == v) return true; // assigned later: keep it declared
    for (int j = 0; j < st->nindices; j++)
      if (tl_expr_uses_var(st->indices[j], v)) return true;
    if (tl_expr_uses_var(st->value, v) || tl_expr_uses_var(st->cond, v) ||
        tl_expr_uses_var(st->start, v) || tl_expr_uses_var(st->stop, v) ||
        tl_expr_uses_var(st->step, v) || region_reads(&st->src, v) || region_reads(&st->dst, v) ||
        body_reads(&st->body, v) || body_reads(&st->else_body, v))
      return true;
  }
  return false;
}

static bool drop_let(TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind == ST_LET && st->var == v) {
      for (int j = i + 1; j < body->len; j++)
        body->items[j - 1] = body->items[j];
      body->len--;
      return true;
    }
    if (drop_let(&st->body, v) || drop_let(&st->else_body, v)) return true;
  }
  return false;
}

void tl_sema_drop_unread_lets(Sema *s) {
  // A dropped let may leave another unread (ed = st + 64): until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < s->seen_through.len; i++) {
      TlVar *v = TL_VEC_AT(s->seen_through, TlVar, i);
      if (!v) continue;
      for (int k = 0; k < s->module->kernels.len; k++) {
        TlKernel *kn = TL_VEC_AT(s->module->kernels, TlKernel, k);
        if (!body_reads(&kn->body, v) && drop_let(&kn->body, v)) {
          s->seen_through.items[i] = NULL;
          changed = true;
          break;
        }
      }
    }
  }
}

// operand = NAME | NAME "[" (expr | expr? ":" expr?) ("," ...)* "]"
static bool region(Sema *s, const TlNode *n, TlRegion *r) {
  memset(r, 0, sizeof *r);
  r->loc = n->loc;
  const TlNode *base = n->kind == ND_SUBSCRIPT ? n->a : n;
  r->buf = buffer_named(s, base);
  if (!r->buf) return false;
  TlBuffer *b = r->buf;
  r->ndims = b->ndims;
  if (n->kind != ND_SUBSCRIPT) {
    for (int i = 0; i < b->ndims; i++) {
      if (b->dyn[i]) {
        tl_error(s->diag, n->loc,
                 "dimension %d of '%s' is the runtime size '%s'; a tile has a "
                 "compile-time shape",
                 i, b->name, b->dyn[i]->name);
        tl_note(s->diag, n->loc, "copy a tile of it, e.g. %s[bx * block%s]", b->name,
                b->ndims == 1   ? ""
                : b->ndims == 2 ? ", 0"
                                : ", 0, ...");
        return false;
      }
      r->start[i] = tl_expr_int(s->arena, n->loc, 0, s->index_dtype);
      r->extent[i] = b->shape[i];
    }
    return true;
  }
  const TlNode *kept[TL_MAX_DIMS];
  int nkept = tl_sema_kept_indices(s, b, &n->list, kept);
  if (nkept < 0) return false;
  if (nkept != b->ndims) {
    int written = b->source_ndims ? b->source_ndims : b->ndims;
    tl_error(s->diag, n->loc, "buffer '%s' has %d dimension%s, %d ind%s given", b->name, written,
             written == 1 ? "" : "s", n->list.len, n->list.len == 1 ? "ex" : "ices");
    tl_note(s->diag, b->loc, "'%s' declared here", b->name);
    return false;
  }
  bool any_slice = false;
  for (int i = 0; i < b->ndims; i++) {
    const TlNode *in = kept[i];
    if (in->kind == ND_SLICE) {
      any_slice = true;
      if (in->c) {
        tl_error(s->diag, in->c->loc, "slice steps are not supported in T.copy");
        return false;
      }
      TlExpr *lo =
          in->a ? tl_sema_expr(s, in->a) : tl_expr_int(s->arena, in->loc, 0, s->index_dtype);
      TlExpr *hi =
          in->b ? tl_sema_expr(s, in->b) : tl_buffer_dim(s->arena, b, i, s->index_dtype, in->loc);
      lo = tl_sema_convert(s, lo, s->index_dtype);
      hi = tl_sema_convert(s, hi, s->index_dtype);
      TlExpr *ext = slice_extent(s, hi, &lo, in->loc);
      if (ext->kind != EX_INT) {
        tl_error(s->diag, in->loc, "the extent of this slice is not a compile-time constant");
        tl_note(s->diag, in->loc, "write it as start:start+N with a constant N");
        return false;
      }
      if (ext->ival < 1) {
        tl_error(s->diag, in->loc, "this slice of '%s' is empty (extent %lld)", b->name,
                 (long long)ext->ival);
        return false;
      }
      r->start[i] = lo;
      r->extent[i] = ext->ival;
    } else {
      r->start[i] = tl_sema_convert(s, tl_sema_expr(s, in), s->index_dtype);
      r->extent[i] = 0; // filled from the other operand
    }
  }
  r->point = !any_slice;
  if (any_slice)
    for (int i = 0; i < b->ndims; i++)
      if (r->extent[i] == 0)
        r->extent[i] = 1; // an integer index next to slices selects one element
  return true;
}

// The extents with size-1 dimensions dropped, for shape comparison.
static int squeeze(const TlRegion *r, int64_t *out) {
  int n = 0;
  for (int i = 0; i < r->ndims; i++)
    if (r->extent[i] != 1) out[n++] = r->extent[i];
  return n;
}

static void format_extents(char *buf, size_t len, const TlRegion *r) {
  size_t off = (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < r->ndims && off < len; i++)
    off += (size_t)snprintf(buf + off, len - off, "%s%lld", i ? ", " : "", (long long)r->extent[i]);
  if (off < len) snprintf(buf + off, len - off, "]");
}

// A point operand takes its extents from the other side, aligned at the
// trailing dimensions (leading ones are 1). As in TileLang, the other side's
// unit dimensions count when they fit (A[i, j] <- a (64, 1) tile is a
// column); they are dropped only when the other side has more dimensions.
static bool take_extents(Sema *s, TlRegion *point, const TlRegion *other) {
  int64_t ext[TL_MAX_DIMS];
  int n = other->ndims;
  for (int i = 0; i < n; i++)
    ext[i] = other->extent[i];
  if (n > point->ndims) n = squeeze(other, ext);
  if (n > point->ndims) {
    tl_error(s->diag, point->loc, "'%s' has %d dimensions but the copy moves a %d-D tile",
             point->buf->name, point->ndims, n);
    return false;
  }
  for (int i = 0; i < point->ndims; i++)
    point->extent[i] = 1;
  for (int i = 0; i < n; i++)
    point->extent[point->ndims - n + i] = ext[i];
  return true;
}

static bool check_in_bounds(Sema *s, const TlRegion *r) {
  for (int i = 0; i < r->ndims; i++) {
    int64_t lo;
    if (r->buf->dyn[i]) continue; // a runtime size: the copy's edge guard checks it
    // The harness's reference binds runtime sizes to --size values, which
    // may be smaller than a tile; its copies read zero past the edge.
    if (r->buf->scope == SCOPE_GLOBAL && s->opts && s->opts->nsizes > 0) continue;
    // A tile wider than a global tensor (TileLang's decode kernels copy a
    // block_H-row tile of a tensor with fewer heads) reads zeros and stores
    // nothing past the edge, like any tile that overhangs it.
    if (r->extent[i] > r->buf->shape[i] && r->buf->scope != SCOPE_GLOBAL) {
      tl_error(s->diag, r->loc, "the tile is %lld wide in dimension %d but '%s' has only %lld",
               (long long)r->extent[i], i, r->buf->name, (long long)r->buf->shape[i]);
      return false;
    }
    if (tl_expr_is_const(r->start[i], &lo) && (lo < 0 || lo >= r->buf->shape[i]) &&
        r->buf->scope != SCOPE_GLOBAL) {
      tl_error(s->diag, r->loc, "the tile starts at %lld in dimension %d, outside '%s' (size %lld)",
               (long long)lo, i, r->buf->name, (long long)r->buf->shape[i]);
      return false;
    }
  }
  return true;
}

// The regions of a copy are resolved; a point takes its extents from the
// other side, then shapes and bounds are checked. T.copy and the tile form
// of T.atomic_add share it (`what` names the operator in messages).
static TlStmt *copy_regions(Sema *s, const TlNode *call, TlStmt *st, const char *what) {
  if (st->src.point && st->dst.point) {
    tl_error(s->diag, call->loc,
             "%s between two points has no extent; make one side a buffer "
             "or a slice",
             what);
    return NULL;
  }
  if (st->src.point && !take_extents(s, &st->src, &st->dst)) return NULL;
  if (st->dst.point && !take_extents(s, &st->dst, &st->src)) return NULL;
  int64_t a[TL_MAX_DIMS], b[TL_MAX_DIMS];
  int na = squeeze(&st->src, a), nb = squeeze(&st->dst, b);
  bool same = na == nb;
  for (int i = 0; same && i < na; i++)
    same = a[i] == b[i];
  if (!same) {
    char sa[128], sb[128];
    format_extents(sa, sizeof sa, &st->src);
    format_extents(sb, sizeof sb, &st->dst);
    tl_error(s->diag, call->loc, "shape mismatch in %s: source '%s' is %s, destination '%s' is %s",
             what, st->src.buf->name, sa, st->dst.buf->name, sb);
    return NULL;
  }
  if (!check_in_bounds(s, &st->src) || !check_in_bounds(s, &st->dst)) return NULL;
  st->src.buf->read = true;
  st->dst.buf->written = true;
  return st;
}

static void copy(Sema *s, const TlNode *call, TlVec *out) {
  // src and dst by position or by name: T.copy(frag, dst=shared)
  const TlNode *operand[2] = {NULL, NULL};
  for (int i = 0; i < call->list.len && i < 2; i++)
    operand[i] = TL_VEC_AT(call->list, TlNode, i);
  for (int i = 0; i < call->list2.len; i++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, i);
    int which = strcmp(kw->name, "src") == 0 ? 0 : strcmp(kw->name, "dst") == 0 ? 1 : -1;
    if (which >= 0 && !operand[which] && call->list.len <= which) {
      operand[which] = kw->a;
      continue;
    }
    if (which >= 0 || (strcmp(kw->name, "coalesced_width") != 0 &&
                       strcmp(kw->name, "disable_tma") != 0)) {
      tl_error(s->diag, kw->loc, "%s keyword argument '%s' to T.copy",
               which >= 0 ? "repeated" : "unexpected", kw->name);
      return;
    }
  }
  if (call->list.len > 2 || !operand[0] || !operand[1]) {
    int given = call->list.len + (call->list.len < 2 && operand[1] ? 1 : 0) +
                (call->list.len < 1 && operand[0] ? 1 : 0);
    tl_error(s->diag, call->loc, "T.copy takes 2 arguments (src, dst), %d given", given);
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_COPY, call->loc);
  if (!region(s, operand[0], &st->src) || !region(s, operand[1], &st->dst))
    return;
  if (!copy_regions(s, call, st, "T.copy")) return;
  const TlNode *cw = tl_sema_kwarg(call, "coalesced_width");
  if (cw && !tl_sema_const_int(s, cw, "coalesced_width=", &st->width)) return;
  tl_vec_push(s->arena, out, st);
}

static void fill(Sema *s, const TlNode *call, bool clear, TlVec *out) {
  int want = clear ? 1 : 2;
  if (call->list.len != want || call->list2.len) {
    tl_error(s->diag, call->loc, "T.%s takes %d argument%s", clear ? "clear" : "fill", want,
             want == 1 ? "" : "s");
    return;
  }
  // T.clear(x) / T.fill(x, v) of a T.alloc_var scalar (TileLang treats it
  // as a one-element buffer): every thread sets its own x.
  const TlNode *target = TL_VEC_AT(call->list, TlNode, 0);
  TlSym *y = target->kind == ND_NAME ? tl_scope_lookup(s, target->name) : NULL;
  if (y && y->kind == SYM_VAR && y->var->kind == VAR_SCALAR) {
    TlDtype t = y->var->dtype;
    TlExpr *v = !clear                 ? tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 1))
                : tl_dtype_is_float(t) ? tl_expr_float(s->arena, call->loc, 0.0, t)
                                       : tl_expr_int(s->arena, call->loc, 0, t);
    if (!tl_sema_scalar_reassigned(s, y, call->loc)) return;
    TlStmt *set = tl_stmt_new(s->arena, ST_SET, call->loc);
    set->var = y->var;
    set->value = tl_sema_convert(s, v, t);
    tl_vec_push(s->arena, out, set);
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_FILL, call->loc);
  if (!region(s, target, &st->dst)) return;
  if (st->dst.point) {
    // TileLang fills the one-element region a single element names
    // (T.fill(count[0], 0)).
    for (int i = 0; i < st->dst.ndims; i++)
      st->dst.extent[i] = 1;
    st->dst.point = false;
  }
  TlExpr *v = clear ? tl_expr_int(s->arena, call->loc, 0, s->index_dtype)
                    : tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 1));
  if (clear) v->untyped = true;
  st->value = tl_sema_convert(s, v, st->dst.buf->dtype);
  st->dst.buf->written = true;
  tl_vec_push(s->arena, out, st);
}

static bool flag(Sema *s, const TlNode *call, const char *name, int pos, bool dflt, bool *out) {
  const TlNode *n =
      call->list.len > pos ? TL_VEC_AT(call->list, TlNode, pos) : tl_sema_kwarg(call, name);
  if (!n) {
    *out = dflt;
    return true;
  }
  TlValue *v = tl_sema_eval_const(s, n);
  if (v->kind != VAL_BOOL && v->kind != VAL_INT) {
    if (v->kind != VAL_ERROR) tl_error(s->diag, n->loc, "%s= must be True or False", name);
    return false;
  }
  *out = v->i != 0;
  return true;
}

// A T.gemm operand written as a region of a shared tile (TileLang's
// A_shared[stage, :, :] or Q_shared[:, :D]): tlc's gemm helpers take whole
// 2-D tiles, so the region is copied into a 2-D shared tile of its own
// first (one tile per shape and dtype in a kernel, reused by every such
// operand: each copy and the gemm reading it are ordered by barriers), with
// a warning that says what it costs. NULL after an error.
static TlBuffer *gemm_region_operand(Sema *s, const TlNode *arg, const char *role, TlVec *out) {
  TlRegion r;
  if (!region(s, arg, &r)) return NULL;
  TlBuffer *b = r.buf;
  if (b->scope != SCOPE_SHARED) {
    tl_error(s->diag, arg->loc,
             "T.gemm operand %s is a slice of %s '%s'; only slices of shared tiles are taken",
             role, tl_scope_name(b->scope), b->name);
    tl_note(s->diag, b->loc, "'%s' declared here", b->name);
    return NULL;
  }
  int64_t ext[TL_MAX_DIMS];
  int n = squeeze(&r, ext);
  if (r.point || n != 2) {
    tl_error(s->diag, arg->loc,
             "T.gemm operand %s must be a 2-D region of '%s' (slices in two dimensions)", role,
             b->name);
    return NULL;
  }
  if (!check_in_bounds(s, &r)) return NULL;
  bool whole = b->ndims == 2;
  for (int d = 0; whole && d < 2; d++) {
    int64_t lo;
    whole = tl_expr_is_const(r.start[d], &lo) && lo == 0 && r.extent[d] == b->shape[d];
  }
  if (whole) return b;
  TlBuffer *t = NULL;
  char name[96];
  snprintf(name, sizeof name, "gemm_%s_%lldx%lld_%s", role, (long long)ext[0], (long long)ext[1],
           tl_dtype_name(b->dtype));
  for (int i = 0; i < s->kernel->buffers.len && !t; i++) {
    TlBuffer *o = TL_VEC_AT(s->kernel->buffers, TlBuffer, i);
    if (strcmp(o->name, name) == 0) t = o;
  }
  TlSym *user = tl_scope_lookup(s, name);
  if (t && user && user->kind == SYM_BUFFER && user->buf == t) { // the user's own buffer
    snprintf(name + strlen(name), sizeof name - strlen(name), "_%d", s->kernel->buffers.len);
    t = NULL;
  }
  if (!t) {
    t = TL_NEW(s->arena, TlBuffer);
    t->name = tl_arena_strdup(s->arena, name);
    t->loc = arg->loc;
    t->scope = SCOPE_SHARED;
    t->dtype = b->dtype;
    t->stages = 1;
    t->ndims = 2;
    t->shape[0] = ext[0], t->shape[1] = ext[1];
    t->region_tile = true; // layout-inference may read the region in place instead
    tl_vec_push(s->arena, &s->kernel->buffers, t);
  }
  tl_warning(s->diag, arg->loc,
             "T.gemm operand %s is a region of shared tile '%s'; tlc copies it into a "
             "%lldx%lld tile of its own before the gemm (%lld bytes of shared memory, one "
             "shared-to-shared copy per call)",
             role, b->name, (long long)ext[0], (long long)ext[1],
             (long long)(ext[0] * ext[1] * tl_dtype_bits(b->dtype) / 8));
  TlStmt *cp = tl_stmt_new(s->arena, ST_COPY, arg->loc);
  cp->src = r;
  cp->dst.buf = t;
  cp->dst.loc = arg->loc;
  cp->dst.ndims = 2;
  for (int d = 0; d < 2; d++) {
    cp->dst.start[d] = tl_expr_int(s->arena, arg->loc, 0, s->index_dtype);
    cp->dst.extent[d] = ext[d];
  }
  b->read = true;
  t->written = true;
  tl_vec_push(s->arena, out, cp);
  return t;
}

static void gemm(Sema *s, const TlNode *call, TlVec *out) {
  static const char *const kws[] = {"transpose_A", "transpose_B", "policy", "k_pack",
                                    "wg_wait",     "clear_accum", NULL};
  for (int i = 0; i < call->list2.len; i++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, i);
    bool ok = false;
    for (int j = 0; kws[j]; j++)
      ok = ok || strcmp(kw->name, kws[j]) == 0;
    if (!ok) {
      tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to T.gemm", kw->name);
      return;
    }
  }
  if (call->list.len < 3 || call->list.len > 5) {
    tl_error(s->diag, call->loc, "T.gemm takes (A, B, C[, transpose_A, transpose_B])");
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_GEMM, call->loc);
  TlBuffer *bufs[3];
  for (int i = 0; i < 3; i++) {
    TlNode *arg = TL_VEC_AT(call->list, TlNode, i);
    bufs[i] = arg->kind == ND_SUBSCRIPT && i < 2
                  ? gemm_region_operand(s, arg, i == 0 ? "A" : "B", out)
                  : buffer_named(s, arg);
    if (!bufs[i]) return;
    if (bufs[i]->ndims != 2) {
      tl_error(s->diag, arg->loc, "T.gemm operand '%s' must be 2-D, it is %d-D", bufs[i]->name,
               bufs[i]->ndims);
      return;
    }
  }
  st->a = bufs[0], st->b = bufs[1], st->c = bufs[2];
  if (!flag(s, call, "transpose_A", 3, false, &st->trans_a) ||
      !flag(s, call, "transpose_B", 4, false, &st->trans_b))
    return;
  TlNode *cn = TL_VEC_AT(call->list, TlNode, 2);
  if (st->c->scope != SCOPE_FRAGMENT) {
    tl_error(s->diag, cn->loc,
             "the accumulator of T.gemm must be a fragment (T.alloc_fragment), "
             "'%s' is %s",
             st->c->name, tl_scope_name(st->c->scope));
    tl_note(s->diag, st->c->loc, "'%s' declared here", st->c->name);
    return;
  }
  for (int i = 0; i < 2; i++)
    if (bufs[i]->scope == SCOPE_GLOBAL || bufs[i]->scope == SCOPE_LOCAL) {
      tl_error(s->diag, TL_VEC_AT(call->list, TlNode, i)->loc,
               "T.gemm operand '%s' must be in shared memory or a fragment, not %s", bufs[i]->name,
               tl_scope_name(bufs[i]->scope));
      tl_note(s->diag, bufs[i]->loc, "copy it into a T.alloc_shared tile first");
      return;
    }
  int64_t M = st->trans_a ? st->a->shape[1] : st->a->shape[0];
  int64_t K = st->trans_a ? st->a->shape[0] : st->a->shape[1];
  int64_t K2 = st->trans_b ? st->b->shape[1] : st->b->shape[0];
  int64_t N = st->trans_b ? st->b->shape[0] : st->b->shape[1];
  if (K != K2 || st->c->shape[0] != M || st->c->shape[1] != N) {
    tl_error(s->diag, call->loc,
             "shape mismatch in T.gemm: A is %lldx%lld%s, B is %lldx%lld%s, C is %lldx%lld; "
             "need A: MxK, B: KxN, C: MxN",
             (long long)st->a->shape[0], (long long)st->a->shape[1],
             st->trans_a ? " (transposed)" : "", (long long)st->b->shape[0],
             (long long)st->b->shape[1], st->trans_b ? " (transposed)" : "",
             (long long)st->c->shape[0], (long long)st->c->shape[1]);
    return;
  }
  if (st->a->dtype != st->b->dtype) {
    tl_error(s->diag, call->loc, "dtype mismatch in T.gemm: A is %s, B is %s",
             tl_dtype_name(st->a->dtype), tl_dtype_name(st->b->dtype));
    return;
  }
  TlDtype in = st->a->dtype, acc = st->c->dtype;
  bool ok = ((in == TY_FLOAT16 || in == TY_BFLOAT16) && (acc == TY_FLOAT32 || acc == in)) ||
            (tl_dtype_is_fp8(in) && acc == TY_FLOAT32) || (in == TY_FLOAT32 && acc == TY_FLOAT32) ||
            (in == TY_INT8 && acc == TY_INT32) || (in == TY_FLOAT64 && acc == TY_FLOAT64);
  if (!ok) {
    tl_error(s->diag, call->loc, "T.gemm does not support %s inputs with %s %s accumulator",
             tl_dtype_name(in), tl_dtype_name(acc)[0] == 'i' ? "an" : "a", tl_dtype_name(acc));
    tl_note(s->diag, st->c->loc, "use float16/bfloat16/float8 inputs with a float32 accumulator");
    return;
  }
  st->a->read = st->b->read = st->c->read = true;
  st->c->written = true;
  // clear_accum= a runtime condition (`clear_accum=(j == 0)` in an unrolled
  // k loop): the accumulator is cleared when it holds.
  const TlNode *ca = tl_sema_kwarg(call, "clear_accum");
  TlStmt *clear_if = NULL;
  bool clear_accum;
  if (ca && !tl_sema_is_constant_expr(s, ca)) {
    TlExpr *c = tl_sema_expr(s, ca);
    if (c->kind == EX_INT) {
      clear_accum = c->ival != 0;
    } else {
      clear_if = tl_stmt_new(s->arena, ST_IF, ca->loc);
      clear_if->cond = tl_sema_convert(s, c, TY_BOOL);
      clear_accum = true;
    }
  } else if (!flag(s, call, "clear_accum", 99, false, &clear_accum))
    return;
  if (clear_accum) { // C = A @ B instead of C += A @ B
    TlStmt *z = tl_stmt_new(s->arena, ST_FILL, call->loc);
    z->dst.buf = st->c;
    z->dst.loc = call->loc;
    z->dst.ndims = 2;
    for (int d = 0; d < 2; d++) {
      z->dst.start[d] = tl_expr_int(s->arena, call->loc, 0, s->index_dtype);
      z->dst.extent[d] = st->c->shape[d];
    }
    z->value = tl_sema_convert(s, tl_expr_float(s->arena, call->loc, 0, TY_FLOAT32), st->c->dtype);
    if (clear_if) {
      tl_vec_push(s->arena, &clear_if->body, z);
      z = clear_if;
    }
    tl_vec_push(s->arena, out, z);
  }
  const TlNode *pol = tl_sema_kwarg(call, "policy");
  if (pol)
    tl_warning(s->diag, pol->loc,
               "policy= is ignored: tlc tiles the warps itself (rows in one warp "
               "when they are reduced later, else the fewest ldmatrix per mma)");
  tl_vec_push(s->arena, out, st);
}

// dim= of a fragment whose unit dimensions were dropped counts the written
// dimensions: the same dimension among the kept ones.
static bool reduce_kept_dim(Sema *s, const TlBuffer *src, TlLoc loc, int64_t *dim) {
  int64_t d = *dim < 0 ? *dim + src->source_ndims : *dim;
  if (d < 0 || d >= src->source_ndims) return true; // reported as out of range by the caller
  if (src->dropped_dims & (1u << d)) {
    tl_error(s->diag, loc, "dim=%lld of '%s' has size 1; there is nothing to reduce",
             (long long)*dim, src->name);
    return false;
  }
  int kept = 0;
  for (int i = 0; i < d; i++)
    kept += !(src->dropped_dims & (1u << i));
  *dim = kept;
  return true;
}

static void reduce(Sema *s, const TlNode *call, const char *op, TlVec *out) {
  for (int i = 0; i < call->list2.len; i++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, i);
    if (strcmp(kw->name, "dim") && strcmp(kw->name, "clear")) {
      tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to T.%s", kw->name, op);
      return;
    }
  }
  if (call->list.len < 2 || call->list.len > 4) {
    tl_error(s->diag, call->loc, "T.%s takes (src, dst, dim=-1, clear=True)", op);
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_REDUCE, call->loc);
  st->reduce = strcmp(op, "reduce_sum") == 0      ? REDUCE_SUM
               : strcmp(op, "reduce_max") == 0    ? REDUCE_MAX
               : strcmp(op, "reduce_min") == 0    ? REDUCE_MIN
               : strcmp(op, "reduce_abssum") == 0 ? REDUCE_ABSSUM
                                                  : REDUCE_ABSMAX;
  s->reshape_reduce = true;
  bool src_ok = region(s, TL_VEC_AT(call->list, TlNode, 0), &st->src);
  s->reshape_reduce = false;
  if (!src_ok || !region(s, TL_VEC_AT(call->list, TlNode, 1), &st->dst)) return;
  const TlNode *dn = tl_sema_arg(call, 2, "dim");
  int64_t dim = -1; // TileLang's default: the last dimension
  if (dn && !tl_sema_const_int(s, dn, "dim=", &dim)) return;
  bool clear;
  if (!flag(s, call, "clear", 3, true, &clear)) return;
  TlBuffer *src = st->src.buf, *dst = st->dst.buf;
  // One element for every thread (a local scalar, or a one-element
  // fragment) may receive a reduction: each thread reduces into its copy.
  bool dst_replicated = dst->scope == SCOPE_LOCAL && tl_buffer_elems(dst) == 1;
  if (src->scope == SCOPE_LOCAL || (dst->scope == SCOPE_LOCAL && !dst_replicated) ||
      dst->scope == SCOPE_GLOBAL) {
    TlBuffer *b = src->scope == SCOPE_LOCAL ? src : dst;
    tl_error(s->diag, call->loc,
             "T.%s %s a %s buffer '%s'; reduce fragments or shared tiles into "
             "a fragment or shared tile (per-thread buffers: use a T.serial loop)",
             op, b == src ? "from" : "into", tl_scope_name(b->scope), b->name);
    return;
  }
  if (src->source_ndims && !reduce_kept_dim(s, src, dn ? dn->loc : call->loc, &dim)) return;
  if (dim < 0) dim += src->ndims;
  if (dim < 0 || dim >= src->ndims) {
    tl_error(s->diag, dn ? dn->loc : call->loc, "dim=%lld is out of range for the %d-D '%s'",
             (long long)dim, src->ndims, src->name);
    return;
  }
  if (src->reshape_of) {
    st->reduce_clear = clear;
    tl_sema_reshape_reduce(s, call, st, (int)dim, op, out);
    return;
  }
  // dst has src's shape without `dim`; a reduction to one element may go
  // into any one-element tile ((1,) or (1, 1)).
  bool ok = dst->ndims == src->ndims - 1 ||
            (tl_buffer_elems(dst) == 1 && tl_buffer_elems(src) == src->shape[dim]);
  for (int i = 0, j = 0; ok && dst->ndims == src->ndims - 1 && i < src->ndims; i++) {
    if (i == dim) continue;
    ok = dst->shape[j++] == src->shape[i];
  }
  if (!ok) {
    char sa[128], sb[128];
    format_extents(sa, sizeof sa, &st->src);
    format_extents(sb, sizeof sb, &st->dst);
    tl_error(s->diag, call->loc,
             "shape mismatch in T.%s: reducing %s along dim %lld gives a tile "
             "without that dimension, but '%s' is %s",
             op, sa, (long long)dim, dst->name, sb);
    return;
  }
  st->reduce_dim = (int)dim;
  st->reduce_clear = clear;
  src->read = true;
  dst->written = true;
  tl_vec_push(s->arena, out, st);
}

// CUDA's atomicAdd exists for these element types (fp16 and bf16 from
// sm_70 / sm_80, both below every tlc target).
static bool atomic_dtype_ok(Sema *s, const TlBuffer *b, TlLoc loc, const char *what) {
  TlDtype t = b->dtype;
  if (t == TY_FLOAT32 || t == TY_FLOAT16 || t == TY_BFLOAT16 || t == TY_FLOAT64 || t == TY_INT32 ||
      t == TY_UINT32)
    return true;
  tl_error(s->diag, loc,
           "%s on '%s' of type %s; CUDA adds atomically to float32, float16, "
           "bfloat16, float64, int32 and uint32 only",
           what, b->name, tl_dtype_name(t));
  return false;
}

// The destination of an atomic add is memory other threads see.
static bool atomic_scope_ok(Sema *s, const TlBuffer *b, TlLoc loc, const char *what) {
  if (b->scope == SCOPE_GLOBAL || b->scope == SCOPE_SHARED) return true;
  tl_error(s->diag, loc,
           "%s into %s buffer '%s'; only global and shared memory are shared between "
           "threads",
           what, tl_scope_name(b->scope), b->name);
  tl_note(s->diag, loc, "a thread's own registers need no atomics: write %s[...] += value",
          b->name);
  return false;
}

// memory_order= names a C++ memory order. tlc emits CUDA's atomicAdd, which
// is relaxed: other orders are accepted with a warning saying so.
static bool memory_order(Sema *s, const TlNode *call) {
  const TlNode *mo = tl_sema_kwarg(call, "memory_order");
  if (!mo) return true;
  TlValue *v = tl_sema_eval_const(s, mo);
  if (v->kind == VAL_ERROR) return false;
  static const char *const orders[] = {"relaxed", "consume", "acquire", "release",
                                       "acq_rel", "seq_cst", NULL};
  int found = -1;
  for (int i = 0; v->kind == VAL_STR && orders[i]; i++)
    if (strcmp(v->s, orders[i]) == 0) found = i;
  if (found < 0) {
    tl_error(s->diag, mo->loc,
             "memory_order= takes \"relaxed\", \"consume\", \"acquire\", "
             "\"release\", \"acq_rel\" or \"seq_cst\"");
    return false;
  }
  if (found > 0)
    tl_warning(s->diag, mo->loc,
               "memory_order=\"%s\" is compiled as a relaxed atomicAdd; order "
               "other accesses with T.sync_threads()",
               orders[found]);
  return true;
}

// use_tma=True asks TileLang for a TMA reduction (cp.reduce.async.bulk) of a
// shared tile into global memory: the same sums, issued by one thread.
// tlc's per-element atomicAdd adds the same values, so the flag is checked
// (a compile-time bool) and ignored.
static bool use_tma(Sema *s, const TlNode *call) {
  const TlNode *u = tl_sema_kwarg(call, "use_tma");
  if (!u) return true;
  TlValue *v = tl_sema_eval_const(s, u);
  if (v->kind == VAL_ERROR) return false;
  if (v->kind != VAL_BOOL && v->kind != VAL_INT && v->kind != VAL_NONE) {
    tl_error(s->diag, u->loc, "use_tma= takes True or False, not a %s",
             tl_value_kind_name(v->kind));
    return false;
  }
  return true;
}

// A subscript whose indices are all single elements (no slice).
static bool is_element(const TlNode *n) {
  if (n->kind != ND_SUBSCRIPT) return false;
  for (int i = 0; i < n->list.len; i++)
    if (TL_VEC_AT(n->list, TlNode, i)->kind == ND_SLICE) return false;
  return true;
}

// A name bound to a buffer: the whole buffer as a tile operand.
static bool names_buffer(Sema *s, const TlNode *n) {
  TlSym *y = n->kind == ND_NAME ? tl_scope_lookup(s, n->name) : NULL;
  return y && y->kind == SYM_BUFFER;
}

// The access e with `lane` added to its last index (T.atomic_addx2 / x4).
static TlExpr *lane_of(Sema *s, const TlExpr *e, int64_t lane) {
  TlExpr *c = tl_expr_clone(s->arena, e);
  if (lane == 0) return c;
  TlExpr **last = &c->args[c->nargs - 1];
  *last = tl_expr_binary(s->arena, (*last)->loc, OP_ADD, *last,
                         tl_expr_int(s->arena, (*last)->loc, lane, (*last)->dtype), (*last)->dtype);
  return c;
}

// T.atomic_add(C[i, j], v): one element, C[i, j] += v atomically;
// T.atomic_addx2 / x4 (C[i, j], x[j]): `lanes` consecutive elements of
// both, one atomic add each (inside T.Parallel, as TileLang uses them).
static void atomic_add_elements(Sema *s, const TlNode *call, const TlNode *dst, const TlNode *val,
                                int64_t lanes, const char *what, TlVec *out) {
  TlExpr *lhs = tl_sema_expr(s, dst);
  TlExpr *value = tl_sema_expr(s, val);
  if (lhs->kind != EX_LOAD) return; // already reported
  TlBuffer *b = lhs->buf;
  if (!atomic_scope_ok(s, b, dst->loc, what) || !atomic_dtype_ok(s, b, dst->loc, what)) return;
  int64_t last;
  if (lanes > 1 && tl_expr_is_const(lhs->args[lhs->nargs - 1], &last) &&
      last + lanes > b->shape[b->ndims - 1]) {
    tl_error(s->diag, dst->loc,
             "%s adds elements %lld..%lld of the last dimension of '%s', which "
             "has %lld",
             what, (long long)last, (long long)(last + lanes - 1), b->name,
             (long long)b->shape[b->ndims - 1]);
    return;
  }
  if (lanes > 1 && value->kind != EX_LOAD) {
    tl_error(s->diag, val->loc,
             "%s adds %lld consecutive elements; its value must be a buffer "
             "element such as x[i, j]",
             what, (long long)lanes);
    return;
  }
  for (int64_t l = 0; l < lanes; l++) {
    TlStmt *st = tl_stmt_new(s->arena, ST_STORE, call->loc);
    TlExpr *target = lane_of(s, lhs, l);
    st->buf = b;
    st->indices = target->args;
    st->nindices = target->nargs;
    st->update_op = OP_ADD;
    st->atomic = true;
    st->value = tl_sema_convert(s, lanes > 1 ? lane_of(s, value, l) : value, b->dtype);
    tl_vec_push(s->arena, out, st);
  }
  b->written = true;
}

// T.atomic_add(dst, src) on tiles: dst += src element by element, a copy
// whose stores add atomically.
static void atomic_add_tile(Sema *s, const TlNode *call, const TlNode *dst, const TlNode *src,
                            const char *what, TlVec *out) {
  if (s->in_parallel) {
    tl_error(s->diag, call->loc,
             "%s of a tile inside T.Parallel; add one element per point, "
             "e.g. T.atomic_add(C[i, j], x[i, j])",
             what);
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_COPY, call->loc);
  st->atomic = true;
  if (!region(s, src, &st->src) || !region(s, dst, &st->dst)) return;
  if (!atomic_scope_ok(s, st->dst.buf, dst->loc, what) ||
      !atomic_dtype_ok(s, st->dst.buf, dst->loc, what) || !copy_regions(s, call, st, what))
    return;
  tl_vec_push(s->arena, out, st);
}

// return_prev=: a compile-time bool; *on is its value. False after reporting.
static bool return_prev(Sema *s, const TlNode *call, bool *on) {
  const TlNode *r = tl_sema_kwarg(call, "return_prev");
  *on = false;
  if (!r) return true;
  TlValue *v = tl_sema_eval_const(s, r);
  if (v->kind == VAL_ERROR) return false;
  if (v->kind != VAL_BOOL && v->kind != VAL_INT && v->kind != VAL_NONE) {
    tl_error(s->diag, r->loc, "return_prev= takes True or False, not a %s",
             tl_value_kind_name(v->kind));
    return false;
  }
  *on = v->kind != VAL_NONE && v->i != 0;
  return true;
}

// x = T.atomic_add(C[i], v, return_prev=True): C[i] += v atomically, and the
// value C[i] had before (CUDA atomicAdd's result). NULL when the call has no
// return_prev=True (T.atomic_add is then a statement); an error expression
// after reporting.
TlExpr *tl_sema_atomic_add_value(Sema *s, const TlNode *call) {
  TlExpr *bad = tl_expr_int(s->arena, call->loc, 1, s->index_dtype); // as after any error
  bad->untyped = true;
  bool on;
  if (!return_prev(s, call, &on)) return bad;
  if (!on) return NULL;
  static const char *const kws[] = {"memory_order", "use_tma", "return_prev", NULL};
  if (!tl_sema_check_keywords(s, call, "T.atomic_add", kws)) return bad;
  if (call->list.len != 2) {
    tl_error(s->diag, call->loc, "T.atomic_add takes 2 arguments (dst, value), %d given",
             call->list.len);
    return bad;
  }
  if (!memory_order(s, call) || !use_tma(s, call)) return bad;
  const TlNode *dst = TL_VEC_AT(call->list, TlNode, 0), *val = TL_VEC_AT(call->list, TlNode, 1);
  if (!is_element(dst) || names_buffer(s, val) || (val->kind == ND_SUBSCRIPT && !is_element(val))) {
    tl_error(s->diag, call->loc,
             "T.atomic_add(..., return_prev=True) adds to one element, e.g. "
             "T.atomic_add(C[i], 1, return_prev=True); a tile has no previous value");
    return bad;
  }
  TlExpr *lhs = tl_sema_expr(s, dst);
  TlExpr *value = tl_sema_expr(s, val);
  if (lhs->kind != EX_LOAD) return bad; // already reported
  TlBuffer *b = lhs->buf;
  if (!atomic_scope_ok(s, b, dst->loc, "T.atomic_add") ||
      !atomic_dtype_ok(s, b, dst->loc, "T.atomic_add"))
    return bad;
  TlExpr *e = tl_expr_new(s->arena, EX_CALL, call->loc, b->dtype, 2);
  e->fn = FN_ATOMIC_ADD;
  e->args[0] = lhs;
  e->args[1] = tl_sema_convert(s, value, b->dtype);
  b->written = true;
  b->read = true;
  return e;
}

// T.atomic_add(dst, value, memory_order=None): the element form when dst is
// one element and value is not a buffer or slice, the tile form otherwise;
// T.atomic_addx2 / T.atomic_addx4 add 2 / 4 consecutive elements.
// return_prev=True as a statement: the element form, its value unused.
static void atomic_add(Sema *s, const TlNode *call, const char *op, TlVec *out) {
  char what[32];
  snprintf(what, sizeof what, "T.%s", op);
  static const char *const kws[] = {"memory_order", "use_tma", "return_prev", NULL};
  static const char *const kws_x[] = {"memory_order", "use_tma", NULL};
  if (!tl_sema_check_keywords(s, call, what, strcmp(op, "atomic_add") == 0 ? kws : kws_x)) return;
  bool prev;
  if (!return_prev(s, call, &prev)) return;
  if (call->list.len != 2) {
    tl_error(s->diag, call->loc, "%s takes 2 arguments (dst, value), %d given", what,
             call->list.len);
    return;
  }
  if (!memory_order(s, call) || !use_tma(s, call)) return;
  const TlNode *dst = TL_VEC_AT(call->list, TlNode, 0), *val = TL_VEC_AT(call->list, TlNode, 1);
  int64_t lanes = strcmp(op, "atomic_addx2") == 0 ? 2 : strcmp(op, "atomic_addx4") == 0 ? 4 : 1;
  bool value_is_tile = names_buffer(s, val) || (val->kind == ND_SUBSCRIPT && !is_element(val));
  if (prev && (!is_element(dst) || value_is_tile))
    tl_error(s->diag, call->loc,
             "T.atomic_add(..., return_prev=True) adds to one element, e.g. "
             "T.atomic_add(C[i], 1, return_prev=True); a tile has no previous value");
  else if (lanes > 1 && (!is_element(dst) || value_is_tile))
    tl_error(s->diag, call->loc, "%s takes two elements, e.g. %s(C[i, j], x[i, j])", what, what);
  else if (is_element(dst) && !value_is_tile)
    atomic_add_elements(s, call, dst, val, lanes, what, out);
  else
    atomic_add_tile(s, call, dst, val, what, out);
}

bool tl_sema_tile_op(Sema *s, const TlNode *call, const char *op, TlVec *out) {
  int before = s->diag->nerrors;
  if (strcmp(op, "copy") == 0)
    copy(s, call, out);
  // T.wgmma_gemm is TileLang's T.gemm that leaves its wgmma group in flight
  // for a later T.wait_wgmma; tlc's T.gemm waits for its own group (and picks
  // wgmma by the same rule), so it is a T.gemm here.
  else if (strcmp(op, "gemm") == 0 || strcmp(op, "wgmma_gemm") == 0)
    gemm(s, call, out);
  else if (strcmp(op, "fill") == 0 || strcmp(op, "clear") == 0)
    fill(s, call, op[0] == 'c', out);
  else if (strncmp(op, "atomic_add", 10) == 0)
    atomic_add(s, call, op, out);
  else if (strcmp(op, "im2col") == 0 || strcmp(op, "c2d_im2col") == 0)
    tl_sema_im2col(s, call, out);
  else if (strcmp(op, "cumsum") == 0)
    tl_sema_cumsum(s, call, out);
  else
    reduce(s, call, op, out);
  return s->diag->nerrors == before;
}
