// The software-pipeline model: a greedy list schedule of a copy -> compute
// loop over `stages` buffer slots (seed 002), plus the whole-schedule numbers
// the explain tool and the num_stages advisor read from it.
//
// All times are abstract model cycles held in int64_t; every addition is
// overflow-checked so absurd inputs give an error instead of wrapping. The
// ratios are rounded exactly like Python's int / int so the explain tables
// match the seed's script digit for digit.
#include "tlc/PipelineModel.h"

#include <inttypes.h>
#include <math.h>

// Exact integer arithmetic for the correctly rounded division. GCC and Clang
// both provide it on every 64-bit target tlc builds for; __extension__ keeps
// -Wpedantic quiet about the non-ISO type.
__extension__ typedef unsigned __int128 TlU128;

// First and last values of one schedule: all the summary numbers need.
typedef struct Ends {
  int64_t n;
  int64_t first_issue, last_issue, first_start, last_start, last_end;
} Ends;

static bool check_model(const TlPipeModel *m, int stages, char *err, size_t errlen) {
  if (stages < 1) {
    tl_set_err(err, errlen, "stages must be >= 1, got %d", stages);
    return false;
  }
  if (m->iterations < 0) {
    tl_set_err(err, errlen, "iterations must be >= 0, got %" PRId64, m->iterations);
    return false;
  }
  if (m->iterations > TL_PIPE_MAX_ITERATIONS) {
    tl_set_err(err, errlen, "iterations %" PRId64 " is above the limit of %" PRId64, m->iterations,
            TL_PIPE_MAX_ITERATIONS);
    return false;
  }
  const char *names[3] = {"issue", "latency", "compute"};
  int64_t values[3] = {m->issue, m->latency, m->compute};
  for (int i = 0; i < 3; i++) {
    if (values[i] < 0) {
      tl_set_err(err, errlen, "%s cost must be >= 0 cycles, got %" PRId64, names[i], values[i]);
      return false;
    }
  }
  return true;
}

// The schedule itself. Records iterations i < keep into t's arrays (which
// must hold `keep` entries) and the first/last values into e.
static bool run_schedule(TlArena *a, const TlPipeModel *m, int stages, int64_t keep,
                         TlPipeTimeline *t, Ends *e, char *err, size_t errlen) {
  int64_t n = m->iterations;
  // Slot i % stages for i < n: only min(stages, n) slots are ever touched,
  // so a huge stage count costs no memory.
  int64_t nslots = stages < n ? stages : (n > 0 ? n : 1);
  int64_t *slot_free = TL_NEW_ARRAY(a, int64_t, nslots); // zeroed: all free at 0
  int64_t copy_free = 0, compute_free = 0;
  *e = (Ends){.n = n};
  for (int64_t i = 0; i < n; i++) {
    int64_t slot = i % stages;
    int64_t issue = copy_free > slot_free[slot] ? copy_free : slot_free[slot];
    int64_t ready, start, end, next_copy_free;
    bool overflow = tl_add_overflows(issue, m->latency, &ready);
    if (!overflow) {
      start = compute_free > ready ? compute_free : ready;
      overflow = tl_add_overflows(start, m->compute, &end) ||
                 tl_add_overflows(issue, m->issue, &next_copy_free);
    }
    if (overflow) {
      tl_set_err(err, errlen,
              "cycle counts overflow 64 bits at iteration %" PRId64 " (stages=%d)", i, stages);
      return false;
    }
    if (i < keep) {
      t->copy_issue[i] = issue;
      t->copy_ready[i] = ready;
      t->compute_start[i] = start;
      t->compute_end[i] = end;
    }
    if (i == 0) {
      e->first_issue = issue;
      e->first_start = start;
    }
    e->last_issue = issue;
    e->last_start = start;
    e->last_end = end;
    copy_free = next_copy_free;
    compute_free = end;
    slot_free[slot] = end;
  }
  return true;
}

static void alloc_timeline(TlArena *a, const TlPipeModel *m, int stages, int64_t count,
                           TlPipeTimeline *t) {
  t->stages = stages;
  t->model = *m;
  t->model.iterations = count;
  // One allocation at least, so the arrays are never NULL even when empty.
  size_t len = count > 0 ? (size_t)count : 1;
  t->copy_issue = TL_NEW_ARRAY(a, int64_t, len);
  t->copy_ready = TL_NEW_ARRAY(a, int64_t, len);
  t->compute_start = TL_NEW_ARRAY(a, int64_t, len);
  t->compute_end = TL_NEW_ARRAY(a, int64_t, len);
}

bool tl_pipe_simulate(TlArena *a, const TlPipeModel *m, int stages, TlPipeTimeline *t, char *err,
                      size_t errlen) {
  if (!check_model(m, stages, err, errlen))
    return false;
  alloc_timeline(a, m, stages, m->iterations, t);
  Ends e;
  return run_schedule(a, m, stages, m->iterations, t, &e, err, errlen);
}

static int bit_length(TlU128 x) {
  int n = 0;
  while (x) {
    n++;
    x >>= 1;
  }
  return n;
}

double tl_pipe_ratio(int64_t a, int64_t b) {
  TL_ASSERT("tl_pipe_ratio", a >= 0 && b > 0);
  const int64_t exact = INT64_C(1) << 53;
  // Both operands are exact doubles: one IEEE division rounds once.
  if (a <= exact && b <= exact)
    return (double)a / (double)b;
  // Otherwise converting first would round twice. Form a quotient of 55 or
  // 56 bits plus a sticky bit, round it to 53 bits by hand (ties to even),
  // then scale: the same result as CPython's long true division.
  TlU128 num = (uint64_t)a, den = (uint64_t)b;
  int shift = 55 - (bit_length(num) - bit_length(den));
  if (shift > 0)
    num <<= shift;
  else
    den <<= -shift;
  TlU128 q = num / den;
  bool sticky = num % den != 0;
  int extra = bit_length(q) - 53;
  TlU128 mant = q >> extra, rem = q & (((TlU128)1 << extra) - 1), half = (TlU128)1 << (extra - 1);
  if (rem > half || (rem == half && (sticky || (mant & 1))))
    mant++;
  return ldexp((double)(uint64_t)mant, extra - shift);
}

static void summarize_ends(const TlPipeModel *m, int stages, const Ends *e, TlPipeSummary *s) {
  *s = (TlPipeSummary){.stages = stages};
  if (e->n == 0)
    return; // no iterations: every number is 0 (the seed script has no answer here)
  s->makespan = e->last_end;
  if (e->n >= 2) {
    s->issue_interval = tl_pipe_ratio(e->last_issue - e->first_issue, e->n - 1);
    s->compute_interval = tl_pipe_ratio(e->last_start - e->first_start, e->n - 1);
  }
  int64_t span = e->last_end - e->first_start;
  if (span <= 0)
    return;
  // n * compute <= last end and n * issue <= last issue + issue, both of
  // which the schedule computed without overflow, so these cannot overflow.
  int64_t busy_compute, busy_copy;
  bool o1 = tl_mul_overflows(e->n, m->compute, &busy_compute);
  bool o2 = tl_mul_overflows(e->n, m->issue, &busy_copy);
  TL_ASSERT("tl_pipe_summarize", !o1 && !o2);
  s->compute_utilization = tl_pipe_ratio(busy_compute, span);
  s->copy_utilization = tl_pipe_ratio(busy_copy, span);
}

static void ends_of(const TlPipeTimeline *t, Ends *e) {
  int64_t n = t->model.iterations;
  *e = (Ends){.n = n};
  if (n == 0)
    return;
  e->first_issue = t->copy_issue[0];
  e->last_issue = t->copy_issue[n - 1];
  e->first_start = t->compute_start[0];
  e->last_start = t->compute_start[n - 1];
  e->last_end = t->compute_end[n - 1];
}

void tl_pipe_summarize(const TlPipeTimeline *t, TlPipeSummary *s) {
  Ends e;
  ends_of(t, &e);
  summarize_ends(&t->model, t->stages, &e, s);
}

bool tl_pipe_simulate_prefix(TlArena *a, const TlPipeModel *m, int stages, int64_t keep,
                             TlPipeTimeline *t, TlPipeSummary *s, char *err, size_t errlen) {
  if (!check_model(m, stages, err, errlen))
    return false;
  if (keep < 0)
    keep = 0;
  int64_t count = keep < m->iterations ? keep : m->iterations;
  alloc_timeline(a, m, stages, count, t);
  Ends e;
  if (!run_schedule(a, m, stages, count, t, &e, err, errlen))
    return false;
  summarize_ends(m, stages, &e, s);
  return true;
}

int64_t tl_pipe_makespan(const TlPipeTimeline *t) {
  TlPipeSummary s;
  tl_pipe_summarize(t, &s);
  return s.makespan;
}

double tl_pipe_issue_interval(const TlPipeTimeline *t) {
  TlPipeSummary s;
  tl_pipe_summarize(t, &s);
  return s.issue_interval;
}

double tl_pipe_compute_interval(const TlPipeTimeline *t) {
  TlPipeSummary s;
  tl_pipe_summarize(t, &s);
  return s.compute_interval;
}

double tl_pipe_compute_utilization(const TlPipeTimeline *t) {
  TlPipeSummary s;
  tl_pipe_summarize(t, &s);
  return s.compute_utilization;
}

double tl_pipe_copy_utilization(const TlPipeTimeline *t) {
  TlPipeSummary s;
  tl_pipe_summarize(t, &s);
  return s.copy_utilization;
}

int64_t tl_pipe_required_depth(const TlPipeModel *m) {
  int64_t c = m->compute > 1 ? m->compute : 1;
  // Exact integer ceiling (C division truncates toward zero, which is the
  // ceiling for negative quotients already). The seed takes the ceiling of
  // a float quotient; the two differ only above 2^53 cycles.
  int64_t q = m->latency / c + (m->latency % c != 0 && m->latency > 0);
  int64_t depth;
  if (tl_add_overflows(q, 1, &depth))
    return INT64_MAX; // only for latency near 2^63: saturate, no error path here
  return depth;
}
