// Integer index algebra. An integer expression is viewed as a linear form
//   c0 + k1*a1 + k2*a2 + ...
// over "atoms" (variables, and x // c, x % c, and anything non-linear).
// Building the form folds constants and distributes constant factors; then
// one rewrite does the work the partition pass relies on:
//   k*c*(x // c) + k*(x % c)  ->  k*x
// which collapses the row-major recovery i = f // 32, j = f % 32 inside an
// access A[i, j] (offset i*32 + j) back into f. All coefficient arithmetic is
// overflow-checked; on overflow the expression is returned unchanged.
//
// Every walk here is recursive and bounded by MAX_DEPTH: past it, the
// answer is the conservative one (not simplified, not equal, alignment 1,
// no known sign or bounds), so a pathological expression (thousands of
// terms, inlined helpers inside helpers) costs no more stack than a sane one.
#include "tlc/IR.h"

#include <string.h>

// A level of lin_of holds two linear forms (~1 KB of stack); real indices
// are a few levels deep.
enum { MAX_TERMS = 32, MAX_DEPTH = 256 };

static bool expr_equal(const TlExpr *a, const TlExpr *b, int depth);

typedef struct Term {
  int64_t k;
  TlExpr *atom;
} Term;

typedef struct Lin {
  int64_t c;
  int n;
  Term t[MAX_TERMS];
  bool ok;
} Lin;

static bool is_int_type(TlDtype t) {
  return !tl_dtype_is_float(t) && t != TY_BOOL;
}

bool tl_expr_equal(const TlExpr *a, const TlExpr *b) {
  return expr_equal(a, b, 0);
}

static bool expr_equal(const TlExpr *a, const TlExpr *b, int depth) {
  // Two draws of the generator are two numbers, even written alike (and the
  // same draw evaluated twice would be two draws).
  if ((a && a->kind == EX_CALL && tl_intrinsic_is_rng(a->fn)) ||
      (b && b->kind == EX_CALL && tl_intrinsic_is_rng(b->fn)))
    return false;
  if (a == b) return true;
  if (depth > MAX_DEPTH || !a || !b || a->kind != b->kind || a->nargs != b->nargs) return false;
  switch (a->kind) {
  case EX_INT:
    return a->ival == b->ival;
  case EX_FLOAT:
    return a->fval == b->fval && a->dtype == b->dtype;
  case EX_VAR:
    return a->var == b->var;
  case EX_LOAD:
  case EX_ELEM:
    if (a->buf != b->buf || a->var != b->var)
      return false;
    break;
  case EX_BINARY:
  case EX_UNARY:
    if (a->op != b->op)
      return false;
    break;
  case EX_CALL:
    if (a->fn != b->fn)
      return false;
    break;
  case EX_CAST:
    if (a->dtype != b->dtype)
      return false;
    break;
  case EX_SELECT:
    break;
  }
  for (int i = 0; i < a->nargs; i++)
    if (!expr_equal(a->args[i], b->args[i], depth + 1)) return false;
  return true;
}

static void add_term(Lin *l, int64_t k, TlExpr *atom) {
  if (!l->ok || k == 0)
    return;
  for (int i = 0; i < l->n; i++)
    if (expr_equal(l->t[i].atom, atom, 0)) {
      if (tl_add_overflows(l->t[i].k, k, &l->t[i].k)) l->ok = false;
      if (l->t[i].k == 0) {
        memmove(&l->t[i], &l->t[i + 1], sizeof(Term) * (size_t)(l->n - i - 1));
        l->n--;
      }
      return;
    }
  if (l->n == MAX_TERMS) {
    l->ok = false;
    return;
  }
  l->t[l->n++] = (Term){k, atom};
}

static void add_lin(Lin *dst, const Lin *src, int64_t scale) {
  if (!src->ok) {
    dst->ok = false;
    return;
  }
  int64_t c;
  if (tl_mul_overflows(src->c, scale, &c) || tl_add_overflows(dst->c, c, &dst->c))
    dst->ok = false;
  for (int i = 0; i < src->n; i++) {
    int64_t k;
    if (tl_mul_overflows(src->t[i].k, scale, &k))
      dst->ok = false;
    add_term(dst, k, src->t[i].atom);
  }
}

static TlExpr *lin_to_expr(TlArena *a, const Lin *l, TlLoc loc, TlDtype t);
static void lin_of(TlArena *a, TlExpr *e, Lin *out, int depth);
static TlExpr *simplify_at(TlArena *a, TlExpr *e, int depth);
static void add_lin(Lin *dst, const Lin *src, int64_t scale);

static bool all_divisible(const Lin *l, int64_t c) {
  if (l->c % c)
    return false;
  for (int i = 0; i < l->n; i++)
    if (l->t[i].k % c)
      return false;
  return true;
}

// True when x - y is a sum of multiples of c (so x % c == y % c).
static bool congruent(TlArena *a, TlExpr *x, TlExpr *y, int64_t c, int depth) {
  Lin lx, ly;
  lin_of(a, x, &lx, depth);
  lin_of(a, y, &ly, depth);
  add_lin(&lx, &ly, -1);
  return lx.ok && all_divisible(&lx, c);
}

// Collapses k*c*(x // c) + k*(y % c) into k*x, where y is x or differs from
// x by multiples of c, until nothing changes.
static void collapse_divmod(TlArena *a, Lin *l, int depth) {
  bool changed = true;
  while (changed && l->ok) {
    changed = false;
    for (int i = 0; i < l->n && !changed; i++) {
      TlExpr *m = l->t[i].atom;
      if (m->kind != EX_BINARY || m->op != OP_FLOORMOD || m->args[1]->kind != EX_INT)
        continue;
      int64_t c = m->args[1]->ival, k = l->t[i].k, kc;
      if (c <= 0 || tl_mul_overflows(k, c, &kc))
        continue;
      for (int j = 0; j < l->n; j++) {
        TlExpr *d = l->t[j].atom;
        if (d->kind == EX_BINARY && d->op == OP_FLOORDIV && d->args[1]->kind == EX_INT &&
            d->args[1]->ival == c && l->t[j].k == kc &&
            (expr_equal(d->args[0], m->args[0], 0) ||
             congruent(a, d->args[0], m->args[0], c, depth + 1))) {
          TlExpr *x = d->args[0];
          // Remove both terms (higher index first), then add k*x.
          int hi = i > j ? i : j, lo = i > j ? j : i;
          memmove(&l->t[hi], &l->t[hi + 1], sizeof(Term) * (size_t)(l->n - hi - 1));
          l->n--;
          memmove(&l->t[lo], &l->t[lo + 1], sizeof(Term) * (size_t)(l->n - lo - 1));
          l->n--;
          Lin xl;
          lin_of(a, x, &xl, depth + 1);
          add_lin(l, &xl, k);
          changed = true;
          break;
        }
      }
    }
  }
}

static TlExpr *make_atom_binary(TlArena *a, TlExpr *orig, TlExpr *l, TlExpr *r) {
  return tl_expr_binary(a, orig->loc, orig->op, l, r, orig->dtype);
}

static void lin_of(TlArena *a, TlExpr *e, Lin *out, int depth) {
  memset(out, 0, sizeof *out);
  out->ok = !(depth > MAX_DEPTH); // too deep: not simplified at all
  if (!out->ok) return;
  if (e->kind == EX_INT) {
    out->c = e->ival;
    return;
  }
  if (!is_int_type(e->dtype)) {
    add_term(out, 1, e);
    return;
  }
  if (e->kind == EX_UNARY && e->op == OP_NEG) {
    Lin x;
    lin_of(a, e->args[0], &x, depth + 1);
    add_lin(out, &x, -1);
    return;
  }
  if (e->kind == EX_BINARY) {
    Lin l, r;
    switch (e->op) {
    case OP_ADD:
    case OP_SUB:
      lin_of(a, e->args[0], &l, depth + 1);
      lin_of(a, e->args[1], &r, depth + 1);
      add_lin(out, &l, 1);
      add_lin(out, &r, e->op == OP_ADD ? 1 : -1);
      return;
    case OP_MUL:
      lin_of(a, e->args[0], &l, depth + 1);
      lin_of(a, e->args[1], &r, depth + 1);
      if (l.ok && l.n == 0) {
        add_lin(out, &r, l.c);
        return;
      }
      if (r.ok && r.n == 0) {
        add_lin(out, &l, r.c);
        return;
      }
      add_term(out, 1,
               make_atom_binary(a, e, lin_to_expr(a, &l, e->loc, e->dtype),
                                lin_to_expr(a, &r, e->loc, e->dtype)));
      return;
    case OP_FLOORDIV:
    case OP_FLOORMOD: {
      lin_of(a, e->args[0], &l, depth + 1);
      lin_of(a, e->args[1], &r, depth + 1);
      if (!(r.ok && r.n == 0 && r.c > 0) || !l.ok) {
        add_term(out, 1,
                 make_atom_binary(a, e, lin_to_expr(a, &l, e->loc, e->dtype),
                                  lin_to_expr(a, &r, e->loc, e->dtype)));
        return;
      }
      int64_t c = r.c;
      if (c == 1) {
        if (e->op == OP_FLOORDIV)
          add_lin(out, &l, 1);
        return;
      }
      if (all_divisible(&l, c)) {
        if (e->op == OP_FLOORDIV) {
          Lin q = l;
          q.c /= c;
          for (int i = 0; i < q.n; i++)
            q.t[i].k /= c;
          add_lin(out, &q, 1);
        }
        return; // x % c == 0
      }
      if (e->op == OP_FLOORMOD) {
        // Terms that are multiples of c do not change x % c.
        Lin rest = {0};
        rest.ok = true;
        rest.c = tl_floormod(l.c, c);
        for (int i = 0; i < l.n; i++)
          if (l.t[i].k % c)
            add_term(&rest, l.t[i].k, l.t[i].atom);
        if (rest.n == 0) {
          out->c = rest.c;
          return;
        }
        add_term(out, 1,
                 make_atom_binary(a, e, lin_to_expr(a, &rest, e->loc, e->dtype),
                                  tl_expr_int(a, e->loc, c, e->dtype)));
        return;
      }
      // (x // a) // b == x // (a*b) for positive a, b.
      TlExpr *inner = lin_to_expr(a, &l, e->loc, e->dtype);
      if (inner->kind == EX_BINARY && inner->op == OP_FLOORDIV &&
          inner->args[1]->kind == EX_INT && inner->args[1]->ival > 0) {
        int64_t ab;
        if (!tl_mul_overflows(inner->args[1]->ival, c, &ab)) {
          add_term(out, 1,
                   make_atom_binary(a, e, inner->args[0], tl_expr_int(a, e->loc, ab, e->dtype)));
          return;
        }
      }
      add_term(out, 1, make_atom_binary(a, e, inner, tl_expr_int(a, e->loc, c, e->dtype)));
      return;
    }
    default:
      break;
    }
  }
  // Any other node: an atom, with its children simplified.
  TlExpr *c = e;
  if (e->nargs) {
    c = TL_NEW(a, TlExpr);
    *c = *e;
    c->args = TL_NEW_ARRAY(a, TlExpr *, e->nargs);
    for (int i = 0; i < e->nargs; i++)
      c->args[i] = simplify_at(a, e->args[i], depth + 1);
  }
  add_term(out, 1, c);
}

static TlExpr *lin_to_expr(TlArena *a, const Lin *l, TlLoc loc, TlDtype t) {
  TlExpr *e = NULL;
  for (int i = 0; i < l->n; i++) {
    int64_t k = l->t[i].k;
    TlExpr *atom = l->t[i].atom;
    int64_t mag = k < 0 ? -k : k;
    TlExpr *term = mag == 1 ? atom : tl_expr_binary(a, loc, OP_MUL, atom, tl_expr_int(a, loc, mag, t), t);
    if (!e)
      e = k < 0 ? tl_expr_unary(a, loc, OP_NEG, term, t) : term;
    else
      e = tl_expr_binary(a, loc, k < 0 ? OP_SUB : OP_ADD, e, term, t);
  }
  if (!e)
    return tl_expr_int(a, loc, l->c, t);
  if (l->c > 0)
    e = tl_expr_binary(a, loc, OP_ADD, e, tl_expr_int(a, loc, l->c, t), t);
  else if (l->c < 0 && l->c != INT64_MIN)
    e = tl_expr_binary(a, loc, OP_SUB, e, tl_expr_int(a, loc, -l->c, t), t);
  else if (l->c < 0)
    e = tl_expr_binary(a, loc, OP_ADD, e, tl_expr_int(a, loc, l->c, t), t);
  return e;
}

TlExpr *tl_simplify(TlArena *a, TlExpr *e) {
  return simplify_at(a, e, 0);
}

static TlExpr *simplify_at(TlArena *a, TlExpr *e, int depth) {
  if (!e || depth > MAX_DEPTH) return e;
  if (!is_int_type(e->dtype)) {
    if (!e->nargs)
      return e;
    TlExpr *c = TL_NEW(a, TlExpr);
    *c = *e;
    c->args = TL_NEW_ARRAY(a, TlExpr *, e->nargs);
    for (int i = 0; i < e->nargs; i++)
      c->args[i] = simplify_at(a, e->args[i], depth + 1);
    return c;
  }
  Lin l;
  lin_of(a, e, &l, depth);
  collapse_divmod(a, &l, depth);
  if (!l.ok) return e;
  return lin_to_expr(a, &l, e->loc, e->dtype);
}

// (x // d) and (x % d) where x = base + c*v: when v ranges over [0, n) and
// the c*(n-1) span stays inside one block of g = gcd(alignment(base), d)
// elements, x never crosses a multiple of d, so x // d == base // d and
// x % d == base % d + c*v. This is what lets a tile of a larger tensor,
// (f // 64) * 4096 + f % 64 with f = 4*t + lane, vectorize in lane.
static bool affine_divmod(TlArena *a, TlExpr *atom, const TlVar *v, TlExpr **base, int64_t *coeff) {
  if (atom->kind != EX_BINARY || (atom->op != OP_FLOORDIV && atom->op != OP_FLOORMOD) ||
      atom->args[1]->kind != EX_INT || atom->args[1]->ival <= 0 || v->extent <= 0)
    return false;
  int64_t d = atom->args[1]->ival, c, span;
  TlExpr *ib;
  if (!tl_affine_in(a, atom->args[0], v, &ib, &c) || c < 0)
    return false;
  if (tl_mul_overflows(c, v->extent - 1, &span))
    return false;
  int64_t g = tl_gcd(tl_known_alignment(ib, (int64_t)1 << 40), d);
  if (span >= g)
    return false;
  TlExpr *dd = tl_expr_int(a, atom->loc, d, atom->dtype);
  *base = tl_simplify(a, tl_expr_binary(a, atom->loc, atom->op, ib, dd, atom->dtype));
  *coeff = atom->op == OP_FLOORDIV ? 0 : c;
  return true;
}

// x * y where y does not use v and x is invariant in v (coefficient 0, as a
// row index x = (f + lane) // 64 is for the lanes of one vector): the product
// is base(x) * y for every v. This is a row times a runtime row stride.
static bool affine_product(TlArena *a, TlExpr *atom, const TlVar *v, TlExpr **base) {
  if (atom->kind != EX_BINARY || atom->op != OP_MUL)
    return false;
  for (int side = 0; side < 2; side++) {
    TlExpr *x = atom->args[side], *y = atom->args[1 - side], *xb;
    int64_t c;
    if (tl_expr_uses_var(y, v) || !tl_affine_in(a, x, v, &xb, &c) || c != 0)
      continue;
    TlExpr *l = side == 0 ? xb : y, *r = side == 0 ? y : xb;
    *base = tl_simplify(a, tl_expr_binary(a, atom->loc, OP_MUL, l, r, atom->dtype));
    return true;
  }
  return false;
}

bool tl_affine_in(TlArena *a, TlExpr *e, const TlVar *v, TlExpr **base, int64_t *coeff) {
  Lin l;
  lin_of(a, e, &l, 0);
  collapse_divmod(a, &l, 0);
  if (!l.ok) return false;
  Lin rest = l;
  rest.n = 0;
  *coeff = 0;
  for (int i = 0; i < l.n; i++) {
    TlExpr *atom = l.t[i].atom;
    TlExpr *ab;
    int64_t ac, scaled;
    if (atom->kind == EX_VAR && atom->var == v) {
      if (tl_add_overflows(*coeff, l.t[i].k, coeff))
        return false;
    } else if (!tl_expr_uses_var(atom, v)) {
      rest.t[rest.n++] = l.t[i];
    } else if (affine_product(a, atom, v, &ab)) {
      Lin bl;
      lin_of(a, ab, &bl, 0);
      add_lin(&rest, &bl, l.t[i].k);
      if (!rest.ok)
        return false;
    } else if (affine_divmod(a, atom, v, &ab, &ac)) {
      if (tl_mul_overflows(ac, l.t[i].k, &scaled) || tl_add_overflows(*coeff, scaled, coeff))
        return false;
      Lin bl;
      lin_of(a, ab, &bl, 0);
      add_lin(&rest, &bl, l.t[i].k);
      if (!rest.ok)
        return false;
    } else {
      return false;
    }
  }
  *base = lin_to_expr(a, &rest, e->loc, e->dtype);
  return true;
}

static int64_t alignment_at(TlExpr *e, int64_t cap, int depth);

int64_t tl_known_alignment(TlExpr *e, int64_t cap) {
  return alignment_at(e, cap, 0);
}

static int64_t alignment_at(TlExpr *e, int64_t cap, int depth) {
  int64_t g = 0;
  if (depth > MAX_DEPTH) return 1;
  if (e->kind == EX_INT)
    return e->ival == 0 ? cap : (tl_gcd(e->ival, cap) > 0 ? tl_gcd(e->ival, cap) : 1);
  if (e->kind == EX_VAR && e->var->kind == VAR_SIZE && e->var->divisor > 1)
    return tl_gcd(e->var->divisor, cap); // the launcher checked it (specialize-sizes)
  if (e->kind == EX_BINARY && (e->op == OP_ADD || e->op == OP_SUB)) {
    int64_t x = alignment_at(e->args[0], cap, depth + 1),
            y = alignment_at(e->args[1], cap, depth + 1);
    g = tl_gcd(x, y);
    return g ? g : 1;
  }
  if (e->kind == EX_BINARY && e->op == OP_MUL) {
    int64_t x = alignment_at(e->args[0], cap, depth + 1),
            y = alignment_at(e->args[1], cap, depth + 1);
    int64_t p = x * y; // both <= cap, so no overflow for sane caps
    return p > cap ? cap : p;
  }
  if (e->kind == EX_UNARY && e->op == OP_NEG) return alignment_at(e->args[0], cap, depth + 1);
  if (e->kind == EX_BINARY && e->op == OP_FLOORMOD && e->args[1]->kind == EX_INT &&
      e->args[1]->ival > 0) {
    // x % d = x - d * (x // d): both terms are multiples of gcd(align(x), d).
    int64_t m = tl_gcd(alignment_at(e->args[0], cap, depth + 1), e->args[1]->ival);
    return m > 0 ? tl_gcd(m, cap) : 1;
  }
  if (e->kind == EX_CAST && !tl_dtype_is_float(e->dtype))
    return alignment_at(e->args[0], cap, depth + 1);
  return 1;
}

static bool nonneg_at(const TlExpr *e, int depth);

bool tl_expr_nonneg(const TlExpr *e) {
  return nonneg_at(e, 0);
}

static bool nonneg_at(const TlExpr *e, int depth) {
  if (depth > MAX_DEPTH) return false;
  switch (e->kind) {
  case EX_INT:
    return e->ival >= 0;
  case EX_VAR:
    return e->var->kind == VAR_BLOCK_IDX || e->var->kind == VAR_THREAD_IDX || e->var->kind == VAR_TILE_ITER ||
           e->var->kind == VAR_SIZE || // the launcher refuses negative sizes
           ((e->var->kind == VAR_LOOP || e->var->kind == VAR_SCALAR) && e->var->extent > 0);
  case EX_BINARY:
    switch (e->op) {
    case OP_ADD:
    case OP_MUL:
    case OP_FLOORDIV:
    case OP_MIN:
    case OP_MAX:
      return nonneg_at(e->args[0], depth + 1) && nonneg_at(e->args[1], depth + 1);
    case OP_FLOORMOD:
      return nonneg_at(e->args[1], depth + 1);
    default:
      return false;
    }
  default:
    return false;
  }
}

static bool checked_bound_op(TlOp op, int64_t al, int64_t ah, int64_t bl, int64_t bh, int64_t *lo,
                             int64_t *hi) {
  int64_t c[4];
  switch (op) {
  case OP_ADD:
    return !tl_add_overflows(al, bl, lo) && !tl_add_overflows(ah, bh, hi);
  case OP_SUB:
    return !tl_sub_overflows(al, bh, lo) && !tl_sub_overflows(ah, bl, hi);
  case OP_MUL:
    if (tl_mul_overflows(al, bl, &c[0]) || tl_mul_overflows(al, bh, &c[1]) ||
        tl_mul_overflows(ah, bl, &c[2]) || tl_mul_overflows(ah, bh, &c[3]))
      return false;
    *lo = *hi = c[0];
    for (int i = 1; i < 4; i++) {
      if (c[i] < *lo)
        *lo = c[i];
      if (c[i] > *hi)
        *hi = c[i];
    }
    return true;
  case OP_FLOORDIV:
    if (bl != bh || bl <= 0)
      return false;
    *lo = tl_floordiv(al, bl);
    *hi = tl_floordiv(ah, bl);
    return true;
  case OP_FLOORMOD:
    if (bl != bh || bl <= 0)
      return false;
    if (al >= 0 && ah < bl) {
      *lo = al, *hi = ah;
    } else {
      *lo = 0, *hi = bl - 1;
    }
    return true;
  case OP_MIN:
    *lo = al < bl ? al : bl;
    *hi = ah < bh ? ah : bh;
    return true;
  case OP_MAX:
    *lo = al > bl ? al : bl;
    *hi = ah > bh ? ah : bh;
    return true;
  default:
    return false;
  }
}

static bool bounds_at(const TlExpr *e, int64_t *lo, int64_t *hi, int depth);

bool tl_expr_bounds(const TlExpr *e, int64_t *lo, int64_t *hi) {
  return bounds_at(e, lo, hi, 0);
}

static bool bounds_at(const TlExpr *e, int64_t *lo, int64_t *hi, int depth) {
  if (depth > MAX_DEPTH) return false;
  switch (e->kind) {
  case EX_INT:
    *lo = *hi = e->ival;
    return true;
  case EX_VAR:
    if ((e->var->kind == VAR_BLOCK_IDX || e->var->kind == VAR_THREAD_IDX ||
         e->var->kind == VAR_LOOP) &&
        e->var->extent > 0) {
      *lo = 0;
      *hi = e->var->extent - 1;
      return true;
    }
    return false;
  case EX_UNARY:
    if (e->op == OP_NEG && bounds_at(e->args[0], lo, hi, depth + 1) && *lo != INT64_MIN) {
      int64_t t = *lo;
      *lo = -*hi;
      *hi = -t;
      return true;
    }
    return false;
  case EX_BINARY: {
    int64_t al, ah, bl, bh;
    if (!bounds_at(e->args[0], &al, &ah, depth + 1) || !bounds_at(e->args[1], &bl, &bh, depth + 1))
      return false;
    return checked_bound_op(e->op, al, ah, bl, bh, lo, hi);
  }
  case EX_CAST:
    return !tl_dtype_is_float(e->dtype) && bounds_at(e->args[0], lo, hi, depth + 1);
  default:
    return false;
  }
}

bool tl_split_multiples(TlArena *a, TlExpr *e, int64_t m, TlExpr **multiple, TlExpr **rest) {
  Lin l;
  lin_of(a, e, &l, 0);
  collapse_divmod(a, &l, 0);
  if (!l.ok || m <= 0) return false;
  Lin mul = {0}, other = {0};
  mul.ok = other.ok = true;
  for (int i = 0; i < l.n; i++)
    add_term(l.t[i].k % m == 0 ? &mul : &other, l.t[i].k, l.t[i].atom);
  other.c = l.c;
  if (mul.n == 0)
    return false;
  *multiple = lin_to_expr(a, &mul, e->loc, e->dtype);
  *rest = lin_to_expr(a, &other, e->loc, e->dtype);
  return true;
}
