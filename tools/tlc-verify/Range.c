// Interval analysis of integer index expressions, for the shared-memory
// bounds check. An expression becomes an affine form c + sum(k_i * atom_i)
// whose atoms are threadIdx/blockIdx components, loop counters and opaque
// sub-terms (x / c, x % c, x * y, min, max, ?:), each with a range. Keeping
// the affine structure (instead of plain interval arithmetic) lets a guard
// such as `if (i * 128 + threadIdx.x < 2047)` bound an index 4 * (...) + r:
// the index is rewritten as k * guard + rest, and both parts are bounded.
#include "Verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 12
#define MAX_DEPTH 24

typedef struct Atom Atom;
typedef struct Aff {
  bool ok; // false: too complex to represent; its range is unbounded
  long long c;
  int n;
  struct {
    Atom *a;
    long long k;
  } t[MAX_TERMS]; // sorted by atom key, no zero coefficients
} Aff;

typedef enum {
  A_TID, A_BID, A_LOOP, A_DIV, A_SHR, A_MOD, A_AND, A_OR, A_MUL, A_MIN, A_MAX, A_COND, A_OPAQUE
} AtomKind;

struct Atom {
  AtomKind kind;
  const char *key;   // structural: equal keys are the same value on one path
  const char *label; // for messages: threadIdx.x, a loop counter's name
  int dim;
  TvVar *var;
  long long k;
  Aff *x, *y;
  const TvExpr *cond;    // A_COND
  const TvFrame *frame;  // A_COND: the call its condition is read in
};

// A call to a small device function being read through (tl_swz): the
// argument forms, in the caller's atoms, and the template arguments.
struct TvFrame {
  const TvFunc *f;
  Aff *args;
  int nargs;
  const long long *targs;
  int ntargs;
};

struct TvGuard {
  Aff lhs;
  TvRange r;
  TvGuard *next;
};

static TvVec atoms; // interned by key

static Atom *intern(Atom a) {
  for (int i = 0; i < atoms.len; i++)
    if (!strcmp(TV_AT(atoms, Atom, i)->key, a.key))
      return TV_AT(atoms, Atom, i);
  Atom *n = tv_alloc(sizeof *n);
  *n = a;
  tv_push(&atoms, n);
  return n;
}

/* ---- saturating arithmetic: TV_NEG_INF / TV_POS_INF absorb ---- */

static bool inf(long long v) {
  return v == TV_NEG_INF || v == TV_POS_INF;
}

static long long sat_add(long long a, long long b) {
  if (inf(a))
    return a;
  if (inf(b))
    return b;
  long long r;
  if (__builtin_add_overflow(a, b, &r))
    return a > 0 ? TV_POS_INF : TV_NEG_INF;
  return r;
}

static long long sat_mul(long long a, long long b) {
  if (a == 0 || b == 0)
    return 0;
  bool neg = (a < 0) != (b < 0);
  long long r;
  if (inf(a) || inf(b) || __builtin_mul_overflow(a, b, &r))
    return neg ? TV_NEG_INF : TV_POS_INF;
  return r;
}

static TvRange top(void) {
  return (TvRange){TV_NEG_INF, TV_POS_INF};
}

static TvRange r_add(TvRange a, TvRange b) {
  TvRange r = {sat_add(a.lo, b.lo), sat_add(a.hi, b.hi)};
  // -inf + +inf stays unbounded on that side.
  if ((a.lo == TV_NEG_INF) || (b.lo == TV_NEG_INF))
    r.lo = TV_NEG_INF;
  if ((a.hi == TV_POS_INF) || (b.hi == TV_POS_INF))
    r.hi = TV_POS_INF;
  return r;
}

static TvRange r_scale(TvRange a, long long k) {
  TvRange r = {sat_mul(a.lo, k), sat_mul(a.hi, k)};
  if (k < 0) {
    long long t = r.lo;
    r.lo = r.hi;
    r.hi = t;
  }
  return r;
}

static TvRange r_mul(TvRange a, TvRange b) {
  long long c[4] = {sat_mul(a.lo, b.lo), sat_mul(a.lo, b.hi), sat_mul(a.hi, b.lo), sat_mul(a.hi, b.hi)};
  TvRange r = {c[0], c[0]};
  for (int i = 1; i < 4; i++) {
    if (c[i] < r.lo)
      r.lo = c[i];
    if (c[i] > r.hi)
      r.hi = c[i];
  }
  return r;
}

static TvRange r_meet(TvRange a, TvRange b) {
  TvRange r = {a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
  return r;
}

static long long div_floor(long long a, long long k) {
  if (inf(a))
    return a;
  long long q = a / k;
  return (a % k != 0 && a < 0) ? q - 1 : q;
}

static long long div_trunc(long long a, long long k) {
  return inf(a) ? a : a / k;
}

/* ---- constant folding ---- */

static bool eval(const TvExpr *e, long long *out, int depth) {
  long long a, b, c;
  if (!e || depth > MAX_DEPTH)
    return false;
  switch (e->kind) {
  case EX_INT:
    *out = e->value;
    return true;
  case EX_VAR:
    // A variable assigned only by its initializer is that initializer.
    if (tv_single_assignment(e->var))
      return eval(e->var->init, out, depth + 1);
    return false;
  case EX_CAST:
    return e->cast_to_integer && eval(e->kids[0], out, depth + 1);
  case EX_OTHER:
    return e->nkids == 1 && !e->name && eval(e->kids[0], out, depth + 1);
  case EX_UNARY:
    if (!eval(e->kids[0], &a, depth + 1))
      return false;
    if (!strcmp(e->op, "-"))
      *out = -a;
    else if (!strcmp(e->op, "+"))
      *out = a;
    else if (!strcmp(e->op, "~"))
      *out = ~a;
    else if (!strcmp(e->op, "!"))
      *out = !a;
    else
      return false;
    return true;
  case EX_COND:
    if (!eval(e->kids[0], &c, depth + 1))
      return false;
    return eval(e->kids[c ? 1 : 2], out, depth + 1);
  case EX_BINARY:
    if (!eval(e->kids[0], &a, depth + 1) || !eval(e->kids[1], &b, depth + 1))
      return false;
    if (!strcmp(e->op, "+"))
      return !__builtin_add_overflow(a, b, out);
    if (!strcmp(e->op, "-"))
      return !__builtin_sub_overflow(a, b, out);
    if (!strcmp(e->op, "*"))
      return !__builtin_mul_overflow(a, b, out);
    if ((!strcmp(e->op, "/") || !strcmp(e->op, "%")) && b != 0 && !(a == INT64_MIN && b == -1)) {
      *out = e->op[0] == '/' ? a / b : a % b;
      return true;
    }
    if (!strcmp(e->op, "<<") && b >= 0 && b < 63 && a >= 0 && a <= (INT64_MAX >> b)) {
      *out = a << b;
      return true;
    }
    if (!strcmp(e->op, ">>") && b >= 0 && b < 63) {
      *out = a >> b;
      return true;
    }
    if (!strcmp(e->op, "&")) *out = a & b;
    else if (!strcmp(e->op, "|")) *out = a | b;
    else if (!strcmp(e->op, "^")) *out = a ^ b;
    else if (!strcmp(e->op, "<")) *out = a < b;
    else if (!strcmp(e->op, "<=")) *out = a <= b;
    else if (!strcmp(e->op, ">")) *out = a > b;
    else if (!strcmp(e->op, ">=")) *out = a >= b;
    else if (!strcmp(e->op, "==")) *out = a == b;
    else if (!strcmp(e->op, "!=")) *out = a != b;
    else if (!strcmp(e->op, "&&")) *out = a && b;
    else if (!strcmp(e->op, "||")) *out = a || b;
    else return false;
    return true;
  default:
    return false;
  }
}

bool tv_const_eval(const TvExpr *e, long long *out) {
  return eval(e, out, 0);
}

/* ---- affine forms ---- */

static Aff aff_const(long long c) {
  Aff a = {.ok = true, .c = c};
  return a;
}

static Aff aff_bad(void) {
  Aff a = {.ok = false};
  return a;
}

static Aff aff_atom(Atom *at) {
  Aff a = aff_const(0);
  a.n = 1;
  a.t[0].a = at;
  a.t[0].k = 1;
  return a;
}

// a + s * b
static Aff aff_axpy(Aff a, long long s, const Aff *b) {
  if (!a.ok || !b->ok)
    return aff_bad();
  long long sc;
  if (__builtin_mul_overflow(s, b->c, &sc) || __builtin_add_overflow(a.c, sc, &a.c))
    return aff_bad();
  for (int j = 0; j < b->n; j++) {
    long long k;
    if (__builtin_mul_overflow(s, b->t[j].k, &k))
      return aff_bad();
    int i = 0;
    while (i < a.n && strcmp(a.t[i].a->key, b->t[j].a->key) < 0)
      i++;
    if (i < a.n && a.t[i].a == b->t[j].a) {
      if (__builtin_add_overflow(a.t[i].k, k, &a.t[i].k))
        return aff_bad();
      if (a.t[i].k == 0) {
        memmove(&a.t[i], &a.t[i + 1], sizeof a.t[0] * (size_t)(a.n - i - 1));
        a.n--;
      }
    } else {
      if (a.n == MAX_TERMS)
        return aff_bad();
      memmove(&a.t[i + 1], &a.t[i], sizeof a.t[0] * (size_t)(a.n - i));
      a.t[i].a = b->t[j].a;
      a.t[i].k = k;
      a.n++;
    }
  }
  return a;
}

static const char *aff_key(const Aff *a) {
  if (!a->ok)
    return tv_printf("?%p", (void *)a); // never equal to another key
  char *s = tv_printf("%lld", a->c);
  for (int i = 0; i < a->n; i++)
    s = tv_printf("%s+%lld*%s", s, a->t[i].k, a->t[i].a->key);
  return s;
}

static Aff *aff_box(Aff a) {
  Aff *p = tv_alloc(sizeof *p);
  *p = a;
  return p;
}

static int opaque_count;

static Aff opaque(void) {
  Atom a = {.kind = A_OPAQUE, .key = tv_printf("opaque#%d", opaque_count++)};
  return aff_atom(intern(a));
}

static Aff to_aff(const TvRangeEnv *env, const TvExpr *e, int depth);
static Aff inline_call(const TvRangeEnv *env, const TvExpr *e, int depth);

static Aff binary_atom(AtomKind kind, const char *tag, Aff x, Aff y, long long k) {
  Atom a = {.kind = kind, .k = k, .x = aff_box(x), .y = aff_box(y)};
  a.key = tv_printf("(%s %s %s %lld)", tag, aff_key(&x), aff_key(&y), k);
  return aff_atom(intern(a));
}

static Aff to_aff_binary(const TvRangeEnv *env, const TvExpr *e, int depth) {
  const char *op = e->op;
  Aff x = to_aff(env, e->kids[0], depth + 1);
  if (!strcmp(op, ","))
    return to_aff(env, e->kids[1], depth + 1);
  Aff y = to_aff(env, e->kids[1], depth + 1);
  if (!x.ok || !y.ok)
    return opaque();
  bool xc = x.n == 0, yc = y.n == 0;
  if (xc && yc) {
    // Both constant only now (template arguments of an inlined call).
    long long a = x.c, b = y.c, r;
    if (!strcmp(op, "^")) return aff_const(a ^ b);
    if (!strcmp(op, "|")) return aff_const(a | b);
    if (!strcmp(op, "&")) return aff_const(a & b);
    if ((!strcmp(op, "/") || !strcmp(op, "%")) && b > 0) return aff_const(op[0] == '/' ? a / b : a % b);
    if (!strcmp(op, ">>") && b >= 0 && b < 63) return aff_const(a >> b);
    if (!strcmp(op, "*") && !__builtin_mul_overflow(a, b, &r)) return aff_const(r);
  }
  if (!strcmp(op, "+"))
    return aff_axpy(x, 1, &y);
  if (!strcmp(op, "-"))
    return aff_axpy(x, -1, &y);
  if (!strcmp(op, "*")) {
    if (xc || yc) {
      Aff z = aff_const(0);
      return xc ? aff_axpy(z, x.c, &y) : aff_axpy(z, y.c, &x);
    }
    return binary_atom(A_MUL, "*", x, y, 0);
  }
  if (!strcmp(op, "^") || !strcmp(op, "|"))
    return binary_atom(A_OR, op, x, y, 0); // both bounded by the next power of two
  if (!yc)
    return opaque();
  long long k = y.c;
  if (!strcmp(op, "/") && k > 0)
    return xc ? aff_const(x.c / k) : binary_atom(A_DIV, "/", x, y, k);
  if (!strcmp(op, "%") && k > 0)
    return xc ? aff_const(x.c % k) : binary_atom(A_MOD, "%", x, y, k);
  if (!strcmp(op, "<<") && k >= 0 && k < 62) {
    Aff z = aff_const(0);
    return aff_axpy(z, 1LL << k, &x);
  }
  if (!strcmp(op, ">>") && k >= 0 && k < 62)
    return binary_atom(A_SHR, ">>", x, y, 1LL << k);
  if (!strcmp(op, "&") && k >= 0 && (k & (k + 1)) == 0)
    return binary_atom(A_AND, "&", x, y, k);
  return opaque();
}

// The one expression a small function computes: its body is constant
// declarations and a return (tl_swz). NULL for anything else.
static const TvExpr *simple_return(const TvFunc *f) {
  const TvStmt *b = f ? f->body : NULL;
  if (!b || b->kind != ST_BLOCK || b->nkids == 0)
    return NULL;
  for (int i = 0; i + 1 < b->nkids; i++) {
    const TvStmt *d = b->kids[i];
    if (d->kind != ST_DECL)
      return NULL;
    for (int j = 0; j < d->vars.len; j++)
      if (!tv_single_assignment(TV_AT(d->vars, TvVar, j)))
        return NULL;
  }
  const TvStmt *r = b->kids[b->nkids - 1];
  return r->kind == ST_RETURN ? r->expr : NULL;
}

static Aff inline_call(const TvRangeEnv *env, const TvExpr *e, int depth) {
  const TvExpr *ret = simple_return(e->func);
  if (!ret || e->nkids != e->func->params.len)
    return opaque();
  TvFrame *fr = tv_alloc(sizeof *fr);
  fr->f = e->func;
  fr->nargs = e->nkids;
  fr->args = tv_alloc(sizeof(Aff) * (size_t)(e->nkids + 1));
  for (int i = 0; i < e->nkids; i++)
    fr->args[i] = to_aff(env, e->kids[i], depth + 1);
  fr->targs = e->targs;
  fr->ntargs = e->ntargs;
  TvRangeEnv sub = *env;
  sub.frame = fr;
  return to_aff(&sub, ret, depth + 1);
}

static Aff to_aff(const TvRangeEnv *env, const TvExpr *e, int depth) {
  if (!e || depth > MAX_DEPTH)
    return opaque();
  long long v;
  if (e->kind != EX_VAR && tv_const_eval(e, &v))
    return aff_const(v);
  const TvFunc *k = env->kernel;
  switch (e->kind) {
  case EX_BUILTIN: {
    if (e->builtin == BI_BLOCK_DIM && k && k->threads_known)
      return aff_const(k->threads[e->dim]);
    if (e->builtin == BI_GRID_DIM && k && k->threads_known && k->grid[e->dim] > 0)
      return aff_const(k->grid[e->dim]);
    if (e->builtin != BI_THREAD_IDX && e->builtin != BI_BLOCK_IDX)
      return opaque();
    Atom a = {.kind = e->builtin == BI_THREAD_IDX ? A_TID : A_BID, .dim = e->dim, .label = e->name};
    a.key = e->name;
    return aff_atom(intern(a));
  }
  case EX_TPARAM:
    if (env->frame && e->value >= 0 && e->value < env->frame->ntargs && env->frame->targs[e->value] != TV_NEG_INF)
      return aff_const(env->frame->targs[e->value]);
    return opaque();
  case EX_VAR: {
    TvVar *var = e->var;
    for (int i = 0; env->frame && i < env->frame->nargs; i++)
      if (TV_AT(env->frame->f->params, TvVar, i) == var)
        return env->frame->args[i];
    bool single = var->nassign == 0 && !var->addr_taken;
    if (var->loop && single) {
      Atom a = {.kind = A_LOOP, .var = var, .label = var->name};
      a.key = tv_printf("%s@%u:%u", var->name, var->loc.line, var->loc.col);
      return aff_atom(intern(a));
    }
    if (tv_single_assignment(var) && var->is_integer)
      return to_aff(env, var->init, depth + 1);
    // Unknown but one value on the path: guards on it can still apply.
    Atom a = {.kind = A_OPAQUE, .var = var, .label = var->name};
    a.key = tv_printf("var %s@%u:%u%s", var->name, var->loc.line, var->loc.col, single ? "" : tv_printf("#%d", opaque_count++));
    return aff_atom(intern(a));
  }
  case EX_BINARY:
    return to_aff_binary(env, e, depth);
  case EX_UNARY:
    if (!strcmp(e->op, "-")) {
      Aff x = to_aff(env, e->kids[0], depth + 1);
      Aff z = aff_const(0);
      return aff_axpy(z, -1, &x);
    }
    if (!strcmp(e->op, "+"))
      return to_aff(env, e->kids[0], depth + 1);
    return opaque();
  case EX_CAST:
    // Integer casts are taken as value-preserving (tlc's indices fit).
    return e->cast_to_integer ? to_aff(env, e->kids[0], depth + 1) : opaque();
  case EX_OTHER:
    return e->nkids == 1 && !e->name ? to_aff(env, e->kids[0], depth + 1) : opaque();
  case EX_CALL:
    if (e->nkids == 2 && e->name && (!strcmp(e->name, "min") || !strcmp(e->name, "max") ||
                                     !strcmp(e->name, "umin") || !strcmp(e->name, "umax"))) {
      bool mn = strstr(e->name, "min") != NULL;
      return binary_atom(mn ? A_MIN : A_MAX, mn ? "min" : "max", to_aff(env, e->kids[0], depth + 1),
                         to_aff(env, e->kids[1], depth + 1), 0);
    }
    return e->func ? inline_call(env, e, depth) : opaque();
  case EX_COND: {
    Atom a = {.kind = A_COND, .cond = e, .frame = env->frame};
    a.key = tv_printf("cond@%p@%p", (const void *)e, (const void *)env->frame);
    a.x = aff_box(to_aff(env, e->kids[1], depth + 1));
    a.y = aff_box(to_aff(env, e->kids[2], depth + 1));
    return aff_atom(intern(a));
  }
  default:
    return opaque();
  }
}

/* ---- ranges ---- */

static TvRange aff_range(const TvRangeEnv *env, const Aff *a, int depth);

static TvRange atom_range(const TvRangeEnv *env, const Atom *a, int depth) {
  const TvFunc *k = env->kernel;
  TvRange x, y;
  switch (a->kind) {
  case A_TID:
    if (k && k->threads_known)
      return (TvRange){0, k->threads[a->dim] - 1};
    if (k && k->launch_bounds > 0)
      return (TvRange){0, k->launch_bounds - 1};
    return (TvRange){0, TV_POS_INF};
  case A_BID:
    if (k && k->threads_known && k->grid[a->dim] > 0)
      return (TvRange){0, k->grid[a->dim] - 1};
    return (TvRange){0, TV_POS_INF};
  case A_LOOP:
    return a->var->has_range ? (TvRange){a->var->range_lo, a->var->range_hi} : top();
  case A_DIV:
    x = aff_range(env, a->x, depth + 1);
    return (TvRange){div_trunc(x.lo, a->k), div_trunc(x.hi, a->k)};
  case A_SHR:
    x = aff_range(env, a->x, depth + 1);
    return (TvRange){div_floor(x.lo, a->k), div_floor(x.hi, a->k)};
  case A_MOD:
    x = aff_range(env, a->x, depth + 1);
    if (x.lo >= 0)
      return x.hi < a->k ? x : (TvRange){0, a->k - 1};
    if (x.hi <= 0)
      return x.lo > -a->k ? x : (TvRange){-(a->k - 1), 0};
    return (TvRange){-(a->k - 1), a->k - 1};
  case A_AND:
    x = aff_range(env, a->x, depth + 1);
    return (x.lo >= 0 && x.hi <= a->k) ? x : (TvRange){0, a->k};
  case A_OR: {
    // Non-negative a ^ b and a | b stay below the next power of two.
    x = aff_range(env, a->x, depth + 1);
    y = aff_range(env, a->y, depth + 1);
    if (x.lo < 0 || y.lo < 0 || inf(x.hi) || inf(y.hi))
      return top();
    long long m = x.hi > y.hi ? x.hi : y.hi, p = 1;
    while (p <= m)
      p <<= 1;
    return (TvRange){0, p - 1};
  }
  case A_MUL:
    return r_mul(aff_range(env, a->x, depth + 1), aff_range(env, a->y, depth + 1));
  case A_MIN:
  case A_MAX:
    x = aff_range(env, a->x, depth + 1);
    y = aff_range(env, a->y, depth + 1);
    if (a->kind == A_MIN)
      return (TvRange){x.lo < y.lo ? x.lo : y.lo, x.hi < y.hi ? x.hi : y.hi};
    return (TvRange){x.lo > y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi};
  case A_COND: {
    // Each arm under its own side of the condition, read in its call.
    TvRangeEnv sub = *env;
    sub.frame = a->frame;
    tv_push_cond(&sub, a->cond->kids[0], false);
    x = aff_range(&sub, a->x, depth + 1);
    sub = *env;
    sub.frame = a->frame;
    tv_push_cond(&sub, a->cond->kids[0], true);
    y = aff_range(&sub, a->y, depth + 1);
    return (TvRange){x.lo < y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi};
  }
  case A_OPAQUE:
    break;
  }
  return top();
}

static long long div_ceil(long long a, long long k) {
  return inf(a) ? a : -div_floor(-a, k);
}

// An atom's range narrowed by the guards on it alone: q * atom + c in
// [lo, hi] bounds the atom by the rounded quotients (threadIdx.x * 2 < 250
// gives threadIdx.x <= 124).
static TvRange guarded_atom_range(const TvRangeEnv *env, const Atom *a, int depth) {
  TvRange r = atom_range(env, a, depth);
  for (const TvGuard *g = env->guards; g; g = g->next) {
    if (g->lhs.n != 1 || g->lhs.t[0].a != a)
      continue;
    long long q = g->lhs.t[0].k;
    TvRange b = {sat_add(g->r.lo, -g->lhs.c), sat_add(g->r.hi, -g->lhs.c)};
    if (g->r.lo == TV_NEG_INF)
      b.lo = TV_NEG_INF;
    if (g->r.hi == TV_POS_INF)
      b.hi = TV_POS_INF;
    if (q > 0)
      r = r_meet(r, (TvRange){div_ceil(b.lo, q), div_floor(b.hi, q)});
    else
      r = r_meet(r, (TvRange){div_ceil(b.hi == TV_POS_INF ? TV_NEG_INF : b.hi, q),
                              div_floor(b.lo == TV_NEG_INF ? TV_POS_INF : b.lo, q)});
  }
  return r;
}

static TvRange aff_plain_range(const TvRangeEnv *env, const Aff *a, int depth) {
  if (!a->ok || depth > MAX_DEPTH)
    return top();
  TvRange r = {a->c, a->c};
  for (int i = 0; i < a->n; i++)
    r = r_add(r, r_scale(guarded_atom_range(env, a->t[i].a, depth), a->t[i].k));
  return r;
}

static long long coef(const Aff *a, const Atom *at) {
  for (int i = 0; i < a->n; i++)
    if (a->t[i].a == at)
      return a->t[i].k;
  return 0;
}

// The plain range, narrowed by every guard g the form can be written
// against: a = k * g.lhs + rest gives a in k * g.range + range(rest).
static TvRange aff_range(const TvRangeEnv *env, const Aff *a, int depth) {
  TvRange r = aff_plain_range(env, a, depth);
  if (!a->ok || depth > 6)
    return r;
  for (const TvGuard *g = env->guards; g; g = g->next) {
    for (int i = 0; i < g->lhs.n; i++) {
      long long ka = coef(a, g->lhs.t[i].a), kg = g->lhs.t[i].k;
      if (ka == 0 || ka % kg != 0)
        continue;
      long long k = ka / kg;
      Aff rest = aff_axpy(*a, -k, &g->lhs);
      if (!rest.ok)
        continue;
      // The rest is bounded without this guard, so that the recursion ends.
      TvRangeEnv sub = *env;
      sub.guards = g->next;
      TvRange rr = aff_range(&sub, &rest, depth + 1);
      r = r_meet(r, r_add(r_scale(g->r, k), rr));
      break;
    }
  }
  return r;
}

/* ---- congruences: value = r (mod g) ---- */

// Interval bounds alone lose that tlc's vector indices are multiples of the
// vector width (an index in [0, 4095] that steps by 8 ends at 4088); a
// congruence per form keeps it: x * 8 % 32 is 0 mod 8, and so on.
typedef struct Cong {
  long long g, r; // g >= 1, 0 <= r < g
} Cong;

static long long gcd(long long a, long long b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static Cong cong_make(long long g, long long r) {
  if (g <= 0 || g > (1LL << 40))
    return (Cong){1, 0};
  r %= g;
  return (Cong){g, r < 0 ? r + g : r};
}

static Cong cong_aff(const Aff *a, int depth);

static Cong cong_join(Cong x, Cong y) {
  long long g = gcd(gcd(x.g, y.g), x.r - y.r);
  return cong_make(g ? g : 1, x.r);
}

static Cong cong_atom(const Atom *a, int depth) {
  Cong x, y;
  if (depth > MAX_DEPTH)
    return (Cong){1, 0};
  switch (a->kind) {
  case A_MOD:
  case A_AND: {
    // x % k and x & (k - 1) keep x's residue modulo gcd(g, k) (x >= 0).
    x = cong_aff(a->x, depth + 1);
    long long k = a->kind == A_MOD ? a->k : a->k + 1;
    return cong_make(gcd(x.g, k), x.r);
  }
  case A_MUL:
    x = cong_aff(a->x, depth + 1);
    y = cong_aff(a->y, depth + 1);
    if (x.r == 0 && y.r == 0 && x.g < (1LL << 20) && y.g < (1LL << 20))
      return cong_make(x.g * y.g, 0);
    return (Cong){1, 0};
  case A_OR: {
    // Multiples of 2^p xor/or multiples of 2^q are multiples of 2^min(p, q).
    x = cong_aff(a->x, depth + 1);
    y = cong_aff(a->y, depth + 1);
    if (x.r || y.r)
      return (Cong){1, 0};
    long long g = gcd(x.g, y.g), p = 1;
    while (g % (p * 2) == 0)
      p *= 2;
    return cong_make(p, 0);
  }
  case A_MIN:
  case A_MAX:
  case A_COND:
    return cong_join(cong_aff(a->x, depth + 1), cong_aff(a->y, depth + 1));
  default:
    return (Cong){1, 0};
  }
}

static Cong cong_aff(const Aff *a, int depth) {
  if (!a->ok)
    return (Cong){1, 0};
  long long g = 0, r = a->c;
  for (int i = 0; i < a->n; i++) {
    Cong c = cong_atom(a->t[i].a, depth + 1);
    long long k;
    if (__builtin_mul_overflow(a->t[i].k, c.g, &k))
      return (Cong){1, 0};
    g = gcd(g, k);
    if (__builtin_mul_overflow(a->t[i].k, c.r, &k) || __builtin_add_overflow(r, k, &r))
      return (Cong){1, 0};
  }
  return g ? cong_make(g, r) : (Cong){1, 0};
}

static void describe(const TvRangeEnv *env, const Aff *a, char *buf, size_t len, int depth) {
  if (!a->ok || depth > 4)
    return;
  for (int i = 0; i < a->n; i++) {
    const Atom *at = a->t[i].a;
    if (at->kind == A_TID || at->kind == A_BID || at->kind == A_LOOP) {
      char item[128];
      TvRange r = aff_range(env, &(Aff){.ok = true, .n = 1, .t = {{(Atom *)at, 1}}}, 0);
      snprintf(item, sizeof item, "%s in [%lld, %lld]", at->label, r.lo, r.hi);
      if (strstr(buf, item) || inf(r.lo) || inf(r.hi))
        continue;
      size_t n = strlen(buf);
      snprintf(buf + n, len - n, "%s%s", n ? ", " : "", item);
    } else {
      if (at->x)
        describe(env, at->x, buf, len, depth + 1);
      if (at->y)
        describe(env, at->y, buf, len, depth + 1);
    }
  }
}

TvRange tv_range(const TvRangeEnv *env, const TvExpr *e, char *atoms_buf, size_t atoms_len) {
  Aff a = to_aff(env, e, 0);
  if (atoms_buf && atoms_len) {
    atoms_buf[0] = '\0';
    describe(env, &a, atoms_buf, atoms_len, 0);
  }
  TvRange r = aff_range(env, &a, 0);
  Cong c = cong_aff(&a, 0);
  if (c.g > 1 && !inf(r.lo) && !inf(r.hi)) {
    // The nearest values inside [lo, hi] that have the residue.
    long long dl = (c.r - r.lo) % c.g, dh = (r.hi - c.r) % c.g;
    r.lo += dl < 0 ? dl + c.g : dl;
    r.hi -= dh < 0 ? dh + c.g : dh;
  }
  return r;
}

void tv_congruence(const TvRangeEnv *env, const TvExpr *e, long long *g, long long *r) {
  Aff a = to_aff(env, e, 0);
  Cong c = cong_aff(&a, 0);
  *g = c.g;
  *r = c.r;
}

/* ---- guards ---- */

static void push(TvRangeEnv *env, Aff lhs, TvRange r) {
  if (!lhs.ok || lhs.n == 0)
    return;
  TvGuard *g = tv_alloc(sizeof *g);
  g->lhs = lhs;
  g->r = r;
  g->next = env->guards;
  env->guards = g;
}

static void push_cond(TvRangeEnv *env, const TvExpr *c, bool negate, int depth) {
  c = tv_strip((TvExpr *)c);
  if (!c || depth > MAX_DEPTH)
    return;
  if (c->kind == EX_UNARY && !strcmp(c->op, "!")) {
    push_cond(env, c->kids[0], !negate, depth + 1);
    return;
  }
  if (c->kind != EX_BINARY)
    return;
  const char *op = c->op;
  // a && b is true: both are; a || b is false: neither is.
  if ((!strcmp(op, "&&") && !negate) || (!strcmp(op, "||") && negate)) {
    push_cond(env, c->kids[0], negate, depth + 1);
    push_cond(env, c->kids[1], negate, depth + 1);
    return;
  }
  static const struct {
    const char *op, *neg;
    TvRange r; // of lhs - rhs when the comparison holds
  } cmps[] = {{"<", ">=", {TV_NEG_INF, -1}}, {"<=", ">", {TV_NEG_INF, 0}}, {">", "<=", {1, TV_POS_INF}},
              {">=", "<", {0, TV_POS_INF}},  {"==", "!=", {0, 0}}};
  for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++) {
    // Negated, `a < b` is the row of `>=`.
    if (strcmp(op, negate ? cmps[i].neg : cmps[i].op))
      continue;
    Aff l = to_aff(env, c->kids[0], depth + 1), r = to_aff(env, c->kids[1], depth + 1);
    push(env, aff_axpy(l, -1, &r), cmps[i].r);
    return;
  }
}

TvGuard *tv_push_cond(TvRangeEnv *env, const TvExpr *cond, bool negate) {
  TvGuard *saved = env->guards;
  push_cond(env, cond, negate, 0);
  return saved;
}

void tv_pop_guards(TvRangeEnv *env, TvGuard *saved) {
  env->guards = saved;
}
