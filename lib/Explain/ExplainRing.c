// `tlc explain-pipeline --ring` and the TMA ring part of the FILE mode: the
// schedules of the TMA ring model (lib/Analysis/RingModel.c) as a text table
// or as YAML with every position. The table shows, per position, the slot
// and the parity the consumers wait for, how long the producer waited on the
// slot's empty barrier, when the load completed the full barrier, how long
// the tensor core then sat idle, the wgmma group and the slot's release.
#include "tlc/Explain.h"
#include "tlc/Yaml.h"

#include <inttypes.h>
#include <string.h>

enum {
  HEAD_ROWS = 8,
  EDGE_ROWS = 2,
  EDGE_MAX_ITERATIONS = 4096 // longer tiles show only their head (keeps the table's memory small)
};

// The positions a table shows: the first HEAD_ROWS, and for a kernel that
// walks several tiles the last EDGE_ROWS of tile 0 and the first EDGE_ROWS of
// tile 1, where the epilogue and the ring's run-on across tiles show.
static int table_rows(const TlRingModel *m, int64_t rows[HEAD_ROWS + 2 * EDGE_ROWS]) {
  int64_t P = m->iterations * m->tiles;
  int n = 0;
  for (int64_t g = 0; g < P && g < HEAD_ROWS; g++)
    rows[n++] = g;
  if (m->tiles > 1 && m->iterations <= EDGE_MAX_ITERATIONS)
    for (int64_t g = m->iterations - EDGE_ROWS; g < m->iterations + EDGE_ROWS; g++)
      if (g >= HEAD_ROWS && g < P) rows[n++] = g;
  return n;
}

static char *step_text(TlArena *a, const TlRingStep *s) {
  return tl_arena_printf(a,
                         "slot %d ph %d  empty wait %4" PRId64 "  issue %5" PRId64
                         "  full %5" PRId64 "  idle %4" PRId64 "  wgmma [%5" PRId64 ",%5" PRId64
                         ")  release %5" PRId64 "  in flight %d",
                         s->slot, s->phase, s->empty_wait, s->issue, s->ready, s->full_wait,
                         s->start, s->end, s->release, s->in_flight);
}

// Two left-aligned columns in an ASCII box, as the seed's tables are drawn.
static void box(TlBuf *out, const char *h0, const char *h1, char **c0, char **c1, int rows) {
  int left = (int)strlen(h0), right = (int)strlen(h1);
  for (int i = 0; i < rows; i++) {
    if ((int)strlen(c0[i]) > left) left = (int)strlen(c0[i]);
    if ((int)strlen(c1[i]) > right) right = (int)strlen(c1[i]);
  }
  TlBuf b;
  tl_buf_init(&b, out->arena);
  tl_buf_puts(&b, "+-");
  for (int i = 0; i < left; i++)
    tl_buf_putc(&b, '-');
  tl_buf_puts(&b, "-+-");
  for (int i = 0; i < right; i++)
    tl_buf_putc(&b, '-');
  tl_buf_puts(&b, "-+\n");
  const char *bar = b.data;
  tl_buf_puts(out, bar);
  tl_buf_printf(out, "| %-*s | %-*s |\n", left, h0, right, h1);
  tl_buf_puts(out, bar);
  for (int i = 0; i < rows; i++)
    tl_buf_printf(out, "| %-*s | %-*s |\n", left, c0[i], right, c1[i]);
  tl_buf_puts(out, bar);
}

static const char *deadlock_text =
    "deadlock: the consumers give a slot back only after the next position's data has arrived, "
    "and with one slot that load waits for the slot";

static void table_schedule(TlBuf *out, const TlRingModel *m, int stages, const TlRingStep *st,
                           const TlRingSummary *s) {
  tl_buf_printf(out, "== ring stages=%d ==\n", stages);
  if (s->deadlock) {
    tl_buf_printf(out, "%s\n\n", deadlock_text);
    return;
  }
  int64_t rows[HEAD_ROWS + 2 * EDGE_ROWS];
  int n = table_rows(m, rows), shown = 0;
  char **c0 = TL_NEW_ARRAY(out->arena, char *, (size_t)n + 1);
  char **c1 = TL_NEW_ARRAY(out->arena, char *, (size_t)n + 1);
  for (int i = 0; i < n; i++) {
    if (i > 0 && rows[i] != rows[i - 1] + 1) {
      c0[shown] = "...";
      c1[shown++] = "";
    }
    const TlRingStep *p = &st[rows[i]];
    c0[shown] = tl_arena_printf(out->arena, "tile %" PRId64 " k %2" PRId64, p->tile, p->k);
    c1[shown++] = step_text(out->arena, p);
  }
  box(out, "position", "producer / mbarriers / consumer (cycles)", c0, c1, shown);
  tl_buf_printf(out,
                "makespan=%" PRId64 "  producer waited on empty %" PRId64 "x (%" PRId64
                " cycles)  tensor core idle on full %" PRId64 "x (%" PRId64
                " cycles)  compute_util=%.0f%%  mean in flight=%.2f\n\n",
                s->makespan, s->producer_waits, s->empty_cycles, s->consumer_waits, s->full_cycles,
                s->compute_utilization * 100.0, s->mean_in_flight);
}

static void table_summary(TlBuf *out, const TlRingSummary *sums, int n, int64_t baseline) {
  char **c0 = TL_NEW_ARRAY(out->arena, char *, (size_t)n);
  char **c1 = TL_NEW_ARRAY(out->arena, char *, (size_t)n);
  for (int i = 0; i < n; i++) {
    const TlRingSummary *s = &sums[i];
    c0[i] = tl_arena_printf(out->arena, "%d", s->stages);
    if (s->deadlock)
      c1[i] = "deadlock";
    else
      c1[i] =
          tl_arena_printf(out->arena,
                          "%8" PRId64 "  x%4.2f  %6" PRId64 " / %-9" PRId64 "  %6" PRId64
                          " / %-9" PRId64 "  %4.0f%%  %5.2f",
                          s->makespan, s->makespan ? (double)baseline / (double)s->makespan : 1.0,
                          s->producer_waits, s->empty_cycles, s->consumer_waits, s->full_cycles,
                          s->compute_utilization * 100.0, s->mean_in_flight);
  }
  tl_buf_puts(out, "== ring summary (speedup against 2 stages) ==\n");
  box(out, "stages", "makespan  speedup  empty waits/cycles  full waits/cycles  util  in flight",
      c0, c1, n);
  tl_buf_puts(out,
              "\nReading the table: a slot comes back one position late (the consumers release "
              "slot g - 1\nafter waiting on full[g]), so a ring needs one stage more than the "
              "seed's copy -> compute\nmodel to hide the same latency; \"empty wait\" is the "
              "producer stalled on a slot still held,\n\"idle\" the tensor core stalled on a "
              "load; an epilogue between tiles lets the producer run ahead.\n");
}

static void yaml_step(TlYaml *y, const TlRingStep *p) {
  tl_yaml_map(y, true);
  tl_yaml_key_int(y, "tile", p->tile);
  tl_yaml_key_int(y, "k", p->k);
  tl_yaml_key_int(y, "slot", p->slot);
  tl_yaml_key_int(y, "phase", p->phase);
  tl_yaml_key_int(y, "empty_wait", p->empty_wait);
  tl_yaml_key_int(y, "issue", p->issue);
  tl_yaml_key_int(y, "full", p->ready);
  tl_yaml_key_int(y, "idle", p->full_wait);
  tl_yaml_key_int(y, "start", p->start);
  tl_yaml_key_int(y, "end", p->end);
  tl_yaml_key_int(y, "release", p->release);
  tl_yaml_key_int(y, "in_flight", p->in_flight);
  tl_yaml_map_end(y);
}

static void yaml_schedule(TlYaml *y, const TlRingStep *st, const TlRingSummary *s) {
  char util[32], flight[32];
  tl_yaml_map(y, false);
  tl_yaml_key_int(y, "stages", s->stages);
  if (s->deadlock) {
    tl_yaml_key_str(y, "deadlock", deadlock_text);
    tl_yaml_map_end(y);
    return;
  }
  tl_yaml_key_int(y, "makespan", s->makespan);
  tl_yaml_key_int(y, "producer_waits", s->producer_waits);
  tl_yaml_key_int(y, "empty_wait_cycles", s->empty_cycles);
  tl_yaml_key_int(y, "consumer_waits", s->consumer_waits);
  tl_yaml_key_int(y, "idle_cycles", s->full_cycles);
  snprintf(util, sizeof util, "%.6f", s->compute_utilization);
  snprintf(flight, sizeof flight, "%.6f", s->mean_in_flight);
  tl_yaml_key_str(y, "compute_utilization", util);
  tl_yaml_key_str(y, "mean_in_flight", flight);
  tl_yaml_scalar(y, "positions");
  tl_yaml_seq(y, false);
  for (int64_t g = 0; g < s->positions; g++)
    yaml_step(y, &st[g]);
  tl_yaml_seq_end(y);
  tl_yaml_map_end(y);
}

bool tl_explain_ring_render(TlBuf *out, const TlRingModel *m, const int *stages, int nstages,
                            TlExplainFormat f, const char *title, char *err, size_t errlen) {
  TlArena *a = out->arena;
  if (f == TL_EXPLAIN_SVG) {
    tl_set_err(err, errlen, "the ring model has no SVG form yet; use --format table or yaml");
    return false;
  }
  int64_t P = m->iterations * m->tiles;
  if (f == TL_EXPLAIN_YAML && m->iterations > 0 &&
      m->tiles > TL_EXPLAIN_RING_YAML_MAX / m->iterations) {
    tl_set_err(err, errlen,
               "--format yaml lists every position and %" PRId64 " x %" PRId64
               " is above its limit of %" PRId64 "; use --format table",
               m->iterations, m->tiles, TL_EXPLAIN_RING_YAML_MAX);
    return false;
  }
  // Simulate everything first, so that an error leaves out untouched.
  int64_t keep = f == TL_EXPLAIN_YAML                   ? P
                 : m->iterations <= EDGE_MAX_ITERATIONS ? HEAD_ROWS + m->iterations + EDGE_ROWS
                                                        : HEAD_ROWS;
  TlRingStep **steps = TL_NEW_ARRAY(a, TlRingStep *, (size_t)nstages);
  TlRingSummary *sums = TL_NEW_ARRAY(a, TlRingSummary, (size_t)nstages);
  for (int i = 0; i < nstages; i++)
    if (!tl_ring_simulate(a, m, stages[i], keep, &steps[i], &sums[i], err, errlen)) return false;
  TlRingStep *unused;
  TlRingSummary two;
  if (!tl_ring_simulate(a, m, 2, 0, &unused, &two, err, errlen)) return false;
  if (f == TL_EXPLAIN_YAML) {
    TlYaml y;
    TlBuf tmp;
    tl_buf_init(&tmp, a);
    tl_yaml_begin(&y, &tmp, -1, true);
    tl_yaml_map(&y, false);
    if (title) tl_yaml_key_str(&y, "title", title);
    tl_yaml_scalar(&y, "ring_model");
    tl_yaml_map(&y, false);
    tl_yaml_key_int(&y, "iterations", m->iterations);
    tl_yaml_key_int(&y, "tiles", m->tiles);
    tl_yaml_key_int(&y, "issue", m->issue);
    tl_yaml_key_int(&y, "latency", m->latency);
    tl_yaml_key_int(&y, "compute", m->compute);
    tl_yaml_key_int(&y, "epilogue", m->epilogue);
    tl_yaml_map_end(&y);
    tl_yaml_scalar(&y, "schedules");
    tl_yaml_seq(&y, false);
    for (int i = 0; i < nstages; i++)
      yaml_schedule(&y, steps[i], &sums[i]);
    tl_yaml_seq_end(&y);
    tl_yaml_map_end(&y);
    if (!tl_yaml_end(&y, err, errlen)) return false;
    tl_buf_puts(out, tmp.data);
    return true;
  }
  if (title) tl_buf_printf(out, "loop: %s\n", title);
  tl_buf_puts(out, "model: TMA ring, producer warpgroup -> full/empty mbarriers -> consumer wgmma, "
                   "abstract cycles\n");
  tl_buf_printf(out,
                "  iterations=%" PRId64 " tiles=%" PRId64 " issue=%" PRId64 " latency=%" PRId64
                " compute=%" PRId64 " epilogue=%" PRId64 "\n\n",
                m->iterations, m->tiles, m->issue, m->latency, m->compute, m->epilogue);
  for (int i = 0; i < nstages; i++)
    table_schedule(out, m, stages[i], steps[i], &sums[i]);
  table_summary(out, sums, nstages, two.deadlock ? 0 : two.makespan);
  return true;
}
