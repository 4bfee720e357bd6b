// Unit tests of the TMA ring model (lib/Analysis/RingModel.c): a schedule
// worked by hand, the one-pass simulation against a brute-force solution of
// the same equations (every time recomputed from all the others until
// nothing changes) on random models, more stages never slower, the deadlock
// of one stage, and a kept prefix equal to the whole schedule's head.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tlc/RingModel.h"

enum { MAXP = 64 };

typedef struct Brute {
  int64_t issue[MAXP], ready[MAXP], start[MAXP], end[MAXP], release[MAXP];
} Brute;

static int64_t max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}

// The least solution of RingModel.h's equations by fixed-point iteration:
// start from zero and apply every equation to every position until no time
// moves (the system is monotone, so this converges for stages >= 2).
static int64_t brute(const TlRingModel *m, int S, Brute *b) {
  int64_t n = m->iterations, P = n * m->tiles;
  memset(b, 0, sizeof *b);
  for (int round = 0; round < 10000; round++) {
    bool changed = false;
    for (int64_t g = 0; g < P; g++) {
      int64_t pf = g > 0 ? b->issue[g - 1] + m->issue : 0;
      int64_t issue = max64(pf, g >= S ? b->release[g - S] : 0);
      int64_t ready = issue + m->latency;
      int64_t free = g == 0 ? 0 : b->end[g - 1] + (g % n == 0 ? m->epilogue : 0);
      int64_t start = max64(free, ready), end = start + m->compute;
      int64_t release = g % n == n - 1 ? end : max64(end, g + 1 < P ? b->ready[g + 1] : 0);
      changed |= issue != b->issue[g] || ready != b->ready[g] || start != b->start[g] ||
                 end != b->end[g] || release != b->release[g];
      b->issue[g] = issue, b->ready[g] = ready, b->start[g] = start, b->end[g] = end,
      b->release[g] = release;
    }
    if (!changed) return P ? b->end[P - 1] + m->epilogue : 0;
  }
  return -1;
}

static void test_by_hand(void) {
  // Two slots, one tile of four: each slot is held until the next load has
  // arrived, so from position 2 on the producer waits on empty barriers.
  TlArena a;
  tl_arena_init(&a);
  TlRingModel m = {.iterations = 4, .tiles = 1, .issue = 1, .latency = 10, .compute = 5};
  TlRingStep *st;
  TlRingSummary s;
  char err[128];
  CHECK(tl_ring_simulate(&a, &m, 2, 4, &st, &s, err, sizeof err));
  int64_t issue[4] = {0, 1, 15, 25}, start[4] = {10, 15, 25, 35}, release[4] = {15, 25, 35, 40};
  int64_t empty_wait[4] = {0, 0, 13, 9}, full_wait[4] = {10, 0, 5, 5};
  int in_flight[4] = {1, 2, 1, 1}; // position 1 starts as 2 is issued
  for (int g = 0; g < 4; g++) {
    CHECK_MSG(st[g].issue == issue[g], "g=%d issue %" PRId64, g, st[g].issue);
    CHECK_MSG(st[g].start == start[g], "g=%d start %" PRId64, g, st[g].start);
    CHECK_MSG(st[g].release == release[g], "g=%d release %" PRId64, g, st[g].release);
    CHECK_MSG(st[g].empty_wait == empty_wait[g], "g=%d empty_wait %" PRId64, g, st[g].empty_wait);
    CHECK_MSG(st[g].full_wait == full_wait[g], "g=%d full_wait %" PRId64, g, st[g].full_wait);
    CHECK_MSG(st[g].in_flight == in_flight[g], "g=%d in_flight %d", g, st[g].in_flight);
    CHECK(st[g].slot == g % 2 && st[g].phase == g / 2 % 2);
  }
  CHECK(s.makespan == 40 && s.producer_waits == 2 && s.empty_cycles == 22);
  CHECK(s.consumer_waits == 3 && s.full_cycles == 20);
  // Three slots hide it: the producer still waits once (for slot 0, held
  // until 1 arrived), but the tensor core waits only for the first load.
  CHECK(tl_ring_simulate(&a, &m, 3, 4, &st, &s, err, sizeof err));
  CHECK(s.makespan == 30 && s.producer_waits == 1 && s.consumer_waits == 1);
  tl_arena_free(&a);
}

static void test_deadlock(void) {
  TlArena a;
  tl_arena_init(&a);
  TlRingStep *st;
  TlRingSummary s;
  char err[128];
  TlRingModel m = {.iterations = 2, .tiles = 3, .issue = 1, .latency = 5, .compute = 5};
  CHECK(tl_ring_simulate(&a, &m, 1, 8, &st, &s, err, sizeof err) && s.deadlock && st == NULL);
  m.iterations = 1; // every position is the last of its tile: released at its end
  CHECK(tl_ring_simulate(&a, &m, 1, 8, &st, &s, err, sizeof err) && !s.deadlock);
  CHECK(s.makespan == 30); // issues at 0, 10, 20: the slot is held to each end
  tl_arena_free(&a);
}

static void test_errors(void) {
  TlArena a;
  tl_arena_init(&a);
  TlRingStep *st;
  TlRingSummary s;
  char err[128];
  TlRingModel m = {.iterations = 4, .tiles = 1, .issue = 1, .latency = 5, .compute = -1};
  CHECK(!tl_ring_simulate(&a, &m, 2, 0, &st, &s, err, sizeof err));
  CHECK(strcmp(err, "compute must be >= 0, got -1") == 0);
  m = (TlRingModel){.iterations = 4000000, .tiles = 3};
  CHECK(!tl_ring_simulate(&a, &m, 2, 0, &st, &s, err, sizeof err));
  CHECK_MSG(strstr(err, "above the limit of 10000000 positions") != NULL, "%s", err);
  m = (TlRingModel){.iterations = 3, .tiles = 1, .latency = INT64_MAX - 1, .issue = 1};
  CHECK(!tl_ring_simulate(&a, &m, 2, 0, &st, &s, err, sizeof err));
  CHECK_MSG(strstr(err, "overflow") != NULL, "%s", err);
  CHECK(!tl_ring_simulate(&a, &m, 0, 0, &st, &s, err, sizeof err));
  tl_arena_free(&a);
}

static void test_random(void) {
  srand(12345);
  for (int trial = 0; trial < 3000; trial++) {
    TlArena a;
    tl_arena_init(&a);
    TlRingModel m = {.iterations = rand() % 12,
                     .tiles = 1 + rand() % 4,
                     .issue = rand() % 40,
                     .latency = rand() % 200,
                     .compute = rand() % 60,
                     .epilogue = rand() % 100};
    int64_t P = m.iterations * m.tiles;
    if (P > MAXP) m.tiles = 1, P = m.iterations;
    int64_t prev = INT64_MAX;
    for (int S = 2; S <= 7; S++) {
      TlRingStep *st, *head;
      TlRingSummary s, s2;
      char err[128];
      Brute b;
      CHECK(tl_ring_simulate(&a, &m, S, P, &st, &s, err, sizeof err));
      int64_t span = brute(&m, S, &b);
      CHECK_MSG(span == s.makespan, "trial %d S=%d: %" PRId64 " vs brute %" PRId64, trial, S,
                s.makespan, span);
      for (int64_t g = 0; g < P; g++)
        CHECK_MSG(st[g].issue == b.issue[g] && st[g].ready == b.ready[g] &&
                      st[g].start == b.start[g] && st[g].end == b.end[g] &&
                      st[g].release == b.release[g] && st[g].in_flight >= 1 && st[g].in_flight <= S,
                  "trial %d S=%d g=%" PRId64, trial, S, g);
      CHECK_MSG(s.makespan <= prev, "trial %d: %d stages slower than %d", trial, S, S - 1);
      prev = s.makespan;
      // A kept prefix is the head of the whole schedule, same summary.
      int64_t keep = P / 2;
      CHECK(tl_ring_simulate(&a, &m, S, keep, &head, &s2, err, sizeof err));
      CHECK(s.makespan == s2.makespan && s.empty_cycles == s2.empty_cycles &&
            s.full_cycles == s2.full_cycles && s.mean_in_flight == s2.mean_in_flight);
      for (int64_t g = 0; g < keep; g++)
        CHECK(head[g].issue == st[g].issue && head[g].release == st[g].release &&
              head[g].start == st[g].start && head[g].in_flight == st[g].in_flight &&
              head[g].empty_wait == st[g].empty_wait && head[g].full_wait == st[g].full_wait);
    }
    tl_arena_free(&a);
  }
}

int main(void) {
  test_by_hand();
  test_deadlock();
  test_errors();
  test_random();
  return check_result("ring_model_test");
}
