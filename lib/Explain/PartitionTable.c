// explain-partition's table: the seed model's text (loop_mapping.py) byte for
// byte up to TABLE_MAX_ROWS points, summarised beyond; and --compare's five
// shapes of the same 64 points.
#include "ExplainPartitionInternal.h"

#include <stdlib.h>
#include <string.h>

/* ---- table: the seed's text ---- */

// The rows of a table over `total` points (a plan's or a fragment nest's):
// every row when there are few, else the first TABLE_HEAD and the last
// TABLE_TAIL around a line that counts the rest. row(b, space, flat) prints one.
void tl_xp_table_rows(TlBuf *b, int64_t total, void (*row)(TlBuf *, const void *, int64_t),
                      const void *space) {
  if (total <= TABLE_MAX_ROWS) {
    for (int64_t flat = 0; flat < total; flat++)
      row(b, space, flat);
    return;
  }
  for (int64_t flat = 0; flat < TABLE_HEAD; flat++)
    row(b, space, flat);
  tl_buf_printf(b, "  ... (%" PRId64 " rows omitted)\n", total - TABLE_HEAD - TABLE_TAIL);
  for (int64_t flat = total - TABLE_TAIL; flat < total; flat++)
    row(b, space, flat);
}

static void table_row(TlBuf *b, const void *plan, int64_t flat) {
  const TlPartitionPlan *p = plan;
  int64_t idx[TL_MAX_NEST], thread, slot;
  char s[TUPLE_MAX];
  tl_xp_point_at(p, flat, idx, &thread, &slot);
  tl_buf_printf(b, "  %-14s %4" PRId64 "  %6" PRId64 "  %4" PRId64 "\n",
                tl_xp_tuple_str(s, idx, p->ndims), flat, thread, slot);
}

static void table_owned(TlBuf *b, const TlPartitionPlan *p, int64_t thread) {
  int64_t n = tl_partition_thread_count(p, thread), idx[TL_MAX_NEST];
  char s[TUPLE_MAX];
  // The seed prints "thread   1: " (trailing blank) for a thread with no points.
  tl_buf_printf(b, "  thread %3" PRId64 ": ", thread);
  for (int64_t k = 0; k < n && k < OWNED_SHOWN; k++) {
    tl_xp_owned_point(p, thread, k, idx);
    tl_buf_printf(b, "%s%s@%" PRId64, k ? ", " : "", tl_xp_tuple_str(s, idx, p->ndims), k);
  }
  if (n > OWNED_SHOWN) tl_buf_printf(b, " ... (+%" PRId64 ")", n - OWNED_SHOWN);
  tl_buf_putc(b, '\n');
}

void tl_xp_table_render(TlBuf *b, const TlPartitionPlan *p, const char *title) {
  char s[TUPLE_MAX];
  if (title) tl_buf_printf(b, "%s\n", title);
  tl_buf_printf(b, "T.Parallel%s  threads=%" PRId64 "  vector_size=%" PRId64 "\n",
                tl_xp_tuple_str(s, p->extents, p->ndims), p->threads, p->vector);
  // Python's int / int is correctly rounded; long double holds any int64
  // exactly, so only the final rounding to double is left before %g.
  double per = (double)((long double)p->total / (long double)p->threads);
  tl_buf_printf(b, "iteration points = %" PRId64 ";  points per thread = %g\n", p->total, per);
  tl_buf_puts(b, "\niteration point -> (thread, per-thread slot)\n");
  tl_buf_printf(b, "  %-14s %4s  %6s  %4s\n", "index", "flat", "thread", "slot");
  tl_xp_table_rows(b, p->total, table_row, p);
  // The seed shows the first, second and last owning thread; owners are
  // always threads 0..threads_used-1, and with one owner thread 1 is empty.
  tl_buf_puts(b, "\nby thread (which points each thread owns)\n");
  table_owned(b, p, 0);
  table_owned(b, p, 1);
  table_owned(b, p, p->threads_used - 1);
  tl_buf_puts(b, "\ninterpretation\n"
                 "  * the innermost `vector_size` iterations share a lane-set  -> vectorize\n"
                 "  * the next axis is the thread index                        -> coalesce\n"
                 "  * whatever is left becomes a per-thread serial loop        -> replicate\n");
}

// The seed's --compare shapes: the same 64 points, nested differently.
static const int64_t kShapes[][3] = {{64, 0, 0}, {32, 2, 0}, {8, 8, 0}, {2, 32, 0}, {4, 4, 4}};
static const int kShapeDims[] = {1, 2, 2, 2, 3};
_Static_assert(NSHAPES == sizeof kShapeDims / sizeof kShapeDims[0], "one dims entry per shape");

void tl_xp_shape_plan(TlPartitionPlan *p, int i, int64_t threads, int64_t vector) {
  bool ok = tl_partition_plan_default(p, kShapeDims[i], kShapes[i], threads, vector, NULL, 0);
  TL_ASSERT("explain-partition compare (threads and vector must be >= 1)", ok);
}

void tl_xp_compare_table(TlBuf *b, int64_t threads, int64_t vector) {
  tl_buf_printf(b,
                "Same total work, different nest shapes (threads=%" PRId64 ", vector=%" PRId64
                "):\n\n"
                "The *count* per thread is identical; what changes is which index\n"
                "lands on which thread, because the nest is flattened row-major.\n\n",
                threads, vector);
  for (int i = 0; i < NSHAPES; i++) {
    TlPartitionPlan p;
    char s[TUPLE_MAX];
    int64_t idx[TL_MAX_NEST];
    tl_xp_shape_plan(&p, i, threads, vector);
    tl_buf_printf(
        b, "  T.Parallel%-14s total=%-4" PRId64 " threads=%-3" PRId64 " per-thread=%" PRId64 "\n",
        tl_xp_tuple_str(s, p.extents, p.ndims), p.total, p.threads_used, p.total / threads);
    for (int64_t t = 0; t < 2; t++) {
      int64_t n = tl_partition_thread_count(&p, t);
      tl_buf_printf(b, "      thread %" PRId64 " owns ", t);
      // The seed crashes here when thread 1 owns nothing; we say so.
      if (n == 0) tl_buf_puts(b, "no points");
      for (int64_t k = 0; k < n && k < 4; k++) {
        tl_xp_owned_point(&p, t, k, idx);
        tl_buf_printf(b, "%s%s", k ? ", " : "", tl_xp_tuple_str(s, idx, p.ndims));
      }
      tl_buf_puts(b, n ? " ...\n" : "\n");
    }
  }
  tl_buf_puts(b, "\nSo the *shape of the nest* is not cosmetic: it decides which logical\n"
                 "index each thread reads, i.e. whether the load coalesces.\n\n"
                 "When the total iteration count is below `threads`, some threads get no\n"
                 "work at all: the plan replicates and the codegen adds a guard.\n\n");
}
