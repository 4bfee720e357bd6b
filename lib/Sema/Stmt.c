// Kernel statements -> Tile IR: buffer allocations, T.Parallel nests (with
// loop_layout= and coalesced_width=), pipelined / serial / unrolled /
// vectorized loops, element stores, scalar locals, branches, tile ops.
#include <string.h>

#include "SemaInternal.h"

static void stmt(Sema *s, const TlNode *n, TlVec *out);

static void body_in_scope(Sema *s, const TlVec *stmts, TlVec *out) {
  tl_scope_push(s);
  tl_sema_body(s, stmts, out);
  tl_scope_pop(s);
}

// What one thread may hold. A fragment is spread over the block's threads
// and lives in registers: 255 32-bit registers per thread is the hardware's
// limit (sm_80 and sm_90). A fragment past it still compiles, as in
// TileLang: ptxas keeps the rest in local memory (slow, so a warning); one
// past four times the limit is mostly spills and an error. A local buffer is
// one array per thread; CUDA gives a thread at most 512 KB of local memory.
enum {
  MAX_REGISTERS_PER_THREAD = 255,
  MAX_SPILLED_REGISTERS = 4 * 255,
  MAX_LOCAL_BYTES = 512 * 1024
};

static bool fits_per_thread(Sema *s, const TlBuffer *b, int64_t total, TlLoc loc) {
  int64_t bytes = total * ((tl_dtype_bits(b->dtype) + 7) / 8); // total <= 2^40: no overflow
  if (b->scope == SCOPE_LOCAL && bytes > MAX_LOCAL_BYTES) {
    tl_error(s->diag, loc,
             "'%s' needs %lld bytes per thread; a thread has at most %d bytes of "
             "local memory",
             b->name, (long long)bytes, MAX_LOCAL_BYTES);
    return false;
  }
  if (b->scope != SCOPE_FRAGMENT) return true;
  int64_t threads = 1;
  for (int i = 0; i < 3; i++)
    threads *= s->kernel->threads[i];
  int64_t regs = (bytes + 4 * threads - 1) / (4 * threads); // at least, if spread evenly
  if (regs > MAX_SPILLED_REGISTERS) {
    tl_error(s->diag, loc,
             "fragment '%s' needs at least %lld registers per thread (%lld bytes "
             "over %lld threads); the limit is %d, and tlc refuses past %d (mostly spills)",
             b->name, (long long)regs, (long long)bytes, (long long)threads,
             MAX_REGISTERS_PER_THREAD, MAX_SPILLED_REGISTERS);
    return false;
  }
  if (regs > MAX_REGISTERS_PER_THREAD) {
    tl_warning(s->diag, loc,
               "fragment '%s' needs at least %lld registers per thread (%lld bytes over %lld "
               "threads), over the limit of %d: ptxas will keep part of it in local memory",
               b->name, (long long)regs, (long long)bytes, (long long)threads,
               MAX_REGISTERS_PER_THREAD);
    tl_note(s->diag, loc, "more threads (threads=%lld) or a smaller tile keep it in registers",
            (long long)threads * 2);
  }
  return true;
}

// A fragment of one element is every thread's value in TileLang (a fully
// replicated layout): here a per-thread local buffer, which T.Parallel nests
// and tile ops writing it run in every thread. A fragment with unit
// dimensions and others, such as a (1, N) row, is laid out over its other
// dimensions: the unit ones are dropped, and accesses skip their index
// (tl_sema_kept_indices), so x[0, j] in T.Parallel(N) is x[j].
static void drop_unit_dims(TlBuffer *b) {
  int kept = 0;
  for (int d = 0; d < b->ndims; d++)
    kept += b->shape[d] != 1;
  if (kept == 0) {
    b->scope = SCOPE_LOCAL;
    return;
  }
  if (kept == b->ndims) return;
  b->source_ndims = b->ndims;
  int n = 0;
  for (int d = 0; d < b->ndims; d++) {
    if (b->shape[d] == 1)
      b->dropped_dims |= 1u << d;
    else
      b->shape[n++] = b->shape[d];
  }
  b->ndims = n;
}

int tl_sema_kept_indices(Sema *s, const TlBuffer *b, const TlVec *indices, const TlNode **kept) {
  if (!b->source_ndims || indices->len != b->source_ndims) {
    for (int d = 0; d < indices->len && d < TL_MAX_DIMS; d++)
      kept[d] = TL_VEC_AT(*indices, TlNode, d);
    return indices->len;
  }
  int n = 0;
  for (int d = 0; d < indices->len; d++) {
    const TlNode *in = TL_VEC_AT(*indices, TlNode, d);
    if (!(b->dropped_dims & (1u << d))) {
      kept[n++] = in;
      continue;
    }
    // A dropped dimension has size 1: its index is 0 (a run-time index can
    // only be 0 too), or a slice over it.
    int64_t v = 0;
    bool ok = in->kind == ND_SLICE ? !in->c
              : tl_sema_is_constant_expr(s, in)
                  ? tl_sema_const_int(s, in, "the index", &v) && v == 0
                  : true;
    if (!ok) {
      tl_error(s->diag, in->loc, "dimension %d of '%s' has size 1; its index must be 0", d,
               b->name);
      return -1;
    }
  }
  return n;
}

// X = T.alloc_shared(shape, dtype) / alloc_fragment / alloc_local
static bool alloc(Sema *s, const TlNode *target, const TlNode *call, const char *kind) {
  TlScope scope = strcmp(kind, "alloc_shared") == 0     ? SCOPE_SHARED
                  : strcmp(kind, "alloc_fragment") == 0 ? SCOPE_FRAGMENT
                                                        : SCOPE_LOCAL;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.%s must be assigned to a name", kind);
    return false;
  }
  static const char *const kws[] = {"shape", "dtype", "scope", NULL};
  if (!tl_sema_check_keywords(s, call, kind, kws)) return false;
  const TlNode *shape = tl_sema_arg(call, 0, "shape");
  const TlNode *dtype = tl_sema_arg(call, 1, "dtype");
  if (!shape || !dtype || call->list.len > 3) {
    tl_error(s->diag, call->loc, "T.%s takes a shape and a dtype", kind);
    return false;
  }
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  b->name = target->name;
  b->loc = target->loc;
  b->scope = scope;
  b->stages = 1;
  TlValue *sv = tl_sema_eval_const(s, shape);
  if (sv->kind == VAL_ERROR) return false;
  int nd = sv->kind == VAL_TUPLE ? sv->items.len : 1;
  if (sv->kind != VAL_TUPLE && sv->kind != VAL_INT) {
    tl_error(s->diag, shape->loc, "expected a shape (a tuple of integers), found a %s",
             tl_value_kind_name(sv->kind));
    return false;
  }
  if (nd < 1 || nd > TL_MAX_DIMS) {
    tl_error(s->diag, shape->loc, "a shape needs 1 to %d dimensions, this one has %d", TL_MAX_DIMS,
             nd);
    return false;
  }
  int64_t total = 1;
  for (int i = 0; i < nd; i++) {
    TlValue *d = sv->kind == VAL_TUPLE ? TL_VEC_AT(sv->items, TlValue, i) : sv;
    if (d->kind == VAL_SIZE) {
      tl_error(s->diag, d->loc,
               "dimension %d of '%s' is the runtime size '%s'; an on-chip buffer "
               "needs a compile-time shape",
               i, b->name, d->s);
      tl_note(s->diag, d->loc, "tile the runtime size with a constant block, e.g. (block_M, N)");
      return false;
    }
    if (d->kind != VAL_INT || d->i < 1) {
      tl_error(s->diag, d->loc, "dimension %d of '%s' must be a positive integer", i, b->name);
      return false;
    }
    if (tl_mul_overflows(total, d->i, &total) || total > ((int64_t)1 << 40)) {
      tl_error(s->diag, shape->loc, "'%s' has too many elements for on-chip memory", b->name);
      return false;
    }
    b->shape[i] = d->i;
  }
  b->ndims = nd;
  if (scope == SCOPE_FRAGMENT) drop_unit_dims(b);
  if (b->scope == SCOPE_FRAGMENT && b->ndims > 2) {
    // Layouts spread 1-D and 2-D fragments over the threads; a tile of
    // more dimensions is the same values in shared memory (every nest
    // over it partitioned as over any shared tile, thread-sync ordering
    // its accesses): correct, and slower than registers would be.
    b->scope = SCOPE_SHARED;
    tl_warning(s->diag, target->loc,
               "fragment '%s' has %d dimensions: tlc keeps it in shared memory (it lays out "
               "fragments of 1 or 2 dimensions over the threads)",
               b->name, b->ndims);
  }
  TlValue *dv = tl_sema_eval_const(s, dtype);
  if (dv->kind == VAL_ERROR || !tl_value_as_dtype(s, dv, &b->dtype)) return false;
  // A buffer too big for a thread is still declared, so that its uses do
  // not each add an "undeclared name" error after the one that matters.
  bool fits = fits_per_thread(s, b, total, call->loc);
  TlSym *prev = tl_scope_lookup(s, b->name);
  if (prev && prev->kind == SYM_BUFFER) {
    tl_error(s->diag, target->loc, "redefinition of buffer '%s'", b->name);
    tl_note(s->diag, prev->loc, "previous definition is here");
    return false;
  }
  tl_vec_push(s->arena, &s->kernel->buffers, b);
  TlSym *y = tl_scope_define(s, s->scope, b->name, SYM_BUFFER, target->loc);
  y->buf = b;
  return fits;
}

// The operation of an augmented assignment x op= v.
static TlOp aug_op(TlTokenKind op) {
  switch (op) {
  case TK_PLUS:
    return OP_ADD;
  case TK_MINUS:
    return OP_SUB;
  case TK_STAR:
    return OP_MUL;
  case TK_SLASH:
    return OP_DIV;
  case TK_PERCENT:
    return OP_FLOORMOD;
  case TK_AMP:
    return OP_BITAND;
  case TK_PIPE:
    return OP_BITOR;
  case TK_CARET:
    return OP_XOR;
  case TK_LSHIFT:
    return OP_SHL;
  case TK_RSHIFT:
    return OP_SHR;
  default:
    return OP_FLOORDIV;
  }
}

static void store(Sema *s, const TlNode *target, TlTokenKind op, const TlNode *value_node,
                  TlLoc loc, TlVec *out) {
  // The target goes through the expression lowering (bounds and index
  // checks), which marks its buffer as read; a plain store does not read.
  TlSym *ty = target->a->kind == ND_NAME ? tl_scope_lookup(s, target->a->name) : NULL;
  bool was_read = ty && ty->kind == SYM_BUFFER ? ty->buf->read : false;
  TlExpr *lhs = tl_sema_expr(s, target);
  if (ty && ty->kind == SYM_BUFFER && op == TK_ASSIGN) ty->buf->read = was_read;
  TlExpr *value = tl_sema_expr(s, value_node);
  if (lhs->kind != EX_LOAD) return; // already reported
  TlBuffer *b = lhs->buf;
  TlStmt *st = tl_stmt_new(s->arena, ST_STORE, loc);
  st->buf = b;
  st->indices = lhs->args;
  st->nindices = lhs->nargs;
  st->update_op = op == TK_ASSIGN ? OP_EQ : aug_op(op);
  if (st->update_op != OP_EQ && tl_bitwise_op(st->update_op) && tl_dtype_is_float(b->dtype)) {
    tl_error(s->diag, loc, "'%s=' on float buffer '%s'; bitwise operators need integers",
             tl_token_kind_name(op), b->name);
    return;
  }
  if (!tl_dtype_is_float(b->dtype) && st->update_op == OP_DIV) {
    tl_error(s->diag, loc, "'/=' on integer buffer '%s'; use '//='", b->name);
    return;
  }
  if (tl_dtype_is_float(b->dtype) && st->update_op == OP_FLOORMOD) st->update_op = OP_FMOD;
  st->value = tl_sema_convert(s, value, b->dtype);
  b->written = true;
  tl_vec_push(s->arena, out, st);
}

// A name a kernel statement may assign: not a buffer, loop or block index.
static bool scalar_target_ok(Sema *s, const TlNode *target) {
  TlSym *y = tl_scope_lookup(s, target->name);
  if (y && y->kind == SYM_BUFFER) {
    tl_error(s->diag, target->loc,
             "cannot assign to buffer '%s'; store to its elements, e.g. %s[i] = ...", target->name,
             target->name);
    return false;
  }
  if (y && y->kind == SYM_VAR && y->var->kind != VAR_SCALAR) {
    tl_error(s->diag, target->loc, "cannot assign to '%s', a %s", target->name,
             y->var->kind == VAR_LOOP ? "loop variable" : "block index");
    return false;
  }
  return true;
}

// target (op)= value for a scalar name: a new local (ST_LET) the first
// time, a re-assignment (ST_SET) after.
static void scalar_assign_value(Sema *s, const TlNode *target, TlTokenKind op, TlExpr *value,
                                TlLoc loc, TlVec *out) {
  TlSym *y = tl_scope_lookup(s, target->name);
  if (y && y->kind == SYM_VAR) {
    if (!tl_sema_scalar_reassigned(s, y, loc)) return;
    TlStmt *st = tl_stmt_new(s->arena, ST_SET, loc);
    st->var = y->var;
    if (op != TK_ASSIGN) {
      TlExpr *cur = tl_expr_var(s->arena, loc, y->var);
      TlOp bop = aug_op(op);
      if (tl_bitwise_op(bop) && tl_dtype_is_float(y->var->dtype)) {
        tl_error(s->diag, loc, "'%s=' on float '%s'; bitwise operators need integers",
                 tl_token_kind_name(op), target->name);
        return;
      }
      if (bop == OP_FLOORMOD && tl_dtype_is_float(y->var->dtype)) bop = OP_FMOD;
      value = tl_expr_binary(s->arena, loc, bop, cur, tl_sema_convert(s, value, y->var->dtype),
                             y->var->dtype);
    }
    st->value = tl_sema_convert(s, value, y->var->dtype);
    tl_vec_push(s->arena, out, st);
    return;
  }
  if (op != TK_ASSIGN) {
    tl_sema_unknown_name(s, target->loc, target->name);
    return;
  }
  if (y && y->kind == SYM_VALUE && s->scope) {
    // Shadowing a module constant inside a kernel: a new local.
  }
  TlDtype t = value->dtype;
  if (value->untyped) t = tl_dtype_is_float(t) ? TY_FLOAT32 : TY_INT32;
  if (value->untyped &&
      (value->dtype == TY_INT64 ||
       (value->kind == EX_INT && (value->ival > INT32_MAX || value->ival < INT32_MIN))))
    t = TY_INT64; // a constant that does not fit an int keeps 64 bits
  TlVar *v = tl_var_new(s->arena, s->kernel, target->name, VAR_SCALAR, t, target->loc);
  TlSym *sym = tl_scope_define(s, s->scope, target->name, SYM_VAR, target->loc);
  sym->var = v;
  TlStmt *st = tl_stmt_new(s->arena, ST_LET, loc);
  st->var = v;
  st->value = tl_sema_convert(s, value, t);
  sym->let_value = st->value;
  tl_vec_push(s->arena, out, st);
}

// A second assignment to a kernel scalar: its first value no longer stands
// for it. False (after the error) when that value already fixed a slice's
// extent, which the new value would silently change.
bool tl_sema_scalar_reassigned(Sema *s, TlSym *y, TlLoc loc) {
  if (y->pinned) {
    tl_error(s->diag, loc, "'%s' is assigned again after its value fixed the extent of a slice",
             y->name);
    tl_note(s->diag, y->pinned_at,
            "the slice whose extent uses '%s'; give the new value a new name", y->name);
    return false;
  }
  y->let_value = NULL;
  return true;
}

static void scalar_assign(Sema *s, const TlNode *target, TlTokenKind op, const TlNode *value_node,
                          TlLoc loc, TlVec *out) {
  if (scalar_target_ok(s, target))
    scalar_assign_value(s, target, op, tl_sema_expr(s, value_node), loc, out);
}

// a, b = x, y on scalars: Python evaluates every value before assigning any
// name, so when a target already exists (a swap, a Fibonacci step) the
// values go through fresh temporaries first.
static void tuple_assign(Sema *s, const TlNode *target, const TlNode *value, TlLoc loc,
                         TlVec *out) {
  int n = target->list.len;
  if (value->kind != ND_TUPLE || value->list.len != n) {
    tl_error(s->diag, value->loc, "assigning to %d names needs a tuple of %d values here", n, n);
    return;
  }
  bool existing = false;
  for (int i = 0; i < n; i++) {
    const TlNode *t = TL_VEC_AT(target->list, TlNode, i);
    if (t->kind != ND_NAME) {
      tl_error(s->diag, t->loc, "in a kernel, unpack into names; store buffer elements one by one");
      return;
    }
    if (!scalar_target_ok(s, t)) return;
    TlSym *y = tl_scope_lookup(s, t->name);
    existing = existing || (y && y->kind == SYM_VAR);
  }
  TlExpr *values[TL_MAX_DIMS * 4];
  if (n > (int)(sizeof values / sizeof values[0])) {
    tl_error(s->diag, target->loc, "at most %d names in one assignment",
             (int)(sizeof values / sizeof values[0]));
    return;
  }
  for (int i = 0; i < n; i++) {
    values[i] = tl_sema_expr(s, TL_VEC_AT(value->list, TlNode, i));
    if (!existing || values[i]->kind == EX_INT || values[i]->kind == EX_FLOAT) continue;
    TlDtype t = values[i]->untyped ? (tl_dtype_is_float(values[i]->dtype) ? TY_FLOAT32 : TY_INT32)
                                   : values[i]->dtype;
    TlVar *tmp = tl_var_new(s->arena, s->kernel, "unpacked", VAR_SCALAR, t, loc);
    TlStmt *let = tl_stmt_new(s->arena, ST_LET, loc);
    let->var = tmp;
    let->value = tl_sema_convert(s, values[i], t);
    tl_vec_push(s->arena, out, let);
    values[i] = tl_expr_var(s->arena, loc, tmp);
  }
  for (int i = 0; i < n; i++)
    scalar_assign_value(s, TL_VEC_AT(target->list, TlNode, i), TK_ASSIGN, values[i], loc, out);
}

static void assign(Sema *s, const TlNode *n, TlVec *out) {
  if (n->list.len != 1) {
    tl_error(s->diag, n->loc, "chained assignment is only allowed at module level");
    return;
  }
  const TlNode *target = TL_VEC_AT(n->list, TlNode, 0);
  const TlNode *value = n->a;
  if (value->kind == ND_CALL) {
    const char *t = tl_sema_t_attr(s, value->a);
    if (t && (strcmp(t, "alloc_shared") == 0 || strcmp(t, "alloc_fragment") == 0 ||
              strcmp(t, "alloc_local") == 0)) {
      alloc(s, target, value, t);
      return;
    }
    if (t && strcmp(t, "Tensor") == 0) {
      tl_sema_tensor_view(s, target, value);
      return;
    }
    if (t && strcmp(t, "view") == 0) {
      tl_sema_shared_view(s, target, value);
      return;
    }
    if (t && strcmp(t, "reshape") == 0) {
      tl_sema_reshape(s, target, value);
      return;
    }
    if (t && strcmp(t, "alloc_barrier") == 0) {
      tl_sema_alloc_barrier(s, target, value);
      return;
    }
    if (t && strcmp(t, "alloc_var") == 0) {
      tl_sema_alloc_var(s, target, value, out);
      return;
    }
  }
  TlSym *src =
      target->kind == ND_NAME && value->kind == ND_NAME ? tl_scope_lookup(s, value->name) : NULL;
  if (src && src->kind == SYM_BUFFER) { // O_shared = Q_shared: a second name, one buffer
    TlSym *y = tl_scope_lookup(s, target->name);
    if (y && y->kind != SYM_VALUE) {
      tl_error(s->diag, target->loc,
               "'%s' is already declared in this kernel; a buffer alias "
               "needs a new name",
               target->name);
      tl_note(s->diag, y->loc, "'%s' declared here", target->name);
      return;
    }
    TlSym *alias = tl_scope_define(s, s->scope, target->name, SYM_BUFFER, target->loc);
    alias->buf = src->buf;
    return;
  }
  if (target->kind == ND_SUBSCRIPT)
    store(s, target, TK_ASSIGN, value, n->loc, out);
  else if (target->kind == ND_NAME)
    scalar_assign(s, target, TK_ASSIGN, value, n->loc, out);
  else if (target->kind == ND_TUPLE)
    tuple_assign(s, target, value, n->loc, out);
  else
    tl_error(s->diag, target->loc, "inside a kernel, assign to a name or a buffer element");
}

// loop_layout=T.Fragment((e0, e1), forward_fn=f[, replicate=r])
static TlLayoutFn *loop_layout(Sema *s, const TlNode *n, TlStmt *loop) {
  const char *t = n->kind == ND_CALL ? tl_sema_t_attr(s, n->a) : NULL;
  if (!t || strcmp(t, "Fragment") != 0) {
    tl_error(s->diag, n->loc, "loop_layout= takes T.Fragment(shape, forward_fn=f)");
    return NULL;
  }
  static const char *const kws[] = {"shape", "forward_fn", "replicate", "forward_thread_fn", NULL};
  if (!tl_sema_check_keywords(s, n, "T.Fragment", kws)) return NULL;
  const TlNode *shape = n->list.len > 0 ? TL_VEC_AT(n->list, TlNode, 0) : tl_sema_kwarg(n, "shape");
  const TlNode *fn =
      n->list.len > 1 ? TL_VEC_AT(n->list, TlNode, 1) : tl_sema_kwarg(n, "forward_fn");
  const TlNode *rep = tl_sema_kwarg(n, "replicate");
  if (!shape || !fn) {
    tl_error(s->diag, n->loc, "T.Fragment needs a shape and forward_fn=");
    return NULL;
  }
  TlValue *sv = tl_sema_eval_const(s, shape);
  if (sv->kind == VAL_ERROR) return NULL;
  int nd = sv->kind == VAL_TUPLE ? sv->items.len : 1;
  bool same = nd == loop->nvars;
  for (int i = 0; same && i < nd; i++) {
    TlValue *d = sv->kind == VAL_TUPLE ? TL_VEC_AT(sv->items, TlValue, i) : sv;
    same = d->kind == VAL_INT && d->i == loop->extents[i];
  }
  if (!same) {
    tl_error(s->diag, shape->loc, "the T.Fragment shape does not match the T.Parallel extents");
    return NULL;
  }
  TlLayoutFn *L = TL_NEW(s->arena, TlLayoutFn);
  L->loc = fn->loc;
  L->replicate = 1;
  if (rep) {
    if (!tl_sema_const_int(s, rep, "replicate=", &L->replicate)) return NULL;
    if (L->replicate < 1) {
      tl_error(s->diag, rep->loc, "replicate= must be at least 1");
      return NULL;
    }
  }
  TlValue *fv = tl_sema_eval_const(s, fn);
  if (fv->kind == VAL_ERROR) return NULL;
  if (fv->kind != VAL_FUNC) {
    tl_error(s->diag, fn->loc, "forward_fn= must be a lambda or a helper function, not a %s",
             tl_value_kind_name(fv->kind));
    return NULL;
  }
  L->name = fv->s;
  TlExpr *args[TL_MAX_DIMS + 1];
  for (int i = 0; i < loop->nvars; i++) {
    L->params[i] = loop->vars[i];
    args[i] = tl_expr_var(s->arena, fn->loc, loop->vars[i]);
  }
  L->nparams = loop->nvars;
  if (L->replicate > 1) {
    TlVar *r = tl_var_new(s->arena, s->kernel, "rep", VAR_LOOP, TY_INT32, fn->loc);
    r->extent = L->replicate;
    L->params[L->nparams] = r;
    args[L->nparams++] = tl_expr_var(s->arena, fn->loc, r);
  }
  TlExpr *res[2];
  int nres;
  if (!tl_sema_inline_helper(s, fv, fn->loc, L->nparams, args, res, 2, &nres)) return NULL;
  if (nres != 2) {
    tl_error(s->diag, fn->loc, "forward_fn must return (thread, local), it returns %d value%s",
             nres, nres == 1 ? "" : "s");
    return NULL;
  }
  L->thread = tl_simplify(s->arena, tl_sema_convert(s, res[0], TY_INT32));
  L->local = tl_simplify(s->arena, tl_sema_convert(s, res[1], TY_INT32));
  return L;
}

static TlVar *loop_var(Sema *s, const TlNode *target, const char *what) {
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "the loop variable of %s must be a name", what);
    return NULL;
  }
  TlVar *v = tl_var_new(s->arena, s->kernel, target->name, VAR_LOOP, s->index_dtype, target->loc);
  TlSym *y = tl_scope_define(s, s->scope, target->name, SYM_VAR, target->loc);
  y->var = v;
  return v;
}

bool tl_sema_nest_arity(Sema *s, const TlNode *n, TlLoc extents_loc, int ne, int max,
                        const char *what) {
  if (ne == 0 || ne > max) {
    tl_error(s->diag, extents_loc, "%s takes 1 to %d extents, %d given", what, max, ne);
    return false;
  }
  if (n->list2.len != ne) {
    tl_error(s->diag, n->loc, "%s has %d extent%s but the loop binds %d variable%s", what, ne,
             ne == 1 ? "" : "s", n->list2.len, n->list2.len == 1 ? "" : "s");
    return false;
  }
  return true;
}

static void parallel(Sema *s, const TlNode *n, const TlNode *call, TlVec *out) {
  // prefer_async= and annotations= are scheduling hints of TileLang's
  // (cp.async for a global-to-shared nest); tlc picks cp.async itself in
  // pipelined loops, so both are accepted and have no effect.
  static const char *const kws[] = {"loop_layout", "coalesced_width", "prefer_async", "annotations",
                                    NULL};
  if (!tl_sema_check_keywords(s, call, "T.Parallel", kws)) return;
  int ne = call->list.len;
  if (!tl_sema_nest_arity(s, n, call->loc, ne, TL_MAX_NEST, "T.Parallel")) return;
  // A perfect nest of parallel loops (`for i in T.Parallel(a):` holding only
  // `for j in T.Parallel(b):`, or TIR's T.parallel) is one nest of extents
  // (a, b), as TileLang's layout inference takes it.
  const TlNode *extent_nodes[TL_MAX_NEST], *var_nodes[TL_MAX_NEST];
  for (int i = 0; i < ne; i++) {
    extent_nodes[i] = TL_VEC_AT(call->list, TlNode, i);
    var_nodes[i] = TL_VEC_AT(n->list2, TlNode, i);
  }
  const TlNode *body_of = n;
  while (body_of->list.len == 1) {
    const TlNode *inner = TL_VEC_AT(body_of->list, TlNode, 0);
    const TlNode *ic = inner->kind == ND_FOR ? inner->a : NULL;
    const char *it = ic && ic->kind == ND_CALL ? tl_sema_t_attr(s, ic->a) : NULL;
    if (!it || (strcmp(it, "Parallel") && strcmp(it, "parallel")) || ic->list2.len ||
        inner->params.len || ic->list.len != inner->list2.len || ne + ic->list.len > TL_MAX_NEST)
      break;
    for (int i = 0; i < ic->list.len; i++) {
      extent_nodes[ne] = TL_VEC_AT(ic->list, TlNode, i);
      var_nodes[ne++] = TL_VEC_AT(inner->list2, TlNode, i);
    }
    body_of = inner;
  }
  if (s->in_parallel) {
    tl_error(s->diag, n->loc,
             "T.Parallel nested inside T.Parallel; list all extents in one "
             "T.Parallel(e0, e1, ...)");
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_PARALLEL, n->loc);
  st->nvars = ne;
  int64_t total = 1;
  for (int i = 0; i < ne; i++) {
    const TlNode *e = extent_nodes[i];
    int64_t v;
    if (!tl_sema_const_int(s, e, "a T.Parallel extent", &v)) return;
    if (v < 1) {
      tl_error(s->diag, e->loc, "T.Parallel extent must be positive, got %lld", (long long)v);
      return;
    }
    if (tl_mul_overflows(total, v, &total) || total > ((int64_t)1 << 40)) {
      tl_error(s->diag, call->loc,
               "T.Parallel iteration space is too large (more than 2^40 points)");
      return;
    }
    st->extents[i] = v;
  }
  tl_scope_push(s);
  for (int i = 0; i < ne; i++) {
    st->vars[i] = loop_var(s, var_nodes[i], "T.Parallel");
    if (!st->vars[i]) {
      tl_scope_pop(s);
      return;
    }
    st->vars[i]->extent = st->extents[i];
  }
  const TlNode *cw = tl_sema_kwarg(call, "coalesced_width");
  if (cw) {
    if (!tl_sema_const_int(s, cw, "coalesced_width=", &st->coalesced_width)) {
      tl_scope_pop(s);
      return;
    }
    int64_t w = st->coalesced_width;
    if (w < 1 || (w & (w - 1)) || w > 16) {
      tl_error(s->diag, cw->loc, "coalesced_width= must be a power of two from 1 to 16, got %lld",
               (long long)w);
      tl_scope_pop(s);
      return;
    }
  }
  const TlNode *ll = tl_sema_kwarg(call, "loop_layout");
  if (ll) {
    st->layout = loop_layout(s, ll, st);
    if (!st->layout) {
      tl_scope_pop(s);
      return;
    }
  }
  s->in_parallel = true;
  s->parallel = st;
  tl_sema_body(s, &body_of->list, &st->body);
  s->in_parallel = false;
  s->parallel = NULL;
  tl_sema_reshape_fuse(s, st);
  tl_scope_pop(s);
  tl_vec_push(s->arena, out, st);
}

static bool int_list(Sema *s, const TlNode *n, const char *what, TlVec *out) {
  TlValue *v = tl_sema_eval_const(s, n);
  if (v->kind == VAL_ERROR) return false;
  if (v->kind != VAL_TUPLE) {
    tl_error(s->diag, n->loc, "%s must be a list of integers", what);
    return false;
  }
  for (int i = 0; i < v->items.len; i++) {
    TlValue *x = TL_VEC_AT(v->items, TlValue, i);
    if (x->kind != VAL_INT) {
      tl_error(s->diag, n->loc, "%s must be a list of integers", what);
      return false;
    }
    tl_vec_push(s->arena, out, (void *)(intptr_t)x->i);
  }
  return true;
}

// group= of T.Pipelined (TileLang): order= and stage= then give one entry
// per group of the loop's statements. Each statement takes its group's
// entries, and the order becomes one of statements (groups in their order,
// each group's statements in source order). An entry of -1 marks the groups
// TileLang's warp-specialized schedule hands to its producer warps; tlc's
// warp-specialize pass makes that split itself, so such annotations are not
// followed (a warning says so). False (after reporting) on a malformed group=.
static bool expand_groups(Sema *s, const TlNode *group, TlStmt *st) {
  TlVec *lists[] = {&st->order, &st->stage};
  const char *names[] = {"order=", "stage="};
  bool producer_marks = false;
  for (int l = 0; l < 2; l++)
    for (int g = 0; g < lists[l]->len; g++)
      producer_marks = producer_marks || (int64_t)(intptr_t)lists[l]->items[g] < 0;
  if (producer_marks) { // (its groups may count statements as TileLang's lowering does: unused)
    tl_warning(s->diag, group->loc,
               "order=/stage= with -1 entries (TileLang's warp-specialized schedule) are not "
               "followed; tlc's warp-specialize pass schedules this loop");
    st->order = (TlVec){0};
    st->stage = (TlVec){0};
    return true;
  }
  TlValue *v = tl_sema_eval_const(s, group);
  if (v->kind == VAL_ERROR) return false;
  int n = st->body.len, ng = v->kind == VAL_TUPLE ? v->items.len : 0;
  int owner[256], pos[256];
  if (v->kind != VAL_TUPLE || n > 256) {
    tl_error(s->diag, group->loc, "group= must be a list of lists of statement indices");
    return false;
  }
  for (int i = 0; i < n; i++)
    owner[i] = -1;
  for (int g = 0; g < ng; g++) {
    TlValue *l = TL_VEC_AT(v->items, TlValue, g);
    if (l->kind != VAL_TUPLE) {
      tl_error(s->diag, group->loc, "group= must be a list of lists of statement indices");
      return false;
    }
    for (int k = 0; k < l->items.len; k++) {
      TlValue *x = TL_VEC_AT(l->items, TlValue, k);
      if (x->kind != VAL_INT || x->i < 0 || x->i >= n || owner[x->i] >= 0) {
        tl_error(s->diag, group->loc,
                 "group= must put each of the loop's %d statements (0..%d) in exactly one group", n,
                 n - 1);
        return false;
      }
      owner[x->i] = g;
    }
  }
  for (int i = 0; i < n; i++)
    if (owner[i] < 0) {
      tl_error(s->diag, group->loc, "group= leaves statement %d of the pipelined loop in no group",
               i);
      return false;
    }
  for (int l = 0; l < 2; l++)
    if (lists[l]->len && lists[l]->len != ng) {
      tl_error(s->diag, group->loc, "%s has %d entries but group= has %d groups", names[l],
               lists[l]->len, ng);
      return false;
    }
  TlVec order = {0}, stage = {0};
  int rank = 0;
  for (int want = 0; st->order.len && want < ng; want++) // groups by their order= value
    for (int g = 0; g < ng; g++)
      if ((int64_t)(intptr_t)st->order.items[g] == want)
        for (int i = 0; i < n; i++)
          if (owner[i] == g) pos[i] = rank++;
  if (st->order.len && rank != n) {
    tl_error(s->diag, group->loc, "order= must be a permutation of 0..%d (one entry per group)",
             ng - 1);
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (st->order.len) tl_vec_push(s->arena, &order, (void *)(intptr_t)pos[i]);
    if (st->stage.len) tl_vec_push(s->arena, &stage, st->stage.items[owner[i]]);
  }
  st->order = order;
  st->stage = stage;
  return true;
}

// for v in T.Pipelined / T.serial / range / T.unroll / T.vectorized
// `break` (parsed as a bare name, as in the evaluator).
static bool is_break(const TlNode *st) {
  return st->kind == ND_EXPR_STMT && st->a->kind == ND_NAME && strcmp(st->a->name, "break") == 0;
}

// True when st breaks out of the loop whose body it is in: a `break` in it,
// at any depth of if / with blocks, not inside a nested loop.
static bool breaks(const TlNode *st, int depth) {
  if (is_break(st)) return true;
  if (depth > 64 || (st->kind != ND_IF && st->kind != ND_WITH)) return false;
  for (int i = 0; i < st->list.len; i++)
    if (breaks(TL_VEC_AT(st->list, TlNode, i), depth + 1)) return true;
  for (int i = 0; st->kind == ND_IF && i < st->list2.len; i++)
    if (breaks(TL_VEC_AT(st->list2, TlNode, i), depth + 1)) return true;
  return false;
}

// `if not broke:` around the statements after one that may break.
static TlStmt *unless_broken(Sema *s, TlLoc loc) {
  TlStmt *g = tl_stmt_new(s->arena, ST_IF, loc);
  g->cond = tl_expr_binary(s->arena, loc, OP_EQ, tl_expr_var(s->arena, loc, s->break_var),
                           tl_expr_int(s->arena, loc, 0, TY_INT32), TY_BOOL);
  return g;
}

// A loop body with `break`: a flag (0, set to 1 by the break) that skips
// the rest of the body and every later iteration. CUDA would run the same
// code with a real break; this form keeps every pass's view of the loop
// (one body, run `stop - start` times) unchanged.
static void breaking_body(Sema *s, const TlNode *n, TlStmt *loop, TlVec *out) {
  bool any = false;
  for (int i = 0; i < n->list.len && !any; i++)
    any = breaks(TL_VEC_AT(n->list, TlNode, i), 0);
  TlVar *saved = s->break_var;
  if (!any || loop->loop_kind == LOOP_PIPELINED || loop->loop_kind == LOOP_VECTORIZED) {
    s->break_var = NULL; // a break here is reported by expr_stmt
    tl_sema_body(s, &n->list, &loop->body);
    s->break_var = saved;
    return;
  }
  TlVar *flag = tl_var_new(s->arena, s->kernel, "broke", VAR_SCALAR, TY_INT32, n->loc);
  TlStmt *let = tl_stmt_new(s->arena, ST_LET, n->loc);
  let->var = flag;
  let->value = tl_expr_int(s->arena, n->loc, 0, TY_INT32);
  tl_vec_push(s->arena, out, let);
  s->break_var = flag;
  TlStmt *g = unless_broken(s, n->loc);
  tl_sema_body(s, &n->list, &g->body);
  tl_vec_push(s->arena, &loop->body, g);
  s->break_var = saved;
}

static void counted_loop(Sema *s, const TlNode *n, const TlNode *call, const char *kind,
                         TlVec *out) {
  bool pipelined = strcmp(kind, "Pipelined") == 0;
  char what[32];
  snprintf(what, sizeof what, "%s%s", strcmp(kind, "range") == 0 ? "" : "T.", kind);
  static const char *const pipe_kws[] = {"num_stages", "order", "stage", "group", NULL};
  static const char *const no_kws[] = {NULL};
  static const char *const unroll_kws[] = {"explicit", "unroll_factor", NULL};
  if (!tl_sema_check_keywords(s, call, what,
                              pipelined                     ? pipe_kws
                              : strcmp(kind, "unroll") == 0 ? unroll_kws
                                                            : no_kws))
    return;
  int na = call->list.len;
  int maxargs = (strcmp(kind, "unroll") == 0 || strcmp(kind, "vectorized") == 0) ? 2 : 3;
  if (pipelined) maxargs = 2;
  if (na < 1 || na > maxargs) {
    tl_error(s->diag, call->loc, "%s takes 1 to %d positional arguments, %d given", what, maxargs,
             na);
    return;
  }
  if (n->list2.len != 1) {
    tl_error(s->diag, n->loc, "%s binds one loop variable, not %d", what, n->list2.len);
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_FOR, n->loc);
  st->loop_kind = pipelined                         ? LOOP_PIPELINED
                  : strcmp(kind, "unroll") == 0     ? LOOP_UNROLL
                  : strcmp(kind, "vectorized") == 0 ? LOOP_VECTORIZED
                                                    : LOOP_SERIAL;
  TlExpr *a0 =
      tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 0)), s->index_dtype);
  if (na == 1) {
    st->start = tl_expr_int(s->arena, call->loc, 0, s->index_dtype);
    st->stop = a0;
  } else {
    st->start = a0;
    st->stop =
        tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 1)), s->index_dtype);
  }
  st->step = na == 3 ? tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 2)),
                                       s->index_dtype)
                     : tl_expr_int(s->arena, call->loc, 1, s->index_dtype);
  int64_t step;
  if (tl_expr_is_const(st->step, &step) && step == 0) {
    tl_error(s->diag, st->step->loc, "loop step must not be zero");
    return;
  }
  if (!tl_expr_is_const(st->step, &step)) {
    tl_error(s->diag, st->step->loc, "loop step must be a compile-time constant");
    return;
  }
  if (st->loop_kind == LOOP_UNROLL || st->loop_kind == LOOP_VECTORIZED) {
    int64_t lo, hi;
    if (!tl_expr_is_const(st->start, &lo) || !tl_expr_is_const(st->stop, &hi)) {
      tl_error(s->diag, call->loc, "%s needs compile-time bounds", what);
      return;
    }
    if (hi - lo > 4096) {
      tl_error(s->diag, call->loc, "%s over %lld iterations is too large to unroll (limit 4096)",
               what, (long long)(hi - lo));
      return;
    }
  }
  if (pipelined) {
    const TlNode *ns = tl_sema_kwarg(call, "num_stages");
    int64_t v = 0;
    if (ns && !tl_sema_const_int(s, ns, "num_stages=", &v)) return;
    if (ns && (v < 0 || v > 16)) {
      tl_error(s->diag, ns->loc, "num_stages= must be in 0..16, got %lld", (long long)v);
      return;
    }
    st->num_stages = ns ? (int)v : 0; // as TileLang: no pipelining unless num_stages= asks
    const TlNode *order = tl_sema_kwarg(call, "order"), *stage = tl_sema_kwarg(call, "stage");
    if (order && !int_list(s, order, "order=", &st->order)) return;
    if (stage && !int_list(s, stage, "stage=", &st->stage)) return;
    if (order && stage && st->order.len != st->stage.len) {
      tl_error(s->diag, stage->loc, "order= has %d entries but stage= has %d", st->order.len,
               st->stage.len);
      return;
    }
  }
  tl_scope_push(s);
  st->var = loop_var(s, TL_VEC_AT(n->list2, TlNode, 0), what);
  if (!st->var) {
    tl_scope_pop(s);
    return;
  }
  int64_t lo, hi;
  // The variable's largest value + 1 (T.serial(0, 64, 2) ends at 62: k + 1 stays below 64).
  if (tl_expr_is_const(st->start, &lo) && tl_expr_is_const(st->stop, &hi) && lo >= 0 && step > 0)
    st->var->extent = hi > lo ? lo + (hi - lo - 1) / step * step + 1 : 0;
  breaking_body(s, n, st, out);
  tl_scope_pop(s);
  const TlNode *group = pipelined ? tl_sema_kwarg(call, "group") : NULL;
  if (group && !expand_groups(s, group, st)) return;
  tl_vec_push(s->arena, out, st);
}

// for i, j in T.grid(a, b): TVM's nest of serial loops, the first variable
// outermost, each from 0 to its extent.
static void grid_loop(Sema *s, const TlNode *n, const TlNode *call, TlVec *out) {
  static const char *const no_kws[] = {NULL};
  if (!tl_sema_check_keywords(s, call, "T.grid", no_kws)) return;
  int ne = call->list.len;
  if (!tl_sema_nest_arity(s, n, call->loc, ne, TL_MAX_NEST, "T.grid")) return;
  // Every extent is evaluated before any variable is bound (TVM's order):
  // T.grid(n, i) reads an outer i, not the new loop variable.
  TlExpr *stops[TL_MAX_NEST];
  for (int i = 0; i < ne; i++)
    stops[i] =
        tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, i)), s->index_dtype);
  TlVec *into = out;
  TlStmt *outer = NULL;
  tl_scope_push(s);
  for (int i = 0; i < ne; i++) {
    const TlNode *ext = TL_VEC_AT(call->list, TlNode, i);
    TlStmt *st = tl_stmt_new(s->arena, ST_FOR, n->loc);
    st->loop_kind = LOOP_SERIAL;
    st->start = tl_expr_int(s->arena, ext->loc, 0, s->index_dtype);
    st->stop = stops[i];
    st->step = tl_expr_int(s->arena, ext->loc, 1, s->index_dtype);
    st->var = loop_var(s, TL_VEC_AT(n->list2, TlNode, i), "T.grid");
    if (!st->var) {
      tl_scope_pop(s);
      return;
    }
    int64_t hi;
    if (tl_expr_is_const(st->stop, &hi)) st->var->extent = hi > 0 ? hi : 0;
    if (!outer)
      outer = st;
    else
      tl_vec_push(s->arena, into, st);
    into = &st->body;
  }
  tl_sema_body(s, &n->list, into);
  tl_scope_pop(s);
  tl_vec_push(s->arena, out, outer);
}

static void for_stmt(Sema *s, const TlNode *n, TlVec *out) {
  if (n->params.len > 0) {
    tl_error(s->diag, TL_VEC_AT(n->params, TlNode, 0)->loc,
             "'for ... else' is not supported in a kernel");
    return;
  }
  const TlNode *it = n->a;
  const char *t = it->kind == ND_CALL ? tl_sema_t_attr(s, it->a) : NULL;
  if (it->kind == ND_CALL && !t && it->a->kind == ND_NAME && strcmp(it->a->name, "range") == 0)
    t = "range";
  if (t && strcmp(t, "Serial") == 0) t = "serial"; // TileLang exports both spellings
  if (!t) {
    tl_error(s->diag, it->loc,
             "a kernel loop iterates over T.Parallel, T.Pipelined, T.serial, "
             "T.unroll, T.vectorized, T.grid, T.Persistent or range");
    return;
  }
  if (strcmp(t, "parallel") == 0 && it->list.len != 1) {
    tl_error(s->diag, it->loc,
             "T.parallel takes one extent here (T.parallel(n)); for a start "
             "and a stop, loop over T.Parallel(stop - start) and add start");
    return;
  }
  TlVar *saved_break = s->break_var; // a break belongs to its own loop
  s->break_var = NULL;
  if (strcmp(t, "Parallel") == 0 ||
      strcmp(t, "parallel") == 0) // TIR's parallel loop is T.Parallel's
    parallel(s, n, it, out);
  else if (strcmp(t, "Pipelined") == 0 || strcmp(t, "serial") == 0 || strcmp(t, "range") == 0 ||
           strcmp(t, "unroll") == 0 || strcmp(t, "vectorized") == 0)
    counted_loop(s, n, it, t, out);
  else if (strcmp(t, "Persistent") == 0)
    tl_sema_persistent_loop(s, n, it, out);
  else if (strcmp(t, "grid") == 0)
    grid_loop(s, n, it, out);
  else
    tl_error(s->diag, it->loc,
             "'T.%s' is not a loop; use T.Parallel, T.Pipelined, T.serial, "
             "T.unroll, T.vectorized, T.grid or T.Persistent",
             t);
  s->break_var = saved_break;
}

// Branches of one if/elif chain in a kernel. Each elif is an if nested in the
// else branch of the one before, in sema and in every pass after it, so a
// chain is bounded explicitly, well inside the 1,000 levels of nesting
// (lib/Sema/Eval.c) that the branches' own statements and expressions share.
enum { MAX_ELIF_CHAIN = 512 };

// An elif is an if alone in its predecessor's else branch (as the parser
// builds it).
static const TlNode *next_elif(const TlNode *n) {
  if (n->list2.len != 1) return NULL;
  const TlNode *e = TL_VEC_AT(n->list2, TlNode, 0);
  return e->kind == ND_IF ? e : NULL;
}

// Reports the first branch past MAX_ELIF_CHAIN of the chain that starts at n.
// Every if of a chain runs this walk, so it stops at the limit: at most
// MAX_ELIF_CHAIN^2 / 2 steps for a chain of any length.
static bool elif_chain_fits(Sema *s, const TlNode *n) {
  int branches = 1;
  for (const TlNode *e = next_elif(n); e; e = next_elif(e)) {
    if (++branches > MAX_ELIF_CHAIN) {
      tl_error(s->diag, e->loc, "this is branch %d of one if/elif chain; at most %d are supported",
               branches, MAX_ELIF_CHAIN);
      tl_note(s->diag, n->loc,
              "the chain starts here; split it into several if statements, or "
              "compute the value with arithmetic or a lookup tensor");
      return false;
    }
  }
  return true;
}

static void if_stmt(Sema *s, const TlNode *n, TlVec *out) {
  if (!elif_chain_fits(s, n)) return;
  // A branch decided at compile time is inlined in the enclosing scope, as
  // Python runs it: names it assigns stay visible after the if (`if
  // is_causal: end = ... else: end = ...`, then `loop_range = end - start`).
  if (tl_sema_is_constant_expr(s, n->a)) { // `if MODE == "relu":` on module constants
    TlValue *v = tl_sema_eval_const(s, n->a);
    if (v->kind != VAL_ERROR) tl_sema_body(s, tl_value_truthy(v) ? &n->list : &n->list2, out);
    return;
  }
  if (tl_sema_thread_branches(s, n, out)) return;
  TlExpr *c = tl_sema_expr(s, n->a);
  if (c->kind == EX_INT) { // compile-time branch, as Python would run it
    tl_sema_body(s, c->ival ? &n->list : &n->list2, out);
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_IF, n->loc);
  st->cond = tl_sema_convert(s, c, TY_BOOL);
  body_in_scope(s, &n->list, &st->body);
  body_in_scope(s, &n->list2, &st->else_body);
  tl_vec_push(s->arena, out, st);
}

// TVM script's `with T.If(cond), T.Then(): body` (v0.1.5's grouped GEMM):
// `if cond: body`. The nested with of the two items holds the body.
static void tvm_if(Sema *s, const TlNode *n, TlVec *out) {
  const TlNode *then = n->list.len == 1 ? TL_VEC_AT(n->list, TlNode, 0) : NULL;
  const char *t = then && then->kind == ND_WITH && then->a->kind == ND_CALL
                      ? tl_sema_t_attr(s, then->a->a)
                      : NULL;
  if (n->a->list.len != 1 || n->a->list2.len) {
    tl_error(s->diag, n->a->loc, "'T.If' takes one condition");
    return;
  }
  if (!t || strcmp(t, "Then") != 0 || then->a->list.len || then->a->list2.len) {
    tl_error(s->diag, n->loc, "'with T.If(cond)' needs 'T.Then()' as its only statement");
    tl_note(s->diag, n->loc, "write it as 'with T.If(cond), T.Then():', or as 'if cond:'");
    return;
  }
  TlNode *as_if = TL_NEW(s->arena, TlNode);
  as_if->kind = ND_IF;
  as_if->loc = n->loc;
  as_if->a = TL_VEC_AT(n->a->list, TlNode, 0);
  as_if->list = then->list;
  if_stmt(s, as_if, out);
}

// while cond: body. Every thread of the block runs the loop (like T.serial),
// so its condition must come out the same in every thread: barriers inside
// the body (after T.Parallel nests and tile ops) are reached by all.
static void while_stmt(Sema *s, const TlNode *n, TlVec *out) {
  if (n->list2.len > 0) {
    tl_error(s->diag, TL_VEC_AT(n->list2, TlNode, 0)->loc,
             "'while ... else' is not supported in a kernel (kernel loops have no break)");
    return;
  }
  if (s->in_parallel) {
    tl_error(s->diag, n->loc,
             "'while' inside T.Parallel; loop with T.serial there, or put the "
             "T.Parallel inside the while");
    return;
  }
  TlExpr *c = tl_sema_expr(s, n->a);
  if (c->kind == EX_INT && !c->ival) return; // `while False:` never runs
  if (c->kind == EX_INT) {
    tl_error(s->diag, n->a->loc,
             "this while loop never ends: its condition is always true and "
             "kernels have no break");
    return;
  }
  TlStmt *st = tl_stmt_new(s->arena, ST_WHILE, n->loc);
  st->cond = tl_sema_convert(s, c, TY_BOOL);
  TlVar *saved_break = s->break_var; // a break in a while loop is not supported
  s->break_var = NULL;
  body_in_scope(s, &n->list, &st->body);
  s->break_var = saved_break;
  tl_vec_push(s->arena, out, st);
}

// A call into TileLang's intra-kernel event tracer (tilelang.tools.cuda.iket:
// iket.mark(...), `with iket.range(...):`). tlc records no trace; the
// kernel computes the same without one, so the calls are dropped (with one
// warning per compilation).
static bool iket_call(Sema *s, const TlNode *e) {
  if (e->kind != ND_CALL || e->a->kind != ND_ATTR || !tl_sema_names_module(s, e->a->a, "iket"))
    return false;
  if (!s->iket_warned) {
    tl_warning(s->diag, e->loc,
               "iket tracing is not recorded by tlc; its calls in this kernel "
               "are dropped");
    s->iket_warned = true;
  }
  return true;
}

static void expr_stmt(Sema *s, const TlNode *n, TlVec *out) {
  const TlNode *e = n->a;
  if (e->kind == ND_STR) return; // a docstring or comment string
  if (is_break(n)) {
    if (!s->break_var) {
      tl_error(s->diag, n->loc,
               "'break' outside a T.serial, range or T.unroll loop; kernels break out of "
               "those only");
      return;
    }
    TlStmt *st = tl_stmt_new(s->arena, ST_SET, n->loc);
    st->var = s->break_var;
    st->value = tl_expr_int(s->arena, n->loc, 1, TY_INT32);
    tl_vec_push(s->arena, out, st);
    return;
  }
  if (iket_call(s, e)) return;
  if (e->kind == ND_CALL && e->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, e->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MACRO) {
      tl_sema_inline_macro(s, y->value, e, out);
      return;
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, e->a->loc, y->value);
      return;
    }
  }
  TlValue *mv = e->kind == ND_CALL ? tl_sema_module_attr(s, e->a) : NULL;
  if (mv && mv->kind == VAL_MACRO) { // X.macro(...) of a module next to the file
    tl_sema_inline_macro(s, mv, e, out);
    return;
  }
  if (tl_sema_mma_emitter_call(s, e, out)) return;
  const char *t = e->kind == ND_CALL ? tl_sema_t_attr(s, e->a) : NULL;
  if (t && tl_sema_is_tile_op(t)) {
    tl_sema_tile_op(s, e, t, out);
    return;
  }
  if (t && tl_sema_scalar_stmt(s, e, t, out)) return;
  if (t && tl_sema_barrier_stmt(s, e, t, out)) return;
  if (t && strcmp(t, "use_swizzle") == 0) {
    const TlNode *p = e->list.len ? TL_VEC_AT(e->list, TlNode, 0) : tl_sema_kwarg(e, "panel_size");
    int64_t v = 10;
    if (p && !tl_sema_const_int(s, p, "panel_size=", &v)) return;
    if (v < 1) {
      tl_error(s->diag, p->loc, "panel_size= must be positive");
      return;
    }
    const TlNode *en = tl_sema_kwarg(e, "enable");
    if (en) {
      TlValue *ev = tl_sema_eval_const(s, en);
      if (ev->kind != VAL_BOOL && ev->kind != VAL_INT) {
        if (ev->kind != VAL_ERROR) tl_error(s->diag, en->loc, "enable= must be True or False");
        return;
      }
      if (!ev->i) return;
    }
    s->kernel->swizzle_panel = v;
    return;
  }
  static const char *const values[] = {
      "exp", "exp2", "log",     "log2", "sqrt",         "rsqrt",    "tanh",      "sigmoid",   "abs",
      "min", "max",  "ceildiv", "cast", "if_then_else", "infinity", "max_value", "min_value", NULL};
  bool is_value = false;
  for (int i = 0; t && values[i]; i++)
    is_value = is_value || strcmp(t, values[i]) == 0;
  if (t && e->kind == ND_CALL && !is_value)
    tl_error(s->diag, e->loc,
             "'T.%s' is not supported by tlc (yet); see docs/language.md for the "
             "statements it compiles",
             t);
  else
    tl_error(s->diag, e->loc,
             "this expression has no effect; a kernel statement is a store, a "
             "loop, a branch or a tile operation");
}

static void stmt_node(Sema *s, const TlNode *n, TlVec *out);

// Each statement is a level of the sema walk: an elif chain nests one if
// per branch, so a long chain is bounded like a deep expression.
static void stmt(Sema *s, const TlNode *n, TlVec *out) {
  if (!tl_sema_enter(s, n->loc)) return;
  stmt_node(s, n, out);
  tl_sema_leave(s);
}

static void stmt_node(Sema *s, const TlNode *n, TlVec *out) {
  switch (n->kind) {
  case ND_ASSIGN:
    assign(s, n, out);
    return;
  case ND_AUGASSIGN:
    if (n->op != TK_PLUS && n->op != TK_MINUS && n->op != TK_STAR && n->op != TK_SLASH &&
        n->op != TK_SLASHSLASH && n->op != TK_PERCENT && n->op != TK_AMP && n->op != TK_PIPE &&
        n->op != TK_CARET && n->op != TK_LSHIFT && n->op != TK_RSHIFT) {
      tl_error(s->diag, n->loc, "'%s=' is not supported in a kernel; use x = x %s y",
               tl_token_kind_name(n->op), tl_token_kind_name(n->op));
      return;
    }
    if (n->a->kind == ND_SUBSCRIPT)
      store(s, n->a, n->op, n->b, n->loc, out);
    else if (n->a->kind == ND_NAME)
      scalar_assign(s, n->a, n->op, n->b, n->loc, out);
    else
      tl_error(s->diag, n->a->loc, "cannot assign to this expression");
    return;
  case ND_FOR:
    for_stmt(s, n, out);
    return;
  case ND_IF:
    if_stmt(s, n, out);
    return;
  case ND_EXPR_STMT:
    expr_stmt(s, n, out);
    return;
  case ND_PASS:
    return;
  case ND_WITH:
    if (s->launch_pending) { // a macro's T.Kernel block, called from the prim_func body
      tl_sema_macro_launch(s, n);
      return;
    }
    if (n->a->kind == ND_CALL) {
      const char *t = tl_sema_t_attr(s, n->a->a);
      if (t && strcmp(t, "ws") == 0) {
        tl_sema_ws_scope(s, n, out);
        return;
      }
      if (t && strcmp(t, "If") == 0) {
        tvm_if(s, n, out);
        return;
      }
    }
    if (tl_sema_thread_allreduce(s, n, out)) return;
    if (iket_call(s, n->a) && !n->b) { // with iket.range("name"): the body, untraced
      tl_sema_body(s, &n->list, out);
      return;
    }
    tl_error(s->diag, n->loc, "'with' inside a kernel; T.Kernel cannot nest");
    return;
  case ND_WHILE:
    while_stmt(s, n, out);
    return;
  case ND_RETURN:
    tl_error(s->diag, n->loc, "'return' inside a kernel");
    return;
  case ND_DEF:
    tl_error(s->diag, n->loc,
             "functions cannot be defined inside a kernel; define helpers at "
             "module level");
    return;
  case ND_IMPORT:
    tl_error(s->diag, n->loc, "imports belong at module level");
    return;
  default:
    tl_error(s->diag, n->loc, "unexpected statement in a kernel");
    return;
  }
}

void tl_sema_body(Sema *s, const TlVec *stmts, TlVec *out) {
  for (int i = 0; i < stmts->len && !tl_diag_too_many(s->diag); i++) {
    const TlNode *n = TL_VEC_AT(*stmts, TlNode, i);
    stmt(s, n, out);
    if (s->break_var && i + 1 < stmts->len && breaks(n, 0)) {
      // what follows a statement that may break runs only if it did not
      TlVec rest = {stmts->items + i + 1, stmts->len - i - 1, stmts->len - i - 1};
      TlStmt *g = unless_broken(s, TL_VEC_AT(rest, TlNode, 0)->loc);
      tl_sema_body(s, &rest, &g->body);
      tl_vec_push(s->arena, out, g);
      return;
    }
  }
}
