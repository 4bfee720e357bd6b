// `tlc explain-pipeline`: prints the software-pipeline model's schedules
// (lib/Analysis/PipelineModel.c) as the seed 002 script's text table, as YAML
// with every iteration, or as an SVG of Gantt charts, one per stage count.
//
// The table is the contract with the seed: same numbers, same rounding,
// same box drawing, character for character (docs/explain-pipeline.md lists
// the few inputs where the script crashes and this tool prints instead).
#include "tlc/Explain.h"
#include "tlc/Yaml.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
  TABLE_ROWS = 8,    // iterations per stage table, as in the seed
  SVG_MAX_DRAWN = 64 // iterations drawn per Gantt chart
};

// Where rendered text goes: a buffer, flushed to fp as it grows when fp is
// set, so YAML of a million iterations never sits in memory whole.
typedef struct Sink {
  TlBuf *buf;
  FILE *fp;
  bool failed; // a write to fp failed
} Sink;

static void sink_flush(Sink *s) {
  if (!s->fp || s->buf->len == 0)
    return;
  if (fwrite(s->buf->data, 1, s->buf->len, s->fp) != s->buf->len)
    s->failed = true;
  s->buf->len = 0;
  s->buf->data[0] = '\0';
}

static void sink_maybe_flush(Sink *s) {
  if (s->fp && s->buf->len >= (size_t)1 << 20)
    sink_flush(s);
}

/* ---- Planning: validate everything and summarise every schedule first ---- */

// The summaries of every distinct stage count the output needs, sorted, so
// rendering never fails halfway and the table's summary is ready.
typedef struct Plan {
  TlPipeModel model;
  const int *stages; // as given, duplicates and order kept
  int nstages;
  int *uniq; // sorted({1} u stages)
  TlPipeSummary *sums; // sums[i] is the schedule for uniq[i]
  int nuniq;
  int64_t baseline; // makespan with one stage
} Plan;

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

// One simulation in a scratch arena: the slot array of a large loop should
// not pile up once per stage count.
static bool simulate_summary(const TlPipeModel *m, int stages, TlPipeSummary *s, char *err,
                             size_t errlen) {
  TlArena scratch;
  tl_arena_init(&scratch);
  TlPipeTimeline t;
  bool ok = tl_pipe_simulate_prefix(&scratch, m, stages, 0, &t, s, err, errlen);
  tl_arena_free(&scratch);
  return ok;
}

static bool plan_schedules(TlArena *a, const TlPipeModel *m, const int *stages, int nstages,
                           Plan *p, char *err, size_t errlen) {
  *p = (Plan){.model = *m, .stages = stages, .nstages = nstages};
  for (int i = 0; i < nstages; i++) {
    if (stages[i] < 1) {
      tl_set_err(err, errlen, "stage count must be >= 1, got %d", stages[i]);
      return false;
    }
  }
  p->uniq = TL_NEW_ARRAY(a, int, (size_t)nstages + 1);
  p->uniq[0] = 1;
  if (nstages > 0)
    memcpy(p->uniq + 1, stages, sizeof(int) * (size_t)nstages);
  qsort(p->uniq, (size_t)nstages + 1, sizeof(int), cmp_int);
  int n = 0;
  for (int i = 0; i <= nstages; i++)
    if (n == 0 || p->uniq[n - 1] != p->uniq[i])
      p->uniq[n++] = p->uniq[i];
  p->nuniq = n;
  p->sums = TL_NEW_ARRAY(a, TlPipeSummary, (size_t)n);
  for (int i = 0; i < n; i++)
    if (!simulate_summary(m, p->uniq[i], &p->sums[i], err, errlen))
      return false;
  p->baseline = p->sums[0].makespan; // uniq[0] is 1
  return true;
}

static const TlPipeSummary *plan_summary(const Plan *p, int stages) {
  const int *hit = bsearch(&stages, p->uniq, (size_t)p->nuniq, sizeof(int), cmp_int);
  TL_ASSERT("explain-pipeline", hit != NULL);
  return &p->sums[hit - p->uniq];
}

// baseline / makespan, as the seed divides. The seed divides by zero when
// every cost is 0 or there are no iterations; then both schedules take no
// time and the speedup is 1.
static double speedup(const Plan *p, int64_t makespan) {
  if (makespan == 0)
    return 1.0;
  return tl_pipe_ratio(p->baseline, makespan);
}

// The first `keep` iterations of one schedule, in a caller-owned arena
// (which also receives the schedule's slot array: pass a scratch arena).
static void simulate_head(TlArena *a, const Plan *p, int stages, int64_t keep, TlPipeTimeline *t) {
  TlPipeSummary s;
  char err[160];
  bool ok = tl_pipe_simulate_prefix(a, &p->model, stages, keep, t, &s, err, sizeof err);
  TL_ASSERT("explain-pipeline", ok); // plan_schedules already ran this schedule
}

// Like simulate_head, but only the (short) arrays land in `a`.
static void simulate_head_copy(TlArena *a, const Plan *p, int stages, int64_t keep,
                               TlPipeTimeline *t) {
  TlArena scratch;
  tl_arena_init(&scratch);
  TlPipeTimeline tmp;
  simulate_head(&scratch, p, stages, keep, &tmp);
  *t = tmp;
  int64_t *src[4] = {tmp.copy_issue, tmp.copy_ready, tmp.compute_start, tmp.compute_end};
  int64_t **dst[4] = {&t->copy_issue, &t->copy_ready, &t->compute_start, &t->compute_end};
  size_t n = tmp.model.iterations > 0 ? (size_t)tmp.model.iterations : 1;
  for (int k = 0; k < 4; k++) {
    *dst[k] = TL_NEW_ARRAY(a, int64_t, n);
    memcpy(*dst[k], src[k], n * sizeof(int64_t));
  }
  tl_arena_free(&scratch);
}

/* ---- table: the seed's text output ---- */

// Python's format(x, '.0%'): multiply by 100 in double, then fixed with no
// decimals (glibc and CPython both round the exact binary value half-even).
static void fmt_percent(char *dst, size_t n, double x) {
  snprintf(dst, n, "%.0f%%", x * 100.0);
}

// The seed's _table: two left-aligned columns in an ASCII box.
static void put_table(TlBuf *out, const char *h0, const char *h1, char **c0, char **c1, int rows) {
  size_t left = strlen(h0), right = strlen(h1);
  for (int i = 0; i < rows; i++) {
    size_t l = strlen(c0[i]), r = strlen(c1[i]);
    if (l > left)
      left = l;
    if (r > right)
      right = r;
  }
  TlBuf bar;
  tl_buf_init(&bar, out->arena);
  tl_buf_puts(&bar, "+-");
  for (size_t i = 0; i < left; i++)
    tl_buf_putc(&bar, '-');
  tl_buf_puts(&bar, "-+-");
  for (size_t i = 0; i < right; i++)
    tl_buf_putc(&bar, '-');
  tl_buf_puts(&bar, "-+\n");
  tl_buf_puts(out, bar.data);
  tl_buf_printf(out, "| %-*s | %-*s |\n", (int)left, h0, (int)right, h1);
  tl_buf_puts(out, bar.data);
  for (int i = 0; i < rows; i++)
    tl_buf_printf(out, "| %-*s | %-*s |\n", (int)left, c0[i], (int)right, c1[i]);
  tl_buf_puts(out, bar.data);
}

static void table_header(TlBuf *out, const Plan *p, const char *title) {
  const TlPipeModel *m = &p->model;
  if (title)
    tl_buf_printf(out, "loop: %s\n", title);
  tl_buf_puts(out, "model: copy -> compute, greedy list schedule, abstract cycles\n");
  tl_buf_printf(out, "  iterations=%" PRId64 " issue=%" PRId64 " latency=%" PRId64
                     " compute=%" PRId64 "\n",
                m->iterations, m->issue, m->latency, m->compute);
  // The seed divides by compute and crashes on 0; print what float
  // division gives instead.
  char ratio[64];
  if (m->compute > 0)
    snprintf(ratio, sizeof ratio, "%.2f", tl_pipe_ratio(m->latency, m->compute));
  else
    snprintf(ratio, sizeof ratio, "%s", m->latency > 0 ? "inf" : "nan");
  // The seed rounds latency / max(compute, 1) to a double before its
  // ceiling; tl_pipe_required_depth is exact. They differ only when the
  // quotient passes 2^53, and there the table prints the seed's number.
  uint64_t depth = (uint64_t)tl_pipe_required_depth(m);
  double q = tl_pipe_ratio(m->latency, m->compute > 1 ? m->compute : 1);
  if (q >= 0x1p53)
    depth = (uint64_t)q + 1; // q is an integer here, at most 2^63
  tl_buf_printf(out,
                "  latency/compute = %s -> smallest depth that reaches the steady state = %" PRIu64
                "\n\n",
                ratio, depth);
}

static void table_schedule(TlBuf *out, const Plan *p, int stages) {
  TlArena scratch;
  tl_arena_init(&scratch);
  TlPipeTimeline t;
  simulate_head(&scratch, p, stages, TABLE_ROWS, &t);
  const TlPipeSummary *s = plan_summary(p, stages);
  int rows = (int)t.model.iterations;
  char **c0 = TL_NEW_ARRAY(out->arena, char *, TABLE_ROWS);
  char **c1 = TL_NEW_ARRAY(out->arena, char *, TABLE_ROWS);
  for (int i = 0; i < rows; i++) {
    c0[i] = tl_arena_printf(out->arena, "iter %2d", i);
    c1[i] = tl_arena_printf(out->arena,
                            "slot %d  issue %3" PRId64 "  ready %3" PRId64 "  gemm [%3" PRId64
                            ",%3" PRId64 ")",
                            i % stages, t.copy_issue[i], t.copy_ready[i], t.compute_start[i],
                            t.compute_end[i]);
  }
  tl_arena_free(&scratch);
  char util[64];
  fmt_percent(util, sizeof util, s->compute_utilization);
  tl_buf_printf(out, "== stages=%d ==\n", stages);
  put_table(out, "iteration", "schedule (cycles)", c0, c1, rows);
  tl_buf_printf(out,
                "makespan=%" PRId64 "  issue_interval=%.2f  compute_interval=%.2f  "
                "compute_util=%s\n\n",
                s->makespan, s->issue_interval, s->compute_interval, util);
}

static void table_summary(TlBuf *out, const Plan *p) {
  char **c0 = TL_NEW_ARRAY(out->arena, char *, (size_t)p->nuniq);
  char **c1 = TL_NEW_ARRAY(out->arena, char *, (size_t)p->nuniq);
  for (int i = 0; i < p->nuniq; i++) {
    const TlPipeSummary *s = &p->sums[i];
    char util[64];
    fmt_percent(util, sizeof util, s->compute_utilization);
    c0[i] = tl_arena_printf(out->arena, "%d", p->uniq[i]);
    c1[i] = tl_arena_printf(out->arena,
                            "%5" PRId64 "  x%4.2f  issue_iv=%5.1f  compute_iv=%5.1f  "
                            "compute_util=%5s",
                            s->makespan, speedup(p, s->makespan), s->issue_interval,
                            s->compute_interval, util);
  }
  tl_buf_puts(out, "== summary ==\n");
  put_table(out, "stages", "makespan  speedup  issue_iv  compute_iv  compute_util", c0, c1,
            p->nuniq);
  tl_buf_puts(out, "\nReading the table: below the depth computed above the consumer still "
                   "stalls on data arrival;\nabove it the makespan stops improving while every "
                   "extra slot costs on-chip storage.\n");
}

static void render_table(TlBuf *out, const Plan *p, const char *title) {
  table_header(out, p, title);
  for (int i = 0; i < p->nstages; i++)
    table_schedule(out, p, p->stages[i]);
  table_summary(out, p);
}

/* ---- yaml: every iteration, through libyaml's emitter ---- */

// The YAML document and where it drains (a long one is written out as it grows).
typedef struct YamlOut {
  TlYaml yaml;
  Sink *sink;
} YamlOut;

// The shortest decimal that reads back as the same double, laid out as
// Python's repr lays it out (fixed for exponents -4..15, else scientific),
// always with a '.' so that every YAML 1.1 reader sees a float.
static void y_float(YamlOut *y, double v) {
  if (isnan(v)) {
    tl_yaml_scalar(&y->yaml, ".nan");
    return;
  }
  if (isinf(v)) {
    tl_yaml_scalar(&y->yaml, v > 0 ? ".inf" : "-.inf");
    return;
  }
  char sci[40];
  int prec = 0;
  for (; prec < 17; prec++) {
    snprintf(sci, sizeof sci, "%.*e", prec, v);
    if (strtod(sci, NULL) == v)
      break;
  }
  // sci is [-]d.ddde[+-]xx: split it into sign, digits and exponent.
  const char *p = sci;
  bool neg = *p == '-';
  if (neg)
    p++;
  char digits[24];
  int nd = 0;
  for (; *p != 'e'; p++)
    if (*p != '.')
      digits[nd++] = *p;
  digits[nd] = '\0';
  int exp = atoi(p + 1);
  char text[64];
  TlBuf b;
  TlArena scratch;
  tl_arena_init(&scratch);
  tl_buf_init(&b, &scratch);
  if (neg)
    tl_buf_putc(&b, '-');
  if (exp >= 16 || exp < -4) {
    tl_buf_printf(&b, "%c.%se%c%02d", digits[0], nd > 1 ? digits + 1 : "0", exp < 0 ? '-' : '+',
                  exp < 0 ? -exp : exp);
  } else if (exp < 0) {
    tl_buf_puts(&b, "0.");
    for (int i = 0; i < -exp - 1; i++)
      tl_buf_putc(&b, '0');
    tl_buf_puts(&b, digits);
  } else {
    for (int i = 0; i <= exp; i++)
      tl_buf_putc(&b, i < nd ? digits[i] : '0');
    tl_buf_putc(&b, '.');
    tl_buf_puts(&b, nd > exp + 1 ? digits + exp + 1 : "0");
  }
  snprintf(text, sizeof text, "%s", b.data);
  tl_arena_free(&scratch);
  tl_yaml_scalar(&y->yaml, text);
}

static void y_key_float(YamlOut *y, const char *key, double v) {
  tl_yaml_scalar(&y->yaml, key);
  y_float(y, v);
}

static void yaml_schedule(YamlOut *y, const Plan *p, int stages) {
  const TlPipeSummary *s = plan_summary(p, stages);
  tl_yaml_map(&y->yaml, false);
  tl_yaml_key_int(&y->yaml, "stages", stages);
  tl_yaml_key_int(&y->yaml, "makespan", s->makespan);
  y_key_float(y, "speedup", speedup(p, s->makespan));
  y_key_float(y, "issue_interval", s->issue_interval);
  y_key_float(y, "compute_interval", s->compute_interval);
  y_key_float(y, "compute_utilization", s->compute_utilization);
  y_key_float(y, "copy_utilization", s->copy_utilization);
  tl_yaml_scalar(&y->yaml, "iterations");
  tl_yaml_seq(&y->yaml, false);
  TlArena scratch;
  tl_arena_init(&scratch);
  TlPipeTimeline t;
  simulate_head(&scratch, p, stages, p->model.iterations, &t);
  for (int64_t i = 0; i < t.model.iterations && !y->yaml.failed; i++) {
    tl_yaml_map(&y->yaml, true);
    tl_yaml_key_int(&y->yaml, "iter", i);
    tl_yaml_key_int(&y->yaml, "slot", i % stages);
    tl_yaml_key_int(&y->yaml, "issue", t.copy_issue[i]);
    tl_yaml_key_int(&y->yaml, "ready", t.copy_ready[i]);
    tl_yaml_key_int(&y->yaml, "start", t.compute_start[i]);
    tl_yaml_key_int(&y->yaml, "end", t.compute_end[i]);
    tl_yaml_map_end(&y->yaml);
    sink_maybe_flush(y->sink);
  }
  tl_arena_free(&scratch);
  tl_yaml_seq_end(&y->yaml);
  tl_yaml_map_end(&y->yaml);
}

static bool render_yaml(Sink *sink, const Plan *p, const char *title, char *err, size_t errlen) {
  YamlOut y = {.sink = sink};
  tl_yaml_begin(&y.yaml, sink->buf, -1, true); // one line per iteration, however long
  tl_yaml_map(&y.yaml, false);
  if (title) {
    tl_yaml_scalar(&y.yaml, "title");
    tl_yaml_string(&y.yaml, title);
  }
  const TlPipeModel *m = &p->model;
  tl_yaml_scalar(&y.yaml, "model");
  tl_yaml_map(&y.yaml, false);
  tl_yaml_key_int(&y.yaml, "iterations", m->iterations);
  tl_yaml_key_int(&y.yaml, "issue", m->issue);
  tl_yaml_key_int(&y.yaml, "latency", m->latency);
  tl_yaml_key_int(&y.yaml, "compute", m->compute);
  tl_yaml_map_end(&y.yaml);
  tl_yaml_key_int(&y.yaml, "required_depth", tl_pipe_required_depth(m));
  tl_yaml_scalar(&y.yaml, "schedules");
  tl_yaml_seq(&y.yaml, false);
  for (int i = 0; i < p->nstages && !y.yaml.failed; i++)
    yaml_schedule(&y, p, p->stages[i]);
  tl_yaml_seq_end(&y.yaml);
  tl_yaml_map_end(&y.yaml);
  return tl_yaml_end(&y.yaml, err, errlen);
}

/* ---- svg: one Gantt chart per stage count ---- */

// Layout, in pixels. Every chart shares one time scale, so the chart of a
// deeper pipeline is visibly shorter.
#define SVG_WIDTH 1000.0
#define SVG_LEFT 120.0   // lane labels
#define SVG_RIGHT 40.0
#define SVG_TOP 78.0     // document title and model line
#define SVG_CHART_H 170.0
#define SVG_COPY_H 40.0
#define SVG_COMPUTE_H 26.0
#define SVG_LEGEND_H 40.0

// Slot colours (Tableau 10 without its red, which marks stalls); slot s
// uses s % 8.
static const char *const slot_colour[8] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                           "#76b7b2", "#edc948", "#9c755f", "#bab0ac"};
#define STALL_FILL "url(#stall)"

typedef struct Scale {
  double x0, width;
  int64_t tmax;
} Scale;

static double sx(const Scale *sc, int64_t t) {
  return sc->x0 + (double)t / (double)sc->tmax * sc->width;
}

static void svg_rect(TlBuf *out, double x, double y, double w, double h, const char *fill,
                     const char *extra, const char *tip) {
  tl_buf_printf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"%s",
                x, y, w, h, fill, extra ? extra : "");
  if (tip) {
    tl_buf_puts(out, "><title>");
    tl_buf_xml_text(out, tip);
    tl_buf_puts(out, "</title></rect>\n");
  } else {
    tl_buf_puts(out, "/>\n");
  }
}

static void svg_text(TlBuf *out, double x, double y, const char *attrs, const char *text) {
  tl_buf_printf(out, "<text x=\"%.2f\" y=\"%.2f\"%s>", x, y, attrs);
  tl_buf_xml_text(out, text);
  tl_buf_puts(out, "</text>\n");
}

// A 1-2-5 tick step giving at most about ten ticks over [0, tmax].
static int64_t tick_step(int64_t tmax) {
  for (int64_t p = 1;; p *= 10) {
    static const int64_t mult[3] = {1, 2, 5};
    for (int i = 0; i < 3; i++) {
      int64_t step = mult[i] * p;
      if (step >= (tmax + 9) / 10)
        return step;
    }
    if (p > INT64_MAX / 100)
      return tmax > 0 ? tmax : 1;
  }
}

static void svg_axis(TlBuf *out, const Scale *sc, double y) {
  tl_buf_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>\n",
                sc->x0, y, sc->x0 + sc->width, y);
  int64_t step = tick_step(sc->tmax);
  for (int64_t t = 0; t <= sc->tmax; t += step) {
    double x = sx(sc, t);
    tl_buf_printf(out,
                  "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>\n", x,
                  y, x, y + 5);
    char label[32];
    snprintf(label, sizeof label, "%" PRId64, t);
    svg_text(out, x, y + 17, " text-anchor=\"middle\" font-size=\"10\"", label);
    if (t > sc->tmax - step)
      break; // the next tick would pass tmax (and might overflow)
  }
  svg_text(out, sc->x0 + sc->width, y + 31, " text-anchor=\"end\" font-size=\"10\" fill=\"#555\"",
           "model cycles");
}

static void svg_chart(TlBuf *out, const Plan *p, int stages, const TlPipeTimeline *t,
                      const Scale *sc, double y0) {
  TlArena *a = out->arena;
  const TlPipeModel *m = &p->model;
  const TlPipeSummary *s = plan_summary(p, stages);
  char cu[64], ku[64];
  fmt_percent(cu, sizeof cu, s->compute_utilization);
  fmt_percent(ku, sizeof ku, s->copy_utilization);
  tl_buf_printf(out, "<g id=\"stages-%d\">\n", stages);
  char *heading = tl_arena_printf(a,
                                  "stages=%d: makespan %" PRId64 " cycles, x%.2f vs 1 stage, "
                                  "compute unit busy %s, copy engine busy %s",
                                  stages, s->makespan, speedup(p, s->makespan), cu, ku);
  svg_text(out, 10, y0 + 16, " font-size=\"13\" font-weight=\"bold\"", heading);

  int64_t n = t->model.iterations;
  double copy_y = y0 + 26, compute_y = copy_y + SVG_COPY_H + 8;
  svg_text(out, 10, copy_y + SVG_COPY_H / 2 + 4, "", "copy engine");
  svg_text(out, 10, compute_y + SVG_COMPUTE_H / 2 + 4, "", "compute unit");
  svg_rect(out, sc->x0, copy_y, sc->width, SVG_COPY_H, "#f4f4f4", NULL, NULL);
  svg_rect(out, sc->x0, compute_y, sc->width, SVG_COMPUTE_H, "#f4f4f4", NULL, NULL);

  // Copies in flight overlap in time (one per slot at most), so the copy
  // lane has one row per slot, up to eight.
  int64_t rows = stages < n ? stages : n;
  if (rows > 8)
    rows = 8;
  if (rows < 1)
    rows = 1;
  double row_h = SVG_COPY_H / (double)rows;
  for (int64_t i = 0; i < n; i++) {
    int64_t slot = i % stages;
    const char *colour = slot_colour[slot % 8];
    double ry = copy_y + (double)(slot % rows) * row_h;
    int64_t issue_end = t->copy_issue[i] + m->issue;
    if (issue_end > t->copy_ready[i])
      issue_end = t->copy_ready[i]; // the issue bar never runs past the ready time
    char *tip = tl_arena_printf(a,
                                "iteration %" PRId64 " (slot %" PRId64 "): copy issued at %" PRId64
                                ", data ready at %" PRId64,
                                i, slot, t->copy_issue[i], t->copy_ready[i]);
    if (t->copy_ready[i] > issue_end)
      svg_rect(out, sx(sc, issue_end), ry + 1, sx(sc, t->copy_ready[i]) - sx(sc, issue_end),
               row_h - 2, colour, " fill-opacity=\"0.3\"", tip);
    if (issue_end > t->copy_issue[i])
      svg_rect(out, sx(sc, t->copy_issue[i]), ry + 1, sx(sc, issue_end) - sx(sc, t->copy_issue[i]),
               row_h - 2, colour, NULL, tip);
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t prev_end = i > 0 ? t->compute_end[i - 1] : 0;
    if (t->compute_start[i] > prev_end) {
      char *tip = tl_arena_printf(a,
                                  "compute unit waits %" PRId64 " cycles for the data of "
                                  "iteration %" PRId64,
                                  t->compute_start[i] - prev_end, i);
      svg_rect(out, sx(sc, prev_end), compute_y, sx(sc, t->compute_start[i]) - sx(sc, prev_end),
               SVG_COMPUTE_H, STALL_FILL, NULL, tip);
    }
    if (t->compute_end[i] > t->compute_start[i]) {
      double x = sx(sc, t->compute_start[i]), w = sx(sc, t->compute_end[i]) - x;
      char *tip = tl_arena_printf(a,
                                  "iteration %" PRId64 " (slot %" PRId64 "): compute [%" PRId64
                                  ", %" PRId64 ")",
                                  i, i % stages, t->compute_start[i], t->compute_end[i]);
      svg_rect(out, x, compute_y, w, SVG_COMPUTE_H, slot_colour[(i % stages) % 8],
               " stroke=\"#fff\" stroke-width=\"0.5\"", tip);
      char label[32];
      snprintf(label, sizeof label, "%" PRId64, i);
      if (w >= 5.5 * (double)strlen(label) + 3) // about the label's width at 9px
        svg_text(out, x + w / 2, compute_y + SVG_COMPUTE_H / 2 + 3,
                 " text-anchor=\"middle\" font-size=\"9\" fill=\"#fff\"", label);
    }
  }
  svg_axis(out, sc, compute_y + SVG_COMPUTE_H + 6);
  if (n < m->iterations) {
    char *caption = tl_arena_printf(a,
                                    "showing the first %" PRId64 " of %" PRId64
                                    " iterations; the title's numbers cover all of them",
                                    n, m->iterations);
    svg_text(out, sc->x0, compute_y + SVG_COMPUTE_H + 52, " font-size=\"11\" fill=\"#555\"",
             caption);
  }
  tl_buf_puts(out, "</g>\n");
}

static void svg_legend(TlBuf *out, double y, int max_stages) {
  double x = SVG_LEFT;
  svg_rect(out, x, y, 14, 10, "#4e79a7", NULL, NULL);
  svg_text(out, x + 18, y + 9, " font-size=\"11\"", "copy issue");
  x += 95;
  svg_rect(out, x, y, 14, 10, "#4e79a7", " fill-opacity=\"0.3\"", NULL);
  svg_text(out, x + 18, y + 9, " font-size=\"11\"", "data in flight (latency)");
  x += 170;
  svg_rect(out, x, y, 14, 10, STALL_FILL, NULL, NULL);
  svg_text(out, x + 18, y + 9, " font-size=\"11\"", "compute unit waits for data");
  x += 190;
  svg_text(out, x, y + 9, " font-size=\"11\"", "slot:");
  x += 32;
  int shown = max_stages < 8 ? max_stages : 8;
  for (int sl = 0; sl < shown; sl++) {
    char label[16];
    snprintf(label, sizeof label, "%d", sl);
    svg_rect(out, x, y, 14, 10, slot_colour[sl], NULL, NULL);
    svg_text(out, x + 17, y + 9, " font-size=\"11\"", label);
    x += 34;
  }
  if (max_stages > 8)
    svg_text(out, SVG_LEFT, y + 27, " font-size=\"11\" fill=\"#555\"",
             "slot s is drawn in the colour of slot s mod 8, and the copy lane has at most 8 rows");
}

static void render_svg(TlBuf *out, const Plan *p, const char *title) {
  TlArena *a = out->arena;
  const TlPipeModel *m = &p->model;
  TlPipeTimeline *heads = TL_NEW_ARRAY(a, TlPipeTimeline, (size_t)(p->nstages > 0 ? p->nstages : 1));
  Scale sc = {.x0 = SVG_LEFT, .width = SVG_WIDTH - SVG_LEFT - SVG_RIGHT, .tmax = 1};
  int max_stages = 1;
  for (int i = 0; i < p->nstages; i++) {
    simulate_head_copy(a, p, p->stages[i], SVG_MAX_DRAWN, &heads[i]);
    int64_t n = heads[i].model.iterations;
    if (n > 0 && heads[i].compute_end[n - 1] > sc.tmax)
      sc.tmax = heads[i].compute_end[n - 1];
    if (p->stages[i] > max_stages)
      max_stages = p->stages[i];
  }
  double height = SVG_TOP + SVG_CHART_H * p->nstages + SVG_LEGEND_H;
  char *doc_title = tl_arena_printf(a,
                                    "tlc explain-pipeline: copy -> compute schedules, "
                                    "iterations=%" PRId64 " issue=%" PRId64 " latency=%" PRId64
                                    " compute=%" PRId64,
                                    m->iterations, m->issue, m->latency, m->compute);
  tl_buf_printf(out,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                SVG_WIDTH, height, SVG_WIDTH, height);
  tl_buf_puts(out, "<title>");
  tl_buf_xml_text(out, doc_title);
  if (title) {
    tl_buf_puts(out, " (");
    tl_buf_xml_text(out, title);
    tl_buf_puts(out, ")");
  }
  tl_buf_puts(out, "</title>\n<desc>Greedy list schedule of the pipeline model; every number is a "
                   "model cycle count, not a measurement.</desc>\n");
  // Stalls: red hatching, unlike any slot colour.
  tl_buf_puts(out, "<defs><pattern id=\"stall\" width=\"6\" height=\"6\" "
                   "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                   "<rect width=\"6\" height=\"6\" fill=\"#fbe3e3\"/>"
                   "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#e15759\" "
                   "stroke-width=\"2\"/></pattern></defs>\n");
  svg_rect(out, 0, 0, SVG_WIDTH, height, "#fff", NULL, NULL);
  svg_text(out, 10, 24, " font-size=\"16\" font-weight=\"bold\"",
           title ? tl_arena_printf(a, "Pipeline schedules: %s", title) : "Pipeline schedules");
  char *model_line = tl_arena_printf(a,
                                     "model: iterations=%" PRId64 " issue=%" PRId64
                                     " latency=%" PRId64 " compute=%" PRId64
                                     "; smallest depth that reaches the steady state = %" PRId64
                                     " (abstract model cycles, not measurements)",
                                     m->iterations, m->issue, m->latency, m->compute,
                                     tl_pipe_required_depth(m));
  svg_text(out, 10, 46, " font-size=\"12\" fill=\"#333\"", model_line);
  for (int i = 0; i < p->nstages; i++)
    svg_chart(out, p, p->stages[i], &heads[i], &sc, SVG_TOP + SVG_CHART_H * i);
  svg_legend(out, SVG_TOP + SVG_CHART_H * p->nstages + 8, max_stages);
  tl_buf_puts(out, "</svg>\n");
}

/* ---- entry points ---- */

static bool render(Sink *sink, const TlPipeModel *m, const int *stages, int nstages,
                   TlExplainFormat f, const char *title, char *err, size_t errlen) {
  TlArena *a = sink->buf->arena;
  if (f == TL_EXPLAIN_YAML && m->iterations > TL_EXPLAIN_PIPELINE_YAML_MAX) {
    tl_set_err(err, errlen,
            "--format yaml lists every iteration and %" PRId64
            " iterations is above its limit of %" PRId64 "; use --format table",
            m->iterations, TL_EXPLAIN_PIPELINE_YAML_MAX);
    return false;
  }
  Plan p;
  if (!plan_schedules(a, m, stages, nstages, &p, err, errlen))
    return false;
  switch (f) {
  case TL_EXPLAIN_TABLE:
    render_table(sink->buf, &p, title);
    return true;
  case TL_EXPLAIN_YAML:
    return render_yaml(sink, &p, title, err, errlen);
  case TL_EXPLAIN_SVG:
    render_svg(sink->buf, &p, title);
    return true;
  }
  TL_UNREACHABLE("explain-pipeline", "unknown format");
}

bool tl_explain_pipeline_render(TlBuf *out, const TlPipeModel *m, const int *stages, int nstages,
                                TlExplainFormat f, const char *title, char *err, size_t errlen) {
  size_t mark = out->len;
  Sink sink = {.buf = out};
  if (render(&sink, m, stages, nstages, f, title, err, errlen))
    return true;
  // Take back anything a failed render appended.
  out->len = mark;
  if (out->data)
    out->data[mark] = '\0';
  return false;
}

/* ---- the command line ---- */

static const char usage[] =
    "usage: tlc explain-pipeline [--iterations N] [--issue I] [--latency L] [--compute C]\n"
    "                            [--stages S [S ...] | --sweep] [--format table|yaml|svg]\n"
    "                            [--ring [--tiles T] [--epilogue E]] [-o FILE]\n"
    "       tlc explain-pipeline FILE.tl [--target SM] [--format table|yaml|svg]\n"
    "       tlc explain-pipeline FILE.py --call 'F(ARGS)' [-D NAME=VALUE] [--format ...]\n"
    "\n"
    "Simulates a software-pipelined copy -> compute loop with a greedy list schedule\n"
    "and prints each schedule. Every number is a model cycle count, not a measurement.\n"
    "\n"
    "options:\n"
    "  --iterations N   loop iterations (default 8, at most 10000000)\n"
    "  --issue I        cycles the copy engine is busy per iteration (default 1)\n"
    "  --latency L      cycles from issuing a copy to its data being ready (default 30)\n"
    "  --compute C      cycles the compute unit is busy per iteration (default 20)\n"
    "  --stages S ...   buffer slots (num_stages) to simulate (default 1 2 3 4)\n"
    "  --sweep          simulate 1..8 stages instead of --stages\n"
    "  --ring           the TMA ring model of a warp-specialized loop instead: a producer\n"
    "                   warpgroup fills slots behind empty/full mbarriers and the consumers\n"
    "                   release a slot only after the next slot's data has arrived\n"
    "  --tiles T        ring: tiles one block walks, the ring running on (default 1)\n"
    "  --epilogue E     ring: consumer cycles between a tile's last wgmma and the next tile\n"
    "  --format F       table (default, the seed script's layout), yaml (every\n"
    "                   iteration, at most 1000000), or svg (Gantt charts)\n"
    "  -o FILE          write to FILE (replaced only when everything succeeded)\n"
    "  --call 'F(ARGS)' FILE mode: the kernel a factory call returns (as tlc --call)\n"
    "  -D NAME=VALUE    FILE mode: override a module-level constant (as tlc -D)\n"
    "  --target SM      FILE mode: sm_90a (default), sm_90 or sm_80, as tlc --target; the\n"
    "                   costs come from that target's description\n"
    "  -h, --help       show this help\n"
    "\n"
    "With FILE.tl, every T.Pipelined loop of the file is explained with the model\n"
    "derived from the target description.\n";

// "tlc: error: explain-pipeline: ..." on stderr, for fail and arg_error.
static void report(const char *fmt, va_list ap) {
  fputs("tlc: error: explain-pipeline: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(fmt, ap);
  va_end(ap);
  return 1;
}

// A decimal integer, the whole argument. *range is set when it has the
// form of one but does not fit in 64 bits.
static bool parse_int_range(const char *s, int64_t *out, bool *range) {
  *range = false;
  if (!*s || strchr(" \t\n", *s))
    return false; // strtoll would skip leading space
  errno = 0;
  char *end;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end)
    return false;
  if (errno == ERANGE) {
    *range = true;
    return false;
  }
  *out = v;
  return true;
}

// For telling values from options: any integer, in range or not.
static bool looks_like_int(const char *s) {
  int64_t v;
  bool range;
  return parse_int_range(s, &v, &range) || range;
}

// True for an argument that is a value, not an option: anything not starting
// with '-', and negative numbers (as argparse treats them).
static bool is_value(const char *s) {
  return s[0] != '-' || s[1] == '\0' || looks_like_int(s);
}

typedef struct Args {
  TlPipeModel model;
  bool model_given; // any of --iterations/--issue/--latency/--compute/--stages/--sweep
  int *stages;
  int nstages;
  bool sweep;
  bool ring;               // --ring: the TMA ring model instead of the seed's
  int64_t tiles, epilogue; // --tiles, --epilogue (ring only)
  const char *ring_option; // the first of --tiles/--epilogue given, for the error without --ring
  TlExplainFormat format;
  const char *output;
  const char *input;
  TlSourceArgs source; // FILE mode: --call, -D (TileLang Python files), --target
  TlSemaOptions sema;  // points at source's calls and defines
} Args;

// Reads "--opt VALUE" or "--opt=VALUE"; *i is advanced past what was used.
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *ok) {
  const char *arg = argv[*i];
  size_t len = strlen(name);
  *ok = true;
  if (arg[len] == '=')
    return arg + len + 1;
  if (*i + 1 >= argc || !is_value(argv[*i + 1])) {
    *ok = false;
    return NULL;
  }
  return argv[++*i];
}

static bool option_is(const char *arg, const char *name) {
  size_t len = strlen(name);
  return strncmp(arg, name, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

typedef enum { ARGS_RUN, ARGS_DONE, ARGS_ERROR } ArgsResult;

static ArgsResult arg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static ArgsResult arg_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(fmt, ap);
  va_end(ap);
  return ARGS_ERROR;
}

static ArgsResult int_error(const char *option, const char *v) {
  int64_t ignored;
  bool range;
  parse_int_range(v, &ignored, &range);
  if (range)
    return arg_error("%s: %s does not fit in 64 bits", option, v);
  return arg_error("%s: expected an integer, got '%s'", option, v);
}

// Parses argv into args. ARGS_DONE after --help; ARGS_ERROR after the error
// was reported.
static ArgsResult parse_args(TlArena *a, int argc, char **argv, Args *args) {
  static const int default_stages[4] = {1, 2, 3, 4};
  *args = (Args){.model = {.iterations = 8, .issue = 1, .latency = 30, .compute = 20},
                 .tiles = 1,
                 .format = TL_EXPLAIN_TABLE};
  args->stages = TL_NEW_ARRAY(a, int, (size_t)(argc > 8 ? argc : 8));
  memcpy(args->stages, default_stages, sizeof default_stages);
  args->nstages = 4;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    bool ok;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      return ARGS_DONE;
    }
    if (strcmp(arg, "--sweep") == 0) {
      args->sweep = args->model_given = true;
      continue;
    }
    if (strcmp(arg, "--ring") == 0) {
      args->ring = args->model_given = true;
      continue;
    }
    if (option_is(arg, "--tiles") || option_is(arg, "--epilogue")) {
      const char *name = option_is(arg, "--tiles") ? "--tiles" : "--epilogue";
      int64_t *field = name[2] == 't' ? &args->tiles : &args->epilogue;
      const char *v = option_value(argc, argv, &i, name, &ok);
      if (!ok)
        return arg_error("%s: expected a value", name);
      bool range;
      if (!parse_int_range(v, field, &range))
        return int_error(name, v);
      if (*field < 0 || (field == &args->tiles && *field < 1))
        return arg_error("%s: must be >= %d, got %s", name, field == &args->tiles, v);
      if (!args->ring_option)
        args->ring_option = name;
      args->model_given = true;
      continue;
    }
    if (option_is(arg, "--stages")) {
      args->model_given = true;
      args->nstages = 0;
      const char *first = NULL;
      if (arg[8] == '=')
        first = arg + 9;
      for (;;) {
        const char *v = first;
        if (!v) {
          if (i + 1 >= argc || !is_value(argv[i + 1]))
            break;
          v = argv[++i];
        }
        first = NULL;
        int64_t s;
        bool range;
        if (!parse_int_range(v, &s, &range))
          return int_error("--stages", v);
        if (s < 1)
          return arg_error("--stages: stage count must be >= 1, got %" PRId64, s);
        if (s > INT_MAX)
          return arg_error("--stages: stage count %" PRId64 " is above the limit of %d", s, INT_MAX);
        args->stages[args->nstages++] = (int)s;
        if (arg[8] == '=')
          break; // "--stages=N" takes exactly one value
      }
      if (args->nstages == 0)
        return arg_error("--stages: expected at least one stage count");
      continue;
    }
    static const char *const cost_names[4] = {"--iterations", "--issue", "--latency",
                                              "--compute"};
    int64_t *cost_fields[4] = {&args->model.iterations, &args->model.issue,
                               &args->model.latency, &args->model.compute};
    bool matched = false;
    for (int k = 0; k < 4 && !matched; k++) {
      if (!option_is(arg, cost_names[k]))
        continue;
      matched = true;
      const char *v = option_value(argc, argv, &i, cost_names[k], &ok);
      if (!ok)
        return arg_error("%s: expected a value", cost_names[k]);
      bool range;
      if (!parse_int_range(v, cost_fields[k], &range))
        return int_error(cost_names[k], v);
      if (*cost_fields[k] < 0)
        return arg_error("%s: must be >= 0, got %s", cost_names[k], v);
      if (k == 0 && *cost_fields[k] > TL_PIPE_MAX_ITERATIONS)
        return arg_error("--iterations: %s is above the limit of %" PRId64, v,
                    TL_PIPE_MAX_ITERATIONS);
      args->model_given = true;
    }
    if (matched)
      continue;
    char err[256];
    TlArgResult taken = tl_source_arg(argc, argv, &i, &args->source, err, sizeof err);
    if (taken == TL_ARG_BAD) return arg_error("%s", err);
    if (taken == TL_ARG_TAKEN) continue;
    if (option_is(arg, "--format")) {
      const char *v = option_value(argc, argv, &i, "--format", &ok);
      if (!ok)
        return arg_error("--format: expected a value");
      if (strcmp(v, "table") == 0)
        args->format = TL_EXPLAIN_TABLE;
      else if (strcmp(v, "yaml") == 0)
        args->format = TL_EXPLAIN_YAML;
      else if (strcmp(v, "svg") == 0)
        args->format = TL_EXPLAIN_SVG;
      else
        return arg_error("--format: expected table, yaml or svg, got '%s'", v);
      continue;
    }
    if (strcmp(arg, "-o") == 0 || option_is(arg, "--output")) {
      if (strcmp(arg, "-o") == 0) {
        if (i + 1 >= argc)
          return arg_error("-o: expected a file name");
        args->output = argv[++i];
      } else {
        args->output = option_value(argc, argv, &i, "--output", &ok);
        if (!ok)
          return arg_error("--output: expected a file name");
      }
      continue;
    }
    if (arg[0] == '-' && arg[1] != '\0')
      return arg_error("unknown option '%s' (see --help)", arg);
    if (args->input)
      return arg_error("more than one input file ('%s' and '%s')", args->input, arg);
    args->input = arg;
  }
  args->sema = (TlSemaOptions){args->source.calls, args->source.ncalls, args->source.defines,
                               args->source.ndefines, NULL, 0};
  if (args->ring_option && !args->ring)
    return arg_error("%s belongs to the TMA ring model; add --ring", args->ring_option);
  if (args->sweep) {
    for (int s = 1; s <= 8; s++)
      args->stages[s - 1] = s;
    args->nstages = 8;
  }
  return ARGS_RUN;
}

// Where the output goes. A regular file (or a new one) is written as
// FILE.tmp and renamed over FILE only when everything succeeded, so a
// failure leaves no partial file; stdout ("-" or no -o) and existing
// non-regular files such as /dev/null are written in place, since renaming
// over them would replace the device or pipe itself.
typedef struct Output {
  FILE *fp;
  const char *path; // NULL for stdout
  char tmp[4096];   // "" when written in place
} Output;

static bool output_open(Output *o, const char *path, char *err, size_t errlen) {
  *o = (Output){.fp = stdout};
  if (!path || strcmp(path, "-") == 0)
    return true;
  o->path = path;
  struct stat st;
  bool in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
  if (!in_place) {
    if (strlen(path) + 12 > sizeof o->tmp) {
      tl_set_err(err, errlen, "output file name is too long");
      return false;
    }
    // A unique name (mkstemp), as the main driver uses: a fixed FILE.tmp
    // would overwrite, then delete, an unrelated file of that name.
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
      tl_set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
      o->tmp[0] = '\0';
      return false;
    }
    mode_t mask = umask(0); // mkstemp creates 0600; give the usual 0666 less the umask
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
      close(fd);
      remove(o->tmp);
      tl_set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
      return false;
    }
    return true;
  }
  const char *open_path = path;
  o->fp = fopen(open_path, "wb");
  if (!o->fp) {
    tl_set_err(err, errlen, "cannot write '%s': %s", open_path, strerror(errno));
    return false;
  }
  return true;
}

// Finishes the output: `ok` says whether everything before succeeded (err
// is set already when not). Returns the final verdict.
static bool output_close(Output *o, bool ok, bool write_failed, char *err, size_t errlen) {
  const char *name = !o->path ? "<stdout>" : o->tmp[0] ? o->tmp : o->path;
  if (ok && (write_failed || fflush(o->fp) != 0 || ferror(o->fp))) {
    tl_set_err(err, errlen, "cannot write '%s': %s", name, strerror(errno));
    ok = false;
  }
  if (!o->path)
    return ok;
  if (fclose(o->fp) != 0 && ok) {
    tl_set_err(err, errlen, "cannot write '%s': %s", name, strerror(errno));
    ok = false;
  }
  if (o->tmp[0]) {
    if (ok && rename(o->tmp, o->path) != 0) {
      tl_set_err(err, errlen, "cannot rename '%s' to '%s': %s", o->tmp, o->path, strerror(errno));
      ok = false;
    }
    if (!ok)
      remove(o->tmp);
  }
  return ok;
}

// Renders and writes. Table and SVG output is small and rendered whole
// before anything is opened; YAML is streamed as it is emitted (planning
// has run every schedule before the first byte, so only I/O can fail then).
static bool run_model(TlArena *a, const Args *args, char *err, size_t errlen) {
  TlBuf buf;
  tl_buf_init(&buf, a);
  tl_buf_puts(&buf, ""); // data is never NULL, so flushing can reset it
  Output o;
  if (args->ring) {
    const TlPipeModel *pm = &args->model;
    TlRingModel m = {pm->iterations, args->tiles, pm->issue, pm->latency, pm->compute, args->epilogue};
    if (!tl_explain_ring_render(&buf, &m, args->stages, args->nstages, args->format, NULL, err, errlen))
      return false;
    if (!output_open(&o, args->output, err, errlen))
      return false;
    bool failed = fwrite(buf.data, 1, buf.len, o.fp) != buf.len;
    return output_close(&o, true, failed, err, errlen);
  }
  if (args->format != TL_EXPLAIN_YAML) {
    if (!tl_explain_pipeline_render(&buf, &args->model, args->stages, args->nstages, args->format,
                                    NULL, err, errlen))
      return false;
    if (!output_open(&o, args->output, err, errlen))
      return false;
    bool failed = fwrite(buf.data, 1, buf.len, o.fp) != buf.len;
    return output_close(&o, true, failed, err, errlen);
  }
  if (!output_open(&o, args->output, err, errlen))
    return false;
  Sink sink = {.buf = &buf, .fp = o.fp};
  bool ok = render(&sink, &args->model, args->stages, args->nstages, TL_EXPLAIN_YAML, NULL, err,
                   errlen);
  if (ok)
    sink_flush(&sink);
  return output_close(&o, ok, sink.failed, err, errlen);
}

int tl_explain_pipeline_main(int argc, char **argv, TlExplainCompileFn compile) {
  TlArena arena;
  tl_arena_init(&arena);
  Args args;
  ArgsResult r = parse_args(&arena, argc, argv, &args);
  if (r != ARGS_RUN) {
    tl_arena_free(&arena);
    return r == ARGS_DONE ? 0 : 1;
  }
  int status;
  char err[512];
  if (!args.input && (args.sema.ncalls || args.sema.ndefines)) {
    tl_arena_free(&arena);
    return fail("--call and -D need a FILE (a TileLang Python file or a .tl file)");
  }
  if (!args.input && args.source.target) {
    tl_arena_free(&arena);
    return fail("--target needs a FILE: the standalone model takes its costs from the options");
  }
  if (args.input) {
    if (args.model_given)
      status = fail("the model options (--iterations, --issue, --latency, --compute, --stages, "
                    "--sweep, --ring, --tiles, --epilogue) do not apply to '%s': its loops give the model",
                    args.input);
    else if (args.output)
      status = fail("-o is not supported with a .tl file; redirect the output instead");
    else {
      TlExplainInput in = {args.input, &args.sema, args.source.target, compile};
      status = tl_explain_pipeline_file(&in, args.format);
    }
    tl_arena_free(&arena);
    return status;
  }
  status = run_model(&arena, &args, err, sizeof err) ? 0 : fail("%s", err);
  tl_arena_free(&arena);
  return status;
}
