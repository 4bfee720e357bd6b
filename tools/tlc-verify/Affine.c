// Affine forms: lowering integer expressions to c + sum(k_i * atom_i).
// Keeping the affine structure (instead of plain interval arithmetic) lets
// a guard such as `if (i * 128 + threadIdx.x < 2047)` bound an index
// 4 * (...) + r: Range.c rewrites the index as k * guard + rest. Atoms are
// interned by a structural key, so the same sub-term met twice (in a guard
// and in an index) is the same atom. Small device functions (tl_swz) are
// read through with their arguments and template arguments.
#include "Affine.h"

#include <stdio.h>
#include <string.h>

// Interned atoms, by key: an open-addressing hash table (a linear scan made
// a TileLang attention file take minutes: every opaque sub-term is an atom).
static Atom **atom_table;
static size_t atom_cap, atom_count;

static size_t key_hash(const char *k) {
  size_t h = 1469598103934665603ull;
  for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ull;
  return h;
}

static void atom_put(Atom *n) {
  size_t i = key_hash(n->key) & (atom_cap - 1);
  while (atom_table[i]) i = (i + 1) & (atom_cap - 1);
  atom_table[i] = n;
}

static Atom *intern(Atom a) {
  if (2 * (atom_count + 1) > atom_cap) { // keep the table at most half full
    Atom **old = atom_table;
    size_t old_cap = atom_cap;
    atom_cap = atom_cap ? 2 * atom_cap : 256;
    atom_table = tv_alloc(atom_cap * sizeof *atom_table);
    memset(atom_table, 0, atom_cap * sizeof *atom_table);
    for (size_t i = 0; i < old_cap; i++)
      if (old[i]) atom_put(old[i]);
  }
  for (size_t i = key_hash(a.key) & (atom_cap - 1); atom_table[i]; i = (i + 1) & (atom_cap - 1))
    if (!strcmp(atom_table[i]->key, a.key)) return atom_table[i];
  Atom *n = tv_alloc(sizeof *n);
  *n = a;
  atom_put(n);
  atom_count++;
  return n;
}

Aff tv_aff_const(long long c) {
  Aff a = {.ok = true, .c = c};
  return a;
}

static Aff aff_bad(void) {
  Aff a = {.ok = false};
  return a;
}

static Aff aff_atom(Atom *at) {
  Aff a = tv_aff_const(0);
  a.n = 1;
  a.t[0].a = at;
  a.t[0].k = 1;
  return a;
}

// a + s * b
Aff tv_aff_axpy(Aff a, long long s, const Aff *b) {
  if (!a.ok || !b->ok) return aff_bad();
  long long sc;
  if (__builtin_mul_overflow(s, b->c, &sc) || __builtin_add_overflow(a.c, sc, &a.c))
    return aff_bad();
  for (int j = 0; j < b->n; j++) {
    long long k;
    if (__builtin_mul_overflow(s, b->t[j].k, &k)) return aff_bad();
    int i = 0;
    while (i < a.n && strcmp(a.t[i].a->key, b->t[j].a->key) < 0)
      i++;
    if (i < a.n && a.t[i].a == b->t[j].a) {
      if (__builtin_add_overflow(a.t[i].k, k, &a.t[i].k)) return aff_bad();
      if (a.t[i].k == 0) {
        memmove(&a.t[i], &a.t[i + 1], sizeof a.t[0] * (size_t)(a.n - i - 1));
        a.n--;
      }
    } else {
      if (a.n == MAX_TERMS) return aff_bad();
      memmove(&a.t[i + 1], &a.t[i], sizeof a.t[0] * (size_t)(a.n - i));
      a.t[i].a = b->t[j].a;
      a.t[i].k = k;
      a.n++;
    }
  }
  return a;
}

static const char *aff_key(const Aff *a) {
  if (!a->ok) return tv_printf("?%p", (void *)a); // never equal to another key
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

static Aff inline_call(const TvRangeEnv *env, const TvExpr *e, int depth);

static Aff binary_atom(AtomKind kind, const char *tag, Aff x, Aff y, long long k) {
  Atom a = {.kind = kind, .k = k, .x = aff_box(x), .y = aff_box(y)};
  a.key = tv_printf("(%s %s %s %lld)", tag, aff_key(&x), aff_key(&y), k);
  return aff_atom(intern(a));
}

// m * (X - k * (X / k)) is m * (X % k): C's quotient (A_DIV) leaves C's
// remainder, the floor quotient (A_SHR) Python's. Folded when the form holds
// m * X exactly: apart, X and its quotient range over X's whole span (a
// loop over bs - 64 * (bs // 64) values would reach bs's bound), together
// the remainder stays below k.
static Aff fold_remainders(Aff a) {
  for (int i = 0; a.ok && i < a.n; i++) {
    const Atom *q = a.t[i].a;
    if ((q->kind != A_SHR && q->kind != A_DIV) || q->k <= 0 || !q->x || !q->x->ok || q->x->n == 0 ||
        a.t[i].k >= 0 || a.t[i].k % q->k)
      continue;
    long long m = -a.t[i].k / q->k;
    Aff r = tv_aff_axpy(a, -m, q->x); // a - m * X
    bool exact = r.ok;
    for (int j = 0; exact && j < q->x->n; j++)
      for (int l = 0; l < r.n; l++)
        exact &= r.t[l].a != q->x->t[j].a;
    if (!exact) continue;
    Aff quotient = aff_atom((Atom *)q), k = tv_aff_const(q->k);
    r = tv_aff_axpy(r, m * q->k, &quotient); // drops the quotient's term
    Aff rem = q->kind == A_SHR ? binary_atom(A_FMOD, "%f", *q->x, k, q->k)
                               : binary_atom(A_MOD, "%", *q->x, k, q->k);
    return fold_remainders(tv_aff_axpy(r, m, &rem));
  }
  return a;
}

static Aff to_aff_binary(const TvRangeEnv *env, const TvExpr *e, int depth) {
  const char *op = e->op;
  Aff x = tv_aff(env, e->kids[0], depth + 1);
  if (!strcmp(op, ",")) return tv_aff(env, e->kids[1], depth + 1);
  Aff y = tv_aff(env, e->kids[1], depth + 1);
  if (!x.ok || !y.ok) return opaque();
  bool xc = x.n == 0, yc = y.n == 0;
  if (xc && yc) {
    // Both constant only now (template arguments of an inlined call).
    long long a = x.c, b = y.c, r;
    if (!strcmp(op, "^")) return tv_aff_const(a ^ b);
    if (!strcmp(op, "|")) return tv_aff_const(a | b);
    if (!strcmp(op, "&")) return tv_aff_const(a & b);
    if ((!strcmp(op, "/") || !strcmp(op, "%")) && b > 0)
      return tv_aff_const(e->floor_op ? (op[0] == '/' ? tv_floor_div(a, b) : tv_floor_mod(a, b))
                                      : (op[0] == '/' ? a / b : a % b));
    if (!strcmp(op, ">>") && b >= 0 && b < 63) return tv_aff_const(a >> b);
    if (!strcmp(op, "*") && !__builtin_mul_overflow(a, b, &r)) return tv_aff_const(r);
  }
  if (!strcmp(op, "+")) return fold_remainders(tv_aff_axpy(x, 1, &y));
  if (!strcmp(op, "-")) return fold_remainders(tv_aff_axpy(x, -1, &y));
  if (!strcmp(op, "*")) {
    if (xc || yc) {
      Aff z = tv_aff_const(0);
      return xc ? tv_aff_axpy(z, x.c, &y) : tv_aff_axpy(z, y.c, &x);
    }
    return binary_atom(A_MUL, "*", x, y, 0);
  }
  if (!strcmp(op, "^") || !strcmp(op, "|"))
    return binary_atom(A_OR, op, x, y, 0); // both bounded by the next power of two
  if (!yc) return opaque();
  long long k = y.c;
  if (!strcmp(op, "/") && k > 0 && e->floor_op) // floor division: a right shift's atom
    return xc ? tv_aff_const(tv_floor_div(x.c, k)) : binary_atom(A_SHR, ">>", x, y, k);
  if (!strcmp(op, "/") && k > 0)
    return xc ? tv_aff_const(x.c / k) : binary_atom(A_DIV, "/", x, y, k);
  if (!strcmp(op, "%") && k > 0 && e->floor_op)
    return xc ? tv_aff_const(tv_floor_mod(x.c, k)) : binary_atom(A_FMOD, "%f", x, y, k);
  if (!strcmp(op, "%") && k > 0)
    return xc ? tv_aff_const(x.c % k) : binary_atom(A_MOD, "%", x, y, k);
  if (!strcmp(op, "<<") && k >= 0 && k < 62) {
    Aff z = tv_aff_const(0);
    return tv_aff_axpy(z, 1LL << k, &x);
  }
  if (!strcmp(op, ">>") && k >= 0 && k < 62) return binary_atom(A_SHR, ">>", x, y, 1LL << k);
  if (!strcmp(op, "&") && k >= 0 && (k & (k + 1)) == 0) return binary_atom(A_AND, "&", x, y, k);
  return opaque();
}

// The one expression a small function computes: its body is constant
// declarations and a return (tl_swz). NULL for anything else.
static const TvExpr *simple_return(const TvFunc *f) {
  const TvStmt *b = f ? f->body : NULL;
  if (!b || b->kind != ST_BLOCK || b->nkids == 0) return NULL;
  for (int i = 0; i + 1 < b->nkids; i++) {
    const TvStmt *d = b->kids[i];
    if (d->kind != ST_DECL) return NULL;
    for (int j = 0; j < d->vars.len; j++)
      if (!tv_single_assignment(TV_AT(d->vars, TvVar, j))) return NULL;
  }
  const TvStmt *r = b->kids[b->nkids - 1];
  return r->kind == ST_RETURN ? r->expr : NULL;
}

static Aff inline_call(const TvRangeEnv *env, const TvExpr *e, int depth) {
  const TvExpr *ret = simple_return(e->func);
  if (!ret || e->nkids != e->func->params.len) return opaque();
  TvFrame *fr = tv_alloc(sizeof *fr);
  fr->f = e->func;
  fr->nargs = e->nkids;
  fr->args = tv_alloc(sizeof(Aff) * (size_t)(e->nkids + 1));
  for (int i = 0; i < e->nkids; i++)
    fr->args[i] = tv_aff(env, e->kids[i], depth + 1);
  fr->targs = e->targs;
  fr->ntargs = e->ntargs;
  TvRangeEnv sub = *env;
  sub.frame = fr;
  return tv_aff(&sub, ret, depth + 1);
}

Aff tv_aff(const TvRangeEnv *env, const TvExpr *e, int depth) {
  if (!e || depth > MAX_DEPTH) return opaque();
  long long v;
  if (e->kind != EX_VAR && tv_const_eval(e, &v)) return tv_aff_const(v);
  const TvFunc *k = env->kernel;
  switch (e->kind) {
  case EX_BUILTIN: {
    if (e->builtin == BI_BLOCK_DIM && k && k->threads_known)
      return tv_aff_const(k->threads[e->dim]);
    if (e->builtin == BI_GRID_DIM && k && k->threads_known && k->grid[e->dim] > 0)
      return tv_aff_const(k->grid[e->dim]);
    if (e->builtin != BI_THREAD_IDX && e->builtin != BI_BLOCK_IDX) return opaque();
    Atom a = {.kind = e->builtin == BI_THREAD_IDX ? A_TID : A_BID, .dim = e->dim, .label = e->name};
    a.key = e->name;
    return aff_atom(intern(a));
  }
  case EX_TPARAM:
    if (env->frame && e->value >= 0 && e->value < env->frame->ntargs &&
        env->frame->targs[e->value] != TV_NEG_INF)
      return tv_aff_const(env->frame->targs[e->value]);
    return opaque();
  case EX_VAR: {
    TvVar *var = e->var;
    for (int i = 0; env->frame && i < env->frame->nargs; i++)
      if (TV_AT(env->frame->f->params, TvVar, i) == var) return env->frame->args[i];
    // A kernel parameter, or a local loop bound, pinned for this walk (a
    // runtime size or trip count, check 6).
    if ((var->kind == VAR_PARAM || !var->loop) && var->has_range && var->range_lo == var->range_hi)
      return tv_aff_const(var->range_lo);
    bool single = var->nassign == 0 && !var->addr_taken;
    if (var->loop && single) {
      Atom a = {.kind = A_LOOP, .var = var, .label = var->name};
      a.key = tv_printf("%s@%u:%u", var->name, var->loc.line, var->loc.col);
      return aff_atom(intern(a));
    }
    if (tv_single_assignment(var) && var->is_integer) return tv_aff(env, var->init, depth + 1);
    // Unknown but one value on the path: guards on it can still apply.
    Atom a = {.kind = A_OPAQUE, .var = var, .label = var->name};
    a.key = tv_printf("var %s@%u:%u%s", var->name, var->loc.line, var->loc.col,
                      single ? "" : tv_printf("#%d", opaque_count++));
    return aff_atom(intern(a));
  }
  case EX_BINARY:
    return to_aff_binary(env, e, depth);
  case EX_UNARY:
    if (!strcmp(e->op, "-")) {
      Aff x = tv_aff(env, e->kids[0], depth + 1);
      Aff z = tv_aff_const(0);
      return tv_aff_axpy(z, -1, &x);
    }
    if (!strcmp(e->op, "+")) return tv_aff(env, e->kids[0], depth + 1);
    return opaque();
  case EX_CAST:
    // Integer casts are taken as value-preserving (tlc's indices fit).
    return e->cast_to_integer ? tv_aff(env, e->kids[0], depth + 1) : opaque();
  case EX_OTHER:
    return e->nkids == 1 && !e->name ? tv_aff(env, e->kids[0], depth + 1) : opaque();
  case EX_CALL:
    if (e->nkids == 2 && e->name &&
        (!strcmp(e->name, "min") || !strcmp(e->name, "max") || !strcmp(e->name, "umin") ||
         !strcmp(e->name, "umax"))) {
      bool mn = strstr(e->name, "min") != NULL;
      return binary_atom(mn ? A_MIN : A_MAX, mn ? "min" : "max", tv_aff(env, e->kids[0], depth + 1),
                         tv_aff(env, e->kids[1], depth + 1), 0);
    }
    return e->func ? inline_call(env, e, depth) : opaque();
  case EX_COND: {
    Atom a = {.kind = A_COND, .cond = e, .frame = env->frame};
    a.key = tv_printf("cond@%p@%p", (const void *)e, (const void *)env->frame);
    a.x = aff_box(tv_aff(env, e->kids[1], depth + 1));
    a.y = aff_box(tv_aff(env, e->kids[2], depth + 1));
    return aff_atom(intern(a));
  }
  default:
    return opaque();
  }
}
