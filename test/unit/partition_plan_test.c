// Unit test for lib/Analysis/PartitionPlan.c: the closed-form partition plan
// must agree point for point with a naive reference (the seed model's
// formula evaluated on every point), and must be a bijection between the
// iteration space and the accepted (thread < T, slot < slots) pairs.
//
// Exhaustive over 1-, 2- and 3-deep nests with extents 1..16 and V in
// {1,2,4,8,16}; 1- and 2-deep nests try every thread count 1..130, 3-deep
// nests a sample of thread counts (see kThreads3). Also: huge nests,
// overflow, invalid args, and the explain renderers' library entry points
// (titles, escaping). About 500 million points: the reference is kept as
// counters (no division) and each library call is made once per point or
// pair, so the test takes ~15 s of CPU (it was ~29 s; perf showed the
// repeated inverse calls and memcmp on top).
#include "check.h"
#include "tlc/Explain.h"
#include "tlc/PartitionPlan.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const int64_t kVectors[] = {1, 2, 4, 8, 16};
// Thread counts for 3-deep nests: every small count, plus the counts around
// the warp and block sizes where off-by-one bugs in % and / would show.
static const int64_t kThreads3[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,   10,  11,  12, 13, 14,
                                    15, 16, 17, 18, 19, 20, 21, 22, 23,  24,  25,  26, 27, 28,
                                    29, 30, 31, 32, 33, 63, 64, 65, 127, 128, 129, 130};

static void describe(char *s, size_t n, int ndims, const int64_t *ext, int64_t t, int64_t v) {
  int w = snprintf(s, n, "extents");
  for (int k = 0; k < ndims; k++)
    w += snprintf(s + w, n - (size_t)w, " %" PRId64, ext[k]);
  snprintf(s + w, n - (size_t)w, " threads %" PRId64 " vector %" PRId64, t, v);
}

// The largest threads * slots grid check_nest meets: threads * slots <
// total + threads * vector <= 16^3 + 130 * 16.
enum { kMaxPairs = 16 * 16 * 16 + 130 * 16 };

// One nest: walk every point in row-major order (an odometer, independent of
// tl_partition_unflatten) and compare against the seed's formula. The
// reference (thread, slot) is kept as counters that advance with the point
// (lane, then thread, then step), so it needs no division and shares no
// arithmetic with the library; every library call of the original test is
// still made on every point and every (thread, slot) pair, once each.
static void check_nest(int ndims, const int64_t *ext, int64_t T, int64_t V) {
  char what[128];
  TlPartitionPlan p;
  char err[160] = "";
  if (!tl_partition_plan_default(&p, ndims, ext, T, V, err, sizeof err)) {
    describe(what, sizeof what, ndims, ext, T, V);
    CHECK_MSG(false, "%s: plan rejected: %s", what, err);
    return;
  }
  if (T * p.slots > kMaxPairs) {
    describe(what, sizeof what, ndims, ext, T, V);
    CHECK_MSG(false, "%s: %" PRId64 " pairs, more than the test's grid", what, T * p.slots);
    return;
  }
  // hit[t * slots + s]: the walk mapped a point to (t, s). Each pair is hit
  // at most once, since inverse(forward(x)) == x is checked for every x.
  static bool hit[kMaxPairs];
  memset(hit, 0, sizeof(bool) * (size_t)(T * p.slots));
  int64_t idx[TL_MAX_NEST] = {0}, back[TL_MAX_NEST];
  int64_t owned[130] = {0};
  int64_t npoints = 0;
  int64_t ref_lane = 0, ref_thread = 0, ref_step = 0; // flat = ((step * T) + thread) * V + lane
  for (int64_t flat = 0;; flat++) {
    int64_t ref_slot = ref_step * V + ref_lane;
    int64_t thread, slot;
    tl_partition_point(&p, idx, &thread, &slot);
    if (thread != ref_thread || slot != ref_slot || thread < 0 || thread >= T || slot < 0 ||
        slot >= p.slots || tl_partition_flatten(&p, idx) != flat) {
      describe(what, sizeof what, ndims, ext, T, V);
      CHECK_MSG(false,
                "%s: point flat %" PRId64 " -> (%" PRId64 ", %" PRId64 "), want (%" PRId64
                ", %" PRId64 ") within slots %" PRId64,
                what, flat, thread, slot, ref_thread, ref_slot, p.slots);
      return;
    }
    // inverse(forward(x)) == x also proves forward is injective, so no two
    // points share a (thread, slot) pair.
    bool ok = tl_partition_inverse(&p, thread, slot, back);
    for (int k = 0; ok && k < ndims; k++) // a loop: memcmp's call cost 15% of the test
      ok = back[k] == idx[k];
    if (!ok) {
      describe(what, sizeof what, ndims, ext, T, V);
      CHECK_MSG(false, "%s: inverse(%" PRId64 ", %" PRId64 ") does not return flat %" PRId64, what,
                thread, slot, flat);
      return;
    }
    hit[thread * p.slots + slot] = true;
    owned[ref_thread]++;
    npoints++;
    if (++ref_lane == V) {
      ref_lane = 0;
      if (++ref_thread == T) ref_thread = 0, ref_step++;
    }
    int k = ndims - 1;
    while (k >= 0 && ++idx[k] == ext[k])
      idx[k--] = 0;
    if (k < 0) break;
  }

  // The summary fields, recomputed from what the walk saw. The last point
  // was flat = npoints - 1, in access (npoints - 1) / V, which the
  // counters name without dividing: step ref_step, thread ref_thread (they
  // already moved past it, so step back one point).
  int64_t last_lane = ref_lane - 1, last_thread = ref_thread, last_step = ref_step;
  if (last_lane < 0) {
    last_lane = V - 1;
    if (--last_thread < 0) last_thread = T - 1, last_step--;
  }
  int64_t max_access = last_step * T + last_thread;
  int64_t steps = last_step + 1;
  int64_t nused = 0;
  for (int64_t t = 0; t < T; t++) {
    nused += owned[t] > 0;
    if (tl_partition_thread_count(&p, t) != owned[t]) {
      describe(what, sizeof what, ndims, ext, T, V);
      CHECK_MSG(false, "%s: thread %" PRId64 " owns %" PRId64 " points, count says %" PRId64, what,
                t, owned[t], tl_partition_thread_count(&p, t));
    }
  }
  bool guard = T * steps * V != npoints;
  if (p.total != npoints || p.accesses != max_access + 1 || p.steps != steps ||
      p.slots != steps * V || p.threads_used != nused || p.guard != guard) {
    describe(what, sizeof what, ndims, ext, T, V);
    CHECK_MSG(false,
              "%s: summary total %" PRId64 " accesses %" PRId64 " steps %" PRId64 " slots %" PRId64
              " threads_used %" PRId64 " guard %d",
              what, p.total, p.accesses, p.steps, p.slots, p.threads_used, p.guard);
  }

  // Surjectivity: inverse accepts exactly the pairs the walk hit (it
  // accepted each of those there, mapping it back to its point), and each
  // thread's hit slots are the prefix 0..owned-1. So every other pair of
  // the grid is called here once and must be rejected.
  for (int64_t t = 0; t < T; t++) {
    for (int64_t s = 0; s < p.slots; s++) {
      bool in = hit[t * p.slots + s];
      if (!in && tl_partition_inverse(&p, t, s, back)) {
        describe(what, sizeof what, ndims, ext, T, V);
        CHECK_MSG(false,
                  "%s: inverse accepts thread %" PRId64 " slot %" PRId64 " that no point maps to",
                  what, t, s);
        return;
      }
      if (in != (s < owned[t])) {
        describe(what, sizeof what, ndims, ext, T, V);
        CHECK_MSG(false, "%s: thread %" PRId64 " slot %" PRId64 " hit=%d but owns %" PRId64, what,
                  t, s, in, owned[t]);
        return;
      }
    }
  }
  // Pairs just outside the grid are rejected.
  if (tl_partition_inverse(&p, T, 0, back) || tl_partition_inverse(&p, 0, p.slots, back) ||
      tl_partition_inverse(&p, -1, 0, back) || tl_partition_inverse(&p, 0, -1, back)) {
    describe(what, sizeof what, ndims, ext, T, V);
    CHECK_MSG(false, "%s: inverse accepts a pair outside the %" PRId64 " x %" PRId64 " grid", what,
              T, p.slots);
  }
}

static void test_exhaustive(void) {
  int64_t ext[3];
  for (int v = 0; v < 5; v++) {
    for (int64_t T = 1; T <= 130; T++) {
      for (ext[0] = 1; ext[0] <= 16; ext[0]++) {
        check_nest(1, ext, T, kVectors[v]);
        for (ext[1] = 1; ext[1] <= 16; ext[1]++)
          check_nest(2, ext, T, kVectors[v]);
      }
    }
    for (size_t ti = 0; ti < sizeof kThreads3 / sizeof kThreads3[0]; ti++)
      for (ext[0] = 1; ext[0] <= 16; ext[0]++)
        for (ext[1] = 1; ext[1] <= 16; ext[1]++)
          for (ext[2] = 1; ext[2] <= 16; ext[2]++)
            check_nest(3, ext, kThreads3[ti], kVectors[v]);
  }
}

// 2^40 points: planning and point queries are closed form, so this is
// instant; round-trip a spread of sample points and corner pairs.
static void test_huge(void) {
  const int64_t ext[2] = {INT64_C(1) << 20, INT64_C(1) << 20};
  TlPartitionPlan p;
  char err[160];
  CHECK_MSG(tl_partition_plan_default(&p, 2, ext, 128, 8, err, sizeof err), "huge plan: %s", err);
  CHECK_MSG(p.total == INT64_C(1) << 40, "total %" PRId64, p.total);
  CHECK_MSG(p.accesses == INT64_C(1) << 37, "accesses %" PRId64, p.accesses);
  CHECK_MSG(p.steps == INT64_C(1) << 30, "steps %" PRId64, p.steps);
  CHECK_MSG(p.slots == INT64_C(1) << 33, "slots %" PRId64, p.slots);
  CHECK_MSG(p.threads_used == 128 && !p.guard, "threads_used %" PRId64 " guard %d", p.threads_used,
            p.guard);
  CHECK_MSG(tl_partition_thread_count(&p, 127) == p.slots &&
                tl_partition_thread_count(&p, 128) == 0,
            "huge thread count %" PRId64, tl_partition_thread_count(&p, 127));
  uint64_t x = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 100000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17; // xorshift64
    int64_t flat = (int64_t)(x % (uint64_t)p.total);
    if (i == 0) flat = 0;
    if (i == 1) flat = p.total - 1;
    int64_t idx[2], back[2], thread, slot;
    tl_partition_unflatten(&p, flat, idx);
    CHECK_MSG(tl_partition_flatten(&p, idx) == flat, "flatten(unflatten(%" PRId64 "))", flat);
    tl_partition_point(&p, idx, &thread, &slot);
    CHECK_MSG(thread == (flat / 8) % 128 && slot == (flat / 8 / 128) * 8 + flat % 8,
              "huge point %" PRId64, flat);
    CHECK_MSG(tl_partition_inverse(&p, thread, slot, back) && back[0] == idx[0] &&
                  back[1] == idx[1],
              "huge inverse of %" PRId64, flat);
  }
  // A guarded huge plan: the last thread's last slots fall off the end.
  const int64_t odd[3] = {1 << 20, 1 << 20, 3};
  CHECK_MSG(tl_partition_plan_default(&p, 3, odd, 100, 16, err, sizeof err), "odd plan: %s", err);
  CHECK_MSG(p.guard, "3 * 2^40 points on 100x16 needs a guard");
  int64_t idx[3];
  CHECK_MSG(!tl_partition_inverse(&p, 99, p.slots - 1, idx), "pair past the end accepted");
  // accesses % 100 == 8: threads 0..7 own one access (16 points) more.
  CHECK_MSG(tl_partition_thread_count(&p, 7) == p.slots &&
                tl_partition_thread_count(&p, 8) == p.slots - 16,
            "huge thread counts %" PRId64 " %" PRId64, tl_partition_thread_count(&p, 7),
            tl_partition_thread_count(&p, 8));
  CHECK_MSG(tl_partition_inverse(&p, 8, p.slots - 17, idx) &&
                !tl_partition_inverse(&p, 8, p.slots - 16, idx),
            "thread 8's last slot");
  // Near the int64 limit: nothing inside the inverse may overflow.
  const int64_t big[1] = {INT64_MAX};
  CHECK_MSG(tl_partition_plan_default(&p, 1, big, INT64_C(1) << 62, 4, err, sizeof err),
            "INT64_MAX plan: %s", err);
  CHECK_MSG(!tl_partition_inverse(&p, (INT64_C(1) << 62) - 1, p.slots - 1, idx),
            "overflowing pair accepted");
  CHECK_MSG(tl_partition_inverse(&p, 0, 0, idx) && idx[0] == 0, "first pair of INT64_MAX plan");
}

static void expect_reject(int ndims, const int64_t *ext, int64_t T, int64_t V, const char *want) {
  TlPartitionPlan p;
  char err[160] = "";
  bool ok = tl_partition_plan_default(&p, ndims, ext, T, V, err, sizeof err);
  CHECK_MSG(!ok, "plan accepted, want '%s'", want);
  CHECK_MSG(strstr(err, want) != NULL, "error '%s' does not mention '%s'", err, want);
}

static void test_rejects(void) {
  const int64_t two32[2] = {INT64_C(1) << 32, INT64_C(1) << 32};
  expect_reject(2, two32, 128, 8, "overflows int64");
  const int64_t three[3] = {INT64_C(1) << 21, INT64_C(1) << 21, INT64_C(1) << 21};
  expect_reject(3, three, 1, 1, "overflows int64");
  const int64_t ok2[2] = {4, 4}, zero[2] = {4, 0}, neg[1] = {-3};
  expect_reject(2, ok2, 0, 8, "threads must be >= 1");
  expect_reject(2, ok2, -1, 8, "threads must be >= 1");
  expect_reject(2, ok2, 4, 0, "vector must be >= 1");
  expect_reject(2, zero, 4, 2, "extents must be >= 1, got 0 for dimension 1");
  expect_reject(1, neg, 4, 2, "extents must be >= 1, got -3 for dimension 0");
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  expect_reject(9, nine, 4, 2, "1 to 8 dimensions");
  expect_reject(0, nine, 4, 2, "1 to 8 dimensions");
  // A NULL error buffer is allowed.
  TlPartitionPlan p;
  CHECK_MSG(!tl_partition_plan_default(&p, 2, ok2, 0, 8, NULL, 0), "NULL err buffer");
  // The tiny 4x4/4/2 plan, by hand.
  CHECK_MSG(tl_partition_plan_default(&p, 2, ok2, 4, 2, NULL, 0), "4x4 plan");
  CHECK_MSG(p.accesses == 8 && p.steps == 2 && p.slots == 4 && p.threads_used == 4 && !p.guard,
            "4x4/4/2 summary");
}

static bool starts_with(const char *s, const char *prefix) {
  return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

// The renderers as the driver calls them: a title goes first (escaped in
// svg, quoted in yaml), and yaml of a huge plan stays a summary.
static void test_render(void) {
  TlArena a;
  tl_arena_init(&a);
  TlPartitionPlan p;
  const int64_t ext[2] = {4, 4};
  CHECK_MSG(tl_partition_plan_default(&p, 2, ext, 4, 2, NULL, 0), "4x4 plan");
  const char *title = "kernel <add> & \"sub\" at add.tl:12:9";
  TlBuf b;
  tl_buf_init(&b, &a);
  tl_explain_partition_render(&b, &p, TL_EXPLAIN_TABLE, title);
  CHECK_MSG(starts_with(b.data, title) &&
                starts_with(b.data + strlen(title), "\nT.Parallel(4, 4)  "),
            "table title: %.80s", b.data ? b.data : "");

  tl_buf_init(&b, &a);
  tl_explain_partition_render(&b, &p, TL_EXPLAIN_SVG, title);
  CHECK_MSG(b.data &&
                strstr(b.data, "<title>kernel &lt;add&gt; &amp; &quot;sub&quot; at add.tl:12:9"
                               "</title>"),
            "svg title not escaped");
  CHECK_MSG(b.data && !strstr(b.data, "<add>") && strstr(b.data, "</svg>\n"), "svg body");

  tl_buf_init(&b, &a);
  tl_explain_partition_render(&b, &p, TL_EXPLAIN_YAML, title);
  CHECK_MSG(starts_with(b.data,
                        "title: \"kernel <add> & \\\"sub\\\" at add.tl:12:9\"\nextents: [4, 4]\n"),
            "yaml title: %.80s", b.data ? b.data : "");

  const int64_t huge[2] = {INT64_C(1) << 20, INT64_C(1) << 20};
  CHECK_MSG(tl_partition_plan_default(&p, 2, huge, 128, 8, NULL, 0), "huge plan");
  tl_buf_init(&b, &a);
  tl_explain_partition_render(&b, &p, TL_EXPLAIN_YAML, NULL);
  CHECK_MSG(b.data && strstr(b.data, "points_omitted: 1099511627776") && !strstr(b.data, "points:"),
            "huge yaml is not a summary");

  tl_buf_init(&b, &a);
  tl_explain_partition_compare(&b, 8, 2, TL_EXPLAIN_TABLE);
  CHECK_MSG(starts_with(b.data, "Same total work, different nest shapes (threads=8, vector=2):\n"),
            "compare header");
  tl_arena_free(&a);
}

int main(void) {
  test_rejects();
  test_render();
  test_huge();
  test_exhaustive();
  return check_result("partition_plan_test");
}
