// Unit tests of the pipeline model (lib/Analysis/PipelineModel.c): numbers
// from running the seed 002 script, edge cases, and a property test that
// random schedules keep every constraint of the greedy list schedule.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tlc/PipelineModel.h"

// Expected numbers for one stage count: printed by the seed script with
// repr(), so C reads back the very same doubles and == is the right test.
typedef struct Row {
  int stages;
  int64_t makespan;
  double issue_iv, compute_iv, compute_util, copy_util;
} Row;

typedef struct SeedCase {
  TlPipeModel model;
  int64_t depth;
  Row rows[8]; // stages 1..8
} SeedCase;

static const SeedCase seed_cases[] = {
    {{8, 1, 30, 20},
     3,
     {{1, 400, 50.0, 50.0, 0.43243243243243246, 0.021621621621621623},
      {2, 220, 24.285714285714285, 24.285714285714285, 0.8421052631578947, 0.042105263157894736},
      {3, 190, 18.571428571428573, 20.0, 1.0, 0.05},
      {4, 190, 15.714285714285714, 20.0, 1.0, 0.05},
      {5, 190, 12.857142857142858, 20.0, 1.0, 0.05},
      {6, 190, 10.0, 20.0, 1.0, 0.05},
      {7, 190, 7.142857142857143, 20.0, 1.0, 0.05},
      {8, 190, 1.0, 20.0, 1.0, 0.05}}},
    {{1, 1, 30, 20},
     3,
     {{1, 50, 0.0, 0.0, 1.0, 0.05},
      {2, 50, 0.0, 0.0, 1.0, 0.05},
      {3, 50, 0.0, 0.0, 1.0, 0.05},
      {4, 50, 0.0, 0.0, 1.0, 0.05},
      {5, 50, 0.0, 0.0, 1.0, 0.05},
      {6, 50, 0.0, 0.0, 1.0, 0.05},
      {7, 50, 0.0, 0.0, 1.0, 0.05},
      {8, 50, 0.0, 0.0, 1.0, 0.05}}},
    {{5, 0, 0, 7},
     1,
     {{1, 35, 7.0, 7.0, 1.0, 0.0},
      {2, 35, 5.25, 7.0, 1.0, 0.0},
      {3, 35, 3.5, 7.0, 1.0, 0.0},
      {4, 35, 1.75, 7.0, 1.0, 0.0},
      {5, 35, 0.0, 7.0, 1.0, 0.0},
      {6, 35, 0.0, 7.0, 1.0, 0.0},
      {7, 35, 0.0, 7.0, 1.0, 0.0},
      {8, 35, 0.0, 7.0, 1.0, 0.0}}},
    {{13, 3, 100, 9},
     13,
     {{1, 1417, 109.0, 109.0, 0.0888382687927107, 0.029612756264236904},
      {2, 763, 54.5, 54.5, 0.17647058823529413, 0.058823529411764705},
      {3, 545, 36.333333333333336, 36.333333333333336, 0.26292134831460673, 0.08764044943820225},
      {4, 436, 27.25, 27.25, 0.3482142857142857, 0.11607142857142858},
      {5, 345, 19.666666666666668, 19.666666666666668, 0.4775510204081633, 0.15918367346938775},
      {6, 327, 18.166666666666668, 18.166666666666668, 0.5154185022026432, 0.17180616740088106},
      {7, 263, 12.833333333333334, 12.833333333333334, 0.7177914110429447, 0.2392638036809816},
      {8, 254, 12.083333333333334, 12.083333333333334, 0.7597402597402597, 0.2532467532467532}}},
    // The copy engine is the bottleneck: copy utilization passes 1 because
    // the span starts at the first compute, as in the seed.
    {{10, 7, 5, 3},
     3,
     {{1, 80, 8.0, 8.0, 0.4, 0.9333333333333333},
      {2, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606},
      {3, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606},
      {4, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606},
      {5, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606},
      {6, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606},
      {7, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606},
      {8, 71, 7.0, 7.0, 0.45454545454545453, 1.0606060606060606}}},
    {{6, 2, 45, 1},
     46,
     {{1, 276, 46.0, 46.0, 0.025974025974025976, 0.05194805194805195},
      {2, 140, 18.8, 18.8, 0.06315789473684211, 0.12631578947368421},
      {3, 96, 10.0, 10.0, 0.11764705882352941, 0.23529411764705882},
      {4, 94, 9.6, 9.6, 0.12244897959183673, 0.24489795918367346},
      {5, 92, 9.2, 9.2, 0.1276595744680851, 0.2553191489361702},
      {6, 56, 2.0, 2.0, 0.5454545454545454, 1.0909090909090908},
      {7, 56, 2.0, 2.0, 0.5454545454545454, 1.0909090909090908},
      {8, 56, 2.0, 2.0, 0.5454545454545454, 1.0909090909090908}}},
};

static void test_seed_numbers(void) {
  for (size_t c = 0; c < sizeof seed_cases / sizeof seed_cases[0]; c++) {
    const SeedCase *sc = &seed_cases[c];
    CHECK(tl_pipe_required_depth(&sc->model) == sc->depth);
    for (int k = 0; k < 8; k++) {
      const Row *r = &sc->rows[k];
      TlArena a;
      tl_arena_init(&a);
      TlPipeTimeline t;
      char err[200] = "";
      bool ok = tl_pipe_simulate(&a, &sc->model, r->stages, &t, err, sizeof err);
      CHECK(ok);
      if (ok) {
        bool same = tl_pipe_makespan(&t) == r->makespan &&
                    tl_pipe_issue_interval(&t) == r->issue_iv &&
                    tl_pipe_compute_interval(&t) == r->compute_iv &&
                    tl_pipe_compute_utilization(&t) == r->compute_util &&
                    tl_pipe_copy_utilization(&t) == r->copy_util;
        if (!same)
          fprintf(stderr,
                  "  model %zu stages %d: got makespan %" PRId64 " %.17g %.17g %.17g %.17g\n", c,
                  r->stages, tl_pipe_makespan(&t), tl_pipe_issue_interval(&t),
                  tl_pipe_compute_interval(&t), tl_pipe_compute_utilization(&t),
                  tl_pipe_copy_utilization(&t));
        CHECK(same);
      }
      tl_arena_free(&a);
    }
  }
}

// One whole schedule from the seed: 13 iterations, issue 3, latency 100,
// compute 9, three slots.
static void test_seed_timeline(void) {
  static const int64_t issue[13] = {0, 3, 6, 109, 118, 127, 218, 227, 236, 327, 336, 345, 436};
  static const int64_t ready[13] = {100, 103, 106, 209, 218, 227, 318,
                                    327, 336, 427, 436, 445, 536};
  static const int64_t start[13] = {100, 109, 118, 209, 218, 227, 318,
                                    327, 336, 427, 436, 445, 536};
  static const int64_t end[13] = {109, 118, 127, 218, 227, 236, 327, 336, 345, 436, 445, 454, 545};
  TlArena a;
  tl_arena_init(&a);
  TlPipeModel m = {13, 3, 100, 9};
  TlPipeTimeline t;
  char err[200];
  CHECK(tl_pipe_simulate(&a, &m, 3, &t, err, sizeof err));
  CHECK(t.stages == 3 && t.model.iterations == 13);
  CHECK(memcmp(t.copy_issue, issue, sizeof issue) == 0);
  CHECK(memcmp(t.copy_ready, ready, sizeof ready) == 0);
  CHECK(memcmp(t.compute_start, start, sizeof start) == 0);
  CHECK(memcmp(t.compute_end, end, sizeof end) == 0);
  tl_arena_free(&a);
}

// Quotients checked against Python's int / int (the seed's arithmetic).
static void test_ratio(void) {
  CHECK(tl_pipe_ratio(0, 5) == 0.0);
  CHECK(tl_pipe_ratio(170, 7) == 24.285714285714285);
  // (2^54 + 2) / 2 = 2^53 + 1 exactly, a tie: rounds to even (2^53).
  CHECK(tl_pipe_ratio((INT64_C(1) << 54) + 2, 2) == 9007199254740992.0);
  CHECK(tl_pipe_ratio(INT64_MAX, 3) == 3.0744573456182584e+18);
  CHECK(tl_pipe_ratio((INT64_C(1) << 62) + 1, (INT64_C(1) << 53) + 1) == 511.99999999999994);
  CHECK(tl_pipe_ratio(INT64_C(1000000000000000000), 7) == 1.4285714285714286e+17);
  CHECK(tl_pipe_ratio((INT64_C(1) << 60) + 3, (INT64_C(1) << 55) - 1) == 32.0);
  CHECK(tl_pipe_ratio(INT64_MAX, INT64_MAX - 1) == 1.0);
  CHECK(tl_pipe_ratio(3, (INT64_C(1) << 62) + 5) == 6.505213034913027e-19);
}

static void test_required_depth(void) {
  CHECK(tl_pipe_required_depth(&(TlPipeModel){8, 1, 40, 20}) == 3);   // exact quotient
  CHECK(tl_pipe_required_depth(&(TlPipeModel){8, 1, 41, 20}) == 4);   // rounds up
  CHECK(tl_pipe_required_depth(&(TlPipeModel){8, 1, 30, 0}) == 31);   // compute 0 counts as 1
  CHECK(tl_pipe_required_depth(&(TlPipeModel){8, 1, 0, 20}) == 1);    // no latency to hide
  CHECK(tl_pipe_required_depth(&(TlPipeModel){8, 1, INT64_MAX, 1}) == INT64_MAX); // saturates
  // Exact where the seed's float quotient would round: 2^53 + 1 cycles.
  CHECK(tl_pipe_required_depth(&(TlPipeModel){1, 0, (INT64_C(1) << 53) + 1, 1}) ==
        (INT64_C(1) << 53) + 2);
}

static bool simulate(TlArena *a, TlPipeModel m, int stages, TlPipeTimeline *t, char *err) {
  return tl_pipe_simulate(a, &m, stages, t, err, 200);
}

static void test_edges(void) {
  TlArena a;
  tl_arena_init(&a);
  TlPipeTimeline t;
  char err[200];

  // No iterations: every number is 0, the arrays exist.
  CHECK(simulate(&a, (TlPipeModel){0, 1, 30, 20}, 2, &t, err));
  CHECK(t.model.iterations == 0 && t.copy_issue && t.compute_end);
  CHECK(tl_pipe_makespan(&t) == 0 && tl_pipe_issue_interval(&t) == 0.0 &&
        tl_pipe_compute_interval(&t) == 0.0 && tl_pipe_compute_utilization(&t) == 0.0 &&
        tl_pipe_copy_utilization(&t) == 0.0);

  // One iteration: intervals are 0.0, utilization is compute / compute.
  CHECK(simulate(&a, (TlPipeModel){1, 4, 30, 20}, 1, &t, err));
  CHECK(t.copy_issue[0] == 0 && t.copy_ready[0] == 30 && t.compute_start[0] == 30 &&
        t.compute_end[0] == 50);
  CHECK(tl_pipe_makespan(&t) == 50 && tl_pipe_issue_interval(&t) == 0.0 &&
        tl_pipe_compute_utilization(&t) == 1.0 && tl_pipe_copy_utilization(&t) == 0.2);

  // More stages than iterations behaves like stages == iterations.
  TlPipeTimeline u;
  CHECK(simulate(&a, (TlPipeModel){5, 2, 50, 10}, 1000000, &t, err));
  CHECK(simulate(&a, (TlPipeModel){5, 2, 50, 10}, 5, &u, err));
  CHECK(memcmp(t.copy_issue, u.copy_issue, 5 * sizeof(int64_t)) == 0);
  CHECK(memcmp(t.compute_end, u.compute_end, 5 * sizeof(int64_t)) == 0);
  CHECK(t.copy_issue[4] == 8 && tl_pipe_makespan(&t) == 100);

  // Compute 0: every start equals its end and the compute unit is never
  // busy (numbers from the seed).
  CHECK(simulate(&a, (TlPipeModel){4, 1, 10, 0}, 2, &t, err));
  CHECK(tl_pipe_makespan(&t) == 21 && t.compute_start[2] == 20 && t.compute_end[3] == 21);
  CHECK(tl_pipe_compute_utilization(&t) == 0.0 &&
        tl_pipe_copy_utilization(&t) == 0.36363636363636365);

  // All costs 0: everything happens at cycle 0.
  CHECK(simulate(&a, (TlPipeModel){6, 0, 0, 0}, 1, &t, err));
  CHECK(tl_pipe_makespan(&t) == 0 && tl_pipe_compute_utilization(&t) == 0.0);

  // Errors name the problem.
  CHECK(!simulate(&a, (TlPipeModel){8, 1, 30, 20}, 0, &t, err));
  CHECK(strstr(err, "stages must be >= 1") != NULL);
  CHECK(!simulate(&a, (TlPipeModel){-1, 1, 30, 20}, 1, &t, err));
  CHECK(strstr(err, "iterations must be >= 0") != NULL);
  CHECK(!simulate(&a, (TlPipeModel){8, -1, 30, 20}, 1, &t, err));
  CHECK(strstr(err, "issue cost") != NULL);
  CHECK(!simulate(&a, (TlPipeModel){8, 1, 30, -20}, 1, &t, err));
  CHECK(strstr(err, "compute cost") != NULL);
  CHECK(!simulate(&a, (TlPipeModel){TL_PIPE_MAX_ITERATIONS + 1, 1, 30, 20}, 1, &t, err));
  CHECK(strstr(err, "above the limit") != NULL);
  CHECK(!simulate(&a, (TlPipeModel){2, 1, INT64_MAX, 20}, 1, &t, err));
  CHECK(strstr(err, "overflow") != NULL && strstr(err, "iteration 0") != NULL);
  // Overflow late in the loop, through the accumulated compute time.
  CHECK(!simulate(&a, (TlPipeModel){10, 0, 0, INT64_MAX / 9}, 1, &t, err));
  CHECK(strstr(err, "iteration 9") != NULL);
  CHECK(simulate(&a, (TlPipeModel){9, 0, 0, INT64_MAX / 9}, 1, &t, err));
  tl_arena_free(&a);
}

// xorshift64*: a fixed-seed generator, so failures reproduce.
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1du;
}

static int64_t pick(int64_t lo, int64_t hi) {
  return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
}

// Every constraint of the schedule, and that each start is as early as the
// constraints allow (greedy).
static bool respects_constraints(const TlPipeTimeline *t) {
  const TlPipeModel *m = &t->model;
  int s = t->stages;
  for (int64_t i = 0; i < m->iterations; i++) {
    int64_t engine_free = i > 0 ? t->copy_issue[i - 1] + m->issue : 0;
    int64_t slot_free = i >= s ? t->compute_end[i - s] : 0;
    int64_t unit_free = i > 0 ? t->compute_end[i - 1] : 0;
    if (t->copy_issue[i] < engine_free) // copy engine double-booked
      return false;
    if (t->copy_issue[i] < slot_free) // slot overwritten while still read
      return false;
    if (t->copy_ready[i] != t->copy_issue[i] + m->latency)
      return false;
    if (t->compute_start[i] < t->copy_ready[i]) // computes on data not yet there
      return false;
    if (t->compute_start[i] < unit_free) // compute unit not serial
      return false;
    if (t->compute_end[i] != t->compute_start[i] + m->compute)
      return false;
    int64_t earliest_issue = engine_free > slot_free ? engine_free : slot_free;
    int64_t earliest_start = unit_free > t->copy_ready[i] ? unit_free : t->copy_ready[i];
    if (t->copy_issue[i] != earliest_issue || t->compute_start[i] != earliest_start)
      return false;
  }
  return true;
}

static void test_random_schedules(void) {
  int checked = 0;
  for (int trial = 0; trial < 2000; trial++) {
    TlPipeModel m = {pick(0, 60), pick(0, 12), pick(0, 400), pick(0, 60)};
    if (trial % 10 == 0)
      m.iterations = pick(100, 3000);
    int64_t prev = INT64_MAX;
    for (int s = 1; s <= 12; s++) {
      TlArena a;
      tl_arena_init(&a);
      TlPipeTimeline t, head;
      TlPipeSummary full, sum;
      char err[200];
      bool ok = tl_pipe_simulate(&a, &m, s, &t, err, sizeof err);
      CHECK(ok);
      if (!ok) {
        tl_arena_free(&a);
        continue;
      }
      bool good = respects_constraints(&t);
      if (!good)
        fprintf(stderr, "  constraints broken: n=%" PRId64 " issue=%" PRId64 " latency=%" PRId64
                        " compute=%" PRId64 " stages=%d\n",
                m.iterations, m.issue, m.latency, m.compute, s);
      CHECK(good);
      int64_t ms = tl_pipe_makespan(&t);
      CHECK(ms <= prev); // another slot never makes the loop slower
      prev = ms;
      // The prefix simulation keeps a prefix of the same schedule and the
      // same whole-schedule numbers.
      int64_t keep = pick(0, 10);
      CHECK(tl_pipe_simulate_prefix(&a, &m, s, keep, &head, &sum, err, sizeof err));
      tl_pipe_summarize(&t, &full);
      int64_t k = keep < m.iterations ? keep : m.iterations;
      CHECK(head.model.iterations == k);
      CHECK(k == 0 || memcmp(head.compute_end, t.compute_end, (size_t)k * sizeof(int64_t)) == 0);
      CHECK(k == 0 || memcmp(head.copy_issue, t.copy_issue, (size_t)k * sizeof(int64_t)) == 0);
      CHECK(sum.stages == s && full.stages == s && sum.makespan == full.makespan &&
            sum.issue_interval == full.issue_interval &&
            sum.compute_interval == full.compute_interval &&
            sum.compute_utilization == full.compute_utilization &&
            sum.copy_utilization == full.copy_utilization);
      // Utilizations and intervals are bounded by the schedule's shape.
      CHECK(full.compute_utilization >= 0.0 && full.compute_utilization <= 1.0);
      checked++;
      tl_arena_free(&a);
    }
  }
  CHECK(checked == 2000 * 12);
}

int main(void) {
  test_seed_numbers();
  test_seed_timeline();
  test_ratio();
  test_required_depth();
  test_edges();
  test_random_schedules();
  return check_result("pipeline_model_test");
}
