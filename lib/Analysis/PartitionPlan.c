// TileLang's default loop partition in closed form (see PartitionPlan.h for
// the formula). Planning costs O(ndims) and each point query O(ndims): no
// function here walks the iteration space, so a 2^40-point nest plans as
// fast as a 16-point one. Every product that could leave int64 is checked.
#include "tlc/PartitionPlan.h"
#include "tlc/Support.h"

#include <stdio.h>
#include <string.h>

// snprintf into an optional caller buffer; returns false so callers can
// `return fail(...)`.
static bool fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return false;
}

// ceil(a / b) for a >= 1, b >= 1 without forming a + b - 1 (which could
// overflow near INT64_MAX).
static int64_t ceil_div(int64_t a, int64_t b) {
  return (a - 1) / b + 1;
}

bool tl_partition_plan_default(TlPartitionPlan *p, int ndims, const int64_t *extents,
                               int64_t threads, int64_t vector, char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  if (ndims < 1 || ndims > TL_MAX_NEST)
    return fail(err, errlen, "a parallel nest needs 1 to %d dimensions, got %d", TL_MAX_NEST,
                ndims);
  if (threads < 1)
    return fail(err, errlen, "threads must be >= 1, got %lld", (long long)threads);
  if (vector < 1)
    return fail(err, errlen, "vector must be >= 1, got %lld", (long long)vector);
  int64_t total = 1;
  for (int k = 0; k < ndims; k++) {
    if (extents[k] < 1)
      return fail(err, errlen, "extents must be >= 1, got %lld for dimension %d",
                  (long long)extents[k], k);
    if (tl_mul_overflows(total, extents[k], &total))
      return fail(err, errlen, "the iteration space (product of the extents) overflows int64");
    p->extents[k] = extents[k];
  }
  p->ndims = ndims;
  p->total = total;
  p->threads = threads;
  p->vector = vector;
  p->accesses = ceil_div(total, vector);
  p->steps = ceil_div(p->accesses, threads);
  if (tl_mul_overflows(p->steps, vector, &p->slots))
    return fail(err, errlen, "the per-thread slot count (steps * vector) overflows int64");
  p->threads_used = threads < p->accesses ? threads : p->accesses;
  // The emitted loop covers threads * steps * vector = threads * slots
  // points; it needs a guard exactly when that exceeds the space, i.e. when
  // total is not a multiple of threads * vector. If threads * vector itself
  // overflows it is certainly larger than total, so a guard is needed.
  int64_t tv;
  p->guard = tl_mul_overflows(threads, vector, &tv) || total % tv != 0;
  return true;
}

int64_t tl_partition_flatten(const TlPartitionPlan *p, const int64_t *index) {
  int64_t flat = 0;
  for (int k = 0; k < p->ndims; k++)
    flat = flat * p->extents[k] + index[k];
  return flat;
}

void tl_partition_unflatten(const TlPartitionPlan *p, int64_t flat, int64_t *index) {
  for (int k = p->ndims - 1; k >= 0; k--) {
    index[k] = flat % p->extents[k];
    flat /= p->extents[k];
  }
}

void tl_partition_point(const TlPartitionPlan *p, const int64_t *index, int64_t *thread,
                        int64_t *slot) {
  // No overflow: (access / T) * V <= access * V <= flat < total.
  int64_t flat = tl_partition_flatten(p, index);
  int64_t access = flat / p->vector;
  *thread = access % p->threads;
  *slot = (access / p->threads) * p->vector + flat % p->vector;
}

bool tl_partition_inverse(const TlPartitionPlan *p, int64_t thread, int64_t slot, int64_t *index) {
  if (thread < 0 || thread >= p->threads || slot < 0 || slot >= p->slots)
    return false;
  int64_t step = slot / p->vector, lane = slot % p->vector;
  // step < steps, but step * T + thread can still exceed int64 when T is
  // huge; an overflowing access is past the space anyway.
  int64_t access, flat;
  if (tl_mul_overflows(step, p->threads, &access) || tl_add_overflows(access, thread, &access))
    return false;
  if (access >= p->accesses)
    return false;
  // access < accesses, so access * V < total; only + lane can reach past it
  // (and past INT64_MAX when total is near it).
  if (tl_add_overflows(access * p->vector, lane, &flat) || flat >= p->total)
    return false;
  tl_partition_unflatten(p, flat, index);
  return true;
}

int64_t tl_partition_thread_count(const TlPartitionPlan *p, int64_t thread) {
  if (thread < 0 || thread >= p->threads_used)
    return 0;
  // The thread's accesses are thread, thread + T, ...; all are V points wide
  // except the space's last access, which may be short.
  int64_t naccess = (p->accesses - 1 - thread) / p->threads + 1;
  int64_t last = thread + (naccess - 1) * p->threads;
  int64_t tail = p->total - last * p->vector;
  return (naccess - 1) * p->vector + (tail < p->vector ? tail : p->vector);
}
