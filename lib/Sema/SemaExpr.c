// Kernel expressions: AST -> typed IR expressions.
//
// Typing: integer literals and module integer constants are "untyped" index
// integers that adapt to the other operand (like TVM's IntImm); float
// literals adapt the same way, defaulting to float32. Typed operands combine
// float-over-int, wider-over-narrower; float16 with bfloat16 is an error
// (cast one side). Comparisons and and/or/not give bool. Constant subtrees
// fold with exact 64-bit arithmetic; overflow and division by zero are errors.
#include <math.h>
#include <string.h>

#include "SemaInternal.h"

// After an error the expression is replaced by the constant 1 (not 0, which
// would cascade into division-by-zero errors).
static TlExpr *error_expr(Sema *s, TlLoc loc) {
  TlExpr *e = tl_expr_int(s->arena, loc, 1, s->index_dtype);
  e->untyped = true;
  return e;
}

static bool is_int(TlDtype t) {
  return !tl_dtype_is_float(t) && t != TY_BOOL;
}

TlExpr *tl_sema_convert(Sema *s, TlExpr *e, TlDtype t) {
  if (e->dtype == t) {
    e->untyped = false;
    return e;
  }
  if (e->kind == EX_INT && e->untyped) {
    if (tl_dtype_is_float(t)) return tl_expr_float(s->arena, e->loc, (double)e->ival, t);
    TlExpr *c = tl_expr_int(s->arena, e->loc, e->ival, t);
    return c;
  }
  if (e->kind == EX_FLOAT && e->untyped && tl_dtype_is_float(t))
    return tl_expr_float(s->arena, e->loc, e->fval, t);
  return tl_expr_cast(s->arena, e->loc, e, t);
}

// Whether v is a value of the integer type t.
static bool fits(int64_t v, TlDtype t) {
  int bits = tl_dtype_bits(t);
  if (bits >= 64) return tl_dtype_is_signed(t) || v >= 0;
  if (!tl_dtype_is_signed(t)) return v >= 0 && v < (INT64_C(1) << bits);
  return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
}

// The dtype two operands meet at; false (after reporting) when they cannot.
static bool unify(Sema *s, TlLoc loc, const char *op, TlExpr *l, TlExpr *r, TlDtype *out) {
  if (l->untyped && r->untyped) {
    *out =
        (tl_dtype_is_float(l->dtype) || tl_dtype_is_float(r->dtype)) ? TY_FLOAT32 : s->index_dtype;
    return true;
  }
  if (l->untyped || r->untyped) {
    TlExpr *typed = l->untyped ? r : l, *lit = l->untyped ? l : r;
    if (lit->kind == EX_INT && is_int(typed->dtype) && !fits(lit->ival, typed->dtype)) {
      // TVM refuses such a literal too; C would widen the operation silently
      tl_error(s->diag, lit->loc,
               "the literal %lld does not fit in %s, the type of the other "
               "operand of '%s'",
               (long long)lit->ival, tl_dtype_name(typed->dtype), op);
      tl_note(s->diag, lit->loc,
              "cast the other operand to a wider type first, e.g. "
              "T.cast(x, \"int64\")");
      return false;
    }
    // An untyped float meeting a typed integer makes the result float32.
    *out = (tl_dtype_is_float(lit->dtype) && !tl_dtype_is_float(typed->dtype)) ? TY_FLOAT32
                                                                               : typed->dtype;
    if (typed->dtype == TY_BOOL) *out = lit->dtype;
    return true;
  }
  TlDtype a = l->dtype, b = r->dtype;
  if (a == b) {
    *out = a;
    return true;
  }
  bool fa = tl_dtype_is_float(a), fb = tl_dtype_is_float(b);
  if (fa != fb) {
    *out = fa ? a : b;
    return true;
  }
  if (fa && tl_dtype_bits(a) == tl_dtype_bits(b)) {
    tl_error(s->diag, loc, "dtype mismatch: %s %s %s", tl_dtype_name(a), op, tl_dtype_name(b));
    tl_note(s->diag, loc, "convert one side explicitly, e.g. T.cast(x, \"float32\")");
    return false;
  }
  *out = tl_dtype_bits(a) >= tl_dtype_bits(b) ? a : b;
  if (a == TY_BOOL) *out = b;
  if (b == TY_BOOL) *out = a;
  return true;
}

// Folds integer constant operations; reports overflow at loc.
static TlExpr *fold_int(Sema *s, TlLoc loc, TlOp op, TlExpr *l, TlExpr *r, TlDtype t) {
  int64_t a = l->ival, b = r->ival, v = 0;
  bool overflow = false;
  switch (op) {
  case OP_ADD:
    overflow = tl_add_overflows(a, b, &v);
    break;
  case OP_SUB:
    overflow = tl_sub_overflows(a, b, &v);
    break;
  case OP_MUL:
    overflow = tl_mul_overflows(a, b, &v);
    break;
  case OP_FLOORDIV:
  case OP_FLOORMOD:
    if (b == 0) {
      tl_error(s->diag, loc, "division by zero");
      return error_expr(s, loc);
    }
    if (a == INT64_MIN && b == -1)
      overflow = true;
    else
      v = op == OP_FLOORDIV ? tl_floordiv(a, b) : tl_floormod(a, b);
    break;
  case OP_MIN:
    v = a < b ? a : b;
    break;
  case OP_MAX:
    v = a > b ? a : b;
    break;
  default:
    return NULL;
  }
  if (overflow) {
    tl_error(s->diag, loc, "integer overflow: %lld %s %lld does not fit in 64 bits", (long long)a,
             tl_op_name(op), (long long)b);
    return error_expr(s, loc);
  }
  TlExpr *e = tl_expr_int(s->arena, loc, v, t);
  e->untyped = l->untyped && r->untyped;
  return e;
}

TlExpr *tl_sema_fold(Sema *s, TlExpr *e) {
  if (e->kind == EX_BINARY && e->args[0]->kind == EX_INT && e->args[1]->kind == EX_INT &&
      is_int(e->dtype) && e->dtype != TY_UINT64) {
    TlExpr *f = fold_int(s, e->loc, e->op, e->args[0], e->args[1], e->dtype);
    if (f) return f;
  }
  return e;
}

static TlExpr *make_binary(Sema *s, TlLoc loc, TlOp op, TlExpr *l, TlExpr *r) {
  const char *name = tl_op_name(op);
  if (op == OP_AND || op == OP_OR) {
    TlExpr *e = tl_expr_binary(s->arena, loc, op, tl_sema_convert(s, l, TY_BOOL),
                               tl_sema_convert(s, r, TY_BOOL), TY_BOOL);
    return e;
  }
  TlDtype t;
  if (!unify(s, loc, name, l, r, &t)) return error_expr(s, loc);
  bool bitwise = tl_bitwise_op(op);
  if (bitwise && (tl_dtype_is_float(t) || (t == TY_BOOL && (op == OP_SHL || op == OP_SHR)))) {
    tl_error(s->diag, loc, "operator '%s' needs integer operands, not %s", name, tl_dtype_name(t));
    tl_note(s->diag, loc, "convert the operand first, e.g. T.cast(x, \"int32\")");
    return error_expr(s, loc);
  }
  bool untyped = l->untyped && r->untyped;
  if (op == OP_DIV && is_int(t)) // Python: / on integers is true division
    t = TY_FLOAT32, untyped = false;
  if (op == OP_FLOORMOD && tl_dtype_is_float(t)) op = OP_FMOD;
  TlExpr *a = tl_sema_convert(s, l, t), *b = tl_sema_convert(s, r, t);
  bool divides = op == OP_DIV || op == OP_FLOORDIV || op == OP_FLOORMOD || op == OP_FMOD;
  if (divides && ((b->kind == EX_FLOAT && b->fval == 0) || (b->kind == EX_INT && b->ival == 0))) {
    tl_error(s->diag, loc, "division by zero");
    return error_expr(s, loc);
  }
  bool cmp = op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
  TlExpr *e = tl_expr_binary(s->arena, loc, op, a, b, cmp ? TY_BOOL : t);
  if (a->kind == EX_INT && b->kind == EX_INT && !cmp && t != TY_UINT64) {
    a->untyped = l->untyped;
    b->untyped = r->untyped;
    TlExpr *f = fold_int(s, loc, op, a, b, t);
    if (f) {
      f->untyped = untyped;
      return f;
    }
  }
  if (a->kind == EX_FLOAT && b->kind == EX_FLOAT && !cmp && untyped) {
    double x = a->fval, y = b->fval, v;
    switch (op) {
    case OP_ADD:
      v = x + y;
      break;
    case OP_SUB:
      v = x - y;
      break;
    case OP_MUL:
      v = x * y;
      break;
    case OP_DIV:
      v = x / y;
      break;
    case OP_FLOORDIV:
      v = floor(x / y);
      break;
    case OP_FMOD:
      v = x - floor(x / y) * y;
      break;
    default:
      return e;
    }
    TlExpr *f = tl_expr_float(s->arena, loc, v, t);
    f->untyped = true;
    return f;
  }
  e->untyped = untyped && !cmp;
  return e;
}

static TlOp binop_of(TlTokenKind k) {
  switch (k) {
  case TK_PLUS:
    return OP_ADD;
  case TK_MINUS:
    return OP_SUB;
  case TK_STAR:
    return OP_MUL;
  case TK_SLASH:
    return OP_DIV;
  case TK_SLASHSLASH:
    return OP_FLOORDIV;
  case TK_PERCENT:
    return OP_FLOORMOD;
  case TK_STARSTAR:
    return OP_POW;
  case TK_EQEQ:
    return OP_EQ;
  case TK_NE:
    return OP_NE;
  case TK_LT:
    return OP_LT;
  case TK_LE:
    return OP_LE;
  case TK_GT:
    return OP_GT;
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
    return OP_GE;
  }
}

bool tl_sema_const_int(Sema *s, const TlNode *n, const char *what, int64_t *out) {
  int before = s->diag->nerrors;
  TlExpr *e = tl_sema_expr(s, n);
  if (s->diag->nerrors != before) return false;
  if (e->kind != EX_INT || !is_int(e->dtype)) {
    if (e->kind == EX_INT && e->dtype == TY_BOOL) {
      *out = e->ival;
      return true;
    }
    tl_error(s->diag, n->loc, "%s must be a compile-time integer constant", what);
    return false;
  }
  *out = e->ival;
  return true;
}

// A fragment indexed along dimension d by a T.Parallel variable that runs past
// the declared extent (TileLang's attention-sink files: `sinks =
// T.alloc_fragment([heads])` indexed by i of T.Parallel(block_M)). TileLang
// infers the fragment's layout from the loop, so every i gets its own
// register and the file works there; tlc does the same by widening the
// dimension to the loop's extent, with a warning.
static void widen_fragment_to_loop(Sema *s, TlBuffer *b, int d, const TlExpr *e, TlLoc loc) {
  if (b->scope != SCOPE_FRAGMENT || !s->parallel || e->kind != EX_VAR || b->dyn[d] ||
      b->stages != 1)
    return;
  const TlStmt *par = s->parallel;
  for (int v = 0; v < par->nvars; v++) {
    if (par->vars[v] != e->var || par->extents[v] <= b->shape[d]) continue;
    tl_warning(s->diag, loc,
               "'%s' has %lld element%s along dimension %d but '%s' runs to %lld here; tlc widens "
               "it to %lld, as TileLang's layout inference does",
               b->name, (long long)b->shape[d], b->shape[d] == 1 ? "" : "s", d, e->var->name,
               (long long)(par->extents[v] - 1), (long long)par->extents[v]);
    tl_note(s->diag, b->loc, "'%s' declared here; give it %lld elements to silence this", b->name,
            (long long)par->extents[v]);
    b->shape[d] = par->extents[v];
    return;
  }
}

static TlExpr *lower_subscript(Sema *s, const TlNode *n) {
  TlSym *y = n->a->kind == ND_NAME ? tl_scope_lookup(s, n->a->name) : NULL;
  if (!y || y->kind != SYM_BUFFER) {
    if (n->a->kind == ND_NAME && !y) {
      tl_sema_unknown_name(s, n->a->loc, n->a->name);
      return error_expr(s, n->loc);
    }
    tl_error(s->diag, n->a->loc, "only buffers can be indexed");
    return error_expr(s, n->loc);
  }
  TlBuffer *b = y->buf;
  const TlNode *kept[TL_MAX_DIMS];
  int nkept = tl_sema_kept_indices(s, b, &n->list, kept);
  if (nkept < 0) return error_expr(s, n->loc);
  if (nkept != b->ndims) {
    int written = b->source_ndims ? b->source_ndims : b->ndims;
    tl_error(s->diag, n->loc, "buffer '%s' has %d dimension%s, %d ind%s given", b->name, written,
             written == 1 ? "" : "s", n->list.len, n->list.len == 1 ? "ex" : "ices");
    tl_note(s->diag, b->loc, "'%s' declared here", b->name);
    return error_expr(s, n->loc);
  }
  TlExpr *idx[TL_MAX_DIMS];
  for (int i = 0; i < nkept; i++) {
    const TlNode *in = kept[i];
    if (in->kind == ND_SLICE) {
      tl_error(s->diag, in->loc, "a slice of '%s' is only allowed as a T.copy operand", b->name);
      return error_expr(s, n->loc);
    }
    TlExpr *e = tl_sema_expr(s, in);
    if (!is_int(e->dtype)) {
      tl_error(s->diag, in->loc, "index of '%s' must be an integer, not %s", b->name,
               tl_dtype_name(e->dtype));
      return error_expr(s, n->loc);
    }
    widen_fragment_to_loop(s, b, i, e, in->loc);
    if (e->kind == EX_INT && (e->ival < 0 || (!b->dyn[i] && e->ival >= b->shape[i]))) {
      tl_error(s->diag, in->loc, "index %lld is out of bounds for dimension %d of '%s' (size %lld)",
               (long long)e->ival, i, b->name, (long long)b->shape[i]);
      tl_note(s->diag, b->loc, "'%s' declared here", b->name);
    }
    idx[i] = tl_sema_convert(s, e, s->index_dtype);
  }
  if (b->reshape_of) return tl_sema_reshape_access(s, b, idx, n->loc);
  b->read = true;
  return tl_expr_load(s->arena, n->loc, b, idx, nkept);
}

static bool dtype_arg(Sema *s, const TlNode *n, TlDtype *out) {
  TlValue *v = tl_sema_eval_const(s, n);
  return v->kind != VAL_ERROR && tl_value_as_dtype(s, v, out);
}

static TlExpr *extreme_value(Sema *s, TlLoc loc, TlDtype t, int which) {
  // which: 0 infinity, 1 max_value, 2 min_value
  if (tl_dtype_is_float(t)) {
    double v;
    if (which == 0)
      v = INFINITY;
    else {
      double m = t == TY_FLOAT8_E4M3   ? 448.0
                 : t == TY_FLOAT8_E5M2 ? 57344.0
                 : t == TY_FLOAT16     ? 65504.0
                 : t == TY_BFLOAT16    ? 3.3895313892515355e38
                 : t == TY_FLOAT32     ? 3.4028234663852886e38
                                       : 1.7976931348623157e308;
      v = which == 1 ? m : -m;
    }
    return tl_expr_float(s->arena, loc, v, t);
  }
  if (which == 0) {
    tl_error(s->diag, loc, "T.infinity needs a float dtype, not %s", tl_dtype_name(t));
    return error_expr(s, loc);
  }
  int bits = tl_dtype_bits(t);
  int64_t v;
  if (t == TY_BOOL)
    v = which == 1;
  else if (tl_dtype_is_signed(t))
    v = which == 1 ? (int64_t)((~0ULL) >> (65 - bits)) : -(int64_t)((~0ULL) >> (65 - bits)) - 1;
  else
    v = which == 1 ? (bits == 64 ? -1 /* all ones */ : (int64_t)((1ULL << bits) - 1)) : 0;
  return tl_expr_int(s->arena, loc, v, t);
}

static bool check_arity(Sema *s, const TlNode *n, const char *name, int lo, int hi) {
  int got = n->list.len;
  if (got >= lo && got <= hi && n->list2.len == 0) return true;
  if (n->list2.len) {
    TlNode *kw = TL_VEC_AT(n->list2, TlNode, 0);
    tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to '%s'", kw->name, name);
  } else if (lo == hi)
    tl_error(s->diag, n->loc, "'%s' takes %d argument%s, %d given", name, lo, lo == 1 ? "" : "s",
             got);
  else
    tl_error(s->diag, n->loc, "'%s' takes %d to %d arguments, %d given", name, lo, hi, got);
  return false;
}

// A helper's argument: a compile-time value when the caller's expression
// is one (num_bits, dtype=in_dtype: the helper's asserts and tir.const read
// them as Python would), else the kernel expression.
static bool helper_arg(Sema *s, const TlNode *a, TlHelperArg *out) {
  out->value = NULL;
  out->expr = NULL;
  if (tl_sema_is_constant_expr(s, a)) {
    TlValue *v = tl_sema_eval_const(s, a);
    if (v->kind == VAL_ERROR) return false;
    out->value = v;
    return true;
  }
  int errors = s->diag->nerrors;
  out->expr = tl_sema_expr(s, a);
  return s->diag->nerrors == errors;
}

// helper(a, b, name=c): positional arguments, keywords and the defaults of
// the def, each bound to its parameter.
static bool inline_helper_call(Sema *s, const TlValue *fn, const TlNode *call, TlExpr **out,
                               int *nout) {
  const TlNode *def = fn->fn;
  int np = def->params.len;
  if (!tl_sema_plain_params(s, def, "helper inlined in a kernel")) return false;
  if (call->list.len > np) {
    tl_error(s->diag, call->loc, "'%s' takes %d argument%s, %d given", fn->s, np,
             np == 1 ? "" : "s", call->list.len);
    tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
    return false;
  }
  TlHelperArg *args = TL_NEW_ARRAY(s->arena, TlHelperArg, np + 1);
  bool *bound = TL_NEW_ARRAY(s->arena, bool, np + 1);
  for (int i = 0; i < call->list.len; i++) {
    if (TL_VEC_AT(call->list, TlNode, i)->kind == ND_STARRED) {
      tl_error(s->diag, call->loc, "'*' arguments to a helper inlined in a kernel");
      return false;
    }
    if (!helper_arg(s, TL_VEC_AT(call->list, TlNode, i), &args[i])) return false;
    bound[i] = true;
  }
  for (int k = 0; k < call->list2.len; k++) {
    const TlNode *kw = TL_VEC_AT(call->list2, TlNode, k);
    int at = -1;
    for (int i = 0; i < np && kw->op != TK_STARSTAR; i++)
      if (strcmp(TL_VEC_AT(def->params, TlNode, i)->name, kw->name) == 0) at = i;
    if (at < 0) {
      tl_error(s->diag, kw->loc, "'%s' has no parameter '%s'", fn->s,
               kw->op == TK_STARSTAR ? "**" : kw->name);
      tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
      return false;
    }
    if (bound[at]) {
      tl_error(s->diag, kw->loc, "'%s' got two values for parameter '%s'", fn->s, kw->name);
      return false;
    }
    if (!helper_arg(s, kw->a, &args[at])) return false;
    bound[at] = true;
  }
  for (int i = 0; i < np; i++) {
    if (bound[i]) continue;
    TlValue *d = i < fn->defaults.len ? TL_VEC_AT(fn->defaults, TlValue, i) : NULL;
    if (!d && call->list2.len == 0) {
      tl_error(s->diag, call->loc, "'%s' takes %d argument%s, %d given", fn->s, np,
               np == 1 ? "" : "s", call->list.len);
      tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
      return false;
    }
    if (!d) {
      tl_error(s->diag, call->loc, "'%s' needs a value for parameter '%s'", fn->s,
               TL_VEC_AT(def->params, TlNode, i)->name);
      tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
      return false;
    }
    args[i].value = d;
  }
  return tl_sema_bind_helper(s, fn, call->loc, np, args, out, 1, nout);
}

// f of `tvm.tir.f(...)` / `tirx.f(...)` (helpers written against TVM's TIR,
// `from tvm import tirx`), or NULL.
static const char *tir_attr(Sema *s, const TlNode *n) {
  if (n->kind != ND_ATTR) return NULL;
  return tl_sema_names_module(s, n->a, "tir") || tl_sema_names_module(s, n->a, "tirx") ? n->name
                                                                                       : NULL;
}

// tir.const(value, dtype): the value as a constant of that dtype.
static TlExpr *tir_const(Sema *s, const TlNode *n) {
  const TlNode *dn = n->list.len > 1 ? TL_VEC_AT(n->list, TlNode, 1) : tl_sema_kwarg(n, "dtype");
  if (n->list.len < 1 || n->list.len > 2) {
    tl_error(s->diag, n->loc, "'tir.const' takes a value and a dtype");
    return error_expr(s, n->loc);
  }
  TlExpr *v = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0));
  TlDtype dt = tl_dtype_is_float(v->dtype) ? TY_FLOAT32 : TY_INT32; // TVM's defaults
  if (dn && !dtype_arg(s, dn, &dt)) return error_expr(s, n->loc);
  return tl_sema_convert(s, v, dt);
}

// Warp shuffles: T.shfl_sync(value, src_lane, width=32, mask=0xffffffff),
// T.shfl_down / T.shfl_up / T.shfl_xor(value, delta, width, mask), and TVM's
// T.tvm_warp_shuffle(mask, value, lane, width, warp_size). Every lane of the
// mask must reach the call (CUDA's rule for __shfl_sync); NULL: not a shuffle.
static TlExpr *warp_shuffle(Sema *s, const TlNode *n, const char *name) {
  static const struct {
    const char *name;
    TlIntrinsic fn;
  } forms[] = {{"shfl_sync", FN_SHFL},
               {"shfl_down", FN_SHFL_DOWN},
               {"shfl_up", FN_SHFL_UP},
               {"shfl_xor", FN_SHFL_XOR_MASKED},
               {"tvm_warp_shuffle", FN_SHFL}};
  int form = -1;
  for (int i = 0; i < (int)(sizeof forms / sizeof forms[0]); i++)
    if (strcmp(name, forms[i].name) == 0) form = i;
  if (form < 0) return NULL;
  char full[40];
  snprintf(full, sizeof full, "T.%s", name);
  if (s->in_parallel) {
    // Which thread holds which element of a T.Parallel nest is the
    // partition's choice, so a lane number there names nothing the user wrote.
    tl_error(s->diag, n->loc, "%s inside T.Parallel; a shuffle exchanges values between the "
                              "threads of per-thread code", full);
    tl_note(s->diag, n->loc, "write the exchange with tx = T.get_thread_binding() outside "
                             "T.Parallel, or reduce with T.reduce_*");
    return error_expr(s, n->loc);
  }
  bool tvm = strcmp(name, "tvm_warp_shuffle") == 0;
  // operands in IR order: mask, value, lane / delta, width
  const TlNode *ops[4] = {NULL, NULL, NULL, NULL};
  if (tvm) {
    if (n->list2.len || !check_arity(s, n, full, 5, 5)) return error_expr(s, n->loc);
    for (int i = 0; i < 4; i++)
      ops[i] = TL_VEC_AT(n->list, TlNode, i);
  } else {
    static const char *const kws[] = {"value", "srcLane", "delta", "width", "mask", NULL};
    if (!tl_sema_check_keywords(s, n, name, kws)) return error_expr(s, n->loc);
    if (n->list.len > 4) {
      tl_error(s->diag, n->loc, "'%s' takes a value, a lane (or delta), a width and a mask", full);
      return error_expr(s, n->loc);
    }
    const TlNode *pos[4] = {NULL, NULL, NULL, NULL}; // value, lane, width, mask
    for (int i = 0; i < n->list.len; i++)
      pos[i] = TL_VEC_AT(n->list, TlNode, i);
    static const char *const by_name[4][2] = {
        {"value", "value"}, {"srcLane", "delta"}, {"width", "width"}, {"mask", "mask"}};
    for (int i = 0; i < 4; i++)
      if (!pos[i]) pos[i] = tl_sema_kwarg(n, by_name[i][form == 0 ? 0 : 1]);
    if (!pos[0] || !pos[1]) {
      tl_error(s->diag, n->loc, "'%s' needs a value and a %s", full,
               form == 0 ? "source lane" : "delta");
      return error_expr(s, n->loc);
    }
    ops[0] = pos[3];
    ops[1] = pos[0];
    ops[2] = pos[1];
    ops[3] = pos[2];
  }
  TlExpr *e = tl_expr_new(s->arena, EX_CALL, n->loc, TY_INT32, 4);
  e->fn = forms[form].fn;
  e->args[0] = ops[0] ? tl_sema_convert(s, tl_sema_expr(s, ops[0]), TY_UINT32)
                      : tl_expr_int(s->arena, n->loc, 0xffffffffLL, TY_UINT32);
  TlExpr *value = tl_sema_expr(s, ops[1]);
  if (value->untyped) value = tl_sema_convert(s, value, value->dtype);
  if (tl_dtype_bits(value->dtype) < 16 || value->dtype == TY_BOOL) {
    tl_error(s->diag, ops[1]->loc, "%s exchanges 16-, 32- or 64-bit values, not %s", full,
             tl_dtype_name(value->dtype));
    return error_expr(s, n->loc);
  }
  e->dtype = value->dtype;
  e->args[1] = value;
  e->args[2] = tl_sema_convert(s, tl_sema_expr(s, ops[2]), TY_INT32);
  e->args[3] = ops[3] ? tl_sema_convert(s, tl_sema_expr(s, ops[3]), TY_INT32)
                      : tl_expr_int(s->arena, n->loc, 32, TY_INT32);
  return e;
}

static TlExpr *lower_call(Sema *s, const TlNode *n) {
  const char *t = tl_sema_t_attr(s, n->a);
  if (!t && (t = tir_attr(s, n->a))) {
    if (strcmp(t, "const") == 0) return tir_const(s, n);
    if (strcmp(t, "Select") == 0) t = "if_then_else"; // the same three operands
  }
  const char *name = t ? t : (n->a->kind == ND_NAME ? n->a->name : "");
  TlExpr *args[3];
  static const struct {
    const char *name;
    TlIntrinsic fn;
  } math[] = {{"exp", FN_EXP},   {"exp2", FN_EXP2},       {"log", FN_LOG},
              {"log2", FN_LOG2}, {"sqrt", FN_SQRT},       {"rsqrt", FN_RSQRT},
              {"tanh", FN_TANH}, {"sigmoid", FN_SIGMOID}, {"abs", FN_ABS}};
  char full[80];
  snprintf(full, sizeof full, "%s%s", t ? "T." : "", name);
  if (t || strcmp(name, "abs") == 0) {
    for (size_t i = 0; i < sizeof math / sizeof math[0]; i++)
      if (strcmp(name, math[i].name) == 0) {
        if (!check_arity(s, n, full, 1, 1)) return error_expr(s, n->loc);
        TlExpr *x = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0));
        if (math[i].fn != FN_ABS && !tl_dtype_is_float(x->dtype))
          x = tl_sema_convert(s, x, TY_FLOAT32);
        else if (x->untyped)
          x = tl_sema_convert(s, x, x->dtype);
        TlExpr *e = tl_expr_new(s->arena, EX_CALL, n->loc, x->dtype, 1);
        e->fn = math[i].fn;
        e->args[0] = x;
        return e;
      }
  }
  if (t) {
    TlExpr *shuffle = warp_shuffle(s, n, name);
    if (shuffle) return shuffle;
  }
  if ((t && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)) ||
      (!t && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0))) {
    if (!check_arity(s, n, full, 2, 2)) return error_expr(s, n->loc);
    args[0] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0));
    args[1] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 1));
    return make_binary(s, n->loc, name[1] == 'i' ? OP_MIN : OP_MAX, args[0], args[1]);
  }
  if (t && strcmp(name, "ceildiv") == 0) {
    if (!check_arity(s, n, full, 2, 2)) return error_expr(s, n->loc);
    args[0] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0));
    args[1] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 1));
    if (!is_int(args[0]->dtype) || !is_int(args[1]->dtype)) {
      tl_error(s->diag, n->loc, "T.ceildiv needs integer arguments");
      return error_expr(s, n->loc);
    }
    // ceildiv(a, b) = (a + b - 1) // b
    TlExpr *bm1 =
        make_binary(s, n->loc, OP_SUB, args[1], tl_expr_int(s->arena, n->loc, 1, args[1]->dtype));
    bm1->untyped = args[1]->untyped;
    return make_binary(s, n->loc, OP_FLOORDIV, make_binary(s, n->loc, OP_ADD, args[0], bm1),
                       args[1]);
  }
  // T.floordiv(a, b), T.floormod(a, b): TVM's floor division and modulo, the
  // same operations as Python's a // b and a % b.
  if (t && (strcmp(name, "floordiv") == 0 || strcmp(name, "floormod") == 0)) {
    if (!check_arity(s, n, full, 2, 2)) return error_expr(s, n->loc);
    args[0] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0));
    args[1] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 1));
    if (!is_int(args[0]->dtype) || !is_int(args[1]->dtype)) {
      tl_error(s->diag, n->loc, "%s needs integer arguments", full);
      return error_expr(s, n->loc);
    }
    return make_binary(s, n->loc, name[5] == 'd' ? OP_FLOORDIV : OP_FLOORMOD, args[0], args[1]);
  }
  // x.astype(dtype): TVM's method spelling of T.cast(x, dtype)
  if (!t && n->a->kind == ND_ATTR && strcmp(n->a->name, "astype") == 0) {
    if (!check_arity(s, n, "astype", 1, 1)) return error_expr(s, n->loc);
    TlDtype dt;
    TlExpr *x = tl_sema_expr(s, n->a->a);
    if (!dtype_arg(s, TL_VEC_AT(n->list, TlNode, 0), &dt)) return error_expr(s, n->loc);
    return tl_sema_convert(s, x, dt);
  }
  if (t && strcmp(name, "cast") == 0) {
    if (!check_arity(s, n, full, 2, 2)) return error_expr(s, n->loc);
    TlDtype dt;
    TlExpr *x = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0));
    if (!dtype_arg(s, TL_VEC_AT(n->list, TlNode, 1), &dt)) return error_expr(s, n->loc);
    return tl_sema_convert(s, x, dt);
  }
  if (t && strcmp(name, "if_then_else") == 0) {
    if (!check_arity(s, n, full, 3, 3)) return error_expr(s, n->loc);
    for (int i = 0; i < 3; i++)
      args[i] = tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, i));
    TlDtype dt;
    if (!unify(s, n->loc, "if_then_else", args[1], args[2], &dt)) return error_expr(s, n->loc);
    TlExpr *e = tl_expr_new(s->arena, EX_SELECT, n->loc, dt, 3);
    e->args[0] = tl_sema_convert(s, args[0], TY_BOOL);
    e->args[1] = tl_sema_convert(s, args[1], dt);
    e->args[2] = tl_sema_convert(s, args[2], dt);
    e->untyped = args[1]->untyped && args[2]->untyped;
    return e;
  }
  if (t && (strcmp(name, "infinity") == 0 || strcmp(name, "max_value") == 0 ||
            strcmp(name, "min_value") == 0)) {
    if (!check_arity(s, n, full, 1, 1)) return error_expr(s, n->loc);
    TlDtype dt;
    if (!dtype_arg(s, TL_VEC_AT(n->list, TlNode, 0), &dt)) return error_expr(s, n->loc);
    return extreme_value(s, n->loc, dt, name[0] == 'i' ? 0 : name[1] == 'a' ? 1 : 2);
  }
  if (t) {
    bool handled;
    TlExpr *e = tl_sema_scalar_call(s, n, name, &handled);
    if (handled) return e ? e : error_expr(s, n->loc);
  }
  if (t && strcmp(name, "atomic_add") == 0) {
    TlExpr *e = tl_sema_atomic_add_value(s, n);
    if (e) return e;
    tl_error(s->diag, n->loc, "'%s' is a statement, not a value", full);
    tl_note(s->diag, n->loc,
            "T.atomic_add(dst, value, return_prev=True) gives the value dst had before the add");
    return error_expr(s, n->loc);
  }
  if (t && tl_sema_is_tile_op(name)) {
    tl_error(s->diag, n->loc, "'%s' is a statement, not a value", full);
    return error_expr(s, n->loc);
  }
  // A helper returning one value, inlined.
  if (!t && n->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_FUNC) {
      TlExpr *out[2];
      int nout;
      if (!inline_helper_call(s, y->value, n, out, &nout)) return error_expr(s, n->loc);
      return out[0];
    }
    if (!y) {
      tl_sema_unknown_name(s, n->a->loc, name);
      return error_expr(s, n->loc);
    }
  }
  // X.helper(...) of a module X next to the file (`import X`)
  TlValue *mv = t ? NULL : tl_sema_module_attr(s, n->a);
  if (mv && mv->kind == VAL_FUNC) {
    TlExpr *out[2];
    int nout;
    if (!inline_helper_call(s, mv, n, out, &nout)) return error_expr(s, n->loc);
    return out[0];
  }
  if (t) {
    tl_error(s->diag, n->loc, "'%s' is not supported by tlc (yet)", full);
    tl_note(s->diag, n->loc,
            "in expressions tlc compiles T.exp, exp2, log, log2, sqrt, rsqrt, "
            "tanh, sigmoid, abs, min, max, clamp, ceildiv, cast, Cast, "
            "float32 (and the other dtypes), if_then_else, infinity, max_value, "
            "min_value, get_thread_binding, shfl_sync, shfl_down, shfl_up, shfl_xor, tvm_warp_shuffle");
    return error_expr(s, n->loc);
  }
  // f(a)(b): a helper that returns a helper (TVM's quantize converters,
  // `_tir_packed_to_unsigned_convert(storage, nbit)(nbit, val, pos, dtype=)`):
  // the callee runs at compile time, its result is inlined like any helper.
  if (!t && n->a->kind == ND_CALL) {
    TlValue *fv = tl_sema_eval_const(s, n->a);
    if (fv->kind == VAL_ERROR) return error_expr(s, n->loc);
    if (fv->kind == VAL_FUNC) {
      TlExpr *out[2];
      int nout;
      if (!inline_helper_call(s, fv, n, out, &nout)) return error_expr(s, n->loc);
      return out[0];
    }
  }
  tl_error(s->diag, n->loc, "unknown function '%s'", full[0] ? full : "(expression)");
  return error_expr(s, n->loc);
}

// Python evaluated at compile time inside a kernel expression: builtins
// (len(shape)), user functions on constants, list items (shape[0]).
static bool is_python_only_op(const TlNode *n) {
  return n->kind == ND_COMPARE && (n->op == TK_IN || n->op == TK_IS);
}

// & | ^ << >> ~ on integers: kernel operators, folded by the evaluator
// (with Python's unbounded integers) when both sides are constants.
static bool is_bitwise_op(const TlNode *n) {
  TlTokenKind k = n->op;
  return (n->kind == ND_BINOP &&
          (k == TK_AMP || k == TK_PIPE || k == TK_CARET || k == TK_LSHIFT || k == TK_RSHIFT)) ||
         (n->kind == ND_UNARY && k == TK_TILDE);
}

static bool compile_time_python(Sema *s, const TlNode *n) {
  if (is_python_only_op(n)) return true; // folded, or reported by the evaluator when not constant
  if (is_bitwise_op(n)) return tl_sema_is_constant_expr(s, n);
  if (n->kind == ND_SUBSCRIPT || (n->kind == ND_ATTR && !tl_sema_t_attr(s, n)))
    return tl_sema_is_constant_expr(s, n);
  return n->kind == ND_CALL && !tl_sema_t_attr(s, n->a) && !tir_attr(s, n->a) &&
         tl_sema_is_constant_expr(s, n);
}

static TlExpr *value_expr(Sema *s, const TlNode *n, TlValue *v) {
  if (v->kind == VAL_INT || v->kind == VAL_BOOL) {
    TlExpr *e = tl_expr_int(s->arena, n->loc, v->i, v->kind == VAL_BOOL ? TY_BOOL : s->index_dtype);
    e->untyped = v->kind == VAL_INT;
    return e;
  }
  if (v->kind == VAL_FLOAT) {
    TlExpr *e = tl_expr_float(s->arena, n->loc, v->f, TY_FLOAT32);
    e->untyped = true;
    return e;
  }
  if (v->kind == VAL_SIZE) { // T.dynamic("m"): the kernel's int parameter
    TlVar *size = tl_sema_size_var(s, v, n->loc);
    if (!size) return error_expr(s, n->loc);
    TlExpr *e = tl_sema_convert(s, tl_expr_var(s->arena, n->loc, size), s->index_dtype);
    if (tl_eval_size_scale(v) > 1) // m * 32
      e = tl_expr_binary(s->arena, n->loc, OP_MUL, e,
                         tl_expr_int(s->arena, n->loc, tl_eval_size_scale(v), s->index_dtype),
                         s->index_dtype);
    return e;
  }
  if (v->kind != VAL_ERROR)
    tl_error(s->diag, n->loc, "this is %s %s, not a number", tl_value_kind_article(v->kind),
             tl_value_kind_name(v->kind));
  return error_expr(s, n->loc);
}

static TlExpr *lower_expr(Sema *s, const TlNode *n);

TlExpr *tl_sema_expr(Sema *s, const TlNode *n) {
  if (!tl_sema_enter(s, n->loc)) return error_expr(s, n->loc);
  TlExpr *e = lower_expr(s, n);
  tl_sema_leave(s);
  return e;
}

static TlExpr *lower_expr(Sema *s, const TlNode *n) {
  if (is_python_only_op(n) && !tl_sema_is_constant_expr(s, n)) {
    tl_error(s->diag, n->loc,
             "operator '%s' works on compile-time values only; tlc kernels have "
             "no membership or identity operators",
             n->op == TK_IN ? "in" : "is");
    return error_expr(s, n->loc);
  }
  if (compile_time_python(s, n)) return value_expr(s, n, tl_sema_eval_const(s, n));
  switch (n->kind) {
  case ND_INT: {
    TlExpr *e = tl_expr_int(s->arena, n->loc, n->ival, s->index_dtype);
    e->untyped = true;
    return e;
  }
  case ND_FLOAT: {
    TlExpr *e = tl_expr_float(s->arena, n->loc, n->fval, TY_FLOAT32);
    e->untyped = true;
    return e;
  }
  case ND_BOOL:
    return tl_expr_int(s->arena, n->loc, n->ival, TY_BOOL);
  case ND_NAME: {
    TlSym *y = tl_scope_lookup(s, n->name);
    if (!y) {
      tl_sema_unknown_name(s, n->loc, n->name);
      return error_expr(s, n->loc);
    }
    if (y->kind == SYM_VAR) return tl_expr_var(s->arena, n->loc, y->var);
    if (y->kind == SYM_BUFFER) {
      tl_error(s->diag, n->loc, "buffer '%s' used as a value; index it, e.g. %s[i]", n->name,
               n->name);
      return error_expr(s, n->loc);
    }
    TlValue *v = y->value;
    if (v->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, n->loc, v);
      return error_expr(s, n->loc);
    }
    if (v->kind != VAL_INT && v->kind != VAL_BOOL && v->kind != VAL_FLOAT && v->kind != VAL_SIZE &&
        v->kind != VAL_ERROR) {
      tl_error(s->diag, n->loc, "'%s' is a %s, not a number", n->name, tl_value_kind_name(v->kind));
      return error_expr(s, n->loc);
    }
    return value_expr(s, n, v);
  }
  case ND_SUBSCRIPT:
    return lower_subscript(s, n);
  case ND_UNARY: {
    TlExpr *x = tl_sema_expr(s, n->a);
    if (n->op == TK_PLUS) return x;
    if (n->op == TK_TILDE) { // constants were folded by the evaluator
      if (!is_int(x->dtype)) {
        tl_error(s->diag, n->loc, "operator '~' needs an integer operand, not %s",
                 tl_dtype_name(x->dtype));
        return error_expr(s, n->loc);
      }
      if (x->untyped) x = tl_sema_convert(s, x, x->dtype);
      return tl_expr_unary(s->arena, n->loc, OP_BITNOT, x, x->dtype);
    }
    if (n->op == TK_NOT) {
      if (x->kind == EX_INT) return tl_expr_int(s->arena, n->loc, !x->ival, TY_BOOL);
      return tl_expr_unary(s->arena, n->loc, OP_NOT, tl_sema_convert(s, x, TY_BOOL), TY_BOOL);
    }
    if (x->kind == EX_INT && is_int(x->dtype)) {
      if (x->ival == INT64_MIN) {
        tl_error(s->diag, n->loc, "integer overflow: -(%lld) does not fit in 64 bits",
                 (long long)x->ival);
        return error_expr(s, n->loc);
      }
      TlExpr *e = tl_expr_int(s->arena, n->loc, -x->ival, x->dtype);
      e->untyped = x->untyped;
      return e;
    }
    if (x->kind == EX_FLOAT) {
      TlExpr *e = tl_expr_float(s->arena, n->loc, -x->fval, x->dtype);
      e->untyped = x->untyped;
      return e;
    }
    TlExpr *e = tl_expr_unary(s->arena, n->loc, OP_NEG, x, x->dtype);
    e->untyped = x->untyped;
    return e;
  }
  case ND_BINOP: {
    TlExpr *l = tl_sema_expr(s, n->a), *r = tl_sema_expr(s, n->b);
    if (n->op == TK_AT) {
      tl_error(s->diag, n->loc, "'@' is not an element operation; use T.gemm for tile products");
      return error_expr(s, n->loc);
    }
    if (n->op == TK_STARSTAR && l->kind == EX_INT && r->kind == EX_INT) {
      TlValue *v = tl_sema_eval_const(s, n);
      if (v->kind == VAL_INT) {
        TlExpr *e = tl_expr_int(s->arena, n->loc, v->i, s->index_dtype);
        e->untyped = true;
        return e;
      }
      if (v->kind == VAL_FLOAT) {
        TlExpr *e = tl_expr_float(s->arena, n->loc, v->f, TY_FLOAT32);
        e->untyped = true;
        return e;
      }
      return error_expr(s, n->loc);
    }
    return make_binary(s, n->loc, binop_of(n->op), l, r);
  }
  case ND_COMPARE: {
    TlExpr *l = tl_sema_expr(s, n->a), *r = tl_sema_expr(s, n->b);
    TlExpr *e = make_binary(s, n->loc, binop_of(n->op), l, r);
    if (l->kind == EX_INT && r->kind == EX_INT && e->kind == EX_BINARY &&
        e->args[0]->dtype != TY_UINT64) {
      int64_t a = l->ival, b = r->ival;
      bool v = e->op == OP_EQ   ? a == b
               : e->op == OP_NE ? a != b
               : e->op == OP_LT ? a < b
               : e->op == OP_LE ? a <= b
               : e->op == OP_GT ? a > b
                                : a >= b;
      return tl_expr_int(s->arena, n->loc, v, TY_BOOL);
    }
    return e;
  }
  case ND_AND:
  case ND_OR:
    return make_binary(s, n->loc, n->kind == ND_AND ? OP_AND : OP_OR, tl_sema_expr(s, n->a),
                       tl_sema_expr(s, n->b));
  case ND_IFEXP: {
    TlExpr *c = tl_sema_expr(s, n->a);
    if (c->kind == EX_INT) // a compile-time choice, as in Python
      return tl_sema_expr(s, c->ival ? n->b : n->c);
    TlExpr *a = tl_sema_expr(s, n->b), *b = tl_sema_expr(s, n->c);
    TlDtype dt;
    if (!unify(s, n->loc, "if-else", a, b, &dt)) return error_expr(s, n->loc);
    TlExpr *e = tl_expr_new(s->arena, EX_SELECT, n->loc, dt, 3);
    e->args[0] = tl_sema_convert(s, c, TY_BOOL);
    e->args[1] = tl_sema_convert(s, a, dt);
    e->args[2] = tl_sema_convert(s, b, dt);
    return e;
  }
  case ND_CALL:
    return lower_call(s, n);
  case ND_ATTR: {
    const char *t = tl_sema_t_attr(s, n);
    if (t) {
      tl_error(s->diag, n->loc, "'T.%s' is not supported by tlc (yet) as a value", n->name);
      return error_expr(s, n->loc);
    }
    tl_error(s->diag, n->loc, "'%s' is not a value here", n->name);
    return error_expr(s, n->loc);
  }
  case ND_STR:
    tl_error(s->diag, n->loc, "a string is not a value inside a kernel");
    return error_expr(s, n->loc);
  case ND_TUPLE:
  case ND_LIST:
    tl_error(s->diag, n->loc, "a %s is not a value inside a kernel", tl_node_kind_name(n->kind));
    return error_expr(s, n->loc);
  case ND_LAMBDA:
    tl_error(s->diag, n->loc, "a lambda is only allowed as forward_fn= of a T.Fragment");
    return error_expr(s, n->loc);
  default:
    tl_error(s->diag, n->loc, "expected an expression");
    return error_expr(s, n->loc);
  }
}

bool tl_sema_inline_helper(Sema *s, const TlValue *fn, TlLoc call_loc, int nargs, TlExpr **args,
                           TlExpr **results, int max_results, int *nresults) {
  TlHelperArg *bound = TL_NEW_ARRAY(s->arena, TlHelperArg, nargs + 1);
  for (int i = 0; i < nargs; i++)
    bound[i].expr = args[i];
  return tl_sema_bind_helper(s, fn, call_loc, nargs, bound, results, max_results, nresults);
}

// `assert cond` in a helper, checked while it is inlined: a compile-time
// condition as Python would, and `x.dtype == dtype` / `!=` on a parameter
// bound to a kernel expression by that expression's dtype.
static bool helper_assert(Sema *s, const TlNode *st, const char *helper) {
  const TlNode *c = st->a;
  bool holds;
  if (c->kind == ND_COMPARE && (c->op == TK_EQEQ || c->op == TK_NE) && c->a->kind == ND_ATTR &&
      strcmp(c->a->name, "dtype") == 0 && c->a->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, c->a->a->name);
    if (!y || y->kind != SYM_VAR) goto python;
    TlValue *want = tl_sema_eval_const(s, c->b);
    TlDtype dt;
    if (want->kind == VAL_ERROR || !tl_value_as_dtype(s, want, &dt)) return false;
    TlExpr *bound = (TlExpr *)(void *)y->value;
    holds = (bound->dtype == dt) == (c->op == TK_EQEQ);
  } else {
  python:
    if (!tl_sema_is_constant_expr(s, c)) {
      tl_error(s->diag, c->loc, "this assert in helper '%s' needs the value of a kernel expression",
               helper);
      tl_note(s->diag, c->loc,
              "a helper's asserts are checked while tlc inlines it: compile-time "
              "values and 'x.dtype == dtype' only");
      return false;
    }
    TlValue *v = tl_sema_eval_const(s, c);
    if (v->kind == VAL_ERROR) return false;
    holds = tl_value_truthy(v);
  }
  if (!holds) tl_error(s->diag, st->loc, "assertion failed in helper '%s'", helper);
  return holds;
}

bool tl_sema_bind_helper(Sema *s, const TlValue *fn, TlLoc call_loc, int nargs,
                         const TlHelperArg *args, TlExpr **results, int max_results,
                         int *nresults) {
  const TlNode *def = fn->fn;
  for (int i = 0; i < s->helper_depth; i++)
    if (s->helper_stack[i] == def) {
      tl_error(s->diag, call_loc, "recursion in helper '%s'", fn->s);
      tl_note(s->diag, def->loc, "'%s' defined here; helpers are inlined and cannot recurse",
              fn->s);
      return false;
    }
  if (s->helper_depth == 32) {
    tl_error(s->diag, call_loc, "helpers nested more than 32 calls deep");
    return false;
  }
  if (!tl_sema_plain_params(s, def, "helper inlined in a kernel")) return false;
  if (def->params.len != nargs) {
    tl_error(s->diag, call_loc, "'%s' takes %d argument%s, %d given", fn->s, def->params.len,
             def->params.len == 1 ? "" : "s", nargs);
    tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
    return false;
  }
  s->helper_stack[s->helper_depth++] = def;
  // Parameters and locals live in a scope whose parent is the module scope,
  // so a helper sees constants but not the caller's variables.
  TlSymScope *saved = s->scope;
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = fn->env ? fn->env : s->globals; // its closure: the module or a factory
  s->scope = sc;
  for (int i = 0; i < nargs; i++) {
    TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (!args[i].expr) { // a compile-time value: a constant inside the helper
      TlSym *y = tl_scope_define(s, sc, p->name, SYM_VALUE, p->loc);
      y->value = args[i].value;
      continue;
    }
    TlVar *v = tl_var_new(s->arena, s->kernel, p->name, VAR_SCALAR, args[i].expr->dtype, p->loc);
    TlSym *y = tl_scope_define(s, sc, p->name, SYM_VAR, p->loc);
    y->var = v;
    // Substitute later: record the binding through a let-like symbol.
    y->var->extent = 0;
    y->value = (TlValue *)(void *)args[i].expr; // the bound expression
  }
  bool ok = true;
  const TlNode *ret = NULL;
  if (def->kind == ND_LAMBDA) {
    ret = def->a;
  } else {
    for (int i = 0; i < def->list.len && ok; i++) {
      TlNode *st = TL_VEC_AT(def->list, TlNode, i);
      if (st->kind == ND_RETURN) {
        ret = st->a;
        if (i + 1 < def->list.len) {
          TlNode *next = TL_VEC_AT(def->list, TlNode, i + 1);
          TlLoc at = next->kind == ND_ASSIGN && next->list.len
                         ? TL_VEC_AT(next->list, TlNode, 0)->loc
                         : next->loc;
          tl_error(s->diag, at, "code after 'return' in helper '%s'", fn->s);
          ok = false;
        }
        break;
      }
      if (st->kind == ND_ASSIGN && st->list.len == 1 &&
          TL_VEC_AT(st->list, TlNode, 0)->kind == ND_NAME) {
        TlNode *target = TL_VEC_AT(st->list, TlNode, 0);
        TlExpr *v = tl_sema_expr(s, st->a);
        // Bound now, in terms of the call's expressions: `x = x + n` then
        // rebinds x, and the parameter x it read is gone from the scope.
        for (TlSym *b = sc->syms; b; b = b->next) {
          if (b->kind != SYM_VAR) continue;
          TlExpr *with = (TlExpr *)(void *)b->value;
          v = tl_expr_substitute(s->arena, v, 1, &b->var, &with);
        }
        TlVar *var =
            tl_var_new(s->arena, s->kernel, target->name, VAR_SCALAR, v->dtype, target->loc);
        TlSym *y = tl_scope_define(s, sc, target->name, SYM_VAR, target->loc);
        y->var = var;
        y->value = (TlValue *)(void *)v;
        continue;
      }
      if (st->kind == ND_EXPR_STMT && st->a->kind == ND_STR) continue; // docstring
      if (st->kind == ND_ASSERT) {
        ok = helper_assert(s, st, fn->s);
        continue;
      }
      tl_error(s->diag, st->loc,
               "helpers may only hold assignments to names, asserts and one 'return'");
      ok = false;
    }
  }
  if (ok && !ret) {
    tl_error(s->diag, def->loc, "helper '%s' does not return a value", fn->s);
    ok = false;
  }
  int n = 0;
  if (ok) {
    const TlNode *items[TL_MAX_DIMS];
    if (ret->kind == ND_TUPLE || ret->kind == ND_LIST) {
      n = ret->list.len;
      if (n > max_results) {
        tl_error(s->diag, ret->loc, "helper '%s' returns %d values, %d expected here", fn->s, n,
                 max_results);
        ok = false;
      }
      for (int i = 0; i < n && ok; i++)
        items[i] = TL_VEC_AT(ret->list, TlNode, i);
    } else {
      n = 1;
      items[0] = ret;
    }
    for (int i = 0; i < n && ok; i++) {
      TlExpr *e = tl_sema_expr(s, items[i]);
      // Replace parameter and local variables by their bound expressions,
      // innermost definitions first (locals may use parameters).
      for (TlSym *y = sc->syms; y; y = y->next) {
        if (y->kind != SYM_VAR) continue; // compile-time parameters were folded in
        TlExpr *with = (TlExpr *)(void *)y->value;
        e = tl_expr_substitute(s->arena, e, 1, &y->var, &with);
      }
      results[i] = e;
    }
  }
  s->scope = saved;
  s->helper_depth--;
  *nresults = n;
  return ok;
}
