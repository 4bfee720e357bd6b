/* tlc-smith's building blocks: the seeded random source, the indented line
 * writer, feature bookkeeping, dtypes and random scalar expressions. */
#include "Smith.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

uint64_t smith_next(SmithRng *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int smith_range(SmithRng *rng, int lo, int hi) {
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return lo + (int)(smith_next(rng) % span);
}

int smith_chance(SmithRng *rng, int percent) {
  return smith_range(rng, 0, 99) < percent;
}

int smith_pick(SmithRng *rng, const int *options, int n) {
  return options[smith_range(rng, 0, n - 1)];
}

void smith_line(Smith *s, const char *fmt, ...) {
  fprintf(s->out, "%*s", s->indent * 4, "");
  va_list args;
  va_start(args, fmt);
  vfprintf(s->out, fmt, args);
  va_end(args);
  fputc('\n', s->out);
}

void smith_feature(Smith *s, const char *name) {
  for (int i = 0; i < s->feature_count; i++)
    if (strcmp(s->features[i], name) == 0) return;
  if (s->feature_count < (int)(sizeof s->features / sizeof s->features[0]))
    s->features[s->feature_count++] = name;
}

const char *smith_dtype_name(SmithDtype dtype) {
  static const char *const names[DT_COUNT] = {"float16", "bfloat16", "float32",
                                              "float64", "int8",     "int32"};
  return names[dtype];
}

int smith_dtype_is_float(SmithDtype dtype) {
  return dtype <= DT_F64;
}

int smith_fragment_fits(int points, SmithDtype dtype, int threads) {
  static const int bytes[DT_COUNT] = {2, 2, 4, 8, 1, 4};
  int per_thread = (points + threads - 1) / threads;
  return (per_thread * bytes[dtype] + 3) / 4 <= 64;
}

/* Appends printf-style text to buf (always NUL-terminated, truncating). */
static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...) {
  size_t used = strlen(buf);
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(buf + used, size - used, fmt, args);
  va_end(args);
  if (n < 0 || (size_t)n >= size - used) {
    /* A cut expression would be an invalid program: stop loudly instead. */
    fprintf(stderr, "tlc-smith: internal error: an expression outgrew its buffer\n");
    exit(3);
  }
}

static void leaf(Smith *s, int is_float, const char *const *leaves, int leaf_count, char *buf,
                 size_t size) {
  static const char *const float_constants[] = {"0.5", "1.25", "-0.75", "2.0", "0.125"};
  static const char *const int_constants[] = {"1", "2", "3", "-5", "7"};
  if (leaf_count > 0 && smith_chance(&s->rng, 80)) {
    append(buf, size, "%s", leaves[smith_range(&s->rng, 0, leaf_count - 1)]);
    return;
  }
  append(buf, size, "%s",
         is_float ? float_constants[smith_range(&s->rng, 0, 4)]
                  : int_constants[smith_range(&s->rng, 0, 4)]);
}

/* An operator as the text around its operands: open A mid B close, or open A
 * close for one operand (mid NULL). One table per result kind, so adding an
 * operator is adding a row. */
typedef struct {
  const char *open, *mid, *close;
} OpShape;

static void apply(const OpShape *op, const char *a, const char *b, char *buf, size_t size) {
  if (op->mid)
    append(buf, size, "%s%s%s%s%s", op->open, a, op->mid, b, op->close);
  else
    append(buf, size, "%s%s%s", op->open, a, op->close);
}

/* Float operators chosen so that values from [-1, 1] stay small and every
 * operation is defined: no division by something that can be 0, no exp of a
 * large value, no sqrt or log of a negative. The empty row stands for
 * T.if_then_else(a > b, b, a), which repeats its operands. */
static const OpShape float_ops[] = {
    {"(", " + ", ")"},
    {"(", " - ", ")"},
    {"(", " * ", ")"},
    {"T.max(", ", ", ")"},
    {"T.min(", ", ", ")"},
    {"(", " / (T.abs(", ") + 1.0))"},
    {"T.exp(T.min(", NULL, ", 2.0))"},
    {"T.sqrt(T.abs(", NULL, ") + 0.25)"},
    {"T.tanh(", NULL, ")"},
    {"T.sigmoid(", NULL, ")"},
    {NULL, NULL, NULL},
    {"(-", NULL, ")"},
};
enum { FLOAT_OP_COUNT = sizeof float_ops / sizeof float_ops[0] };

static void float_node(Smith *s, const char *const *leaves, int leaf_count, int depth, char *buf,
                       size_t size) {
  char a[SMITH_EXPR_MAX / 4] = "", b[SMITH_EXPR_MAX / 4] = "";
  smith_expr(s, 1, leaves, leaf_count, depth - 1, a, sizeof a);
  smith_expr(s, 1, leaves, leaf_count, depth - 1, b, sizeof b);
  const OpShape *op = &float_ops[smith_range(&s->rng, 0, FLOAT_OP_COUNT - 1)];
  if (op->open)
    apply(op, a, b, buf, size);
  else
    append(buf, size, "T.if_then_else(%s > %s, %s, %s)", a, b, b, a);
  smith_feature(s, "float-expr");
}

/* Integer operators: no overflow for inputs in [-16, 16] at depth 3, and
 * floor division / modulo only by nonzero constants (negative ones too, to
 * exercise Python's floor semantics): their second operand is the divisor. */
static const OpShape int_ops[] = {
    {"(", " + ", ")"}, {"(", " - ", ")"},     {"(", " * ", ")"},     {"(", " // ", ")"},
    {"(", " % ", ")"}, {"T.max(", ", ", ")"}, {"T.min(", ", ", ")"},
};
enum { INT_OP_COUNT = sizeof int_ops / sizeof int_ops[0], INT_DIVIDING_OPS = 3 };

static void int_node(Smith *s, const char *const *leaves, int leaf_count, int depth, char *buf,
                     size_t size) {
  static const int divisors[] = {2, 3, 7, -3, 16};
  char a[SMITH_EXPR_MAX / 4] = "", b[SMITH_EXPR_MAX / 4] = "", divisor[16];
  smith_expr(s, 0, leaves, leaf_count, depth - 1, a, sizeof a);
  smith_expr(s, 0, leaves, leaf_count, depth - 1, b, sizeof b);
  snprintf(divisor, sizeof divisor, "%d", smith_pick(&s->rng, divisors, 5));
  int which = smith_range(&s->rng, 0, INT_OP_COUNT - 1);
  int dividing = which == INT_DIVIDING_OPS || which == INT_DIVIDING_OPS + 1;
  apply(&int_ops[which], a, dividing ? divisor : b, buf, size);
  smith_feature(s, "int-expr");
}

void smith_expr(Smith *s, int is_float, const char *const *leaves, int leaf_count, int depth,
                char *buf, size_t size) {
  if (depth <= 0 || smith_chance(&s->rng, 30)) {
    leaf(s, is_float, leaves, leaf_count, buf, size);
    return;
  }
  if (is_float)
    float_node(s, leaves, leaf_count, depth, buf, size);
  else
    int_node(s, leaves, leaf_count, depth, buf, size);
}
