// Compile-time values: module constants (`M = 4096`, `block_M, block_N =
// 128, 128`, `dtype = "float16"`), helpers and kernels, and the evaluator
// for constant expressions. Integer arithmetic is exact 64-bit with overflow
// reported as an error, and // and % follow Python.
#include <math.h>
#include <string.h>

#include "SemaInternal.h"

TlValue *tl_value_new(Sema *s, TlValueKind k, TlLoc loc) {
  TlValue *v = TL_NEW(s->arena, TlValue);
  v->kind = k;
  v->loc = loc;
  return v;
}

const char *tl_value_kind_article(TlValueKind k) {
  return (k == VAL_INT || k == VAL_ERROR) ? "an" : "a";
}

const char *tl_value_kind_name(TlValueKind k) {
  static const char *names[] = {"int",    "float",  "bool",   "str",    "None",   "tuple",
                                "dtype",  "function", "module", "kernel", "error"};
  return names[k];
}

static TlValue *error_value(Sema *s, TlLoc loc) {
  return tl_value_new(s, VAL_ERROR, loc);
}

const char *tl_sema_t_attr(Sema *s, const TlNode *n) {
  if (n->kind != ND_ATTR)
    return NULL;
  const TlNode *base = n->a;
  if (base->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, base->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE && y->value->s &&
        (strcmp(y->value->s, "tilelang.language") == 0))
      return n->name;
    return NULL;
  }
  // tilelang.language.x
  if (base->kind == ND_ATTR && strcmp(base->name, "language") == 0 && base->a->kind == ND_NAME &&
      strcmp(base->a->name, "tilelang") == 0)
    return n->name;
  return NULL;
}

bool tl_value_as_dtype(Sema *s, const TlValue *v, TlDtype *out) {
  if (v->kind == VAL_DTYPE) {
    *out = v->dtype;
    return true;
  }
  if (v->kind == VAL_STR) {
    if (tl_dtype_parse(v->s, out))
      return true;
    tl_error(s->diag, v->loc, "unknown dtype '%s'", v->s);
    tl_note(s->diag, v->loc,
            "dtypes are float16, bfloat16, float32, float64, int8, uint8, int16, int32, "
            "uint32, int64, bool");
    return false;
  }
  if (v->kind != VAL_ERROR)
    tl_error(s->diag, v->loc, "expected a dtype, found a %s", tl_value_kind_name(v->kind));
  return false;
}

// Levenshtein distance, for "did you mean" notes on unknown names.
static int edit_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 40 || lb > 40)
    return 99;
  int d[41][41];
  for (int i = 0; i <= la; i++)
    d[i][0] = i;
  for (int j = 0; j <= lb; j++)
    d[0][j] = j;
  for (int i = 1; i <= la; i++)
    for (int j = 1; j <= lb; j++) {
      int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
  return d[la][lb];
}

void tl_sema_unknown_name(Sema *s, TlLoc loc, const char *name);
void tl_sema_unknown_name(Sema *s, TlLoc loc, const char *name) {
  tl_error(s->diag, loc, "use of undeclared name '%s'", name);
  const char *best = NULL;
  int best_d = 3;
  for (TlSymScope *sc = s->scope ? s->scope : s->globals; sc; sc = sc->parent)
    for (TlSym *y = sc->syms; y; y = y->next) {
      int dist = edit_distance(name, y->name);
      if (dist < best_d && dist < (int)strlen(name)) {
        best_d = dist;
        best = y->name;
      }
    }
  if (best) {
    TlSym *y = tl_scope_lookup(s, best);
    tl_note(s->diag, y->loc, "did you mean '%s'?", best);
  }
}

static TlValue *int_value(Sema *s, TlLoc loc, int64_t i) {
  TlValue *v = tl_value_new(s, VAL_INT, loc);
  v->i = i;
  return v;
}

static TlValue *float_value(Sema *s, TlLoc loc, double f) {
  TlValue *v = tl_value_new(s, VAL_FLOAT, loc);
  v->f = f;
  return v;
}

static bool is_number(const TlValue *v) {
  return v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
}

static double as_double(const TlValue *v) {
  return v->kind == VAL_FLOAT ? v->f : (double)v->i;
}

// Integer power by squaring, overflow-checked. b >= 0.
static bool ipow(int64_t a, int64_t b, int64_t *out) {
  int64_t r = 1;
  while (b > 0) {
    if (b & 1)
      if (tl_mul_overflows(r, a, &r))
        return false;
    b >>= 1;
    if (b && tl_mul_overflows(a, a, &a))
      return false;
  }
  *out = r;
  return true;
}

static TlValue *binop(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (l->kind == VAL_ERROR || r->kind == VAL_ERROR)
    return error_value(s, n->loc);
  if (!is_number(l) || !is_number(r)) {
    tl_error(s->diag, n->loc, "operator '%s' cannot combine a %s and a %s",
             tl_token_kind_name(n->op), tl_value_kind_name(l->kind), tl_value_kind_name(r->kind));
    return error_value(s, n->loc);
  }
  bool ints = l->kind != VAL_FLOAT && r->kind != VAL_FLOAT;
  if (ints) {
    int64_t a = l->i, b = r->i, out = 0;
    bool overflow = false;
    switch (n->op) {
    case TK_PLUS:
      overflow = tl_add_overflows(a, b, &out);
      break;
    case TK_MINUS:
      overflow = tl_sub_overflows(a, b, &out);
      break;
    case TK_STAR:
      overflow = tl_mul_overflows(a, b, &out);
      break;
    case TK_SLASHSLASH:
    case TK_PERCENT:
      if (b == 0) {
        tl_error(s->diag, n->loc, "division by zero in constant expression");
        return error_value(s, n->loc);
      }
      if (a == INT64_MIN && b == -1) {
        overflow = n->op == TK_SLASHSLASH;
        out = 0;
      } else {
        out = n->op == TK_SLASHSLASH ? tl_floordiv(a, b) : tl_floormod(a, b);
      }
      break;
    case TK_SLASH:
      if (b == 0) {
        tl_error(s->diag, n->loc, "division by zero in constant expression");
        return error_value(s, n->loc);
      }
      return float_value(s, n->loc, (double)a / (double)b);
    case TK_STARSTAR:
      if (b < 0 && a == 0) {
        tl_error(s->diag, n->loc, "division by zero in constant expression: 0 ** %lld", (long long)b);
        return error_value(s, n->loc);
      }
      if (b < 0)
        return float_value(s, n->loc, pow((double)a, (double)b));
      overflow = !ipow(a, b, &out);
      break;
    default:
      tl_error(s->diag, n->loc, "operator '%s' is not supported on constants",
               tl_token_kind_name(n->op));
      return error_value(s, n->loc);
    }
    if (overflow) {
      tl_error(s->diag, n->loc,
               "integer overflow in constant expression: %lld %s %lld does not fit in 64 bits",
               (long long)a, tl_token_kind_name(n->op), (long long)b);
      return error_value(s, n->loc);
    }
    return int_value(s, n->loc, out);
  }
  double a = as_double(l), b = as_double(r), out;
  switch (n->op) {
  case TK_PLUS:
    out = a + b;
    break;
  case TK_MINUS:
    out = a - b;
    break;
  case TK_STAR:
    out = a * b;
    break;
  case TK_SLASH:
  case TK_SLASHSLASH:
  case TK_PERCENT:
    if (b == 0) {
      tl_error(s->diag, n->loc, "division by zero in constant expression");
      return error_value(s, n->loc);
    }
    out = n->op == TK_SLASH ? a / b : n->op == TK_SLASHSLASH ? floor(a / b) : a - floor(a / b) * b;
    break;
  case TK_STARSTAR:
    out = pow(a, b);
    break;
  default:
    tl_error(s->diag, n->loc, "operator '%s' is not supported on constants",
             tl_token_kind_name(n->op));
    return error_value(s, n->loc);
  }
  return float_value(s, n->loc, out);
}

bool tl_value_truthy(const TlValue *v);
bool tl_value_truthy(const TlValue *v) {
  switch (v->kind) {
  case VAL_INT:
  case VAL_BOOL:
    return v->i != 0;
  case VAL_FLOAT:
    return v->f != 0;
  case VAL_STR:
    return v->s[0] != '\0';
  case VAL_TUPLE:
    return v->items.len > 0;
  case VAL_NONE:
    return false;
  default:
    return true;
  }
}

static TlValue *compare(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (l->kind == VAL_ERROR || r->kind == VAL_ERROR)
    return error_value(s, n->loc);
  int c;
  if (l->kind == VAL_STR && r->kind == VAL_STR) {
    c = strcmp(l->s, r->s);
  } else if (is_number(l) && is_number(r)) {
    if (l->kind != VAL_FLOAT && r->kind != VAL_FLOAT)
      c = l->i < r->i ? -1 : l->i > r->i;
    else
      c = as_double(l) < as_double(r) ? -1 : as_double(l) > as_double(r);
  } else if (n->op == TK_EQEQ || n->op == TK_NE) {
    c = (l->kind == r->kind && l->kind == VAL_NONE) ? 0 : 1;
  } else {
    tl_error(s->diag, n->loc, "cannot compare a %s with a %s", tl_value_kind_name(l->kind),
             tl_value_kind_name(r->kind));
    return error_value(s, n->loc);
  }
  bool res = n->op == TK_EQEQ ? c == 0
             : n->op == TK_NE ? c != 0
             : n->op == TK_LT ? c < 0
             : n->op == TK_LE ? c <= 0
             : n->op == TK_GT ? c > 0
                              : c >= 0;
  TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
  v->i = res;
  return v;
}

static TlValue *call(Sema *s, const TlNode *n) {
  const char *t = tl_sema_t_attr(s, n->a);
  const char *fname = t ? t : (n->a->kind == ND_NAME ? n->a->name : NULL);
  int nargs = n->list.len;
  TlValue *args[8];
  if (!fname) {
    tl_error(s->diag, n->loc, "this call cannot be evaluated at compile time");
    return error_value(s, n->loc);
  }
  if (n->list2.len > 0) {
    TlNode *kw = TL_VEC_AT(n->list2, TlNode, 0);
    tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to '%s'", kw->name, fname);
    return error_value(s, n->loc);
  }
  if (nargs > 8) {
    tl_error(s->diag, n->loc, "too many arguments to '%s'", fname);
    return error_value(s, n->loc);
  }
  for (int i = 0; i < nargs; i++) {
    args[i] = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
    if (args[i]->kind == VAL_ERROR)
      return args[i];
  }
  bool is_ceildiv = strcmp(fname, "ceildiv") == 0 && t;
  bool is_minmax = strcmp(fname, "min") == 0 || strcmp(fname, "max") == 0;
  if (is_ceildiv || (is_minmax && nargs == 2)) {
    if (nargs != 2) {
      tl_error(s->diag, n->loc, "'%s' takes 2 arguments, %d given", fname, nargs);
      return error_value(s, n->loc);
    }
    if (args[0]->kind != VAL_INT || args[1]->kind != VAL_INT) {
      if (is_minmax && is_number(args[0]) && is_number(args[1])) {
        double a = as_double(args[0]), b = as_double(args[1]);
        return float_value(s, n->loc, (fname[1] == 'i') == (a < b) ? a : b);
      }
      tl_error(s->diag, n->loc, "'%s' needs integer arguments", fname);
      return error_value(s, n->loc);
    }
    int64_t a = args[0]->i, b = args[1]->i;
    if (is_minmax)
      return int_value(s, n->loc, (fname[1] == 'i') == (a < b) ? a : b);
    if (b == 0) {
      tl_error(s->diag, n->loc, "division by zero in T.ceildiv");
      return error_value(s, n->loc);
    }
    if (a == INT64_MIN && b == -1) {
      tl_error(s->diag, n->loc, "integer overflow in T.ceildiv(%lld, %lld)", (long long)a,
               (long long)b);
      return error_value(s, n->loc);
    }
    // ceil(a / b) = floor(a / b) + 1 when b does not divide a; no negation.
    return int_value(s, n->loc, tl_floordiv(a, b) + (tl_floormod(a, b) != 0));
  }
  if (!t && (strcmp(fname, "int") == 0 || strcmp(fname, "float") == 0 ||
             strcmp(fname, "abs") == 0 || strcmp(fname, "len") == 0)) {
    if (nargs != 1) {
      tl_error(s->diag, n->loc, "'%s' takes 1 argument, %d given", fname, nargs);
      return error_value(s, n->loc);
    }
    TlValue *x = args[0];
    if (fname[0] == 'l') {
      if (x->kind == VAL_TUPLE)
        return int_value(s, n->loc, x->items.len);
      if (x->kind == VAL_STR)
        return int_value(s, n->loc, (int64_t)strlen(x->s));
    } else if (is_number(x)) {
      if (fname[0] == 'f')
        return float_value(s, n->loc, as_double(x));
      if (fname[0] == 'i') {
        if (x->kind == VAL_FLOAT && !(x->f > -9223372036854775808.0 && x->f < 9223372036854775808.0)) {
          tl_error(s->diag, n->loc, "int(%g) does not fit in 64 bits", x->f);
          return error_value(s, n->loc);
        }
        return x->kind == VAL_FLOAT ? int_value(s, n->loc, (int64_t)x->f) : int_value(s, n->loc, x->i);
      }
      if (x->kind == VAL_FLOAT)
        return float_value(s, n->loc, fabs(x->f));
      if (x->i == INT64_MIN) {
        tl_error(s->diag, n->loc, "integer overflow in abs");
        return error_value(s, n->loc);
      }
      return int_value(s, n->loc, x->i < 0 ? -x->i : x->i);
    }
    tl_error(s->diag, n->loc, "'%s' cannot take a %s", fname, tl_value_kind_name(x->kind));
    return error_value(s, n->loc);
  }
  tl_error(s->diag, n->loc, "'%s%s' cannot be evaluated at compile time", t ? "T." : "", fname);
  return error_value(s, n->loc);
}

TlValue *tl_sema_eval_const(Sema *s, const TlNode *n) {
  switch (n->kind) {
  case ND_INT:
    return int_value(s, n->loc, n->ival);
  case ND_FLOAT:
    return float_value(s, n->loc, n->fval);
  case ND_BOOL: {
    TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
    v->i = n->ival;
    return v;
  }
  case ND_STR: {
    TlValue *v = tl_value_new(s, VAL_STR, n->loc);
    v->s = n->str;
    return v;
  }
  case ND_NONE:
    return tl_value_new(s, VAL_NONE, n->loc);
  case ND_NAME: {
    TlSym *y = tl_scope_lookup(s, n->name);
    if (!y) {
      tl_sema_unknown_name(s, n->loc, n->name);
      return error_value(s, n->loc);
    }
    if (y->kind != SYM_VALUE) {
      tl_error(s->diag, n->loc, "'%s' is not a compile-time constant", n->name);
      tl_note(s->diag, y->loc, "'%s' declared here", n->name);
      return error_value(s, n->loc);
    }
    TlValue *v = TL_NEW(s->arena, TlValue);
    *v = *y->value;
    v->loc = n->loc;
    return v;
  }
  case ND_ATTR: {
    const char *t = tl_sema_t_attr(s, n);
    TlDtype dt;
    if (t && tl_dtype_parse(t, &dt)) {
      TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
      v->dtype = dt;
      return v;
    }
    tl_error(s->diag, n->loc, "'%s' is not a compile-time constant", t ? t : n->name);
    return error_value(s, n->loc);
  }
  case ND_TUPLE:
  case ND_LIST: {
    TlValue *v = tl_value_new(s, VAL_TUPLE, n->loc);
    for (int i = 0; i < n->list.len; i++) {
      TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
      if (x->kind == VAL_ERROR)
        return x;
      tl_vec_push(s->arena, &v->items, x);
    }
    return v;
  }
  case ND_UNARY: {
    TlValue *x = tl_sema_eval_const(s, n->a);
    if (x->kind == VAL_ERROR)
      return x;
    if (n->op == TK_NOT) {
      TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
      v->i = !tl_value_truthy(x);
      return v;
    }
    if (!is_number(x)) {
      tl_error(s->diag, n->loc, "unary '%s' cannot take a %s", tl_token_kind_name(n->op),
               tl_value_kind_name(x->kind));
      return error_value(s, n->loc);
    }
    if (n->op == TK_PLUS)
      return x;
    if (x->kind == VAL_FLOAT)
      return float_value(s, n->loc, -x->f);
    if (x->i == INT64_MIN) {
      tl_error(s->diag, n->loc, "integer overflow in constant expression: -(%lld)",
               (long long)x->i);
      return error_value(s, n->loc);
    }
    return int_value(s, n->loc, -x->i);
  }
  case ND_BINOP:
    return binop(s, n, tl_sema_eval_const(s, n->a), tl_sema_eval_const(s, n->b));
  case ND_COMPARE:
    return compare(s, n, tl_sema_eval_const(s, n->a), tl_sema_eval_const(s, n->b));
  case ND_AND:
  case ND_OR: {
    TlValue *l = tl_sema_eval_const(s, n->a);
    if (l->kind == VAL_ERROR)
      return l;
    if (tl_value_truthy(l) == (n->kind == ND_OR))
      return l;
    return tl_sema_eval_const(s, n->b);
  }
  case ND_IFEXP: {
    TlValue *c = tl_sema_eval_const(s, n->a);
    if (c->kind == VAL_ERROR)
      return c;
    return tl_sema_eval_const(s, tl_value_truthy(c) ? n->b : n->c);
  }
  case ND_CALL:
    return call(s, n);
  case ND_LAMBDA: {
    TlValue *v = tl_value_new(s, VAL_FUNC, n->loc);
    v->fn = (TlNode *)n;
    v->s = "lambda";
    return v;
  }
  default:
    tl_error(s->diag, n->loc, "expected a constant expression");
    return error_value(s, n->loc);
  }
}

// Binds `target` (a name or a tuple of names) to v at module level.
static void bind_target(Sema *s, const TlNode *target, TlValue *v) {
  if (target->kind == ND_NAME) {
    TlSym *y = tl_scope_define(s, s->globals, target->name, SYM_VALUE, target->loc);
    y->value = v;
    return;
  }
  if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
    if (v->kind == VAL_ERROR) {
      for (int i = 0; i < target->list.len; i++)
        bind_target(s, TL_VEC_AT(target->list, TlNode, i), v);
      return;
    }
    if (v->kind != VAL_TUPLE) {
      tl_error(s->diag, target->loc, "cannot unpack %s %s into %d names",
               tl_value_kind_article(v->kind), tl_value_kind_name(v->kind), target->list.len);
      return;
    }
    if (v->items.len != target->list.len) {
      tl_error(s->diag, target->loc, "cannot unpack %d values into %d names", v->items.len,
               target->list.len);
      return;
    }
    for (int i = 0; i < target->list.len; i++)
      bind_target(s, TL_VEC_AT(target->list, TlNode, i), TL_VEC_AT(v->items, TlValue, i));
    return;
  }
  tl_error(s->diag, target->loc, "only names can be assigned at module level");
}

static bool is_prim_func_decorator(Sema *s, const TlNode *d) {
  const char *t = tl_sema_t_attr(s, d);
  if (t && strcmp(t, "prim_func") == 0)
    return true;
  return d->kind == ND_NAME && strcmp(d->name, "prim_func") == 0;
}

void tl_sema_module_constants(Sema *s, const TlNode *module, void (*on_kernel)(Sema *, TlValue *)) {
  for (int i = 0; i < module->list.len && !tl_diag_too_many(s->diag); i++) {
    TlNode *st = TL_VEC_AT(module->list, TlNode, i);
    switch (st->kind) {
    case ND_IMPORT: {
      // `import tilelang.language as T`, `from tilelang import language as T`
      // bind T to the DSL; `import tilelang` binds tilelang; anything else is
      // accepted and bound to an opaque module.
      const char *full = st->name;
      const char *alias = st->str;
      const char *bound = alias ? alias : full;
      char first[128];
      if (!alias) {
        size_t n = strcspn(full, ".");
        snprintf(first, sizeof first, "%.*s", (int)(n < 127 ? n : 127), full);
        bound = tl_arena_strdup(s->arena, first);
      }
      TlSym *y = tl_scope_define(s, s->globals, bound, SYM_VALUE, st->loc);
      y->value = tl_value_new(s, VAL_MODULE, st->loc);
      bool dsl = strcmp(full, "tilelang.language") == 0 && alias;
      y->value->s = dsl ? "tilelang.language" : full;
      break;
    }
    case ND_ASSIGN: {
      TlValue *v = tl_sema_eval_const(s, st->a);
      for (int t = 0; t < st->list.len; t++)
        bind_target(s, TL_VEC_AT(st->list, TlNode, t), v);
      break;
    }
    case ND_DEF: {
      bool kernel = false;
      for (int d = 0; d < st->list2.len; d++) {
        TlNode *dec = TL_VEC_AT(st->list2, TlNode, d);
        if (is_prim_func_decorator(s, dec))
          kernel = true;
        else {
          tl_error(s->diag, dec->loc, "unsupported decorator; tlc knows @T.prim_func");
        }
      }
      TlSym *prev = tl_scope_lookup_local(s->globals, st->name);
      if (prev && prev->kind == SYM_VALUE && (prev->value->kind == VAL_KERNEL || prev->value->kind == VAL_FUNC)) {
        tl_error(s->diag, st->loc, "redefinition of '%s'", st->name);
        tl_note(s->diag, prev->loc, "previous definition is here");
      }
      TlSym *y = tl_scope_define(s, s->globals, st->name, SYM_VALUE, st->loc);
      y->value = tl_value_new(s, kernel ? VAL_KERNEL : VAL_FUNC, st->loc);
      y->value->fn = st;
      y->value->s = st->name;
      if (kernel && !tl_diag_too_many(s->diag))
        on_kernel(s, y->value);
      break;
    }
    case ND_EXPR_STMT:
      if (st->a->kind == ND_STR) // a docstring
        break;
      /* fallthrough */
    default:
      tl_error(s->diag, st->loc,
               "only imports, constants, helper functions and @T.prim_func kernels may appear "
               "at module level");
      break;
    }
  }
}

bool tl_sema_is_constant_expr(Sema *s, const TlNode *n) {
  switch (n->kind) {
  case ND_INT:
  case ND_FLOAT:
  case ND_STR:
  case ND_BOOL:
  case ND_NONE:
    return true;
  case ND_NAME: {
    TlSym *y = tl_scope_lookup(s, n->name);
    return y && y->kind == SYM_VALUE;
  }
  case ND_ATTR:
    return tl_sema_t_attr(s, n) != NULL;
  case ND_CALL:
    for (int i = 0; i < n->list.len; i++)
      if (!tl_sema_is_constant_expr(s, TL_VEC_AT(n->list, TlNode, i)))
        return false;
    return n->list2.len == 0 && (tl_sema_t_attr(s, n->a) || n->a->kind == ND_NAME);
  case ND_TUPLE:
  case ND_LIST:
    for (int i = 0; i < n->list.len; i++)
      if (!tl_sema_is_constant_expr(s, TL_VEC_AT(n->list, TlNode, i)))
        return false;
    return true;
  case ND_UNARY:
    return tl_sema_is_constant_expr(s, n->a);
  case ND_BINOP:
  case ND_COMPARE:
  case ND_AND:
  case ND_OR:
    return tl_sema_is_constant_expr(s, n->a) && tl_sema_is_constant_expr(s, n->b);
  case ND_IFEXP:
    return tl_sema_is_constant_expr(s, n->a) && tl_sema_is_constant_expr(s, n->b) &&
           tl_sema_is_constant_expr(s, n->c);
  default:
    return false;
  }
}
