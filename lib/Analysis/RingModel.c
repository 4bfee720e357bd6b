// The TMA ring model: the schedule of a warp-specialized pipelined loop,
// position by position, as include/tlc/RingModel.h defines it. One pass over
// the positions with O(stages) memory (two rings of the last `stages`
// release and start times), so ten million positions need no big arrays.
#include "tlc/RingModel.h"

#include <inttypes.h>

static bool check_model(const TlRingModel *m, int stages, char *err, size_t errlen) {
  if (stages < 1) {
    tl_set_err(err, errlen, "stages must be >= 1, got %d", stages);
    return false;
  }
  const char *names[6] = {"iterations", "tiles", "issue", "latency", "compute", "epilogue"};
  int64_t values[6] = {m->iterations, m->tiles, m->issue, m->latency, m->compute, m->epilogue};
  for (int i = 0; i < 6; i++) {
    if (values[i] < 0) {
      tl_set_err(err, errlen, "%s must be >= 0, got %" PRId64, names[i], values[i]);
      return false;
    }
  }
  int64_t positions;
  if (__builtin_mul_overflow(m->iterations, m->tiles, &positions) ||
      positions > TL_RING_MAX_POSITIONS) {
    tl_set_err(err, errlen,
               "iterations x tiles = %" PRId64 " x %" PRId64 " is above the limit of %" PRId64
               " positions",
               m->iterations, m->tiles, TL_RING_MAX_POSITIONS);
    return false;
  }
  return true;
}

static int64_t max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}

// a + b into *out; false (with err) on overflow.
static bool add(int64_t a, int64_t b, int64_t *out, int64_t g, char *err, size_t errlen) {
  if (tl_add_overflows(a, b, out)) {
    tl_set_err(err, errlen, "cycle counts overflow 64 bits at position %" PRId64, g);
    return false;
  }
  return true;
}

bool tl_ring_simulate(TlArena *a, const TlRingModel *m, int stages, int64_t keep,
                      TlRingStep **steps, TlRingSummary *s, char *err, size_t errlen) {
  if (!check_model(m, stages, err, errlen)) return false;
  int64_t n = m->iterations, P = n * m->tiles;
  *s = (TlRingSummary){.stages = stages, .positions = P};
  *steps = NULL;
  // Position g - 1 is released only after the data of g has arrived, and g
  // is loaded only after the release of g - stages: one slot deadlocks as
  // soon as a tile has a second position.
  if (stages == 1 && n > 1) {
    s->deadlock = true;
    return true;
  }
  if (keep < 0) keep = 0;
  int64_t kept = keep < P ? keep : P;
  TlRingStep *out = kept ? TL_NEW_ARRAY(a, TlRingStep, kept) : NULL;
  int64_t ring = stages < P ? stages : (P > 0 ? P : 1);
  int64_t *release = TL_NEW_ARRAY(a, int64_t, ring); // release of position j at j % stages
  int64_t *start = TL_NEW_ARRAY(a, int64_t, ring);   // start of position j at j % stages
  int64_t producer_free = 0, prev_end = 0, oldest_unconsumed = 0;
  double in_flight_sum = 0;
  for (int64_t g = 0; g < P; g++) {
    int64_t k = g % n, slot = g % stages;
    // The consumers release g - 1 (not the last of its tile) once they
    // have seen full[g]: needs ready_g, so it is settled below.
    TlRingStep st = {.tile = g / n, .k = k, .slot = (int)slot, .phase = (int)(g / stages % 2)};
    int64_t freed = g >= stages ? release[slot] : 0;
    st.empty_wait = max64(0, freed - producer_free);
    st.issue = max64(producer_free, freed);
    if (!add(st.issue, m->issue, &producer_free, g, err, errlen) ||
        !add(st.issue, m->latency, &st.ready, g, err, errlen))
      return false;
    if (g > 0 && k > 0) { // g - 1 is not the last of its tile
      release[(g - 1) % stages] = max64(prev_end, st.ready);
      if (g - 1 < kept) out[g - 1].release = release[(g - 1) % stages];
    }
    // Slots loaded or loading and not yet consumed when g is issued: the
    // starts are non-decreasing, so the first such position only moves on.
    if (oldest_unconsumed < g - stages + 1) oldest_unconsumed = g - stages + 1;
    while (oldest_unconsumed < g && start[oldest_unconsumed % stages] <= st.issue)
      oldest_unconsumed++;
    st.in_flight = (int)(g - oldest_unconsumed + 1);
    in_flight_sum += st.in_flight;
    int64_t consumer_free = prev_end;
    if (g > 0 && k == 0 && !add(prev_end, m->epilogue, &consumer_free, g, err, errlen))
      return false;
    st.full_wait = max64(0, st.ready - consumer_free);
    st.start = max64(consumer_free, st.ready);
    if (!add(st.start, m->compute, &st.end, g, err, errlen)) return false;
    start[slot] = st.start;
    if (k == n - 1) // wgmma.wait_group 0, then the arrive
      st.release = release[slot] = st.end;
    if (st.empty_wait > 0) {
      s->producer_waits++;
      s->empty_cycles += st.empty_wait;
    }
    if (st.full_wait > 0) {
      s->consumer_waits++;
      s->full_cycles += st.full_wait;
    }
    if (g < kept) out[g] = st;
    prev_end = st.end;
  }
  if (P > 0) {
    if (!add(prev_end, m->epilogue, &s->makespan, P, err, errlen)) return false;
    s->compute_utilization =
        s->makespan > 0 ? (double)P * (double)m->compute / (double)s->makespan : 0.0;
    s->mean_in_flight = in_flight_sum / (double)P;
  }
  *steps = out;
  return true;
}
