// Exact 64-bit integer arithmetic for constant folding: every operation
// reports overflow instead of wrapping, and // and % follow Python (floor).
#include "tlc/Support.h"

bool tl_add_overflows(int64_t a, int64_t b, int64_t *out) {
  return __builtin_add_overflow(a, b, out);
}

bool tl_sub_overflows(int64_t a, int64_t b, int64_t *out) {
  return __builtin_sub_overflow(a, b, out);
}

bool tl_mul_overflows(int64_t a, int64_t b, int64_t *out) {
  return __builtin_mul_overflow(a, b, out);
}

int64_t tl_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

int64_t tl_floormod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

int64_t tl_gcd(int64_t a, int64_t b) {
  if (a < 0)
    a = -a;
  if (b < 0)
    b = -b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}
