// Compile-time values: module constants (`M = 4096`, `block_M, block_N =
// 128, 128`, `dtype = "float16"`), helpers and kernels, and the evaluator
// for constant expressions. Integer arithmetic is exact 64-bit with overflow
// reported as an error, and // and % follow Python.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../Sema/SemaInternal.h"

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
                                "macro", "host code", "dict",     "runtime size", "error"};
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

static TlValue *int_value(Sema *s, TlLoc loc, int64_t i) {
  TlValue *v = tl_value_new(s, VAL_INT, loc);
  v->i = i;
  return v;
}

const TlValue *tl_value_str(Sema *s, TlLoc loc, const char *str);
const TlValue *tl_value_str(Sema *s, TlLoc loc, const char *str) {
  TlValue *v = tl_value_new(s, VAL_STR, loc);
  v->s = str;
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

static TlValue *tuple_value(Sema *s, TlLoc loc, bool is_list) {
  TlValue *v = tl_value_new(s, VAL_TUPLE, loc);
  v->is_list = is_list;
  return v;
}

enum { MAX_SEQUENCE = 1 << 20 }; // items a compile-time list or string may hold

// + and * on lists, tuples and strings, as Python does.
static TlValue *sequence_binop(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (n->op == TK_PLUS && l->kind == VAL_STR && r->kind == VAL_STR) {
    // Bounded like a repetition: doubling a string 31 times would reach the
    // 2 GB where the text buffers stop; each byte copied is work.
    int64_t len = (int64_t)strlen(l->s) + (int64_t)strlen(r->s);
    if (len > MAX_SEQUENCE) {
      tl_error(s->diag, n->loc,
               "this string would be %lld bytes; compile-time strings hold at "
               "most %d",
               (long long)len, MAX_SEQUENCE);
      return error_value(s, n->loc);
    }
    if (!tl_sema_spend_work(s, len / 64, n->loc)) return error_value(s, n->loc);
    return (TlValue *)tl_value_str(s, n->loc, tl_arena_printf(s->arena, "%s%s", l->s, r->s));
  }
  if (n->op == TK_PLUS && l->kind == VAL_TUPLE && r->kind == VAL_TUPLE) {
    if (!tl_sema_spend_items(s, l->items.len + r->items.len, n->loc))
      return error_value(s, n->loc);
    TlValue *v = tuple_value(s, n->loc, l->is_list);
    for (int i = 0; i < l->items.len; i++)
      tl_vec_push(s->arena, &v->items, TL_VEC_AT(l->items, TlValue, i));
    for (int i = 0; i < r->items.len; i++)
      tl_vec_push(s->arena, &v->items, TL_VEC_AT(r->items, TlValue, i));
    return v;
  }
  if (n->op == TK_STAR && (l->kind == VAL_INT || r->kind == VAL_INT)) {
    TlValue *seq = l->kind == VAL_INT ? r : l;
    int64_t times = l->kind == VAL_INT ? l->i : r->i;
    if (seq->kind == VAL_TUPLE || seq->kind == VAL_STR) {
      int64_t len = seq->kind == VAL_TUPLE ? seq->items.len : (int64_t)strlen(seq->s);
      if (times > 0 && len > 0 && times > MAX_SEQUENCE / len) {
        tl_error(s->diag, n->loc, "this repetition makes more than %d items", MAX_SEQUENCE);
        return error_value(s, n->loc);
      }
      if (times > 0 && !tl_sema_spend_items(s, times * len, n->loc))
        return error_value(s, n->loc);
      if (seq->kind == VAL_STR) {
        TlBuf b;
        tl_buf_init(&b, s->arena);
        tl_buf_puts(&b, "");
        for (int64_t i = 0; i < times; i++)
          tl_buf_puts(&b, seq->s);
        return (TlValue *)tl_value_str(s, n->loc, b.data);
      }
      TlValue *v = tuple_value(s, n->loc, seq->is_list);
      for (int64_t i = 0; i < times; i++)
        for (int j = 0; j < seq->items.len; j++)
          tl_vec_push(s->arena, &v->items, TL_VEC_AT(seq->items, TlValue, j));
      return v;
    }
  }
  return NULL;
}

static TlValue *bitwise(Sema *s, const TlNode *n, int64_t a, int64_t b) {
  switch (n->op) {
  case TK_AMP:
    return int_value(s, n->loc, a & b);
  case TK_PIPE:
    return int_value(s, n->loc, a | b);
  case TK_CARET:
    return int_value(s, n->loc, a ^ b);
  default:
    break;
  }
  if (b < 0) {
    tl_error(s->diag, n->loc, "negative shift count %lld", (long long)b);
    return error_value(s, n->loc);
  }
  if (n->op == TK_RSHIFT)
    return int_value(s, n->loc, b > 63 ? (a < 0 ? -1 : 0) : a >> b);
  int64_t out = a;
  for (int64_t i = 0; i < b && out != 0; i++)
    if (tl_mul_overflows(out, 2, &out)) {
      tl_error(s->diag, n->loc, "integer overflow in constant expression: %lld << %lld does not "
                                "fit in 64 bits", (long long)a, (long long)b);
      return error_value(s, n->loc);
    }
  return int_value(s, n->loc, out);
}

static TlValue *binop(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (l->kind == VAL_ERROR || r->kind == VAL_ERROR)
    return error_value(s, n->loc);
  TlValue *seq = sequence_binop(s, n, l, r);
  if (seq)
    return seq;
  if ((n->op == TK_AMP || n->op == TK_PIPE || n->op == TK_CARET || n->op == TK_LSHIFT ||
       n->op == TK_RSHIFT) &&
      (l->kind == VAL_INT || l->kind == VAL_BOOL) && (r->kind == VAL_INT || r->kind == VAL_BOOL))
    return bitwise(s, n, l->i, r->i);
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
  if (is_number(a) && is_number(b))
    return (a->kind == VAL_FLOAT || b->kind == VAL_FLOAT) ? as_double(a) == as_double(b)
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
  if (is_number(v)) {
    double f = as_double(v);
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
static int index_find(const TlValue *c, const TlValue *key) {
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
  int pos = index_find(dict, key);
  return pos < 0 ? NULL : TL_VEC_AT(dict->values, TlValue, pos);
}

// d[k] = v: replaces the value of an equal key, else appends.
void tl_value_dict_set(Sema *s, TlValue *dict, TlValue *key, TlValue *value) {
  int pos = index_find(dict, key);
  if (pos >= 0) {
    dict->values.items[pos] = value;
    return;
  }
  tl_vec_push(s->arena, &dict->items, key);
  tl_vec_push(s->arena, &dict->values, value);
  index_add(s, dict, dict->items.len - 1);
}

bool tl_value_set_add(Sema *s, TlValue *set, TlValue *x) {
  if (index_find(set, x) >= 0) return false;
  tl_vec_push(s->arena, &set->items, x);
  index_add(s, set, set->items.len - 1);
  return true;
}

// == on values the user compares: false after reporting at loc when they
// are nested too deeply to compare; the values visited count as work.
static bool checked_equal(Sema *s, TlLoc loc, const TlValue *a, const TlValue *b, bool *eq) {
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

static TlValue *bool_value(Sema *s, TlLoc loc, bool b) {
  TlValue *v = tl_value_new(s, VAL_BOOL, loc);
  v->i = b;
  return v;
}

static TlValue *compare(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (l->kind == VAL_ERROR || r->kind == VAL_ERROR) return error_value(s, n->loc);
  bool eq = false;
  if (n->op == TK_IS) { // identity: the same for the immutable values tlc has
    if (l->kind == r->kind && !checked_equal(s, n->loc, l, r, &eq)) return error_value(s, n->loc);
    return bool_value(s, n->loc, (l->kind == r->kind && eq) != (n->ival != 0));
  }
  if (n->op == TK_IN) {
    bool found = false;
    if (r->kind == VAL_DICT && r->index) {
      found = index_find(r, l) >= 0;
    } else if (r->kind == VAL_TUPLE || r->kind == VAL_DICT) {
      // A linear scan: in a loop it is the work, not the statements, that
      // grows, so every item compared counts against the work budget.
      for (int i = 0; i < r->items.len && !found; i++)
        if (!checked_equal(s, n->loc, l, TL_VEC_AT(r->items, TlValue, i), &found))
          return error_value(s, n->loc);
    } else if (r->kind == VAL_STR && l->kind == VAL_STR) {
      if (!tl_sema_spend_work(s, (int64_t)strlen(r->s) / 64, n->loc)) return error_value(s, n->loc);
      found = strstr(r->s, l->s) != NULL;
    } else {
      tl_error(s->diag, n->loc, "'in' needs a list, tuple or string on its right, found %s %s",
               tl_value_kind_article(r->kind), tl_value_kind_name(r->kind));
      return error_value(s, n->loc);
    }
    return bool_value(s, n->loc, found != (n->ival != 0));
  }
  if ((n->op == TK_EQEQ || n->op == TK_NE) && !(is_number(l) && is_number(r)) &&
      !(l->kind == VAL_STR && r->kind == VAL_STR)) {
    if (!checked_equal(s, n->loc, l, r, &eq)) return error_value(s, n->loc);
    return bool_value(s, n->loc, eq == (n->op == TK_EQEQ));
  }
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

// range(stop) / range(start, stop[, step]) as a list of ints.
static TlValue *range_value(Sema *s, const TlNode *n, int nargs, TlValue **args) {
  int64_t r[3] = {0, 0, 1};
  if (nargs < 1 || nargs > 3) {
    tl_error(s->diag, n->loc, "'range' takes 1 to 3 arguments, %d given", nargs);
    return error_value(s, n->loc);
  }
  for (int i = 0; i < nargs; i++) {
    if (args[i]->kind != VAL_INT && args[i]->kind != VAL_BOOL) {
      tl_error(s->diag, args[i]->loc, "'range' needs integers, found %s %s",
               tl_value_kind_article(args[i]->kind), tl_value_kind_name(args[i]->kind));
      return error_value(s, n->loc);
    }
    r[nargs == 1 ? 1 : i] = args[i]->i;
  }
  if (r[2] == 0) {
    tl_error(s->diag, n->loc, "range() step must not be zero");
    return error_value(s, n->loc);
  }
  TlValue *v = tuple_value(s, n->loc, true);
  for (int64_t x = r[0]; r[2] > 0 ? x < r[1] : x > r[1]; x += r[2]) {
    if (v->items.len == MAX_SEQUENCE) {
      tl_error(s->diag, n->loc, "this range has more than %d values", MAX_SEQUENCE);
      return error_value(s, n->loc);
    }
    if (!tl_sema_spend_items(s, 1, n->loc))
      return error_value(s, n->loc);
    tl_vec_push(s->arena, &v->items, int_value(s, n->loc, x));
    if ((r[2] > 0 && x > INT64_MAX - r[2]) || (r[2] < 0 && x < INT64_MIN - r[2]))
      break;
  }
  return v;
}

TlValue *tl_value_iterable(Sema *s, TlValue *v) {
  if (v->kind == VAL_TUPLE)
    return v;
  if (v->kind == VAL_DICT) {
    TlValue *keys = tuple_value(s, v->loc, true);
    keys->items = v->items;
    return keys;
  }
  if (v->kind == VAL_STR) {
    TlValue *chars = tuple_value(s, v->loc, true);
    for (const char *p = v->s; *p; p++)
      tl_vec_push(s->arena, &chars->items,
                  (void *)tl_value_str(s, v->loc, tl_arena_printf(s->arena, "%c", *p)));
    return chars;
  }
  return NULL;
}

// The positional arguments of a builtin or module function; `*seq` spreads
// a list or tuple (itertools.product(*configs.values()), zip(*rows)).
static TlValue *eval_args(Sema *s, const TlNode *n, TlVec *out) {
  for (int i = 0; i < n->list.len; i++) {
    const TlNode *a = TL_VEC_AT(n->list, TlNode, i);
    TlValue *v = tl_sema_eval_const(s, a->kind == ND_STARRED ? a->a : a);
    if (v->kind == VAL_ERROR)
      return v;
    if (a->kind != ND_STARRED) {
      tl_vec_push(s->arena, out, v);
      continue;
    }
    if (v->kind != VAL_TUPLE) {
      tl_error(s->diag, a->loc, "'*' needs a list or tuple, found %s %s",
               tl_value_kind_article(v->kind), tl_value_kind_name(v->kind));
      return error_value(s, a->loc);
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
static TlValue *product(Sema *s, const TlNode *n) {
  TlVec args = {0};
  TlValue *bad = eval_args(s, n, &args);
  if (bad)
    return bad;
  if (!all_sequences(s, n, &args, "itertools.product"))
    return error_value(s, n->loc);
  int64_t total = 1;
  for (int i = 0; i < args.len; i++) {
    total *= TL_VEC_AT(args, TlValue, i)->items.len;
    if (total > MAX_SEQUENCE) {
      tl_error(s->diag, n->loc, "this product has more than %d tuples", MAX_SEQUENCE);
      return error_value(s, n->loc);
    }
  }
  if (!tl_sema_spend_items(s, total * (args.len + 1), n->loc))
    return error_value(s, n->loc);
  TlValue *v = tuple_value(s, n->loc, true);
  for (int64_t k = 0; k < total; k++) {
    TlValue *t = tuple_value(s, n->loc, false);
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

// Methods on compile-time values: dict.items/keys/values/get.
static TlValue *method(Sema *s, const TlNode *n, TlValue *self) {
  const char *m = n->a->name;
  TlVec args = {0};
  TlValue *bad = eval_args(s, n, &args);
  if (bad)
    return bad;
  if (self->kind == VAL_DICT && args.len == 0 &&
      (strcmp(m, "items") == 0 || strcmp(m, "keys") == 0 || strcmp(m, "values") == 0)) {
    TlValue *v = tuple_value(s, n->loc, true);
    for (int i = 0; i < self->items.len; i++) {
      TlValue *k = TL_VEC_AT(self->items, TlValue, i), *x = TL_VEC_AT(self->values, TlValue, i);
      if (m[0] == 'i') {
        TlValue *pair = tuple_value(s, n->loc, false);
        tl_vec_push(s->arena, &pair->items, k);
        tl_vec_push(s->arena, &pair->items, x);
        tl_vec_push(s->arena, &v->items, pair);
      } else {
        tl_vec_push(s->arena, &v->items, m[0] == 'k' ? k : x);
      }
    }
    return v;
  }
  if (self->kind == VAL_DICT && strcmp(m, "get") == 0 && (args.len == 1 || args.len == 2)) {
    TlValue *x = tl_value_dict_get(self, TL_VEC_AT(args, TlValue, 0));
    return x ? x : args.len == 2 ? TL_VEC_AT(args, TlValue, 1) : tl_value_new(s, VAL_NONE, n->loc);
  }
  tl_error(s->diag, n->loc, "tlc cannot call '.%s' on %s %s at compile time", m,
           tl_value_kind_article(self->kind), tl_value_kind_name(self->kind));
  return error_value(s, n->loc);
}

// Python builtins and math functions on compile-time values; NULL when
// fname is not one of them.
static TlValue *builtin(Sema *s, const TlNode *n, const char *fname, bool math, int nargs,
                        TlValue **args) {
  if (math) {
    static const char *const fns[] = {"sqrt", "log2", "log", "exp", "ceil", "floor", "log10", NULL};
    for (int i = 0; fns[i]; i++)
      if (strcmp(fname, fns[i]) == 0) {
        if (nargs != 1 || !is_number(args[0])) {
          tl_error(s->diag, n->loc, "'math.%s' takes one number", fname);
          return error_value(s, n->loc);
        }
        double x = as_double(args[0]);
        if (i >= 4) {
          double r = i == 4 ? ceil(x) : floor(x);
          if (!(r > -9.2e18 && r < 9.2e18)) {
            tl_error(s->diag, n->loc, "math.%s(%g) does not fit in 64 bits", fname, x);
            return error_value(s, n->loc);
          }
          return i == 6 ? float_value(s, n->loc, log10(x)) : int_value(s, n->loc, (int64_t)r);
        }
        if ((i == 0 && x < 0) || (i >= 1 && i <= 2 && x <= 0)) {
          tl_error(s->diag, n->loc, "math domain error in math.%s(%g)", fname, x);
          return error_value(s, n->loc);
        }
        double r = i == 0 ? sqrt(x) : i == 1 ? log2(x) : i == 2 ? log(x) : exp(x);
        return float_value(s, n->loc, r);
      }
    return NULL;
  }
  if (strcmp(fname, "range") == 0)
    return range_value(s, n, nargs, args);
  if (strcmp(fname, "zip") == 0 || strcmp(fname, "enumerate") == 0) {
    bool en = fname[0] == 'e';
    for (int i = 0; i < nargs; i++)
      if (!(args[i] = tl_value_iterable(s, args[i]))) {
        tl_error(s->diag, n->loc, "'%s' takes lists, tuples, dicts or strings", fname);
        return error_value(s, n->loc);
      }
    if (en && nargs != 1) {
      tl_error(s->diag, n->loc, "'enumerate' takes one list here");
      return error_value(s, n->loc);
    }
    int len = nargs ? args[0]->items.len : 0;
    for (int i = 1; i < nargs; i++)
      len = args[i]->items.len < len ? args[i]->items.len : len;
    TlValue *v = tuple_value(s, n->loc, true);
    for (int k = 0; k < len; k++) {
      TlValue *t = tuple_value(s, n->loc, false);
      if (en)
        tl_vec_push(s->arena, &t->items, int_value(s, n->loc, k));
      for (int i = 0; i < nargs; i++)
        tl_vec_push(s->arena, &t->items, args[i]->items.items[k]);
      tl_vec_push(s->arena, &v->items, t);
    }
    return v;
  }
  if (strcmp(fname, "dict") == 0 && nargs == 0)
    return tl_value_new(s, VAL_DICT, n->loc);
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
      return error_value(s, n->loc);
    }
    for (int i = 0; i < pairs->items.len; i++) {
      TlValue *p = TL_VEC_AT(pairs->items, TlValue, i);
      if (p->kind != VAL_TUPLE || p->items.len != 2) {
        tl_error(s->diag, n->loc,
                 "'dict' takes a dict or a sequence of (key, value) pairs; item %d is not a pair",
                 i);
        return error_value(s, n->loc);
      }
      tl_value_dict_set(s, d, TL_VEC_AT(p->items, TlValue, 0), TL_VEC_AT(p->items, TlValue, 1));
    }
    return d;
  }
  if (strcmp(fname, "print") == 0)
    return tl_value_new(s, VAL_NONE, n->loc); // host output: nothing at compile time
  if ((strcmp(fname, "list") == 0 || strcmp(fname, "tuple") == 0) && nargs <= 1) {
    TlValue *v = tuple_value(s, n->loc, fname[0] == 'l');
    if (nargs == 1 && args[0]->kind != VAL_TUPLE && tl_value_iterable(s, args[0]))
      args[0] = tl_value_iterable(s, args[0]);
    if (nargs == 1 && args[0]->kind != VAL_TUPLE) {
      tl_error(s->diag, n->loc, "'%s' takes a list or tuple here", fname);
      return error_value(s, n->loc);
    }
    if (nargs == 1)
      v->items = args[0]->items;
    return v;
  }
  if (strcmp(fname, "bool") == 0 && nargs == 1)
    return bool_value(s, n->loc, tl_value_truthy(args[0]));
  if (strcmp(fname, "str") == 0 && nargs == 1 && args[0]->kind == VAL_STR)
    return args[0];
  if (strcmp(fname, "round") == 0 && nargs == 1 && is_number(args[0])) {
    double x = as_double(args[0]), r = nearbyint(x); // Python rounds half to even
    if (!(r > -9.2e18 && r < 9.2e18)) {
      tl_error(s->diag, n->loc, "round(%g) does not fit in 64 bits", x);
      return error_value(s, n->loc);
    }
    return int_value(s, n->loc, (int64_t)r);
  }
  bool minmax = strcmp(fname, "min") == 0 || strcmp(fname, "max") == 0;
  if ((minmax || strcmp(fname, "sum") == 0) && nargs == 1 && args[0]->kind == VAL_TUPLE) {
    TlValue *seq = args[0];
    if (seq->items.len == 0) {
      if (!minmax)
        return int_value(s, n->loc, 0);
      tl_error(s->diag, n->loc, "'%s' of an empty sequence", fname);
      return error_value(s, n->loc);
    }
    TlValue *acc = TL_VEC_AT(seq->items, TlValue, 0);
    for (int i = 1; i < seq->items.len; i++) {
      TlValue *x = TL_VEC_AT(seq->items, TlValue, i);
      if (!is_number(acc) || !is_number(x)) {
        tl_error(s->diag, n->loc, "'%s' needs numbers", fname);
        return error_value(s, n->loc);
      }
      if (!minmax) {
        TlNode plus = {.kind = ND_BINOP, .op = TK_PLUS, .loc = n->loc};
        acc = binop(s, &plus, acc, x);
        if (acc->kind == VAL_ERROR)
          return acc;
      } else if ((fname[1] == 'i') == (as_double(x) < as_double(acc))) {
        acc = x;
      }
    }
    return acc;
  }
  if (minmax && nargs > 2) {
    TlValue *acc = args[0];
    for (int i = 1; i < nargs; i++) {
      if (!is_number(acc) || !is_number(args[i])) {
        tl_error(s->diag, n->loc, "'%s' needs numbers", fname);
        return error_value(s, n->loc);
      }
      if ((fname[1] == 'i') == (as_double(args[i]) < as_double(acc)))
        acc = args[i];
    }
    return acc;
  }
  return NULL;
}

// T.dynamic("m"[, dtype]), T.symbolic("m") and T.dyn["m"]: a size known only
// at run time. Kernels take it as an int parameter (Kernel.c); at compile
// time it is a value that only shapes and kernel expressions can use.
static TlValue *runtime_size(Sema *s, const TlNode *n, const char *form, const TlNode *name,
                             const TlNode *dtype) {
  TlValue *nv = name ? tl_sema_eval_const(s, name) : NULL;
  if (nv && nv->kind == VAL_ERROR) return nv;
  if (!nv || nv->kind != VAL_STR || !nv->s[0]) {
    tl_error(s->diag, n->loc, "%s takes the size's name, e.g. %s(\"m\")", form, form);
    return error_value(s, n->loc);
  }
  for (int i = 0; s->opts && i < s->opts->nsizes; i++) { // --size NAME=VALUE (harness reference)
    const char *b = s->opts->sizes[i];
    size_t len = strcspn(b, "=");
    if (strlen(nv->s) == len && strncmp(b, nv->s, len) == 0)
      return int_value(s, n->loc, strtoll(b + len + 1, NULL, 10));
  }
  TlValue *v = tl_value_new(s, VAL_SIZE, n->loc);
  v->s = nv->s;
  v->dtype = TY_INT32;
  if (dtype) {
    TlValue *dv = tl_sema_eval_const(s, dtype);
    if (dv->kind == VAL_ERROR || !tl_value_as_dtype(s, dv, &v->dtype))
      return error_value(s, n->loc);
    if (v->dtype != TY_INT32 && v->dtype != TY_INT64) {
      tl_error(s->diag, dtype->loc, "a runtime size is int32 or int64, not %s",
               tl_dtype_name(v->dtype));
      return error_value(s, n->loc);
    }
  }
  return v;
}

static TlValue *call(Sema *s, const TlNode *n) {
  const char *t = tl_sema_t_attr(s, n->a);
  // A user function, factory, or something host code defined.
  if (!t && n->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->name);
    if (y && y->kind == SYM_VALUE &&
        (y->value->kind == VAL_FUNC || y->value->kind == VAL_KERNEL ||
         y->value->kind == VAL_MACRO || y->value->kind == VAL_OPAQUE)) {
      if (y->value->kind == VAL_OPAQUE) {
        tl_sema_report_opaque(s, n->a->loc, y->value);
        return error_value(s, n->loc);
      }
      return tl_sema_call_user(s, n, y->value);
    }
  }
  if (!t && n->a->kind == ND_CALL) { // factory(...)(...)
    TlValue *f = call(s, n->a);
    if (f->kind == VAL_ERROR)
      return f;
    return tl_sema_call_user(s, n, f);
  }
  TlValue *library = tl_sema_library_call(s, n); // tilelang.cdiv, driver.get_num_sms(), ...
  if (library) return library;
  // Functions of Python modules tlc knows (math.*, itertools.product),
  // spelled m.f(...) or imported with `from m import f`.
  const char *qualified = NULL;
  if (!t && n->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE)
      qualified = y->value->s;
  }
  if (!t && n->a->kind == ND_ATTR && n->a->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE)
      qualified = tl_arena_printf(s->arena, "%s.%s", y->value->s, n->a->name);
  }
  if (qualified && strcmp(qualified, "itertools.product") == 0)
    return product(s, n);
  if (qualified && strcmp(qualified, "tilelang.compile") == 0)
    return tl_sema_compile_method(s, n, NULL);
  if (!t && n->a->kind == ND_ATTR && !qualified) { // d.items(), d.get(k, default)
    TlSym *y = n->a->a->kind == ND_NAME ? tl_scope_lookup(s, n->a->a->name) : NULL;
    if (!y || y->kind == SYM_VALUE) {
      TlValue *self = tl_sema_eval_const(s, n->a->a);
      if (self->kind == VAL_ERROR)
        return self;
      if (strcmp(n->a->name, "compile") == 0 &&
          (self->kind == VAL_FUNC || self->kind == VAL_KERNEL))
        return tl_sema_compile_method(s, n, self); // f.compile(M=1024, ...)
      return method(s, n, self);
    }
  }
  bool math = false;
  if (qualified && strncmp(qualified, "math.", 5) == 0) {
    math = true;
  } else if (!t && n->a->kind == ND_ATTR && n->a->a->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->a->a->name);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, n->a->a->loc, y->value);
      return error_value(s, n->loc);
    } else if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE) {
      tl_error(s->diag, n->loc, "'%s.%s' belongs to the Python module '%s', which tlc does not "
                                "evaluate", n->a->a->name, n->a->name, y->value->s);
      return error_value(s, n->loc);
    }
  }
  const char *fname = t ? t : math ? strrchr(qualified, '.') + 1 : n->a->kind == ND_NAME ? n->a->name : NULL;
  int nargs = n->list.len;
  TlValue *args[8];
  if (!t && fname && strcmp(fname, "print") == 0 && n->a->kind == ND_NAME)
    return tl_value_new(s, VAL_NONE, n->loc); // host output: nothing at compile time
  if (!t && fname && strcmp(fname, "dict") == 0 && n->a->kind == ND_NAME && n->list.len == 0) {
    TlValue *d = tl_value_new(s, VAL_DICT, n->loc); // dict(block_M=64, threads=128)
    for (int k = 0; k < n->list2.len; k++) {
      TlNode *kw = TL_VEC_AT(n->list2, TlNode, k);
      TlValue *x = tl_sema_eval_const(s, kw->a);
      if (x->kind == VAL_ERROR)
        return x;
      if (kw->op == TK_STARSTAR) {
        if (x->kind != VAL_DICT) {
          tl_error(s->diag, kw->loc, "'**' needs a dict");
          return error_value(s, n->loc);
        }
        for (int i = 0; i < x->items.len; i++)
          tl_value_dict_set(s, d, TL_VEC_AT(x->items, TlValue, i), TL_VEC_AT(x->values, TlValue, i));
        continue;
      }
      tl_value_dict_set(s, d, (TlValue *)tl_value_str(s, kw->loc, kw->name), x);
    }
    return d;
  }
  if (!fname) {
    tl_error(s->diag, n->loc, "this call cannot be evaluated at compile time");
    return error_value(s, n->loc);
  }
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
      return error_value(s, n->loc);
    }
    return runtime_size(s, n, form, TL_VEC_AT(n->list, TlNode, 0), dtype);
  }
  if (n->list2.len > 0) {
    TlNode *kw = TL_VEC_AT(n->list2, TlNode, 0);
    tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to '%s'", kw->name, fname);
    return error_value(s, n->loc);
  }
  TlVec argv = {0};
  TlValue *bad = eval_args(s, n, &argv); // `*seq` spreads
  if (bad) return bad;
  nargs = argv.len;
  if (nargs > 8) {
    tl_error(s->diag, n->loc, "too many arguments to '%s'", fname);
    return error_value(s, n->loc);
  }
  for (int i = 0; i < nargs; i++)
    args[i] = TL_VEC_AT(argv, TlValue, i);
  if (!t) {
    TlValue *b = builtin(s, n, fname, math, nargs, args);
    if (b)
      return b;
  }
  if (t && (strcmp(t, "infinity") == 0 || strcmp(t, "max_value") == 0 ||
            strcmp(t, "min_value") == 0)) { // `fill = -T.infinity(accum_dtype)` in a factory
    int before = s->diag->nerrors;
    TlExpr *e = s->lower.expr(s, n);
    if (e->kind == EX_FLOAT)
      return float_value(s, n->loc, e->fval);
    if (e->kind == EX_INT && s->diag->nerrors == before)
      return int_value(s, n->loc, e->ival);
    return error_value(s, n->loc);
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
        // Python returns the winning argument itself: max(3, 2.5) is the int 3
        double a = as_double(args[0]), b = as_double(args[1]);
        bool first = fname[1] == 'i' ? a <= b : a >= b; // ties go to the first
        return first ? args[0] : args[1];
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
      if (x->kind == VAL_TUPLE || x->kind == VAL_DICT)
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
    return (TlValue *)tl_value_str(s, n->loc, tl_arena_printf(s->arena, "%s.%s", base->name, n->name));
  if (!t && base->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, base->name);
    if (y && y->kind == SYM_BUFFER && strcmp(n->name, "dtype") == 0) {
      TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
      v->dtype = y->buf->dtype;
      return v;
    }
    if (y && y->kind == SYM_BUFFER && strcmp(n->name, "shape") == 0) {
      TlValue *v = tuple_value(s, n->loc, true);
      for (int i = 0; i < y->buf->ndims; i++) {
        const TlVar *size = y->buf->dyn[i];
        TlValue *d =
            size ? tl_value_new(s, VAL_SIZE, n->loc) : int_value(s, n->loc, y->buf->shape[i]);
        if (size) {
          d->s = size->name;
          d->dtype = size->dtype;
        }
        tl_vec_push(s->arena, &v->items, d);
      }
      return v;
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, base->loc, y->value);
      return error_value(s, n->loc);
    }
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE &&
        strcmp(y->value->s, "math") == 0 && (strcmp(n->name, "pi") == 0 || strcmp(n->name, "e") == 0))
      return float_value(s, n->loc, n->name[0] == 'p' ? 3.14159265358979323846 : 2.71828182845904523536);
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE) {
      tl_error(s->diag, n->loc, "'%s.%s' belongs to the Python module '%s', which tlc does not "
                                "evaluate", base->name, n->name, y->value->s);
      return error_value(s, n->loc);
    }
  }
  tl_error(s->diag, n->loc, "'%s' is not a compile-time constant", t ? t : n->name);
  return error_value(s, n->loc);
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
    return runtime_size(s, n, "T.dyn", n->list.len == 1 ? TL_VEC_AT(n->list, TlNode, 0) : NULL,
                        NULL);
  TlValue *seq = tl_sema_eval_const(s, n->a);
  if (seq->kind == VAL_ERROR)
    return seq;
  if (seq->kind == VAL_DICT && n->list.len == 1) {
    TlValue *key = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, 0));
    if (key->kind == VAL_ERROR)
      return key;
    TlValue *v = tl_value_dict_get(seq, key);
    if (!v) {
      tl_error(s->diag, n->loc, "key %s%s%s is not in the dict", key->kind == VAL_STR ? "'" : "",
               key->kind == VAL_STR ? key->s : "(this key)", key->kind == VAL_STR ? "'" : "");
      return error_value(s, n->loc);
    }
    return v;
  }
  if (seq->kind != VAL_TUPLE && seq->kind != VAL_STR) {
    tl_error(s->diag, n->loc, "%s %s cannot be indexed at compile time",
             tl_value_kind_article(seq->kind), tl_value_kind_name(seq->kind));
    return error_value(s, n->loc);
  }
  if (n->list.len != 1) {
    tl_error(s->diag, n->loc, "a list or tuple takes one index");
    return error_value(s, n->loc);
  }
  int64_t len = seq->kind == VAL_TUPLE ? seq->items.len : (int64_t)strlen(seq->s);
  const TlNode *ix = TL_VEC_AT(n->list, TlNode, 0);
  if (ix->kind != ND_SLICE) {
    TlValue *iv = tl_sema_eval_const(s, ix);
    int64_t i;
    if (iv->kind == VAL_ERROR || !index_of(s, ix, len, iv, &i))
      return error_value(s, n->loc);
    if (seq->kind == VAL_STR)
      return (TlValue *)tl_value_str(s, n->loc, tl_arena_printf(s->arena, "%c", seq->s[i]));
    return TL_VEC_AT(seq->items, TlValue, i);
  }
  int64_t bound[3] = {0, len, 1};
  bool given[3] = {false, false, false}; // present and not None
  const TlNode *parts[3] = {ix->a, ix->b, ix->c};
  for (int k = 2; k >= 0; k--) {
    if (!parts[k])
      continue;
    TlValue *v = tl_sema_eval_const(s, parts[k]);
    if (v->kind == VAL_ERROR)
      return v;
    if (v->kind == VAL_NONE)
      continue;
    if (v->kind != VAL_INT && v->kind != VAL_BOOL) {
      tl_error(s->diag, parts[k]->loc, "slice bounds must be integers");
      return error_value(s, n->loc);
    }
    bound[k] = v->i;
    given[k] = true;
  }
  int64_t step = given[2] ? bound[2] : 1;
  if (step == 0) {
    tl_error(s->diag, ix->loc, "slice step cannot be zero");
    return error_value(s, n->loc);
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
    if (b[k] < lo)
      b[k] = lo;
    if (b[k] > hi)
      b[k] = hi;
  }
  TlValue *v = seq->kind == VAL_TUPLE ? tuple_value(s, n->loc, seq->is_list) : NULL;
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
  if (!tl_sema_enter(s, n->loc)) return error_value(s, n->loc);
  TlValue *v = eval_node(s, n);
  tl_sema_leave(s);
  return v;
}

static TlValue *eval_node(Sema *s, const TlNode *n) {
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
    if (n->ival && strchr(n->str, '{')) {
      tl_error(s->diag, n->loc, "tlc does not evaluate f-strings");
      return error_value(s, n->loc);
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
      return error_value(s, n->loc);
    }
    if (y->kind != SYM_VALUE) {
      tl_error(s->diag, n->loc, "'%s' is not a compile-time constant", n->name);
      tl_note(s->diag, y->loc, "'%s' declared here", n->name);
      return error_value(s, n->loc);
    }
    if (y->value->kind == VAL_OPAQUE) {
      tl_sema_report_opaque(s, n->loc, y->value);
      return error_value(s, n->loc);
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
    TlValue *v = tuple_value(s, n->loc, n->kind == ND_LIST);
    for (int i = 0; i < n->list.len; i++) {
      TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
      if (x->kind == VAL_ERROR)
        return x;
      tl_vec_push(s->arena, &v->items, x);
    }
    return v;
  }
  case ND_DICT: {
    TlValue *v = tl_value_new(s, VAL_DICT, n->loc);
    for (int i = 0; i < n->list.len; i++) {
      TlValue *k = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
      TlValue *x = tl_sema_eval_const(s, TL_VEC_AT(n->list2, TlNode, i));
      if (k->kind == VAL_ERROR || x->kind == VAL_ERROR)
        return error_value(s, n->loc);
      tl_value_dict_set(s, v, k, x);
    }
    return v;
  }
  case ND_SET: { // a set: its distinct items, in order (tlc has no set type)
    TlValue *v = tuple_value(s, n->loc, true);
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
    if (n->op == TK_TILDE) {
      if (x->kind == VAL_FLOAT) {
        tl_error(s->diag, n->loc, "unary '~' cannot take a float");
        return error_value(s, n->loc);
      }
      return int_value(s, n->loc, ~x->i);
    }
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
    v->env = s->scope; // closes over the enclosing function's names
    return v;
  }
  default:
    tl_error(s->diag, n->loc, "expected a constant expression");
    return error_value(s, n->loc);
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
    if (tl_sema_t_attr(s, n) || (n->a->kind == ND_ATTR && tl_sema_t_attr(s, n->a)))
      return true;
    if (n->a->kind != ND_NAME)
      return false;
    TlSym *y = tl_scope_lookup(s, n->a->name);
    return y && ((y->kind == SYM_BUFFER && (strcmp(n->name, "dtype") == 0 ||
                                             strcmp(n->name, "shape") == 0)) ||
                 (y->kind == SYM_VALUE && y->value->kind == VAL_MODULE));
  }
  case ND_SUBSCRIPT: // a compile-time list indexed by constants (not a buffer load)
    if (!tl_sema_is_constant_expr(s, n->a))
      return false;
    for (int i = 0; i < n->list.len; i++) {
      const TlNode *ix = TL_VEC_AT(n->list, TlNode, i);
      if (ix->kind != ND_SLICE && !tl_sema_is_constant_expr(s, ix))
        return false;
    }
    return true;
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
