// Compile-time values: module constants (`M = 4096`, `block_M, block_N =
// 128, 128`, `dtype = "float16"`), helpers and kernels. Their constructors,
// kind names, truthiness, Python equality and hashing, and the hash index
// that dicts and sets keep.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "EvalInternal.h"

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
  static const char *names[] = {"int",   "float",     "bool",     "str",          "None",
                                "tuple", "dtype",     "function", "module",       "kernel",
                                "macro", "host code", "dict",     "runtime size", "mbarrier", "autotuner",
                                "torch tensor", "TensorCoreIntrinEmitter", "error"};
  return names[k];
}

TlValue *tl_eval_error_value(Sema *s, TlLoc loc) {
  return tl_value_new(s, VAL_ERROR, loc);
}

const char *tl_sema_t_attr(Sema *s, const TlNode *n) {
  if (n->kind != ND_ATTR) return NULL;
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

bool tl_sema_names_module(Sema *s, const TlNode *n, const char *leaf) {
  // tvm.tir / tvm.tirx written through the tvm module (`tvm.tirx.const(...)`)
  if (n->kind == ND_ATTR && strcmp(n->name, leaf) == 0 &&
      (strcmp(leaf, "tir") == 0 || strcmp(leaf, "tirx") == 0))
    return tl_sema_names_module(s, n->a, "tvm");
  if (n->kind != ND_NAME) return false;
  TlSym *y = tl_scope_lookup(s, n->name);
  if (!y || y->kind != SYM_VALUE || y->value->kind != VAL_MODULE || !y->value->s) return false;
  const char *m = y->value->s, *dot = strrchr(m, '.');
  return strcmp(dot ? dot + 1 : m, leaf) == 0;
}

bool tl_value_as_dtype(Sema *s, const TlValue *v, TlDtype *out) {
  if (v->kind == VAL_DTYPE) {
    *out = v->dtype;
    return true;
  }
  if (v->kind == VAL_STR) {
    if (tl_dtype_parse(v->s, out)) return true;
    tl_error(s->diag, v->loc, "unknown dtype '%s'", v->s);
    tl_note(s->diag, v->loc,
            "dtypes are float16, bfloat16, float32, float64, float8_e4m3, float8_e5m2, int8, "
            "uint8, int16, uint16, int32, uint32, int64, uint64, bool");
    return false;
  }
  if (v->kind != VAL_ERROR)
    tl_error(s->diag, v->loc, "expected a dtype, found a %s", tl_value_kind_name(v->kind));
  return false;
}

// Levenshtein distance, for "did you mean" notes on unknown names.
static int edit_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 40 || lb > 40) return 99;
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

void tl_sema_unknown_name(Sema *s, TlLoc loc, const char *name) {
  tl_error(s->diag, loc, "use of undeclared name '%s'", name);
  const char *best = NULL;
  int best_d = 3;
  // The note is a courtesy: it looks at the 300 nearest names at most, so
  // that thousands of errors in a file with thousands of names cost linear
  // time, not quadratic.
  int looked = 0;
  int len = (int)strlen(name);
  for (TlSymScope *sc = s->scope ? s->scope : s->globals; sc && looked < 300; sc = sc->parent)
    for (TlSym *y = sc->syms; y && looked < 300; y = y->next) {
      looked++;
      int other = (int)strlen(y->name);
      if (other - len >= best_d || len - other >= best_d)
        continue; // the distance is at least the difference in length
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

TlValue *tl_eval_int_value(Sema *s, TlLoc loc, int64_t i) {
  TlValue *v = tl_value_new(s, VAL_INT, loc);
  v->i = i;
  return v;
}

const TlValue *tl_value_str(Sema *s, TlLoc loc, const char *str) {
  TlValue *v = tl_value_new(s, VAL_STR, loc);
  v->s = str;
  return v;
}

TlValue *tl_eval_float_value(Sema *s, TlLoc loc, double f) {
  TlValue *v = tl_value_new(s, VAL_FLOAT, loc);
  v->f = f;
  return v;
}

bool tl_eval_is_number(const TlValue *v) {
  return v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
}

double tl_eval_as_double(const TlValue *v) {
  return v->kind == VAL_FLOAT ? v->f : (double)v->i;
}

// Integer power by squaring, overflow-checked. b >= 0.
bool tl_eval_ipow(int64_t a, int64_t b, int64_t *out) {
  int64_t r = 1;
  while (b > 0) {
    if (b & 1)
      if (tl_mul_overflows(r, a, &r)) return false;
    b >>= 1;
    if (b && tl_mul_overflows(a, a, &a)) return false;
  }
  *out = r;
  return true;
}

TlValue *tl_eval_tuple_value(Sema *s, TlLoc loc, bool is_list) {
  TlValue *v = tl_value_new(s, VAL_TUPLE, loc);
  v->is_list = is_list;
  return v;
}

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
  case VAL_DICT:
    return v->items.len > 0;
  case VAL_NONE:
    return false;
  default:
    return true;
  }
}

// Values nested deeper than this (x = [x] in a loop) are not compared or
// hashed: the walks below recurse once per level.
enum { MAX_VALUE_DEPTH = 1000 };

// Python equality: 1 equal, 0 not, -1 nested past MAX_VALUE_DEPTH (cannot
// tell). *work counts the values visited, for the evaluator's work budget.
static int equal_at(const TlValue *a, const TlValue *b, int depth, int64_t *work) {
  (*work)++;
  if (depth > MAX_VALUE_DEPTH) return -1;
  if (tl_eval_is_number(a) && tl_eval_is_number(b))
    return (a->kind == VAL_FLOAT || b->kind == VAL_FLOAT)
               ? tl_eval_as_double(a) == tl_eval_as_double(b)
               : a->i == b->i;
  // TileLang's dtypes compare equal to their names: dtype == T.float16 with
  // dtype = "float16" (value_hash hashes a dtype as its canonical name).
  TlDtype named;
  if (a->kind == VAL_STR && b->kind == VAL_DTYPE)
    return tl_dtype_parse(a->s, &named) && named == b->dtype;
  if (a->kind == VAL_DTYPE && b->kind == VAL_STR)
    return tl_dtype_parse(b->s, &named) && named == a->dtype;
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
  case VAL_STR:
    *work += (int64_t)strlen(a->s) / 64;
    return strcmp(a->s, b->s) == 0;
  case VAL_NONE:
    return 1;
  case VAL_DTYPE:
    return a->dtype == b->dtype;
  case VAL_DICT:
    if (a->items.len != b->items.len) return 0;
    for (int i = 0; i < a->items.len; i++) {
      TlValue *other = tl_value_dict_get(b, TL_VEC_AT(a->items, TlValue, i));
      if (!other) return 0;
      int r = equal_at(TL_VEC_AT(a->values, TlValue, i), other, depth + 1, work);
      if (r != 1) return r;
    }
    return 1;
  case VAL_TUPLE:
    if (a->items.len != b->items.len || a->is_list != b->is_list) // [1] != (1,)
      return 0;
    for (int i = 0; i < a->items.len; i++) {
      int r = equal_at(TL_VEC_AT(a->items, TlValue, i), TL_VEC_AT(b->items, TlValue, i), depth + 1,
                       work);
      if (r != 1) return r;
    }
    return 1;
  default:
    return a->fn == b->fn && a->env == b->env && a->s == b->s;
  }
}

bool tl_value_equal(const TlValue *a, const TlValue *b) {
  int64_t work = 0;
  return equal_at(a, b, 0, &work) == 1;
}

// A hash consistent with equal_at: equal numbers of any kind hash alike.
static uint64_t value_hash(const TlValue *v, int depth) {
  uint64_t h = 1469598103934665603u; // FNV-1a
  if (depth > MAX_VALUE_DEPTH) return h;
  if (tl_eval_is_number(v)) {
    double f = tl_eval_as_double(v);
    int64_t i = v->i;
    if (v->kind == VAL_FLOAT) {
      if (!(f >= -9.2e18 && f <= 9.2e18 && f == (double)(int64_t)f)) {
        memcpy(&i, &f, sizeof i); // a non-integral float equals no int
        return (uint64_t)i * 0x9e3779b97f4a7c15u;
      }
      i = (int64_t)f;
    }
    return ((uint64_t)i + 1) * 0x9e3779b97f4a7c15u;
  }
  switch (v->kind) {
  case VAL_STR:
  case VAL_DTYPE: // as its canonical name, which equals it
    for (const unsigned char *c =
             (const unsigned char *)(v->kind == VAL_STR ? v->s : tl_dtype_name(v->dtype));
         *c; c++)
      h = (h ^ *c) * 1099511628211u;
    return h;
  case VAL_TUPLE:
    for (int i = 0; i < v->items.len; i++)
      h = (h ^ value_hash(TL_VEC_AT(v->items, TlValue, i), depth + 1)) * 1099511628211u;
    return h;
  case VAL_DICT: // equal dicts may list their keys in any order
    return h ^ (uint64_t)v->items.len;
  default:
    return h ^ (uint64_t)v->kind ^ (uint64_t)(uintptr_t)v->fn ^ (uint64_t)(uintptr_t)v->env ^
           (uint64_t)(uintptr_t)v->s;
  }
}

// Dicts and sets of more than a few items keep a hash index of their items
// (open addressing, positions, load at most 1/2), so building one of n items
// costs O(n), not O(n^2) equality tests.
enum { INDEX_FROM = 8 };

struct TlValueIndex {
  int *slots; // item positions, -1 for empty
  int cap;    // a power of two
};

static void index_insert(struct TlValueIndex *ix, const TlValue *c, int pos) {
  uint64_t mask = (uint64_t)ix->cap - 1;
  uint64_t at = value_hash(TL_VEC_AT(c->items, TlValue, pos), 0) & mask;
  while (ix->slots[at] >= 0)
    at = (at + 1) & mask;
  ix->slots[at] = pos;
}

// Records item pos of c (just appended) in its index, building or growing it.
static void index_add(Sema *s, TlValue *c, int pos) {
  int n = c->items.len;
  if (n < INDEX_FROM) return;
  struct TlValueIndex *ix = c->index;
  if (!ix || 2 * n > ix->cap) {
    ix = TL_NEW(s->arena, struct TlValueIndex);
    ix->cap = 4 * INDEX_FROM;
    while (ix->cap < 4 * n)
      ix->cap *= 2;
    ix->slots = TL_NEW_ARRAY(s->arena, int, ix->cap);
    for (int i = 0; i < ix->cap; i++)
      ix->slots[i] = -1;
    for (int i = 0; i < n; i++)
      index_insert(ix, c, i);
    c->index = ix;
    return;
  }
  index_insert(ix, c, pos);
}

// The position of an item equal to key in c (a dict's keys, a set's
// items), or -1.
int tl_eval_index_find(const TlValue *c, const TlValue *key) {
  const struct TlValueIndex *ix = c->index;
  if (!ix) {
    for (int i = 0; i < c->items.len; i++)
      if (tl_value_equal(TL_VEC_AT(c->items, TlValue, i), key)) return i;
    return -1;
  }
  uint64_t mask = (uint64_t)ix->cap - 1;
  for (uint64_t at = value_hash(key, 0) & mask; ix->slots[at] >= 0; at = (at + 1) & mask) {
    int pos = ix->slots[at];
    if (pos < c->items.len && tl_value_equal(TL_VEC_AT(c->items, TlValue, pos), key)) return pos;
  }
  return -1;
}

TlValue *tl_value_dict_get(const TlValue *dict, const TlValue *key) {
  int pos = tl_eval_index_find(dict, key);
  return pos < 0 ? NULL : TL_VEC_AT(dict->values, TlValue, pos);
}

// d[k] = v: replaces the value of an equal key, else appends.
void tl_value_dict_set(Sema *s, TlValue *dict, TlValue *key, TlValue *value) {
  int pos = tl_eval_index_find(dict, key);
  if (pos >= 0) {
    dict->values.items[pos] = value;
    return;
  }
  tl_vec_push(s->arena, &dict->items, key);
  tl_vec_push(s->arena, &dict->values, value);
  index_add(s, dict, dict->items.len - 1);
}

bool tl_value_set_add(Sema *s, TlValue *set, TlValue *x) {
  if (tl_eval_index_find(set, x) >= 0) return false;
  tl_vec_push(s->arena, &set->items, x);
  index_add(s, set, set->items.len - 1);
  return true;
}

// == on values the user compares: false after reporting at loc when they
// are nested too deeply to compare; the values visited count as work.
bool tl_eval_checked_equal(Sema *s, TlLoc loc, const TlValue *a, const TlValue *b, bool *eq) {
  int64_t work = 0;
  int r = equal_at(a, b, 0, &work);
  if (r < 0) {
    tl_error(s->diag, loc, "values nested more than %d deep cannot be compared at compile time",
             MAX_VALUE_DEPTH);
    return false;
  }
  *eq = r == 1;
  return tl_sema_spend_work(s, work, loc);
}

TlValue *tl_eval_bool_value(Sema *s, TlLoc loc, bool b) {
  TlValue *v = tl_value_new(s, VAL_BOOL, loc);
  v->i = b;
  return v;
}
