// The evaluator of compile-time expressions: names, calls (user functions,
// library functions, T.* attributes), attributes, subscripts and slices,
// and the walk over an expression node that dispatches to the values,
// operators and builtins of Value.c, Operators.c and Builtins.c.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "EvalInternal.h"

TlValue *tl_eval_call(Sema *s, const TlNode *n) {
  const char *t = tl_sema_t_attr(s, n->a);
  // A user function, factory, or something host code defined.
  if (!t && n->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->name);
    if (y && y->kind == SYM_VALUE &&
        (y->value->kind == VAL_FUNC || y->value->kind == VAL_KERNEL ||
         y->value->kind == VAL_MACRO || y->value->kind == VAL_OPAQUE)) {
      if (y->value->kind == VAL_OPAQUE) {
        tl_sema_report_opaque(s, n->a->loc, y->value);
        return tl_eval_error_value(s, n->loc);
      }
      return tl_sema_call_user(s, n, y->value);
    }
  }
  if (!t && n->a->kind == ND_CALL) { // factory(...)(...)
    TlValue *f = tl_eval_call(s, n->a);
    if (f->kind == VAL_ERROR) return f;
    return tl_sema_call_user(s, n, f);
  }
  TlValue *library = tl_sema_library_call(s, n); // tilelang.cdiv, driver.get_num_sms(), ...
  if (library) return library;
  // Functions of Python modules tlc knows (math.*, itertools.product),
  // spelled m.f(...) or imported with `from m import f`.
  const char *qualified = NULL;
  if (!t && n->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE) qualified = y->value->s;
  }
  if (!t && n->a->kind == ND_ATTR && n->a->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE)
      qualified = tl_arena_printf(s->arena, "%s.%s", y->value->s, n->a->name);
  }
  if (qualified && strcmp(qualified, "itertools.product") == 0) return tl_eval_product(s, n);
  if (qualified && strcmp(qualified, "tilelang.compile") == 0)
    return tl_sema_compile_method(s, n, NULL);
  if (!t && n->a->kind == ND_ATTR && !qualified) { // d.items(), d.get(k, default)
    TlSym *y = n->a->a->kind == ND_NAME ? tl_scope_lookup(s, n->a->a->name) : NULL;
    if (!y || y->kind == SYM_VALUE) {
      TlValue *self = tl_sema_eval_const(s, n->a->a);
      if (self->kind == VAL_ERROR) return self;
      if (strcmp(n->a->name, "compile") == 0 &&
          (self->kind == VAL_FUNC || self->kind == VAL_KERNEL))
        return tl_sema_compile_method(s, n, self); // f.compile(M=1024, ...)
      return tl_eval_method(s, n, self);
    }
  }
  bool math = false;
  if (qualified && strncmp(qualified, "math.", 5) == 0) {
    math = true;
  } else if (!t && n->a->kind == ND_ATTR && n->a->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, n->a->a->loc, y->value);
      return tl_eval_error_value(s, n->loc);
    } else if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE) {
      tl_error(s->diag, n->loc,
               "'%s.%s' belongs to the Python module '%s', which tlc does not "
               "evaluate",
               n->a->a->name, n->a->name, y->value->s);
      return tl_eval_error_value(s, n->loc);
    }
  }
  const char *fname = t                       ? t
                      : math                  ? strrchr(qualified, '.') + 1
                      : n->a->kind == ND_NAME ? n->a->name
                                              : NULL;
  int nargs = n->list.len;
  TlValue *args[8];
  if (!t && fname && strcmp(fname, "print") == 0 && n->a->kind == ND_NAME)
    return tl_value_new(s, VAL_NONE, n->loc); // host output: nothing at compile time
  if (!t && fname && strcmp(fname, "dict") == 0 && n->a->kind == ND_NAME && n->list.len == 0) {
    TlValue *d = tl_value_new(s, VAL_DICT, n->loc); // dict(block_M=64, threads=128)
    for (int k = 0; k < n->list2.len; k++) {
      TlNode *kw = TL_VEC_AT(n->list2, TlNode, k);
      TlValue *x = tl_sema_eval_const(s, kw->a);
      if (x->kind == VAL_ERROR) return x;
      if (kw->op == TK_STARSTAR) {
        if (x->kind != VAL_DICT) {
          tl_error(s->diag, kw->loc, "'**' needs a dict");
          return tl_eval_error_value(s, n->loc);
        }
        for (int i = 0; i < x->items.len; i++)
          tl_value_dict_set(s, d, TL_VEC_AT(x->items, TlValue, i),
                            TL_VEC_AT(x->values, TlValue, i));
        continue;
      }
      tl_value_dict_set(s, d, (TlValue *)tl_value_str(s, kw->loc, kw->name), x);
    }
    return d;
  }
  if (!fname) {
    tl_error(s->diag, n->loc, "this call cannot be evaluated at compile time");
    return tl_eval_error_value(s, n->loc);
  }
  if (!t && !qualified && strcmp(fname, "isinstance") == 0 && n->a->kind == ND_NAME)
    return tl_eval_isinstance(s, n);
  if (t && strcmp(t, "const") == 0) // M, N = T.const("M, N") in an eager function
    return tl_sema_eager_const(s, n);
  if (t && (strcmp(t, "dynamic") == 0 || strcmp(t, "symbolic") == 0)) {
    const char *form = strcmp(t, "dynamic") == 0 ? "T.dynamic" : "T.symbolic";
    const TlNode *dtype =
        n->list.len == 2 ? TL_VEC_AT(n->list, TlNode, 1) : tl_sema_kwarg(n, "dtype");
    static const char *const kws[] = {"dtype", NULL};
    if (!tl_sema_check_keywords(s, n, form, kws) || n->list.len < 1 || n->list.len > 2) {
      if (n->list.len < 1 || n->list.len > 2)
        tl_error(s->diag, n->loc, "%s takes a name and an optional dtype", form);
      return tl_eval_error_value(s, n->loc);
    }
    return tl_eval_runtime_size(s, n, form, TL_VEC_AT(n->list, TlNode, 0), dtype);
  }
  if (n->list2.len > 0) {
    TlNode *kw = TL_VEC_AT(n->list2, TlNode, 0);
    tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to '%s'", kw->name, fname);
    return tl_eval_error_value(s, n->loc);
  }
  TlVec argv = {0};
  TlValue *bad = tl_eval_args(s, n, &argv); // `*seq` spreads
  if (bad) return bad;
  nargs = argv.len;
  if (nargs > 8) {
    tl_error(s->diag, n->loc, "too many arguments to '%s'", fname);
    return tl_eval_error_value(s, n->loc);
  }
  for (int i = 0; i < nargs; i++)
    args[i] = TL_VEC_AT(argv, TlValue, i);
  if (!t) {
    TlValue *b = tl_eval_builtin(s, n, fname, math, nargs, args);
    if (b) return b;
  }
  if (t && (strcmp(t, "infinity") == 0 || strcmp(t, "max_value") == 0 ||
            strcmp(t, "min_value") == 0)) { // `fill = -T.infinity(accum_dtype)` in a factory
    int before = s->diag->nerrors;
    TlExpr *e = s->lower.expr(s, n);
    if (e->kind == EX_FLOAT) return tl_eval_float_value(s, n->loc, e->fval);
    if (e->kind == EX_INT && s->diag->nerrors == before)
      return tl_eval_int_value(s, n->loc, e->ival);
    return tl_eval_error_value(s, n->loc);
  }
  bool is_ceildiv = strcmp(fname, "ceildiv") == 0 && t;
  bool is_minmax = strcmp(fname, "min") == 0 || strcmp(fname, "max") == 0;
  if (is_ceildiv || (is_minmax && nargs == 2)) {
    if (nargs != 2) {
      tl_error(s->diag, n->loc, "'%s' takes 2 arguments, %d given", fname, nargs);
      return tl_eval_error_value(s, n->loc);
    }
    if (args[0]->kind != VAL_INT || args[1]->kind != VAL_INT) {
      if (is_minmax && tl_eval_is_number(args[0]) && tl_eval_is_number(args[1])) {
        // Python returns the winning argument itself: max(3, 2.5) is the int 3
        double a = tl_eval_as_double(args[0]), b = tl_eval_as_double(args[1]);
        bool first = fname[1] == 'i' ? a <= b : a >= b; // ties go to the first
        return first ? args[0] : args[1];
      }
      tl_error(s->diag, n->loc, "'%s' needs integer arguments", fname);
      return tl_eval_error_value(s, n->loc);
    }
    int64_t a = args[0]->i, b = args[1]->i;
    if (is_minmax) return tl_eval_int_value(s, n->loc, (fname[1] == 'i') == (a < b) ? a : b);
    if (b == 0) {
      tl_error(s->diag, n->loc, "division by zero in T.ceildiv");
      return tl_eval_error_value(s, n->loc);
    }
    if (a == INT64_MIN && b == -1) {
      tl_error(s->diag, n->loc, "integer overflow in T.ceildiv(%lld, %lld)", (long long)a,
               (long long)b);
      return tl_eval_error_value(s, n->loc);
    }
    // ceil(a / b) = floor(a / b) + 1 when b does not divide a; no negation.
    return tl_eval_int_value(s, n->loc, tl_floordiv(a, b) + (tl_floormod(a, b) != 0));
  }
  // str(x) of an int, a bool or a string (dtype names built as
  // `storage_type + str(nbit)`).
  if (!t && strcmp(fname, "str") == 0 && nargs == 1 &&
      (args[0]->kind == VAL_INT || args[0]->kind == VAL_BOOL || args[0]->kind == VAL_STR)) {
    TlValue *v = tl_value_new(s, VAL_STR, n->loc);
    v->s = args[0]->kind == VAL_STR    ? args[0]->s
           : args[0]->kind == VAL_BOOL ? (args[0]->i ? "True" : "False")
                                       : tl_arena_printf(s->arena, "%lld", (long long)args[0]->i);
    return v;
  }
  if (!t && (strcmp(fname, "int") == 0 || strcmp(fname, "float") == 0 ||
             strcmp(fname, "abs") == 0 || strcmp(fname, "len") == 0)) {
    if (nargs != 1) {
      tl_error(s->diag, n->loc, "'%s' takes 1 argument, %d given", fname, nargs);
      return tl_eval_error_value(s, n->loc);
    }
    TlValue *x = args[0];
    if (fname[0] == 'l') {
      if (x->kind == VAL_TUPLE || x->kind == VAL_DICT)
        return tl_eval_int_value(s, n->loc, x->items.len);
      if (x->kind == VAL_STR) return tl_eval_int_value(s, n->loc, (int64_t)strlen(x->s));
    } else if (tl_eval_is_number(x)) {
      if (fname[0] == 'f') return tl_eval_float_value(s, n->loc, tl_eval_as_double(x));
      if (fname[0] == 'i') {
        if (x->kind == VAL_FLOAT &&
            !(x->f > -9223372036854775808.0 && x->f < 9223372036854775808.0)) {
          tl_error(s->diag, n->loc, "int(%g) does not fit in 64 bits", x->f);
          return tl_eval_error_value(s, n->loc);
        }
        return x->kind == VAL_FLOAT ? tl_eval_int_value(s, n->loc, (int64_t)x->f)
                                    : tl_eval_int_value(s, n->loc, x->i);
      }
      if (x->kind == VAL_FLOAT) return tl_eval_float_value(s, n->loc, fabs(x->f));
      if (x->i == INT64_MIN) {
        tl_error(s->diag, n->loc, "integer overflow in abs");
        return tl_eval_error_value(s, n->loc);
      }
      return tl_eval_int_value(s, n->loc, x->i < 0 ? -x->i : x->i);
    }
    if (x->kind == VAL_STR && fname[0] != 'a' && fname[0] != 'l') { // float("-inf"), int("8")
      TlValue *r = tl_eval_number_from_str(s, n->loc, x->s, fname[0] == 'f');
      if (r) return r;
      tl_error(s->diag, n->loc, "invalid literal for %s(): '%s'", fname, x->s);
      return tl_eval_error_value(s, n->loc);
    }
    tl_error(s->diag, n->loc, "'%s' cannot take a %s", fname, tl_value_kind_name(x->kind));
    return tl_eval_error_value(s, n->loc);
  }
  tl_error(s->diag, n->loc, "'%s%s' cannot be evaluated at compile time", t ? "T." : "", fname);
  return tl_eval_error_value(s, n->loc);
}

// a.b at compile time: T.float16 dtypes, buf.dtype / buf.shape of a
// buffer, math.pi, T.GemmWarpPolicy.FullRow-style enum names (as strings).
static TlValue *attribute(Sema *s, const TlNode *n) {
  TlValue *library = tl_sema_library_attr(s, n); // torch.float16, dtype.bits
  if (library) return library;
  const char *t = tl_sema_t_attr(s, n);
  TlDtype dt;
  if (t && tl_dtype_parse(t, &dt)) {
    TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
    v->dtype = dt;
    return v;
  }
  const TlNode *base = n->a;
  if (base->kind == ND_ATTR && tl_sema_t_attr(s, base)) // T.GemmWarpPolicy.FullRow
    return (TlValue *)tl_value_str(s, n->loc,
                                   tl_arena_printf(s->arena, "%s.%s", base->name, n->name));
  if (!t && base->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, base->name);
    if (y && y->kind == SYM_BUFFER && strcmp(n->name, "dtype") == 0) {
      TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
      v->dtype = y->buf->dtype;
      return v;
    }
    if (y && y->kind == SYM_BUFFER && strcmp(n->name, "shape") == 0) {
      TlValue *v = tl_eval_tuple_value(s, n->loc, true);
      for (int i = 0; i < y->buf->ndims; i++) {
        const TlVar *size = y->buf->dyn[i];
        TlValue *d = size ? tl_value_new(s, VAL_SIZE, n->loc)
                          : tl_eval_int_value(s, n->loc, y->buf->shape[i]);
        if (size) {
          d->s = size->name;
          d->dtype = size->dtype;
          d->i = tl_buffer_dyn_scale(y->buf, i);
        }
        tl_vec_push(s->arena, &v->items, d);
      }
      return v;
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, base->loc, y->value);
      return tl_eval_error_value(s, n->loc);
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_HOST_TENSOR) { // torch.rand(...).shape
      TlValue *tensor = y->value;
      if (strcmp(n->name, "shape") == 0) {
        TlValue *v = tl_eval_tuple_value(s, n->loc, false);
        v->items = tensor->items;
        return v;
      }
      if (strcmp(n->name, "dtype") == 0) {
        TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
        v->dtype = tensor->dtype;
        return v;
      }
      tl_error(s->diag, n->loc, "tlc knows a host tensor's shape and dtype, not '%s'", n->name);
      return tl_eval_error_value(s, n->loc);
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE &&
        strcmp(y->value->s, "math") == 0 &&
        (strcmp(n->name, "pi") == 0 || strcmp(n->name, "e") == 0))
      return tl_eval_float_value(
          s, n->loc, n->name[0] == 'p' ? 3.14159265358979323846 : 2.71828182845904523536);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE && y->value->env) {
      TlSym *x = tl_scope_lookup_local(y->value->env, n->name); // a module next to the file
      if (x && x->kind == SYM_VALUE) return x->value;
      tl_error(s->diag, n->loc, "module '%s' has no name '%s'", y->value->s, n->name);
      return tl_eval_error_value(s, n->loc);
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE) {
      tl_error(s->diag, n->loc,
               "'%s.%s' belongs to the Python module '%s', which tlc does not "
               "evaluate",
               base->name, n->name, y->value->s);
      return tl_eval_error_value(s, n->loc);
    }
  }
  tl_error(s->diag, n->loc, "'%s' is not a compile-time constant", t ? t : n->name);
  return tl_eval_error_value(s, n->loc);
}

static bool index_of(Sema *s, const TlNode *n, int64_t len, TlValue *ix, int64_t *out) {
  if (ix->kind != VAL_INT && ix->kind != VAL_BOOL) {
    tl_error(s->diag, n->loc, "an index must be an integer, found %s %s",
             tl_value_kind_article(ix->kind), tl_value_kind_name(ix->kind));
    return false;
  }
  int64_t i = ix->i < 0 ? ix->i + len : ix->i;
  if (i < 0 || i >= len) {
    tl_error(s->diag, n->loc, "index %lld is out of range for %lld items", (long long)ix->i,
             (long long)len);
    return false;
  }
  *out = i;
  return true;
}

// seq[i], seq[a:b:c] on lists, tuples and strings, as in Python.
static TlValue *subscript(Sema *s, const TlNode *n) {
  const char *t = tl_sema_t_attr(s, n->a);
  if (t && strcmp(t, "dyn") == 0)
    return tl_eval_runtime_size(s, n, "T.dyn",
                                n->list.len == 1 ? TL_VEC_AT(n->list, TlNode, 0) : NULL, NULL);
  TlValue *seq = tl_sema_eval_const(s, n->a);
  if (seq->kind == VAL_ERROR) return seq;
  if (seq->kind == VAL_DICT && n->list.len == 1) {
    TlValue *key = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, 0));
    if (key->kind == VAL_ERROR) return key;
    TlValue *v = tl_value_dict_get(seq, key);
    if (!v) {
      tl_error(s->diag, n->loc, "key %s%s%s is not in the dict", key->kind == VAL_STR ? "'" : "",
               key->kind == VAL_STR ? key->s : "(this key)", key->kind == VAL_STR ? "'" : "");
      return tl_eval_error_value(s, n->loc);
    }
    return v;
  }
  if (seq->kind != VAL_TUPLE && seq->kind != VAL_STR) {
    tl_error(s->diag, n->loc, "%s %s cannot be indexed at compile time",
             tl_value_kind_article(seq->kind), tl_value_kind_name(seq->kind));
    return tl_eval_error_value(s, n->loc);
  }
  if (n->list.len != 1) {
    tl_error(s->diag, n->loc, "a list or tuple takes one index");
    return tl_eval_error_value(s, n->loc);
  }
  int64_t len = seq->kind == VAL_TUPLE ? seq->items.len : (int64_t)strlen(seq->s);
  const TlNode *ix = TL_VEC_AT(n->list, TlNode, 0);
  if (ix->kind != ND_SLICE) {
    TlValue *iv = tl_sema_eval_const(s, ix);
    int64_t i;
    if (iv->kind == VAL_ERROR || !index_of(s, ix, len, iv, &i))
      return tl_eval_error_value(s, n->loc);
    if (seq->kind == VAL_STR)
      return (TlValue *)tl_value_str(s, n->loc, tl_arena_printf(s->arena, "%c", seq->s[i]));
    return TL_VEC_AT(seq->items, TlValue, i);
  }
  int64_t bound[3] = {0, len, 1};
  bool given[3] = {false, false, false}; // present and not None
  const TlNode *parts[3] = {ix->a, ix->b, ix->c};
  for (int k = 2; k >= 0; k--) {
    if (!parts[k]) continue;
    TlValue *v = tl_sema_eval_const(s, parts[k]);
    if (v->kind == VAL_ERROR) return v;
    if (v->kind == VAL_NONE) continue;
    if (v->kind != VAL_INT && v->kind != VAL_BOOL) {
      tl_error(s->diag, parts[k]->loc, "slice bounds must be integers");
      return tl_eval_error_value(s, n->loc);
    }
    bound[k] = v->i;
    given[k] = true;
  }
  int64_t step = given[2] ? bound[2] : 1;
  if (step == 0) {
    tl_error(s->diag, ix->loc, "slice step cannot be zero");
    return tl_eval_error_value(s, n->loc);
  }
  // Python's rules: a bound left out (or None) is the end the step starts
  // from; a negative bound counts from the end; then clamp.
  int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? len : len - 1;
  int64_t b[2];
  for (int k = 0; k < 2; k++) {
    if (!given[k]) {
      b[k] = k == 0 ? (step > 0 ? 0 : len - 1) : (step > 0 ? len : -1);
      continue;
    }
    b[k] = bound[k] < 0 ? bound[k] + len : bound[k];
    if (b[k] < lo) b[k] = lo;
    if (b[k] > hi) b[k] = hi;
  }
  TlValue *v = seq->kind == VAL_TUPLE ? tl_eval_tuple_value(s, n->loc, seq->is_list) : NULL;
  TlBuf str;
  tl_buf_init(&str, s->arena);
  tl_buf_puts(&str, "");
  for (int64_t i = b[0]; step > 0 ? i < b[1] : i > b[1]; i += step) {
    if (v)
      tl_vec_push(s->arena, &v->items, TL_VEC_AT(seq->items, TlValue, i));
    else
      tl_buf_putc(&str, seq->s[i]);
  }
  return v ? v : (TlValue *)tl_value_str(s, n->loc, str.data);
}

static TlValue *eval_node(Sema *s, const TlNode *n);

TlValue *tl_sema_eval_const(Sema *s, const TlNode *n) {
  if (!tl_sema_enter(s, n->loc)) return tl_eval_error_value(s, n->loc);
  TlValue *v = eval_node(s, n);
  tl_sema_leave(s);
  return v;
}

static TlValue *eval_node(Sema *s, const TlNode *n) {
  switch (n->kind) {
  case ND_INT:
    return tl_eval_int_value(s, n->loc, n->ival);
  case ND_FLOAT:
    return tl_eval_float_value(s, n->loc, n->fval);
  case ND_BOOL: {
    TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
    v->i = n->ival;
    return v;
  }
  case ND_STR: {
    if (n->ival && strchr(n->str, '{')) {
      tl_error(s->diag, n->loc, "tlc does not evaluate f-strings");
      return tl_eval_error_value(s, n->loc);
    }
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
      return tl_eval_error_value(s, n->loc);
    }
    if (y->kind != SYM_VALUE) {
      tl_error(s->diag, n->loc, "'%s' is not a compile-time constant", n->name);
      tl_note(s->diag, y->loc, "'%s' declared here", n->name);
      return tl_eval_error_value(s, n->loc);
    }
    if (y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, n->loc, y->value);
      return tl_eval_error_value(s, n->loc);
    }
    TlValue *v = TL_NEW(s->arena, TlValue);
    *v = *y->value;
    v->loc = n->loc;
    return v;
  }
  case ND_ATTR:
    return attribute(s, n);
  case ND_SUBSCRIPT:
    return subscript(s, n);
  case ND_TUPLE:
  case ND_LIST: {
    TlValue *v = tl_eval_tuple_value(s, n->loc, n->kind == ND_LIST);
    for (int i = 0; i < n->list.len; i++) {
      TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
      if (x->kind == VAL_ERROR) return x;
      tl_vec_push(s->arena, &v->items, x);
    }
    return v;
  }
  case ND_DICT: {
    TlValue *v = tl_value_new(s, VAL_DICT, n->loc);
    for (int i = 0; i < n->list.len; i++) {
      TlValue *k = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
      TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list2, TlNode, i));
      if (k->kind == VAL_ERROR || x->kind == VAL_ERROR) return tl_eval_error_value(s, n->loc);
      tl_value_dict_set(s, v, k, x);
    }
    return v;
  }
  case ND_SET: { // a set: its distinct items, in order (tlc has no set type)
    TlValue *v = tl_eval_tuple_value(s, n->loc, true);
    for (int i = 0; i < n->list.len; i++) {
      TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
      if (x->kind == VAL_ERROR) return x;
      tl_value_set_add(s, v, x);
    }
    return v;
  }
  case ND_COMP:
    return tl_sema_eval_comprehension(s, n);
  case ND_UNARY: {
    TlValue *x = tl_sema_eval_const(s, n->a);
    if (x->kind == VAL_ERROR) return x;
    if (n->op == TK_NOT) {
      TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
      v->i = !tl_value_truthy(x);
      return v;
    }
    if (!tl_eval_is_number(x)) {
      tl_error(s->diag, n->loc, "unary '%s' cannot take a %s", tl_token_kind_name(n->op),
               tl_value_kind_name(x->kind));
      return tl_eval_error_value(s, n->loc);
    }
    if (n->op == TK_PLUS) return x;
    if (n->op == TK_TILDE) {
      if (x->kind == VAL_FLOAT) {
        tl_error(s->diag, n->loc, "unary '~' cannot take a float");
        return tl_eval_error_value(s, n->loc);
      }
      return tl_eval_int_value(s, n->loc, ~x->i);
    }
    if (x->kind == VAL_FLOAT) return tl_eval_float_value(s, n->loc, -x->f);
    if (x->i == INT64_MIN) {
      tl_error(s->diag, n->loc, "integer overflow in constant expression: -(%lld)",
               (long long)x->i);
      return tl_eval_error_value(s, n->loc);
    }
    return tl_eval_int_value(s, n->loc, -x->i);
  }
  case ND_BINOP:
    return tl_eval_binop(s, n, tl_sema_eval_const(s, n->a), tl_sema_eval_const(s, n->b));
  case ND_COMPARE:
    return tl_eval_compare(s, n, tl_sema_eval_const(s, n->a), tl_sema_eval_const(s, n->b));
  case ND_AND:
  case ND_OR: {
    TlValue *l = tl_sema_eval_const(s, n->a);
    if (l->kind == VAL_ERROR) return l;
    if (tl_value_truthy(l) == (n->kind == ND_OR)) return l;
    return tl_sema_eval_const(s, n->b);
  }
  case ND_IFEXP: {
    TlValue *c = tl_sema_eval_const(s, n->a);
    if (c->kind == VAL_ERROR) return c;
    return tl_sema_eval_const(s, tl_value_truthy(c) ? n->b : n->c);
  }
  case ND_CALL:
    return tl_eval_call(s, n);
  case ND_LAMBDA: {
    TlValue *v = tl_value_new(s, VAL_FUNC, n->loc);
    v->fn = (TlNode *)n;
    v->s = "lambda";
    v->env = s->scope ? s->scope : s->module_env; // the enclosing function's names
    return v;
  }
  default:
    tl_error(s->diag, n->loc, "expected a constant expression");
    return tl_eval_error_value(s, n->loc);
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
    return y && y->kind == SYM_VALUE && y->value->kind != VAL_SIZE;
  }
  case ND_ATTR: {
    if (tl_sema_t_attr(s, n) || (n->a->kind == ND_ATTR && tl_sema_t_attr(s, n->a))) return true;
    if (n->a->kind != ND_NAME) return false;
    TlSym *y = tl_scope_lookup(s, n->a->name);
    return y && ((y->kind == SYM_BUFFER &&
                  (strcmp(n->name, "dtype") == 0 || strcmp(n->name, "shape") == 0)) ||
                 (y->kind == SYM_VALUE && y->value->kind == VAL_MODULE));
  }
  case ND_SUBSCRIPT: // a compile-time list indexed by constants (not a buffer load)
    if (!tl_sema_is_constant_expr(s, n->a)) return false;
    for (int i = 0; i < n->list.len; i++) {
      const TlNode *ix = TL_VEC_AT(n->list, TlNode, i);
      if (ix->kind != ND_SLICE && !tl_sema_is_constant_expr(s, ix)) return false;
    }
    return true;
  case ND_CALL: {
    // T.get_thread_binding() and friends have no arguments yet vary by thread.
    const char *t = tl_sema_t_attr(s, n->a);
    if (t && (strncmp(t, "get_", 4) == 0 || strcmp(t, "thread_binding") == 0 ||
              strcmp(t, "tvm_warp_shuffle") == 0))
      return false;
    for (int i = 0; i < n->list.len; i++)
      if (!tl_sema_is_constant_expr(s, TL_VEC_AT(n->list, TlNode, i))) return false;
    // A call of a name, of T.*, or of a module's function (math.ceil, tilelang.cdiv).
    return n->list2.len == 0 && (tl_sema_t_attr(s, n->a) || n->a->kind == ND_NAME ||
                                 (n->a->kind == ND_ATTR && tl_sema_is_constant_expr(s, n->a)));
  }
  case ND_TUPLE:
  case ND_LIST:
    for (int i = 0; i < n->list.len; i++)
      if (!tl_sema_is_constant_expr(s, TL_VEC_AT(n->list, TlNode, i))) return false;
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

TlValue *tl_sema_module_attr(Sema *s, const TlNode *n) {
  if (n->kind != ND_ATTR || n->a->kind != ND_NAME) return NULL;
  TlSym *y = tl_scope_lookup(s, n->a->name);
  if (!y || y->kind != SYM_VALUE || y->value->kind != VAL_MODULE || !y->value->env) return NULL;
  TlSym *x = tl_scope_lookup_local(y->value->env, n->name);
  return x && x->kind == SYM_VALUE ? x->value : NULL;
}
