// Interval analysis of integer index expressions, for the shared-memory
// bounds check. Affine.c turns an expression into c + sum(k_i * atom_i);
// here each atom gets a range (threadIdx from the launch, loop counters
// from their bounds, x / c from x's range, ...), guards on the path narrow
// them, and a congruence (value = r mod g) keeps the strides intervals lose.
#include "Affine.h"

#include <stdio.h>
#include <string.h>

/* ---- saturating arithmetic: TV_NEG_INF / TV_POS_INF absorb ---- */

static bool inf(long long v) {
  return v == TV_NEG_INF || v == TV_POS_INF;
}

static long long sat_add(long long a, long long b) {
  if (inf(a)) return a;
  if (inf(b)) return b;
  long long r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? TV_POS_INF : TV_NEG_INF;
  return r;
}

static long long sat_mul(long long a, long long b) {
  if (a == 0 || b == 0) return 0;
  bool neg = (a < 0) != (b < 0);
  long long r;
  if (inf(a) || inf(b) || __builtin_mul_overflow(a, b, &r)) return neg ? TV_NEG_INF : TV_POS_INF;
  return r;
}

static TvRange top(void) {
  return (TvRange){TV_NEG_INF, TV_POS_INF};
}

static TvRange r_add(TvRange a, TvRange b) {
  TvRange r = {sat_add(a.lo, b.lo), sat_add(a.hi, b.hi)};
  // -inf + +inf stays unbounded on that side.
  if ((a.lo == TV_NEG_INF) || (b.lo == TV_NEG_INF)) r.lo = TV_NEG_INF;
  if ((a.hi == TV_POS_INF) || (b.hi == TV_POS_INF)) r.hi = TV_POS_INF;
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
  long long c[4] = {sat_mul(a.lo, b.lo), sat_mul(a.lo, b.hi), sat_mul(a.hi, b.lo),
                    sat_mul(a.hi, b.hi)};
  TvRange r = {c[0], c[0]};
  for (int i = 1; i < 4; i++) {
    if (c[i] < r.lo) r.lo = c[i];
    if (c[i] > r.hi) r.hi = c[i];
  }
  return r;
}

static TvRange r_meet(TvRange a, TvRange b) {
  TvRange r = {a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
  return r;
}

static long long div_floor(long long a, long long k) {
  return inf(a) ? a : tv_floor_div(a, k);
}

static long long div_trunc(long long a, long long k) {
  return inf(a) ? a : a / k;
}

/* ---- ranges ---- */

static TvRange aff_range(const TvRangeEnv *env, const Aff *a, int depth);

static TvRange atom_range(const TvRangeEnv *env, const Atom *a, int depth) {
  const TvFunc *k = env->kernel;
  TvRange x, y;
  switch (a->kind) {
  case A_TID:
    if (k && k->threads_known) return (TvRange){0, k->threads[a->dim] - 1};
    if (k && k->launch_bounds > 0) return (TvRange){0, k->launch_bounds - 1};
    return (TvRange){0, TV_POS_INF};
  case A_BID:
    if (a->dim == 0 && env->block_x_pinned) return (TvRange){env->block_x, env->block_x};
    if (k && k->threads_known && k->grid[a->dim] > 0) return (TvRange){0, k->grid[a->dim] - 1};
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
    // A range that does not wrap maps exactly: the stage (k + 2) % 3 at
    // one value of k is one stage, which the hazard check relies on.
    if (x.lo >= 0 && !inf(x.hi) && x.hi - x.lo < a->k && x.lo % a->k <= x.hi % a->k)
      return (TvRange){x.lo % a->k, x.hi % a->k};
    if (x.lo >= 0) return x.hi < a->k ? x : (TvRange){0, a->k - 1};
    if (x.hi <= 0) return x.lo > -a->k ? x : (TvRange){-(a->k - 1), 0};
    return (TvRange){-(a->k - 1), a->k - 1};
  case A_FMOD: // Python's %: always in [0, k)
    x = aff_range(env, a->x, depth + 1);
    if (!inf(x.lo) && !inf(x.hi) && x.hi - x.lo < a->k &&
        tv_floor_mod(x.lo, a->k) <= tv_floor_mod(x.hi, a->k))
      return (TvRange){tv_floor_mod(x.lo, a->k), tv_floor_mod(x.hi, a->k)};
    return (TvRange){0, a->k - 1};
  case A_AND:
    x = aff_range(env, a->x, depth + 1);
    return (x.lo >= 0 && x.hi <= a->k) ? x : (TvRange){0, a->k};
  case A_OR: {
    // Non-negative a ^ b and a | b stay below the next power of two.
    x = aff_range(env, a->x, depth + 1);
    y = aff_range(env, a->y, depth + 1);
    if (x.lo < 0 || y.lo < 0 || inf(x.hi) || inf(y.hi)) return top();
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
    if (a->kind == A_MIN) return (TvRange){x.lo < y.lo ? x.lo : y.lo, x.hi < y.hi ? x.hi : y.hi};
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
    if (g->lhs.n != 1 || g->lhs.t[0].a != a) continue;
    long long q = g->lhs.t[0].k;
    TvRange b = {sat_add(g->r.lo, -g->lhs.c), sat_add(g->r.hi, -g->lhs.c)};
    if (g->r.lo == TV_NEG_INF) b.lo = TV_NEG_INF;
    if (g->r.hi == TV_POS_INF) b.hi = TV_POS_INF;
    if (q > 0)
      r = r_meet(r, (TvRange){div_ceil(b.lo, q), div_floor(b.hi, q)});
    else
      r = r_meet(r, (TvRange){div_ceil(b.hi == TV_POS_INF ? TV_NEG_INF : b.hi, q),
                              div_floor(b.lo == TV_NEG_INF ? TV_POS_INF : b.lo, q)});
  }
  return r;
}

static TvRange aff_plain_range(const TvRangeEnv *env, const Aff *a, int depth) {
  if (!a->ok || depth > MAX_DEPTH) return top();
  TvRange r = {a->c, a->c};
  for (int i = 0; i < a->n; i++)
    r = r_add(r, r_scale(guarded_atom_range(env, a->t[i].a, depth), a->t[i].k));
  return r;
}

static long long coef(const Aff *a, const Atom *at) {
  for (int i = 0; i < a->n; i++)
    if (a->t[i].a == at) return a->t[i].k;
  return 0;
}

// The plain range, narrowed by every guard g the form can be written
// against: a = k * g.lhs + rest gives a in k * g.range + range(rest).
static TvRange aff_range(const TvRangeEnv *env, const Aff *a, int depth) {
  TvRange r = aff_plain_range(env, a, depth);
  if (!a->ok || depth > 6) return r;
  for (const TvGuard *g = env->guards; g; g = g->next) {
    for (int i = 0; i < g->lhs.n; i++) {
      long long ka = coef(a, g->lhs.t[i].a), kg = g->lhs.t[i].k;
      if (ka == 0 || ka % kg != 0) continue;
      long long k = ka / kg;
      Aff rest = tv_aff_axpy(*a, -k, &g->lhs);
      if (!rest.ok) continue;
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
  if (g <= 0 || g > (1LL << 40)) return (Cong){1, 0};
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
  if (depth > MAX_DEPTH) return (Cong){1, 0};
  switch (a->kind) {
  case A_MOD:
  case A_FMOD:
  case A_AND: {
    // x % k and x & (k - 1) keep x's residue modulo gcd(g, k) (x >= 0;
    // Python's % for any x).
    x = cong_aff(a->x, depth + 1);
    long long k = a->kind == A_AND ? a->k + 1 : a->k;
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
    if (x.r || y.r) return (Cong){1, 0};
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
  if (!a->ok) return (Cong){1, 0};
  long long g = 0, r = a->c;
  for (int i = 0; i < a->n; i++) {
    Cong c = cong_atom(a->t[i].a, depth + 1);
    long long k;
    if (__builtin_mul_overflow(a->t[i].k, c.g, &k)) return (Cong){1, 0};
    g = gcd(g, k);
    if (__builtin_mul_overflow(a->t[i].k, c.r, &k) || __builtin_add_overflow(r, k, &r))
      return (Cong){1, 0};
  }
  return g ? cong_make(g, r) : (Cong){1, 0};
}

static void describe(const TvRangeEnv *env, const Aff *a, char *buf, size_t len, int depth) {
  if (!a->ok || depth > 4) return;
  for (int i = 0; i < a->n; i++) {
    const Atom *at = a->t[i].a;
    if (at->kind == A_TID || at->kind == A_BID || at->kind == A_LOOP) {
      char item[128];
      TvRange r = aff_range(env, &(Aff){.ok = true, .n = 1, .t = {{(Atom *)at, 1}}}, 0);
      snprintf(item, sizeof item, "%s in [%lld, %lld]", at->label, r.lo, r.hi);
      if (strstr(buf, item) || inf(r.lo) || inf(r.hi)) continue;
      size_t n = strlen(buf);
      snprintf(buf + n, len - n, "%s%s", n ? ", " : "", item);
    } else {
      if (at->x) describe(env, at->x, buf, len, depth + 1);
      if (at->y) describe(env, at->y, buf, len, depth + 1);
    }
  }
}

TvRange tv_range(const TvRangeEnv *env, const TvExpr *e, char *atoms_buf, size_t atoms_len) {
  Aff a = tv_aff(env, e, 0);
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
  Aff a = tv_aff(env, e, 0);
  Cong c = cong_aff(&a, 0);
  *g = c.g;
  *r = c.r;
}

/* ---- windows modulo a row: value mod M in [lo, hi] ---- */

// A log-step tree over a shared tile writes slot(t) and reads slot(t) + h
// in one step, slot(t) = t / 4 * 32 + t % 4 * 4 (rows of 32, half h = 16):
// the intervals meet ([0, 76] and [16, 92]), but modulo the row the writes
// stay in [0, 15] and the reads in [16, 31]. The window: drop the terms
// whose coefficient is a multiple of M, bound the rest; when it spans fewer
// than M values, every value of e lies in [lo, hi] + M * Z. M is the
// largest coefficient for which that holds.
bool tv_residue_window(const TvRangeEnv *env, const TvExpr *e, long long *M, long long *lo,
                       long long *hi) {
  Aff a = tv_aff(env, e, 0);
  if (!a.ok) return false;
  bool found = false;
  for (int i = 0; i < a.n; i++) {
    long long m = a.t[i].k < 0 ? -a.t[i].k : a.t[i].k;
    if (m < 2 || (found && m <= *M)) continue;
    Aff rest = a;
    rest.n = 0;
    for (int j = 0; j < a.n; j++)
      if (a.t[j].k % m != 0) rest.t[rest.n++] = a.t[j];
    TvRange r = aff_range(env, &rest, 0);
    if (inf(r.lo) || inf(r.hi) || r.hi - r.lo >= m) continue;
    *M = m;
    *lo = r.lo;
    *hi = r.hi;
    found = true;
  }
  return found;
}

/* ---- one thread's value ---- */

// The value of a form for thread (tid, 0, 0), when every other atom is one
// value on this path (loop counters run one value at a time); false
// otherwise. C's / and % truncate, as the kernel's do.
static bool aff_at(const TvRangeEnv *env, const Aff *a, long long tid, long long *out, int depth);

static bool atom_at(const TvRangeEnv *env, const Atom *a, long long tid, long long *out,
                    int depth) {
  long long x = 0, y = 0;
  if (depth > MAX_DEPTH) return false;
  switch (a->kind) {
  case A_TID:
    if (a->dim == 0) {
      *out = tid;
      return true;
    }
    break;
  case A_DIV:
  case A_SHR:
  case A_MOD:
  case A_FMOD:
  case A_AND:
    if (!aff_at(env, a->x, tid, &x, depth + 1) || a->k <= 0) return false;
    *out = a->kind == A_DIV    ? x / a->k
           : a->kind == A_SHR  ? div_floor(x, a->k)
           : a->kind == A_MOD  ? x % a->k
           : a->kind == A_FMOD ? tv_floor_mod(x, a->k)
                               : (x & a->k);
    return true;
  case A_OR:
  case A_MUL:
  case A_MIN:
  case A_MAX:
    if (!aff_at(env, a->x, tid, &x, depth + 1) || !aff_at(env, a->y, tid, &y, depth + 1))
      return false;
    *out = a->kind == A_MUL   ? x * y
           : a->kind == A_MIN ? (x < y ? x : y)
           : a->kind == A_MAX ? (x > y ? x : y)
                              : -1; // ^ and | are not told apart here
    return a->kind != A_OR;
  default:
    break;
  }
  TvRange r = atom_range(env, a, depth + 1);
  if (inf(r.lo) || r.lo != r.hi) return false;
  *out = r.lo;
  return true;
}

static bool aff_at(const TvRangeEnv *env, const Aff *a, long long tid, long long *out, int depth) {
  if (!a->ok) return false;
  long long v = a->c, t;
  for (int i = 0; i < a->n; i++) {
    if (!atom_at(env, a->t[i].a, tid, &t, depth + 1)) return false;
    v += a->t[i].k * t;
  }
  *out = v;
  return true;
}

bool tv_thread_values(const TvRangeEnv *env, const TvExpr *e, long long threads, long long *vals,
                      bool *runs) {
  Aff a = tv_aff(env, e, 0);
  for (long long t = 0; t < threads; t++) {
    if (!aff_at(env, &a, t, &vals[t], 0)) return false;
    // The guards on the path that thread t's values decide.
    runs[t] = true;
    for (const TvGuard *g = env->guards; g && runs[t]; g = g->next) {
      long long v;
      if (aff_at(env, &g->lhs, t, &v, 0) && (v < g->r.lo || v > g->r.hi)) runs[t] = false;
    }
  }
  return true;
}

/* ---- guards ---- */

static void push_one(TvRangeEnv *env, Aff lhs, TvRange r) {
  TvGuard *g = tv_alloc(sizeof *g);
  g->lhs = lhs;
  g->r = r;
  g->next = env->guards;
  env->guards = g;
}

// What a guard says of each of its atoms alone: k * atom + rest in [lo, hi]
// with rest in [a, b] puts k * atom in [lo - b, hi - a]. Through a
// division it bounds the dividend too: x / g <= B with x >= 0 is x <= B * g
// + g - 1. So `(r * 4 + c) / 4 * 64 + threadIdx.x / 2 < 32` (r, c at one
// value each) bounds threadIdx.x by 63 for every index that uses it, not
// only for those written as a multiple of the guard.
static void push_atoms(TvRangeEnv *env, const Aff *lhs, TvRange r) {
  for (int i = 0; i < lhs->n && lhs->n > 1; i++) {
    Atom *at = lhs->t[i].a;
    long long k = lhs->t[i].k;
    Aff one = {.ok = true, .n = 1};
    one.t[0].a = at;
    one.t[0].k = 1;
    Aff rest = tv_aff_axpy(*lhs, -k, &one);
    TvRange rr = aff_plain_range(env, &rest, 0);
    if (!rest.ok || inf(rr.lo) || inf(rr.hi) || k <= 0) continue;
    TvRange b = {inf(r.lo) ? TV_NEG_INF : div_ceil(r.lo - rr.hi, k),
                 inf(r.hi) ? TV_POS_INF : div_floor(r.hi - rr.lo, k)};
    if (inf(b.lo) && inf(b.hi)) continue;
    push_one(env, one, b);
    if (at->kind == A_DIV && at->k > 0 && at->x && at->x->ok) {
      TvRange x = aff_plain_range(env, at->x, 0);
      if (x.lo < 0) continue;
      TvRange bx = {inf(b.lo) || b.lo < 0 ? TV_NEG_INF : b.lo * at->k,
                    inf(b.hi) || b.hi < 0 ? TV_POS_INF : sat_add(sat_mul(b.hi, at->k), at->k - 1)};
      if (!inf(bx.lo) || !inf(bx.hi)) push_one(env, *at->x, bx);
    }
  }
}

static void push(TvRangeEnv *env, Aff lhs, TvRange r) {
  if (!lhs.ok || lhs.n == 0) return;
  push_one(env, lhs, r);
  push_atoms(env, &lhs, r);
}

static void push_cond(TvRangeEnv *env, const TvExpr *c, bool negate, int depth) {
  c = tv_strip((TvExpr *)c);
  if (!c || depth > MAX_DEPTH) return;
  if (c->kind == EX_UNARY && !strcmp(c->op, "!")) {
    push_cond(env, c->kids[0], !negate, depth + 1);
    return;
  }
  if (c->kind != EX_BINARY) return;
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
  } cmps[] = {{"<", ">=", {TV_NEG_INF, -1}},
              {"<=", ">", {TV_NEG_INF, 0}},
              {">", "<=", {1, TV_POS_INF}},
              {">=", "<", {0, TV_POS_INF}},
              {"==", "!=", {0, 0}}};
  for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++) {
    // Negated, `a < b` is the row of `>=`.
    if (strcmp(op, negate ? cmps[i].neg : cmps[i].op)) continue;
    Aff l = tv_aff(env, c->kids[0], depth + 1), r = tv_aff(env, c->kids[1], depth + 1);
    push(env, tv_aff_axpy(l, -1, &r), cmps[i].r);
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

/* ---- pipeline stages ---- */

static bool mentions_loop(const Aff *a, int depth) {
  for (int i = 0; a->ok && i < a->n && depth < MAX_DEPTH; i++) {
    const Atom *at = a->t[i].a;
    if (at->kind == A_LOOP || (at->x && mentions_loop(at->x, depth + 1)) ||
        (at->y && mentions_loop(at->y, depth + 1)))
      return true;
  }
  return false;
}

bool tv_stage_term(const TvRangeEnv *env, const TvExpr *e, long long *stride, long long *stages) {
  Aff a = tv_aff(env, e, 0);
  for (int i = 0; a.ok && i < a.n; i++) {
    const Atom *at = a.t[i].a;
    if ((at->kind == A_MOD || at->kind == A_FMOD) && a.t[i].k > 0 && mentions_loop(at->x, 0)) {
      *stride = a.t[i].k;
      *stages = at->k;
      return true;
    }
  }
  return false;
}

/* ---- which thread touches an element ---- */

static bool aff_uniform(const TvRangeEnv *env, const Aff *a, int depth);

// Is the atom the same for every thread of the block? Loop counters are
// when their loop's bounds are.
static bool atom_uniform(const TvRangeEnv *env, const Atom *a, int depth) {
  if (depth > MAX_DEPTH) return false;
  switch (a->kind) {
  case A_BID:
    return true;
  case A_LOOP: {
    const TvStmt *loop = a->var->loop;
    const TvExpr *c = loop ? tv_strip(loop->cond) : NULL;
    if (!c || c->kind != EX_BINARY || c->nkids != 2) return false;
    Aff init = tv_aff(env, a->var->init, depth + 1), stop = tv_aff(env, c->kids[1], depth + 1);
    return aff_uniform(env, &init, depth + 1) && aff_uniform(env, &stop, depth + 1);
  }
  case A_DIV:
  case A_SHR:
  case A_MOD:
  case A_FMOD:
  case A_AND:
  case A_OR:
  case A_MUL:
  case A_MIN:
  case A_MAX:
    return aff_uniform(env, a->x, depth + 1) && (!a->y || aff_uniform(env, a->y, depth + 1));
  default:
    return false; // threadIdx, conditions, opaque values
  }
}

static bool aff_uniform(const TvRangeEnv *env, const Aff *a, int depth) {
  for (int i = 0; a->ok && i < a->n; i++)
    if (!atom_uniform(env, a->t[i].a, depth + 1)) return false;
  return a->ok;
}

// tlc's copies give thread t the elements k * t + rest, where rest is the
// same for every thread: a multiple of G = k * T (T threads) plus a part
// that stays inside one k-element slot. Two accesses with the same k and
// the same slot offset d (mod G) then touch an element only from the same
// thread: S[step * 512 + threadIdx.x * 4 + lane] and the float4 at
// S[step * 512 + threadIdx.x * 4] (k 4, G 512, d 0).
bool tv_thread_slot(const TvRangeEnv *env, const TvExpr *e, long long width, long long *k,
                    long long *G, long long *d) {
  const TvFunc *f = env->kernel;
  long long T = f && f->threads_known ? f->threads[0] : f ? f->launch_bounds : -1;
  if (!f || T <= 0 || (f->threads_known && (f->threads[1] != 1 || f->threads[2] != 1)))
    return false;
  Aff a = tv_aff(env, e, 0);
  *k = 0;
  for (int i = 0; a.ok && i < a.n; i++)
    if (a.t[i].a->kind == A_TID && a.t[i].a->dim == 0) {
      *k = a.t[i].k;
      // Under a guard (a warp-specialized role: threadIdx.x < 128) only
      // that many consecutive threads take part.
      TvRange tr = guarded_atom_range(env, a.t[i].a, 0);
      if (!inf(tr.lo) && !inf(tr.hi) && tr.hi >= tr.lo && tr.hi - tr.lo + 1 < T)
        T = tr.hi - tr.lo + 1;
    }
  if (!a.ok || *k <= 0 || __builtin_mul_overflow(*k, T, G)) return false;
  TvRange fine = {a.c, a.c};
  bool coarse = false; // were multiples of G dropped?
  for (int i = 0; i < a.n; i++) {
    const Atom *at = a.t[i].a;
    if (at->kind == A_TID && at->dim == 0) continue;
    if (!atom_uniform(env, at, 0)) return false;
    Cong c = cong_atom(at, 0);
    long long step;
    if (!__builtin_mul_overflow(a.t[i].k, c.g, &step) && step % *G == 0) {
      fine = r_add(fine, (TvRange){a.t[i].k * c.r, a.t[i].k * c.r}); // the rest is a multiple of G
      coarse = true;
      continue;
    }
    Aff one = {.ok = true, .n = 1, .t = {{(Atom *)at, a.t[i].k}}};
    fine = r_add(fine, aff_range(env, &one, 0));
  }
  if (inf(fine.lo) || inf(fine.hi)) return false;
  long long slot = div_floor(fine.lo, *k) * *k;
  if (fine.hi + width - 1 - slot >= *k) return false;
  // Without dropped multiples the map is exact: element k * t + f, f in
  // [slot, slot + k), belongs to thread t whatever the thread count (G 0).
  if (!coarse) {
    *G = 0;
    *d = slot;
  } else {
    *d = ((slot % *G) + *G) % *G;
  }
  return true;
}
