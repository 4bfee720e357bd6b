/* tlc-smith: a random generator of valid .tl kernels (Csmith-style
 * differential testing of tlc against its reference lowering).
 * This header is shared by the generator's files: the seeded random source,
 * the output writer and one entry point per kernel family. */
#ifndef TLC_SMITH_H
#define TLC_SMITH_H

#include <stdint.h>
#include <stdio.h>

/* splitmix64: tiny, portable and the same on every machine, so one seed
 * gives the same program everywhere. */
typedef struct {
  uint64_t state;
} SmithRng;

uint64_t smith_next(SmithRng *rng);
/* A uniform integer in [lo, hi]. */
int smith_range(SmithRng *rng, int lo, int hi);
/* True with probability percent / 100. */
int smith_chance(SmithRng *rng, int percent);
/* One of the n values of options. */
int smith_pick(SmithRng *rng, const int *options, int n);

/* The kernel being written: where it goes, its indentation, and the
 * language features it has used so far (for the coverage counts). */
typedef struct {
  FILE *out;
  int indent;
  SmithRng rng;
  uint64_t seed;
  const char *features[32];
  int feature_count;
} Smith;

/* One line at the current indentation, printf-style. */
void smith_line(Smith *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records that the kernel uses a feature (each name once). */
void smith_feature(Smith *s, const char *name);

typedef enum { DT_F16, DT_BF16, DT_F32, DT_F64, DT_I8, DT_I32, DT_COUNT } SmithDtype;

const char *smith_dtype_name(SmithDtype dtype);
int smith_dtype_is_float(SmithDtype dtype);
/* Whether a fragment of `points` elements fits in the registers of `threads`
 * threads with room to spare: at most 64 32-bit registers per thread (tlc
 * refuses a fragment past 255). */
int smith_fragment_fits(int points, SmithDtype dtype, int threads);

/* Room for one expression: leaves of up to ~100 characters, depth 3, an
 * operator that repeats both operands (T.if_then_else) at each level. */
enum { SMITH_EXPR_MAX = 32768 };

/* A random scalar expression of the given result kind over the leaves
 * (element loads written by the caller, e.g. "A_s[i, j]"), at most depth
 * levels deep, written into buf (size bytes). Float expressions stay
 * bounded for inputs in [-1, 1] (divisions by 1 + |x|, exp of a clamped
 * value), integer ones use only + - * // % with constant divisors and
 * min/max, so no program depends on overflow or on a division by zero. */
void smith_expr(Smith *s, int is_float, const char *const *leaves, int leaf_count, int depth,
                char *buf, size_t size);

/* The kernel families; each writes one complete @T.prim_func named name. */
void smith_elementwise(Smith *s, const char *name);
void smith_tile_copy(Smith *s, const char *name);
void smith_gemm(Smith *s, const char *name);
void smith_reduce(Smith *s, const char *name);
void smith_pipelined_rows(Smith *s, const char *name);

#endif
