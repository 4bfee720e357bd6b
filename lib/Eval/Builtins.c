// Python's builtins on compile-time values (range, len, min, max, round,
// ...), the math module, dict methods, itertools.product, and T.dynamic
// runtime sizes.
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "EvalInternal.h"

static TlValue *range_value(Sema *s, const TlNode *n, int nargs, TlValue **args) {
  int64_t r[3] = {0, 0, 1};
  if (nargs < 1 || nargs > 3) {
    tl_error(s->diag, n->loc, "'range' takes 1 to 3 arguments, %d given", nargs);
    return tl_eval_error_value(s, n->loc);
  }
  for (int i = 0; i < nargs; i++) {
    if (args[i]->kind != VAL_INT && args[i]->kind != VAL_BOOL) {
      tl_error(s->diag, args[i]->loc, "'range' needs integers, found %s %s",
               tl_value_kind_article(args[i]->kind), tl_value_kind_name(args[i]->kind));
      return tl_eval_error_value(s, n->loc);
    }
    r[nargs == 1 ? 1 : i] = args[i]->i;
  }
  if (r[2] == 0) {
    tl_error(s->diag, n->loc, "range() step must not be zero");
    return tl_eval_error_value(s, n->loc);
  }
  TlValue *v = tl_eval_tuple_value(s, n->loc, true);
  for (int64_t x = r[0]; r[2] > 0 ? x < r[1] : x > r[1]; x += r[2]) {
    if (v->items.len == MAX_SEQUENCE) {
      tl_error(s->diag, n->loc, "this range has more than %d values", MAX_SEQUENCE);
      return tl_eval_error_value(s, n->loc);
    }
    if (!tl_sema_spend_items(s, 1, n->loc)) return tl_eval_error_value(s, n->loc);
    tl_vec_push(s->arena, &v->items, tl_eval_int_value(s, n->loc, x));
    if ((r[2] > 0 && x > INT64_MAX - r[2]) || (r[2] < 0 && x < INT64_MIN - r[2])) break;
  }
  return v;
}

TlValue *tl_value_iterable(Sema *s, TlValue *v) {
  if (v->kind == VAL_TUPLE) return v;
  if (v->kind == VAL_DICT) {
    TlValue *keys = tl_eval_tuple_value(s, v->loc, true);
    keys->items = v->items;
    return keys;
  }
  if (v->kind == VAL_STR || v->kind == VAL_DTYPE) { // TileLang's dtypes are str subclasses
    TlValue *chars = tl_eval_tuple_value(s, v->loc, true);
    const char *text = v->kind == VAL_STR ? v->s : tl_dtype_name(v->dtype);
    for (const char *p = text; *p; p++)
      tl_vec_push(s->arena, &chars->items,
                  (void *)tl_value_str(s, v->loc, tl_arena_printf(s->arena, "%c", *p)));
    return chars;
  }
  return NULL;
}

// The positional arguments of a builtin or module function; `*seq` spreads
// a list or tuple (itertools.product(*configs.values()), zip(*rows)).
TlValue *tl_eval_args(Sema *s, const TlNode *n, TlVec *out) {
  for (int i = 0; i < n->list.len; i++) {
    const TlNode *a = TL_VEC_AT(n->list, TlNode, i);
    TlValue *v = tl_sema_eval_const(s, a->kind == ND_STARRED ? a->a : a);
    if (v->kind == VAL_ERROR) return v;
    if (a->kind != ND_STARRED) {
      tl_vec_push(s->arena, out, v);
      continue;
    }
    if (v->kind != VAL_TUPLE) {
      tl_error(s->diag, a->loc, "'*' needs a list or tuple, found %s %s",
               tl_value_kind_article(v->kind), tl_value_kind_name(v->kind));
      return tl_eval_error_value(s, a->loc);
    }
    for (int j = 0; j < v->items.len; j++)
      tl_vec_push(s->arena, out, TL_VEC_AT(v->items, TlValue, j));
  }
  return NULL;
}

static bool all_sequences(Sema *s, const TlNode *n, const TlVec *args, const char *what) {
  for (int i = 0; i < args->len; i++)
    if (TL_VEC_AT(*args, TlValue, i)->kind != VAL_TUPLE) {
      tl_error(s->diag, n->loc, "'%s' takes lists or tuples", what);
      return false;
    }
  return true;
}

// itertools.product(a, b, ...): the tuples of the cartesian product.
TlValue *tl_eval_product(Sema *s, const TlNode *n) {
  TlVec args = {0};
  TlValue *bad = tl_eval_args(s, n, &args);
  if (bad) return bad;
  if (!all_sequences(s, n, &args, "itertools.product")) return tl_eval_error_value(s, n->loc);
  int64_t total = 1;
  for (int i = 0; i < args.len; i++) {
    total *= TL_VEC_AT(args, TlValue, i)->items.len;
    if (total > MAX_SEQUENCE) {
      tl_error(s->diag, n->loc, "this product has more than %d tuples", MAX_SEQUENCE);
      return tl_eval_error_value(s, n->loc);
    }
  }
  if (!tl_sema_spend_items(s, total * (args.len + 1), n->loc))
    return tl_eval_error_value(s, n->loc);
  TlValue *v = tl_eval_tuple_value(s, n->loc, true);
  for (int64_t k = 0; k < total; k++) {
    TlValue *t = tl_eval_tuple_value(s, n->loc, false);
    int64_t rest = k;
    for (int i = args.len - 1; i >= 0; i--) { // the last iterable varies fastest
      TlValue *seq = TL_VEC_AT(args, TlValue, i);
      int64_t len = seq->items.len;
      tl_vec_push(s->arena, &t->items, NULL);
      for (int j = t->items.len - 1; j > 0; j--)
        t->items.items[j] = t->items.items[j - 1];
      t->items.items[0] = seq->items.items[rest % len];
      rest /= len;
    }
    tl_vec_push(s->arena, &v->items, t);
  }
  return v;
}

// Python builtins and math functions on compile-time values; NULL when
// fname is not one of them.
TlValue *tl_eval_builtin(Sema *s, const TlNode *n, const char *fname, bool math, int nargs,
                         TlValue **args) {
  if (math && (strcmp(fname, "gcd") == 0 || strcmp(fname, "lcm") == 0)) {
    int64_t acc = fname[0] == 'g' ? 0 : 1;
    for (int i = 0; i < nargs; i++) {
      if (args[i]->kind != VAL_INT && args[i]->kind != VAL_BOOL) {
        tl_error(s->diag, n->loc, "'math.%s' takes integers", fname);
        return tl_eval_error_value(s, n->loc);
      }
      int64_t a = acc < 0 ? -acc : acc, b = args[i]->i, g;
      if (b == INT64_MIN || a == INT64_MIN) {
        tl_error(s->diag, n->loc, "integer overflow in math.%s", fname);
        return tl_eval_error_value(s, n->loc);
      }
      b = b < 0 ? -b : b;
      int64_t x = a, y = b;
      while (y) {
        int64_t r = x % y;
        x = y;
        y = r;
      }
      g = x;
      if (fname[0] == 'g') {
        acc = g;
      } else if (a == 0 || b == 0) {
        acc = 0;
      } else if (tl_mul_overflows(a / g, b, &acc)) {
        tl_error(s->diag, n->loc, "integer overflow in math.lcm");
        return tl_eval_error_value(s, n->loc);
      }
    }
    return tl_eval_int_value(s, n->loc, acc);
  }
  if (math) {
    static const char *const fns[] = {"sqrt", "log2", "log", "exp", "ceil", "floor", "log10", NULL};
    for (int i = 0; fns[i]; i++)
      if (strcmp(fname, fns[i]) == 0) {
        if (nargs != 1 || !tl_eval_is_number(args[0])) {
          tl_error(s->diag, n->loc, "'math.%s' takes one number", fname);
          return tl_eval_error_value(s, n->loc);
        }
        double x = tl_eval_as_double(args[0]);
        if (i >= 4) {
          double r = i == 4 ? ceil(x) : floor(x);
          if (!(r > -9.2e18 && r < 9.2e18)) {
            tl_error(s->diag, n->loc, "math.%s(%g) does not fit in 64 bits", fname, x);
            return tl_eval_error_value(s, n->loc);
          }
          return i == 6 ? tl_eval_float_value(s, n->loc, log10(x))
                        : tl_eval_int_value(s, n->loc, (int64_t)r);
        }
        if ((i == 0 && x < 0) || (i >= 1 && i <= 2 && x <= 0)) {
          tl_error(s->diag, n->loc, "math domain error in math.%s(%g)", fname, x);
          return tl_eval_error_value(s, n->loc);
        }
        double r = i == 0 ? sqrt(x) : i == 1 ? log2(x) : i == 2 ? log(x) : exp(x);
        return tl_eval_float_value(s, n->loc, r);
      }
    return NULL;
  }
  if (strcmp(fname, "range") == 0) return range_value(s, n, nargs, args);
  if (strcmp(fname, "zip") == 0 || strcmp(fname, "enumerate") == 0) {
    bool en = fname[0] == 'e';
    for (int i = 0; i < nargs; i++)
      if (!(args[i] = tl_value_iterable(s, args[i]))) {
        tl_error(s->diag, n->loc, "'%s' takes lists, tuples, dicts or strings", fname);
        return tl_eval_error_value(s, n->loc);
      }
    if (en && nargs != 1) {
      tl_error(s->diag, n->loc, "'enumerate' takes one list here");
      return tl_eval_error_value(s, n->loc);
    }
    int len = nargs ? args[0]->items.len : 0;
    for (int i = 1; i < nargs; i++)
      len = args[i]->items.len < len ? args[i]->items.len : len;
    TlValue *v = tl_eval_tuple_value(s, n->loc, true);
    for (int k = 0; k < len; k++) {
      TlValue *t = tl_eval_tuple_value(s, n->loc, false);
      if (en) tl_vec_push(s->arena, &t->items, tl_eval_int_value(s, n->loc, k));
      for (int i = 0; i < nargs; i++)
        tl_vec_push(s->arena, &t->items, args[i]->items.items[k]);
      tl_vec_push(s->arena, &v->items, t);
    }
    return v;
  }
  if (strcmp(fname, "dict") == 0 && nargs == 0) return tl_value_new(s, VAL_DICT, n->loc);
  if (strcmp(fname, "dict") == 0 && nargs == 1) { // dict(zip(names, values)), dict(other)
    TlValue *d = tl_value_new(s, VAL_DICT, n->loc);
    if (args[0]->kind == VAL_DICT) {
      for (int i = 0; i < args[0]->items.len; i++)
        tl_value_dict_set(s, d, TL_VEC_AT(args[0]->items, TlValue, i),
                          TL_VEC_AT(args[0]->values, TlValue, i));
      return d;
    }
    TlValue *pairs = tl_value_iterable(s, args[0]);
    if (!pairs) {
      tl_error(s->diag, n->loc, "'dict' takes a dict or a sequence of (key, value) pairs");
      return tl_eval_error_value(s, n->loc);
    }
    for (int i = 0; i < pairs->items.len; i++) {
      TlValue *p = TL_VEC_AT(pairs->items, TlValue, i);
      if (p->kind != VAL_TUPLE || p->items.len != 2) {
        tl_error(s->diag, n->loc,
                 "'dict' takes a dict or a sequence of (key, value) pairs; item %d is not a pair",
                 i);
        return tl_eval_error_value(s, n->loc);
      }
      tl_value_dict_set(s, d, TL_VEC_AT(p->items, TlValue, 0), TL_VEC_AT(p->items, TlValue, 1));
    }
    return d;
  }
  if (strcmp(fname, "print") == 0)
    return tl_value_new(s, VAL_NONE, n->loc); // host output: nothing at compile time
  if ((strcmp(fname, "list") == 0 || strcmp(fname, "tuple") == 0) && nargs <= 1) {
    TlValue *v = tl_eval_tuple_value(s, n->loc, fname[0] == 'l');
    if (nargs == 1 && args[0]->kind != VAL_TUPLE && tl_value_iterable(s, args[0]))
      args[0] = tl_value_iterable(s, args[0]);
    if (nargs == 1 && args[0]->kind != VAL_TUPLE) {
      tl_error(s->diag, n->loc, "'%s' takes a list or tuple here", fname);
      return tl_eval_error_value(s, n->loc);
    }
    if (nargs == 1) v->items = args[0]->items;
    return v;
  }
  if (strcmp(fname, "bool") == 0 && nargs == 1)
    return tl_eval_bool_value(s, n->loc, tl_value_truthy(args[0]));
  if (strcmp(fname, "str") == 0 && nargs == 1 && args[0]->kind == VAL_STR) return args[0];
  if (strcmp(fname, "round") == 0 && nargs == 1 && tl_eval_is_number(args[0])) {
    double x = tl_eval_as_double(args[0]), r = nearbyint(x); // Python rounds half to even
    if (!(r > -9.2e18 && r < 9.2e18)) {
      tl_error(s->diag, n->loc, "round(%g) does not fit in 64 bits", x);
      return tl_eval_error_value(s, n->loc);
    }
    return tl_eval_int_value(s, n->loc, (int64_t)r);
  }
  bool minmax = strcmp(fname, "min") == 0 || strcmp(fname, "max") == 0;
  if ((minmax || strcmp(fname, "sum") == 0) && nargs == 1 && args[0]->kind == VAL_TUPLE) {
    TlValue *seq = args[0];
    if (seq->items.len == 0) {
      if (!minmax) return tl_eval_int_value(s, n->loc, 0);
      tl_error(s->diag, n->loc, "'%s' of an empty sequence", fname);
      return tl_eval_error_value(s, n->loc);
    }
    TlValue *acc = TL_VEC_AT(seq->items, TlValue, 0);
    for (int i = 1; i < seq->items.len; i++) {
      TlValue *x = TL_VEC_AT(seq->items, TlValue, i);
      if (!tl_eval_is_number(acc) || !tl_eval_is_number(x)) {
        tl_error(s->diag, n->loc, "'%s' needs numbers", fname);
        return tl_eval_error_value(s, n->loc);
      }
      if (!minmax) {
        TlNode plus = {.kind = ND_BINOP, .op = TK_PLUS, .loc = n->loc};
        acc = tl_eval_binop(s, &plus, acc, x);
        if (acc->kind == VAL_ERROR) return acc;
      } else if ((fname[1] == 'i') == (tl_eval_as_double(x) < tl_eval_as_double(acc))) {
        acc = x;
      }
    }
    return acc;
  }
  if (minmax && nargs > 2) {
    TlValue *acc = args[0];
    for (int i = 1; i < nargs; i++) {
      if (!tl_eval_is_number(acc) || !tl_eval_is_number(args[i])) {
        tl_error(s->diag, n->loc, "'%s' needs numbers", fname);
        return tl_eval_error_value(s, n->loc);
      }
      if ((fname[1] == 'i') == (tl_eval_as_double(args[i]) < tl_eval_as_double(acc))) acc = args[i];
    }
    return acc;
  }
  return NULL;
}

static TlValue *runtime_size_named(Sema *s, const TlNode *n, const char *name,
                                   const TlNode *dtype);

// T.dynamic("m"[, dtype]), T.symbolic("m") and T.dyn["m"]: a size known only
// at run time. Kernels take it as an int parameter (Kernel.c); at compile
// time it is a value that only shapes and kernel expressions can use.
TlValue *tl_eval_runtime_size(Sema *s, const TlNode *n, const char *form, const TlNode *name,
                              const TlNode *dtype) {
  TlValue *nv = name ? tl_sema_eval_const(s, name) : NULL;
  if (nv && nv->kind == VAL_ERROR) return nv;
  if (!nv || nv->kind != VAL_STR || !nv->s[0]) {
    tl_error(s->diag, n->loc, "%s takes the size's name, e.g. %s(\"m\")", form, form);
    return tl_eval_error_value(s, n->loc);
  }
  // T.dynamic("batch, seq_len"): one size per name, as a tuple (as T.const)
  const char *names[TL_MAX_DIMS * 4];
  int count = tl_eval_split_names(s, nv->s, names, TL_MAX_DIMS * 4);
  if (count != 1 || strcmp(names[0], nv->s) != 0) {
    if (count <= 0) {
      if (count) tl_error(s->diag, nv->loc, "%s declares at most %d names at once", form,
                          TL_MAX_DIMS * 4);
      else tl_error(s->diag, nv->loc, "%s needs at least one name", form);
      return tl_eval_error_value(s, n->loc);
    }
    TlValue *tuple = tl_eval_tuple_value(s, n->loc, false);
    for (int i = 0; i < count; i++) {
      if (!tl_eval_is_identifier(names[i])) {
        tl_error(s->diag, nv->loc, "'%s' in %s is not a name", names[i], form);
        return tl_eval_error_value(s, n->loc);
      }
      TlValue *one = runtime_size_named(s, n, names[i], dtype);
      if (one->kind == VAL_ERROR) return one;
      tl_vec_push(s->arena, &tuple->items, one);
    }
    return count == 1 ? TL_VEC_AT(tuple->items, TlValue, 0) : tuple;
  }
  return runtime_size_named(s, n, nv->s, dtype);
}

// One runtime size: its --size binding (the harness's reference lowering),
// else a VAL_SIZE of dtype int32 or int64.
static TlValue *runtime_size_named(Sema *s, const TlNode *n, const char *name,
                                   const TlNode *dtype) {
  for (int i = 0; s->opts && i < s->opts->nsizes; i++) { // --size NAME=VALUE (harness reference)
    const char *b = s->opts->sizes[i];
    size_t len = strcspn(b, "=");
    if (strlen(name) == len && strncmp(b, name, len) == 0)
      return tl_eval_int_value(s, n->loc, strtoll(b + len + 1, NULL, 10));
  }
  TlValue *v = tl_value_new(s, VAL_SIZE, n->loc);
  v->s = name;
  v->dtype = TY_INT32;
  if (dtype) {
    TlValue *dv = tl_sema_eval_const(s, dtype);
    if (dv->kind == VAL_ERROR || !tl_value_as_dtype(s, dv, &v->dtype))
      return tl_eval_error_value(s, n->loc);
    if (v->dtype != TY_INT32 && v->dtype != TY_INT64) {
      tl_error(s->diag, dtype->loc, "a runtime size is int32 or int64, not %s",
               tl_dtype_name(v->dtype));
      return tl_eval_error_value(s, n->loc);
    }
  }
  return v;
}

// isinstance(x, int) / isinstance(x, (int, float)): the classes are read
// from the call's text (tlc has no class values), so only builtin type
// names are known.
TlValue *tl_eval_isinstance(Sema *s, const TlNode *n) {
  if (n->list.len != 2 || n->list2.len) {
    tl_error(s->diag, n->loc, "'isinstance' takes 2 arguments");
    return tl_eval_error_value(s, n->loc);
  }
  TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, 0));
  if (x->kind == VAL_ERROR) return x;
  const TlNode *cls = TL_VEC_AT(n->list, TlNode, 1);
  int count = cls->kind == ND_TUPLE ? cls->list.len : 1;
  bool match = false;
  for (int i = 0; i < count; i++) {
    const TlNode *c = cls->kind == ND_TUPLE ? TL_VEC_AT(cls->list, TlNode, i) : cls;
    static const char *const names[] = {"int", "float", "bool", "str", "tuple", "list", "dict",
                                        NULL};
    int k = 0;
    while (c->kind == ND_NAME && !tl_scope_lookup(s, c->name) && names[k] &&
           strcmp(names[k], c->name) != 0)
      k++;
    if (c->kind != ND_NAME || tl_scope_lookup(s, c->name) || !names[k]) {
      tl_error(s->diag, c->loc, "tlc's isinstance knows the classes int, float, bool, str, "
                                "tuple, list and dict");
      return tl_eval_error_value(s, n->loc);
    }
    switch (k) {
    case 0: match |= x->kind == VAL_INT || x->kind == VAL_BOOL; break; // bool is an int
    case 1: match |= x->kind == VAL_FLOAT; break;
    case 2: match |= x->kind == VAL_BOOL; break;
    case 3: match |= x->kind == VAL_STR; break;
    case 4: match |= x->kind == VAL_TUPLE && !x->is_list; break;
    case 5: match |= x->kind == VAL_TUPLE && x->is_list; break;
    default: match |= x->kind == VAL_DICT; break;
    }
  }
  return tl_eval_bool_value(s, n->loc, match);
}

// int("8") / float("-inf"): Python's literal forms for the two; NULL when
// str is not one.
TlValue *tl_eval_number_from_str(Sema *s, TlLoc loc, const char *str, bool is_float) {
  while (isspace((unsigned char)*str)) str++;
  char *end;
  errno = 0;
  if (is_float) {
    double d = strtod(str, &end);
    while (end != str && isspace((unsigned char)*end)) end++;
    if (end == str || *end) return NULL;
    return tl_eval_float_value(s, loc, d);
  }
  long long v = strtoll(str, &end, 10);
  while (end != str && isspace((unsigned char)*end)) end++;
  if (end == str || *end || errno == ERANGE) return NULL;
  return tl_eval_int_value(s, loc, v);
}
