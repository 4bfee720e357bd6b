// Internal to Affine.c and Range.c: affine forms of integer expressions.
// An expression is c + sum(k_i * atom_i); atoms are threadIdx/blockIdx
// components, loop counters and opaque sub-terms (x / c, x % c, x * y, min,
// max, ?:) that Range.c bounds from their operands.
#ifndef TLC_VERIFY_AFFINE_H
#define TLC_VERIFY_AFFINE_H

#include "Verify.h"

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
  A_TID, A_BID, A_LOOP, A_DIV, A_SHR, A_MOD, A_FMOD, A_AND, A_OR, A_MUL, A_MIN, A_MAX, A_COND, A_OPAQUE
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

// The form of an integer expression on the current path (env: the kernel,
// the call being read through). Unknown parts become opaque atoms.
Aff tv_aff(const TvRangeEnv *env, const TvExpr *e, int depth);
Aff tv_aff_const(long long c);
Aff tv_aff_axpy(Aff a, long long s, const Aff *b); // a + s * b

#endif
