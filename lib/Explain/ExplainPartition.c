// `tlc explain-partition`: shows how TileLang's default loop partition maps
// a T.Parallel nest onto threads and per-thread slots, and (FILE mode) how a
// nest over fragments maps onto the threads and registers of the fragment
// layout it follows (the map itself is lib/Explain/FragNest.c).
//
// The table format reproduces the seed model (loop_mapping.py) byte for byte
// for spaces of up to 4096 points and summarises bigger ones; yaml (libyaml's
// emitter) lists every point; svg draws the space as a grid coloured by
// thread. Everything comes from the closed-form plan in
// lib/Analysis/PartitionPlan.c, so time and output stay bounded however big
// the space is: only printed rows and drawn cells are ever computed. A
// fragment nest is mapped in full (at most a register file's worth of
// pairs) and drawn with the same three renderers.
#include "tlc/Explain.h"
#include "tlc/FragLayout.h"
#include "tlc/Yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
  TABLE_MAX_ROWS = 4096, // the seed prints every point; we do up to this many
  TABLE_HEAD = 32,       // rows kept before and after the "... omitted" line
  TABLE_TAIL = 8,
  OWNED_SHOWN = 8,  // points listed per thread in "by thread", as in the seed
  TUPLE_MAX = 256,  // str() of an 8-deep int64 tuple fits easily
  SVG_MAX = 64,     // cells drawn per side
  SVG_CELL_W = 52,
  SVG_CELL_H = 30,
  SVG_MARGIN = 16,
  SVG_LEGEND_MAX = 16, // swatches in the legend
};
#define YAML_MAX_POINTS INT64_C(1000000)

// The seed's --compare shapes: the same 64 points, nested differently.
static const int64_t kShapes[][3] = {{64, 0, 0}, {32, 2, 0}, {8, 8, 0}, {2, 32, 0}, {4, 4, 4}};
static const int kShapeDims[] = {1, 2, 2, 2, 3};
enum { NSHAPES = sizeof kShapeDims / sizeof kShapeDims[0] };

// Python's str(tuple): "(0, 1)", and "(5,)" for a single element.
static const char *tuple_str(char *s, const int64_t *v, int n) {
  int w = snprintf(s, TUPLE_MAX, "(");
  for (int k = 0; k < n; k++)
    w += snprintf(s + w, TUPLE_MAX - (size_t)w, k ? ", %" PRId64 : "%" PRId64, v[k]);
  snprintf(s + w, TUPLE_MAX - (size_t)w, n == 1 ? ",)" : ")");
  return s;
}

static void point_at(const TlPartitionPlan *p, int64_t flat, int64_t *idx, int64_t *thread,
                     int64_t *slot) {
  tl_partition_unflatten(p, flat, idx);
  tl_partition_point(p, idx, thread, slot);
}

// A thread's k-th point. Its points fill slots 0..count-1 in flat order
// (PartitionPlan.h), so "the first n points" is the inverse of slots 0..n-1.
static void owned_point(const TlPartitionPlan *p, int64_t thread, int64_t k, int64_t *idx) {
  bool ok = tl_partition_inverse(p, thread, k, idx);
  TL_ASSERT("explain-partition", ok);
}

/* ---- table: the seed's text ---- */

// The rows of a table over `total` points (a plan's or a fragment nest's):
// every row when there are few, else the first TABLE_HEAD and the last
// TABLE_TAIL around a line that counts the rest. row(b, space, flat) prints one.
static void table_rows(TlBuf *b, int64_t total, void (*row)(TlBuf *, const void *, int64_t),
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
  point_at(p, flat, idx, &thread, &slot);
  tl_buf_printf(b, "  %-14s %4" PRId64 "  %6" PRId64 "  %4" PRId64 "\n", tuple_str(s, idx, p->ndims),
                flat, thread, slot);
}

static void table_owned(TlBuf *b, const TlPartitionPlan *p, int64_t thread) {
  int64_t n = tl_partition_thread_count(p, thread), idx[TL_MAX_NEST];
  char s[TUPLE_MAX];
  // The seed prints "thread   1: " (trailing blank) for a thread with no points.
  tl_buf_printf(b, "  thread %3" PRId64 ": ", thread);
  for (int64_t k = 0; k < n && k < OWNED_SHOWN; k++) {
    owned_point(p, thread, k, idx);
    tl_buf_printf(b, "%s%s@%" PRId64, k ? ", " : "", tuple_str(s, idx, p->ndims), k);
  }
  if (n > OWNED_SHOWN)
    tl_buf_printf(b, " ... (+%" PRId64 ")", n - OWNED_SHOWN);
  tl_buf_putc(b, '\n');
}

static void table_render(TlBuf *b, const TlPartitionPlan *p, const char *title) {
  char s[TUPLE_MAX];
  if (title)
    tl_buf_printf(b, "%s\n", title);
  tl_buf_printf(b, "T.Parallel%s  threads=%" PRId64 "  vector_size=%" PRId64 "\n",
                tuple_str(s, p->extents, p->ndims), p->threads, p->vector);
  // Python's int / int is correctly rounded; long double holds any int64
  // exactly, so only the final rounding to double is left before %g.
  double per = (double)((long double)p->total / (long double)p->threads);
  tl_buf_printf(b, "iteration points = %" PRId64 ";  points per thread = %g\n", p->total, per);
  tl_buf_puts(b, "\niteration point -> (thread, per-thread slot)\n");
  tl_buf_printf(b, "  %-14s %4s  %6s  %4s\n", "index", "flat", "thread", "slot");
  table_rows(b, p->total, table_row, p);
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

static void shape_plan(TlPartitionPlan *p, int i, int64_t threads, int64_t vector) {
  bool ok = tl_partition_plan_default(p, kShapeDims[i], kShapes[i], threads, vector, NULL, 0);
  TL_ASSERT("explain-partition compare (threads and vector must be >= 1)", ok);
}

static void compare_table(TlBuf *b, int64_t threads, int64_t vector) {
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
    shape_plan(&p, i, threads, vector);
    tl_buf_printf(b, "  T.Parallel%-14s total=%-4" PRId64 " threads=%-3" PRId64
                  " per-thread=%" PRId64 "\n",
                  tuple_str(s, p.extents, p.ndims), p.total, p.threads_used, p.total / threads);
    for (int64_t t = 0; t < 2; t++) {
      int64_t n = tl_partition_thread_count(&p, t);
      tl_buf_printf(b, "      thread %" PRId64 " owns ", t);
      // The seed crashes here when thread 1 owns nothing; we say so.
      if (n == 0)
        tl_buf_puts(b, "no points");
      for (int64_t k = 0; k < n && k < 4; k++) {
        owned_point(&p, t, k, idx);
        tl_buf_printf(b, "%s%s", k ? ", " : "", tuple_str(s, idx, p.ndims));
      }
      tl_buf_puts(b, n ? " ...\n" : "\n");
    }
  }
  tl_buf_puts(b, "\nSo the *shape of the nest* is not cosmetic: it decides which logical\n"
                 "index each thread reads, i.e. whether the load coalesces.\n\n"
                 "When the total iteration count is below `threads`, some threads get no\n"
                 "work at all: the plan replicates and the codegen adds a guard.\n\n");
}

/* ---- yaml, through lib/Support/Yaml.c ---- */

// A stream and an implicit document holding one block mapping; one point per
// line, however long.
static void y_begin(TlYaml *y, TlBuf *out) {
  tl_yaml_begin(y, out, -1, true);
  tl_yaml_map(y, false);
}

static void y_finish(TlYaml *y) {
  tl_yaml_map_end(y);
  char err[256];
  // Only a malformed event sequence can fail (the buffer cannot): our bug.
  if (!tl_yaml_end(y, err, sizeof err)) TL_UNREACHABLE("explain-partition yaml", err);
}

// The plan's fields; threads and vector only when they vary (not in
// --compare, where they are given once at the top).
static void yaml_summary(TlYaml *em, const TlPartitionPlan *p, bool threads_vector) {
  tl_yaml_scalar(em, "extents");
  tl_yaml_ints(em, p->extents, p->ndims);
  if (threads_vector) {
    tl_yaml_key_int(em, "threads", p->threads);
    tl_yaml_key_int(em, "vector", p->vector);
  }
  tl_yaml_key_int(em, "total", p->total);
  tl_yaml_key_int(em, "accesses", p->accesses);
  tl_yaml_key_int(em, "steps", p->steps);
  tl_yaml_key_int(em, "slots", p->slots);
  tl_yaml_key_int(em, "threads_used", p->threads_used);
  tl_yaml_scalar(em, "guard");
  tl_yaml_scalar(em, p->guard ? "true" : "false");
}

static void yaml_render(TlBuf *out, const TlPartitionPlan *p, const char *title) {
  TlYaml em;
  y_begin(&em, out);
  if (title) {
    tl_yaml_scalar(&em, "title");
    tl_yaml_string(&em, title);
  }
  yaml_summary(&em, p, true);
  // The command line refuses bigger spaces; a library caller still gets a
  // well-formed summary rather than gigabytes of points.
  if (p->total > YAML_MAX_POINTS) {
    tl_yaml_key_int(&em, "points_omitted", p->total);
    y_finish(&em);
    return;
  }
  tl_yaml_scalar(&em, "points");
  tl_yaml_seq(&em, false);
  for (int64_t flat = 0; flat < p->total; flat++) {
    int64_t idx[TL_MAX_NEST], thread, slot;
    point_at(p, flat, idx, &thread, &slot);
    tl_yaml_map(&em, true);
    tl_yaml_scalar(&em, "index");
    tl_yaml_ints(&em, idx, p->ndims);
    tl_yaml_key_int(&em, "flat", flat);
    tl_yaml_key_int(&em, "thread", thread);
    tl_yaml_key_int(&em, "slot", slot);
    tl_yaml_map_end(&em);
  }
  tl_yaml_seq_end(&em);
  y_finish(&em);
}

static void compare_yaml(TlBuf *out, int64_t threads, int64_t vector) {
  TlYaml em;
  y_begin(&em, out);
  tl_yaml_key_int(&em, "threads", threads);
  tl_yaml_key_int(&em, "vector", vector);
  tl_yaml_scalar(&em, "shapes");
  tl_yaml_seq(&em, false);
  for (int i = 0; i < NSHAPES; i++) {
    TlPartitionPlan p;
    shape_plan(&p, i, threads, vector);
    tl_yaml_map(&em, false);
    yaml_summary(&em, &p, false);
    tl_yaml_key_int(&em, "per_thread", p.total / threads);
    // Ownership: how many points threads 0 and 1 own, and their first four.
    tl_yaml_scalar(&em, "owners");
    tl_yaml_seq(&em, false);
    for (int64_t t = 0; t < 2; t++) {
      int64_t n = tl_partition_thread_count(&p, t), idx[TL_MAX_NEST];
      tl_yaml_map(&em, true);
      tl_yaml_key_int(&em, "thread", t);
      tl_yaml_key_int(&em, "points", n);
      tl_yaml_scalar(&em, "first");
      tl_yaml_seq(&em, true);
      for (int64_t k = 0; k < n && k < 4; k++) {
        owned_point(&p, t, k, idx);
        tl_yaml_ints(&em, idx, p.ndims);
      }
      tl_yaml_seq_end(&em);
      tl_yaml_map_end(&em);
    }
    tl_yaml_seq_end(&em);
    tl_yaml_map_end(&em);
  }
  tl_yaml_seq_end(&em);
  y_finish(&em);
}

/* ---- fragment nests: elements placed by a fragment layout ---- */

// The element in register `reg` of `thread` as a tuple, and how many of the
// thread's registers hold one (a nest over part of a fragment skips some).
static void frag_owned(TlBuf *b, const TlFragNest *n, int64_t thread) {
  int64_t count = tl_frag_nest_thread_count(n, thread), shown = 0, idx[2];
  char s[TUPLE_MAX];
  tl_buf_printf(b, "  thread %3" PRId64 ": ", thread);
  for (int64_t r = 0; r < n->registers && shown < OWNED_SHOWN; r++) {
    int64_t e = tl_frag_nest_element(n, thread, r);
    if (e < 0)
      continue;
    tl_frag_nest_index(n, e, idx);
    tl_buf_printf(b, "%s%s@%" PRId64, shown++ ? ", " : "", tuple_str(s, idx, n->ndims), r);
  }
  if (count > OWNED_SHOWN)
    tl_buf_printf(b, " ... (+%" PRId64 ")", count - OWNED_SHOWN);
  tl_buf_putc(b, '\n');
}

// One element: its holder and register, or for a replicated element the
// register and the first holders.
static void frag_row(TlBuf *b, const void *nest, int64_t flat) {
  const TlFragNest *n = nest;
  int64_t idx[2], thread, reg, holders = tl_frag_nest_holders(n, flat);
  char s[TUPLE_MAX];
  tl_frag_nest_index(n, flat, idx);
  tl_buf_printf(b, "  %-14s %4" PRId64, tuple_str(s, idx, n->ndims), flat);
  if (n->replicas == 1) {
    tl_frag_nest_holder(n, flat, 0, &thread, &reg);
    tl_buf_printf(b, "  %6" PRId64 "  %8" PRId64 "\n", thread, reg);
    return;
  }
  for (int64_t k = 0; k < holders && k < OWNED_SHOWN; k++) {
    tl_frag_nest_holder(n, flat, k, &thread, &reg);
    tl_buf_printf(b, k ? ", %" PRId64 "@%" PRId64 : "  %" PRId64 "@%" PRId64, thread, reg);
  }
  if (holders > OWNED_SHOWN)
    tl_buf_printf(b, " ... (+%" PRId64 ")", holders - OWNED_SHOWN);
  tl_buf_putc(b, '\n');
}

static void frag_table(TlBuf *b, const TlFragNest *n, const char *title, const char *follows,
                       const char *fragment) {
  char s[TUPLE_MAX];
  const TlFragLayout *L = n->layout;
  if (title)
    tl_buf_printf(b, "%s\n", title);
  tl_buf_printf(b, "T.Parallel%s  threads=%" PRId64 "  follows %s%s%s\n",
                tuple_str(s, n->extents, n->ndims), n->threads, follows,
                fragment ? ", the layout of " : "", fragment ? fragment : "");
  tl_buf_printf(b, "elements = %" PRId64 ";  registers per thread = %" PRId64, n->elements,
                n->registers);
  if (n->mapped)
    tl_buf_printf(b, ";  threads holding elements = %" PRId64 ";  threads per element = %" PRId64,
                  n->threads_used, n->replicas);
  tl_buf_putc(b, '\n');
  if (!n->mapped) {
    tl_buf_printf(b, "elements not listed: %" PRId64 " threads x %" PRId64
                  " registers is more than a register file holds\n",
                  n->threads, n->registers);
    return;
  }
  if (n->guard)
    tl_buf_puts(b, "guarded: some (thread, register) pairs hold no element of this nest\n");
  if (n->replicas == 1) {
    tl_buf_puts(b, "\nelement -> (thread, register)\n");
    tl_buf_printf(b, "  %-14s %4s  %6s  %8s\n", "index", "flat", "thread", "register");
  } else {
    tl_buf_puts(b, "\nelement -> every thread holding it @ register\n");
    tl_buf_printf(b, "  %-14s %4s  %s\n", "index", "flat", "thread@register");
  }
  table_rows(b, n->elements, frag_row, n);
  tl_buf_puts(b, "\nby thread (which elements each thread holds, @register)\n");
  frag_owned(b, n, 0);
  if (n->threads > 1)
    frag_owned(b, n, 1);
  if (n->threads > 2)
    frag_owned(b, n, n->threads - 1);
  tl_buf_puts(b, "\ninterpretation\n");
  const TlFragLayout *p = L->kind == LAYOUT_ROW_OF ? L->parent : L;
  if (L->kind == LAYOUT_ROW_OF)
    tl_buf_puts(b, "  * a row vector replicated over the threads that hold its row of the tile;\n"
                   "    stores to memory are made by one of them\n");
  if (p->kind == LAYOUT_GEMM_C)
    tl_buf_printf(b,
                  "  * the mma.m16n8k16 accumulator: warps tiled %" PRId64 "x%" PRId64
                  ", each lane holds 2 neighbouring\n"
                  "    columns in rows r and r+8 of every 16x8 atom of its warp's tile\n",
                  p->wm, p->wn);
  else
    tl_buf_printf(b,
                  "  * %" PRId64 " threads share a row, each holding runs of %" PRId64
                  " neighbouring columns;\n"
                  "    the %" PRId64 " row groups take the rows round-robin\n",
                  p->g, p->vec, p->threads / p->g);
  tl_buf_puts(b, "  * each thread loops over its own registers: no exchange between threads\n");
}

void tl_explain_fragment_yaml_fields(struct TlYaml *em, const TlFragNest *n, const char *follows,
                                     const char *fragment, bool compact) {
  tl_yaml_scalar(em, "extents");
  tl_yaml_ints(em, n->extents, n->ndims);
  tl_yaml_key_int(em, "threads", n->threads);
  tl_yaml_scalar(em, "layout");
  tl_yaml_scalar(em, "fragment");
  if (fragment) {
    tl_yaml_scalar(em, "fragment");
    tl_yaml_scalar(em, fragment);
  }
  tl_yaml_scalar(em, "follows");
  tl_yaml_string(em, follows);
  tl_yaml_key_int(em, "elements", n->elements);
  tl_yaml_key_int(em, "registers", n->registers);
  if (!n->mapped) { // more pairs than a register file holds: not listed
    tl_yaml_key_int(em, "points_omitted", n->elements);
    return;
  }
  tl_yaml_key_int(em, "replicas", n->replicas);
  tl_yaml_key_int(em, "threads_used", n->threads_used);
  tl_yaml_scalar(em, "guard");
  tl_yaml_scalar(em, n->guard ? "true" : "false");
  // One entry per (element, holder): a replicated element once per thread.
  tl_yaml_scalar(em, "points");
  tl_yaml_seq(em, false);
  for (int64_t flat = 0; flat < n->elements; flat++) {
    int64_t idx[2], thread, reg;
    tl_frag_nest_index(n, flat, idx);
    for (int64_t k = 0; k < tl_frag_nest_holders(n, flat); k++) {
      tl_frag_nest_holder(n, flat, k, &thread, &reg);
      if (compact) { // [i, (j,) thread, register]: a third of the bytes
        int64_t v[4] = {idx[0], idx[1], 0, 0};
        v[n->ndims] = thread;
        v[n->ndims + 1] = reg;
        tl_yaml_ints(em, v, n->ndims + 2);
        continue;
      }
      tl_yaml_map(em, true);
      tl_yaml_scalar(em, "index");
      tl_yaml_ints(em, idx, n->ndims);
      tl_yaml_key_int(em, "flat", flat);
      tl_yaml_key_int(em, "thread", thread);
      tl_yaml_key_int(em, "register", reg);
      tl_yaml_map_end(em);
    }
  }
  tl_yaml_seq_end(em);
}

static const char *expr_fragment(const TlExpr *e, const TlFragLayout *l) {
  if (!e)
    return NULL;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT && tl_layout_equal(e->buf->layout, l))
    return e->buf->name;
  for (int i = 0; i < e->nargs; i++) {
    const char *name = expr_fragment(e->args[i], l);
    if (name)
      return name;
  }
  return NULL;
}

// Stores first: T.clear(acc) names acc, not another row vector laid out alike.
static const char *body_fragment(const TlVec *body, const TlFragLayout *l, bool stores) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (stores && s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT &&
        tl_layout_equal(s->buf->layout, l))
      return s->buf->name;
    const char *name = stores ? NULL : expr_fragment(s->value, l);
    if (!name && !stores)
      name = expr_fragment(s->cond, l);
    if (!name)
      name = body_fragment(&s->body, l, stores);
    if (!name)
      name = body_fragment(&s->else_body, l, stores);
    if (name)
      return name;
  }
  return NULL;
}

const char *tl_explain_fragment_name(const TlStmt *seq) {
  const char *name = body_fragment(&seq->body, seq->plan_frag, true);
  return name ? name : body_fragment(&seq->body, seq->plan_frag, false);
}

// Defined with the svg renderers below.
static void frag_svg(TlBuf *out, const TlFragNest *n, const char *title, const char *follows,
                     const char *fragment);

void tl_explain_fragment_render(TlBuf *out, const TlFragNest *n, TlExplainFormat f,
                                const char *title, const char *follows, const char *fragment) {
  if (f == TL_EXPLAIN_TABLE) {
    frag_table(out, n, title, follows, fragment);
    return;
  }
  if (f == TL_EXPLAIN_SVG) {
    frag_svg(out, n, title, follows, fragment);
    return;
  }
  TlYaml em;
  y_begin(&em, out);
  if (title) {
    tl_yaml_scalar(&em, "title");
    tl_yaml_string(&em, title);
  }
  tl_explain_fragment_yaml_fields(&em, n, follows, fragment, false);
  y_finish(&em);
}

/* ---- svg: the space as a grid, one cell per point, coloured by thread ---- */

// Neighbouring threads get far-apart hues (a golden-angle-like step), and
// the light fill keeps the dark labels readable.
static void svg_fill(TlBuf *b, int64_t thread) {
  tl_buf_printf(b, "hsl(%d,70%%,82%%)", (int)(thread % 360 * 137 % 360));
}

// One line of text; widens *width to fit it (monospace glyphs are about
// 0.62 em wide, bold a little more).
static void svg_line(TlBuf *b, int x, int y, int size, const char *weight, const char *text,
                     int *width) {
  tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"%s\">", x, y, size,
                weight);
  tl_buf_xml_text(b, text);
  tl_buf_puts(b, "</text>\n");
  int right = x + (int)strlen(text) * size * 2 / 3 + SVG_MARGIN;
  *width = *width > right ? *width : right;
}

// What a section draws: the points of a plan or the elements of a fragment
// nest, each coloured by a thread and labelled with its slot or register.
typedef struct Space {
  const TlPartitionPlan *plan; // exactly one of plan and frag
  const TlFragNest *frag;
  int ndims;
  const int64_t *extents;
  int64_t total;
} Space;

static Space plan_space(const TlPartitionPlan *p) {
  return (Space){.plan = p, .ndims = p->ndims, .extents = p->extents, .total = p->total};
}

static void space_index(const Space *sp, int64_t flat, int64_t *idx) {
  if (sp->plan)
    tl_partition_unflatten(sp->plan, flat, idx);
  else
    tl_frag_nest_index(sp->frag, flat, idx);
}

// A row's label: its leading indices, "3" for a 2-D nest, "(1, 2)" deeper.
static const char *row_label(char *s, const Space *sp, int64_t row) {
  int64_t idx[TL_MAX_NEST];
  space_index(sp, row * sp->extents[sp->ndims - 1], idx);
  if (sp->ndims == 2) {
    snprintf(s, TUPLE_MAX, "%" PRId64, idx[0]);
    return s;
  }
  return tuple_str(s, idx, sp->ndims - 1);
}

// One cell: a tooltip with the whole mapping, the colour of its (first)
// thread, and the labels t<thread> and s<slot> (r<register> for fragments).
static void svg_cell(TlBuf *b, const Space *sp, int64_t flat, int cx, int cy) {
  int64_t idx[TL_MAX_NEST], thread, slot, holders = 1;
  char s[TUPLE_MAX];
  space_index(sp, flat, idx);
  if (sp->plan) {
    tl_partition_point(sp->plan, idx, &thread, &slot);
    tl_buf_printf(b, "<g><title>%s flat %" PRId64 ": thread %" PRId64 ", slot %" PRId64 "</title>",
                  tuple_str(s, idx, sp->ndims), flat, thread, slot);
  } else {
    holders = tl_frag_nest_holders(sp->frag, flat);
    tl_frag_nest_holder(sp->frag, flat, 0, &thread, &slot);
    tl_buf_printf(b, "<g><title>%s flat %" PRId64 ": thread %" PRId64, tuple_str(s, idx, sp->ndims),
                  flat, thread);
    if (holders > 1)
      tl_buf_printf(b, " and %" PRId64 " more", holders - 1);
    tl_buf_printf(b, ", register %" PRId64 "</title>", slot);
  }
  tl_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", cx, cy, SVG_CELL_W,
                SVG_CELL_H);
  svg_fill(b, thread);
  tl_buf_printf(b, "\" stroke=\"#ffffff\"/>"
                "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">t%" PRId64
                "%s</text><text x=\"%d\" y=\"%d\" font-size=\"8\" text-anchor=\"middle\" "
                "fill=\"#444444\">%c%" PRId64 "</text></g>\n",
                cx + SVG_CELL_W / 2, cy + 13, thread, holders > 1 ? "+" : "", cx + SVG_CELL_W / 2,
                cy + 24, sp->plan ? 's' : 'r', slot);
}

// Draws one space at vertical offset y: heading, summary, the grid (rows =
// leading dims flattened, columns = the last dim; at most SVG_MAX of each)
// and a legend of `legend` threads. Returns the y below it and widens *width
// as needed.
static int svg_section(TlBuf *b, const Space *sp, const char *heading, const char *summary,
                       int64_t legend, int y, int *width) {
  int64_t cols = sp->extents[sp->ndims - 1], rows = sp->total / cols;
  int shown_c = cols < SVG_MAX ? (int)cols : SVG_MAX, shown_r = rows < SVG_MAX ? (int)rows : SVG_MAX;
  char s[TUPLE_MAX], line[512];

  svg_line(b, SVG_MARGIN, y += 18, 15, "bold", heading, width);
  svg_line(b, SVG_MARGIN, y += 18, 11, "normal", summary, width);
  if (shown_c < cols || shown_r < rows) {
    snprintf(line, sizeof line,
             "truncated: showing the top-left %d x %d cells of %" PRId64 " x %" PRId64, shown_r,
             shown_c, rows, cols);
    svg_line(b, SVG_MARGIN, y += 16, 11, "normal", line, width);
  }

  // Row labels are the leading indices; 1-D nests have a single, unlabelled row.
  int label_w = 0;
  for (int r = 0; sp->ndims > 1 && r < shown_r; r++) {
    int len = (int)strlen(row_label(s, sp, r));
    label_w = len * 6 + 8 > label_w ? len * 6 + 8 : label_w;
  }
  int x0 = SVG_MARGIN + label_w, y0 = y + 22;
  for (int c = 0; c < shown_c; c++)
    tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%d</text>\n",
                  x0 + c * SVG_CELL_W + SVG_CELL_W / 2, y0 - 4, c);
  for (int r = 0; r < shown_r; r++) {
    int cy = y0 + r * SVG_CELL_H;
    if (sp->ndims > 1)
      tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"end\">%s</text>\n",
                    x0 - 4, cy + SVG_CELL_H / 2 + 3, row_label(s, sp, r));
    for (int c = 0; c < shown_c; c++)
      svg_cell(b, sp, (int64_t)r * cols + c, x0 + c * SVG_CELL_W, cy);
  }
  y = y0 + shown_r * SVG_CELL_H;
  int right = x0 + shown_c * SVG_CELL_W + SVG_MARGIN;

  // Legend: one swatch per thread, up to SVG_LEGEND_MAX.
  int64_t nswatch = legend < SVG_LEGEND_MAX ? legend : SVG_LEGEND_MAX;
  y += 22;
  tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">threads:</text>\n", SVG_MARGIN, y);
  int lx = SVG_MARGIN + 64;
  for (int64_t t = 0; t < nswatch; t++, lx += 44) {
    tl_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"", lx, y - 10);
    svg_fill(b, t);
    tl_buf_printf(b, "\"/><text x=\"%d\" y=\"%d\" font-size=\"10\">t%" PRId64 "</text>\n", lx + 15,
                  y, t);
  }
  if (legend > nswatch)
    tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"10\">... %" PRId64
                  " more (hue = thread * 137 mod 360)</text>\n",
                  lx, y, legend - nswatch);
  if (legend > nswatch)
    right = right > lx + 260 ? right : lx + 260;
  right = right > lx ? right : lx;
  *width = *width > right ? *width : right;
  return y + 12;
}

// A plan's section: its summary line and the threads that own points.
static int svg_plan_section(TlBuf *b, const TlPartitionPlan *p, const char *heading, int y,
                            int *width) {
  char line[512];
  snprintf(line, sizeof line,
           "%" PRId64 " points; threads used: %" PRId64 " of %" PRId64 "; %" PRId64
           " slots per thread (%" PRId64 " steps x vector %" PRId64 "); %s",
           p->total, p->threads_used, p->threads, p->slots, p->steps, p->vector,
           p->guard ? "needs a guard" : "no guard");
  Space sp = plan_space(p);
  return svg_section(b, &sp, heading, line, p->threads_used, y, width);
}

static void svg_document(TlBuf *out, const char *title, const TlBuf *body, int width, int height) {
  tl_buf_printf(out,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" font-family=\"monospace\">\n<title>",
                width, height, width, height);
  tl_buf_xml_text(out, title);
  tl_buf_printf(out, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width,
                height);
  if (body->len)
    tl_buf_write(out, body->data, body->len);
  tl_buf_puts(out, "</svg>\n");
}

static void svg_render(TlBuf *out, const TlPartitionPlan *p, const char *title) {
  char s[TUPLE_MAX], heading[TUPLE_MAX + 64];
  snprintf(heading, sizeof heading, "T.Parallel%s  threads=%" PRId64 "  vector_size=%" PRId64,
           tuple_str(s, p->extents, p->ndims), p->threads, p->vector);
  TlBuf body;
  tl_buf_init(&body, out->arena);
  int width = 0, y = SVG_MARGIN / 2;
  if (title)
    svg_line(&body, SVG_MARGIN, y += 18, 13, "normal", title, &width);
  y = svg_plan_section(&body, p, heading, y, &width);
  svg_document(out, title ? title : heading, &body, width, y + SVG_MARGIN);
}

static void compare_svg(TlBuf *out, int64_t threads, int64_t vector) {
  char s[TUPLE_MAX], heading[TUPLE_MAX + 64];
  snprintf(heading, sizeof heading,
           "Same total work, different nest shapes (threads=%" PRId64 ", vector=%" PRId64 ")",
           threads, vector);
  TlBuf body;
  tl_buf_init(&body, out->arena);
  int width = 0, y = SVG_MARGIN / 2;
  svg_line(&body, SVG_MARGIN, y += 20, 16, "bold", heading, &width);
  for (int i = 0; i < NSHAPES; i++) {
    TlPartitionPlan p;
    shape_plan(&p, i, threads, vector);
    char sub[TUPLE_MAX + 16];
    snprintf(sub, sizeof sub, "T.Parallel%s", tuple_str(s, p.extents, p.ndims));
    y = svg_plan_section(&body, &p, sub, y + 12, &width);
  }
  svg_document(out, heading, &body, width, y + SVG_MARGIN);
}

// A fragment nest: the grid of its elements coloured by (first) holding
// thread, "+" marking replicated elements; an unmapped layout gets only its
// summary.
static void frag_svg(TlBuf *out, const TlFragNest *n, const char *title, const char *follows,
                     const char *fragment) {
  char s[TUPLE_MAX], heading[TUPLE_MAX + 512], line[512];
  snprintf(heading, sizeof heading, "T.Parallel%s  threads=%" PRId64 "  follows %s%s%s",
           tuple_str(s, n->extents, n->ndims), n->threads, follows,
           fragment ? ", the layout of " : "", fragment ? fragment : "");
  TlBuf body;
  tl_buf_init(&body, out->arena);
  int width = 0, y = SVG_MARGIN / 2;
  if (title)
    svg_line(&body, SVG_MARGIN, y += 18, 13, "normal", title, &width);
  if (!n->mapped) {
    svg_line(&body, SVG_MARGIN, y += 18, 15, "bold", heading, &width);
    snprintf(line, sizeof line,
             "elements not listed: %" PRId64 " threads x %" PRId64
             " registers is more than a register file holds",
             n->threads, n->registers);
    svg_line(&body, SVG_MARGIN, y += 18, 11, "normal", line, &width);
  } else {
    snprintf(line, sizeof line,
             "%" PRId64 " elements; threads holding elements: %" PRId64 " of %" PRId64 "; %" PRId64
             " registers per thread; %" PRId64 " threads per element%s",
             n->elements, n->threads_used, n->threads, n->registers, n->replicas,
             n->guard ? "; guarded" : "");
    Space sp = {.frag = n, .ndims = n->ndims, .extents = n->extents, .total = n->elements};
    y = svg_section(&body, &sp, heading, line, n->threads, y, &width);
  }
  svg_document(out, title ? title : heading, &body, width, y + SVG_MARGIN);
}

void tl_explain_partition_render(TlBuf *out, const TlPartitionPlan *p, TlExplainFormat f,
                                 const char *title) {
  switch (f) {
  case TL_EXPLAIN_TABLE: table_render(out, p, title); return;
  case TL_EXPLAIN_YAML: yaml_render(out, p, title); return;
  case TL_EXPLAIN_SVG: svg_render(out, p, title); return;
  }
  TL_UNREACHABLE("explain-partition", "unknown format");
}

void tl_explain_partition_compare(TlBuf *out, int64_t threads, int64_t vector, TlExplainFormat f) {
  switch (f) {
  case TL_EXPLAIN_TABLE: compare_table(out, threads, vector); return;
  case TL_EXPLAIN_YAML: compare_yaml(out, threads, vector); return;
  case TL_EXPLAIN_SVG: compare_svg(out, threads, vector); return;
  }
  TL_UNREACHABLE("explain-partition", "unknown format");
}

/* ---- the command line ---- */

typedef struct Args {
  int ndims;
  int64_t extents[TL_MAX_NEST];
  int64_t threads, vector, line;
  bool has_extents, has_threads, has_vector, has_line, compare;
  TlExplainFormat format;
  const char *out_path, *file;
  TlSourceArgs source;        // FILE mode: --call, -D (TileLang Python files), --target
  TlSemaOptions sema;         // points at source's calls and defines
  TlExplainCompileFn compile; // FILE mode
} Args;

static const char kUsage[] =
    "usage: tlc explain-partition [--extents E0 [E1 ...]] [--threads T] [--vector V]\n"
    "                             [--format table|yaml|svg] [--compare] [-o FILE]\n"
    "       tlc explain-partition FILE.tl [--line N] [--target SM] [--format table|yaml|svg]\n"
    "                             [-o FILE]\n"
    "       tlc explain-partition FILE.py --call 'F(ARGS)' [-D NAME=VALUE] [--line N] ...\n"
    "\n"
    "Shows how TileLang's default loop partition maps a T.Parallel nest onto threads:\n"
    "  flat = row-major index, thread = (flat / V) % T, slot = (flat / V / T) * V + flat % V\n"
    "In FILE mode a loop over fragments shows the fragment layout it follows and,\n"
    "for each element, the thread holding it and the register.\n"
    "\n"
    "  --extents E0 [E1 ...]  the nest's extents, outermost first (default 128 32)\n"
    "  --threads T            threads in the block (default 128; 8 with --compare)\n"
    "  --vector V             vector width (default 8; 2 with --compare)\n"
    "  --format F             table (default; the seed model's text), yaml, or svg\n"
    "  --compare              the same 64 points in five nest shapes\n"
    "  --line N               FILE mode: only the T.Parallel loop on line N\n"
    "  --target SM            FILE mode: compile for sm_90a (default), sm_90 or sm_80, as tlc --target\n"
    "  --call 'F(ARGS)'       FILE mode: the kernel a factory call returns (as tlc --call)\n"
    "  -D NAME=VALUE          FILE mode: override a module-level constant (as tlc -D)\n"
    "  -o FILE                write to FILE instead of stdout\n"
    "  -h, --help             show this help\n";

// "tlc: error: explain-partition: ..." on stderr. fail returns the exit
// status 1; reject returns false for the parsing helpers.
static void vreport(const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  TlDiag d;
  tl_diag_init(&d, stderr);
  tl_error_noloc(&d, "explain-partition: %s", msg);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(fmt, ap);
  va_end(ap);
  return 1;
}

static bool reject(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool reject(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(fmt, ap);
  va_end(ap);
  return false;
}

static bool parse_int(const char *opt, const char *text, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end != '\0')
    return reject("%s expects an integer, got '%s'", opt, text);
  if (errno == ERANGE)
    return reject("%s value '%s' does not fit in 64 bits", opt, text);
  *out = v;
  return true;
}

// "-5" is a (bad) extent, not an option, as in argparse.
static bool is_option(const char *s) {
  return s[0] == '-' && s[1] != '\0' && !(s[1] >= '0' && s[1] <= '9');
}

// Parses argv into *a; on error prints it and returns false. `--opt=value`
// works for every option that takes one value.
static bool parse_args(int argc, char **argv, Args *a, bool *help) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    char err[256];
    TlArgResult taken = tl_source_arg(argc, argv, &i, &a->source, err, sizeof err);
    if (taken == TL_ARG_BAD) return reject("%s", err);
    if (taken == TL_ARG_TAKEN) continue;
    char name[32];
    size_t n = (eq && strncmp(arg, "--", 2) == 0) ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), arg);
    const char *inline_val = n < strlen(arg) ? arg + n + 1 : NULL;
    bool takes_value = !strcmp(name, "--threads") || !strcmp(name, "--vector") ||
                       !strcmp(name, "--format") || !strcmp(name, "--line") || !strcmp(name, "-o");
    const char *val = inline_val;
    if (takes_value && !val) {
      if (i + 1 >= argc || is_option(argv[i + 1]))
        return reject("%s needs a value", name);
      val = argv[++i];
    }
    if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
      *help = true; // as in argparse: help wins over whatever follows
      return true;
    } else if (!strcmp(name, "--extents")) {
      a->ndims = 0;
      a->has_extents = true;
      const char *first = inline_val;
      while (first || (i + 1 < argc && !is_option(argv[i + 1]))) {
        const char *v = first ? first : argv[++i];
        first = NULL;
        if (a->ndims == TL_MAX_NEST)
          return reject("too many extents (at most %d dimensions)", TL_MAX_NEST);
        if (!parse_int("--extents", v, &a->extents[a->ndims++]))
          return false;
      }
      if (a->ndims == 0)
        return reject("--extents needs at least one value");
    } else if (!strcmp(name, "--threads")) {
      a->has_threads = true;
      if (!parse_int(name, val, &a->threads))
        return false;
    } else if (!strcmp(name, "--vector")) {
      a->has_vector = true;
      if (!parse_int(name, val, &a->vector))
        return false;
    } else if (!strcmp(name, "--line")) {
      a->has_line = true;
      if (!parse_int(name, val, &a->line))
        return false;
      if (a->line < 1 || a->line > INT32_MAX)
        return reject("--line must be a line number >= 1, got '%s'", val);
    } else if (!strcmp(name, "--format")) {
      if (!strcmp(val, "table"))
        a->format = TL_EXPLAIN_TABLE;
      else if (!strcmp(val, "yaml"))
        a->format = TL_EXPLAIN_YAML;
      else if (!strcmp(val, "svg"))
        a->format = TL_EXPLAIN_SVG;
      else
        return reject("unknown format '%s' (expected table, yaml or svg)", val);
    } else if (!strcmp(name, "-o")) {
      a->out_path = val;
    } else if (!strcmp(name, "--compare") && !inline_val) {
      a->compare = true;
    } else if (is_option(arg)) {
      return reject("unknown option '%s' (see --help)", arg);
    } else if (a->file) {
      return reject("unexpected argument '%s': only one FILE is allowed", arg);
    } else {
      a->file = arg;
    }
  }
  a->sema =
      (TlSemaOptions){a->source.calls, a->source.ncalls, a->source.defines, a->source.ndefines};
  return true;
}

// Creates a unique temporary file next to path (PATH.tmp.XXXXXX, as the
// main driver does: a fixed PATH.tmp would overwrite, then delete, an
// unrelated file of that name), mode 0666 less the umask. Returns its fd
// (-1 on failure) and its name in *tmp.
static int make_temp(TlArena *ar, const char *path, char **tmp) {
  *tmp = tl_arena_printf(ar, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(*tmp);
  if (fd < 0) return -1;
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  return fd;
}

// Writes a temporary file and renames it over FILE, so a failure never
// leaves a partial FILE behind.
static int write_output(TlArena *ar, const char *path, const TlBuf *b) {
  if (!path) {
    if (b->len)
      fwrite(b->data, 1, b->len, stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : fail("cannot write to stdout");
  }
  // A device or pipe (-o /dev/null) is written in place: a rename would
  // replace the device itself.
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    FILE *d = fopen(path, "w");
    bool ok = d && (b->len == 0 || fwrite(b->data, 1, b->len, d) == b->len);
    if (d && fclose(d) != 0)
      ok = false;
    return ok ? 0 : fail("cannot write '%s': %s", path, strerror(errno));
  }
  char *tmp;
  int fd = make_temp(ar, path, &tmp);
  if (fd < 0) return fail("cannot write '%s': %s", path, strerror(errno));
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    unlink(tmp);
    return fail("cannot write '%s': %s", path, strerror(errno));
  }
  bool ok = (b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len);
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    int err = errno;
    unlink(tmp);
    return fail("cannot write '%s': %s", path, strerror(err));
  }
  return 0;
}

static int explain_file(const Args *a) {
  TlExplainInput in = {a->file, &a->sema, a->source.target, a->compile};
  return tl_explain_partition_file(&in, (int)a->line, a->format);
}

// FILE mode prints to stdout, so -o points stdout at a
// temporary file for the call and renames it on success.
static int file_mode(TlArena *ar, const Args *a) {
  struct stat st;
  bool device = a->out_path && stat(a->out_path, &st) == 0 && !S_ISREG(st.st_mode);
  if (!a->out_path || device) {
    if (device && !freopen(a->out_path, "w", stdout))
      return fail("cannot write '%s': %s", a->out_path, strerror(errno));
    return explain_file(a);
  }
  char *tmp;
  fflush(stdout);
  int fd = make_temp(ar, a->out_path, &tmp);
  if (fd < 0) return fail("cannot write '%s': %s", a->out_path, strerror(errno));
  int saved = dup(STDOUT_FILENO);
  if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
    close(fd);
    unlink(tmp);
    return fail("cannot redirect output to '%s': %s", tmp, strerror(errno));
  }
  close(fd);
  int rc = explain_file(a);
  bool flushed = fflush(stdout) == 0;
  dup2(saved, STDOUT_FILENO);
  close(saved);
  if (rc == 0 && flushed && rename(tmp, a->out_path) == 0)
    return 0;
  unlink(tmp);
  return rc ? rc : fail("cannot write '%s': %s", a->out_path, strerror(errno));
}

static int run(TlArena *ar, Args *a) {
  if (a->file) {
    if (a->has_extents || a->has_threads || a->has_vector || a->compare)
      return fail("FILE mode plans the loops in '%s'; --extents, --threads, --vector and "
                  "--compare do not apply",
                  a->file);
    return file_mode(ar, a);
  }
  if (a->has_line)
    return fail("--line needs a FILE");
  if (a->source.target) return fail("--target needs a FILE: the standalone model has no target");
  if (!a->file && (a->sema.ncalls || a->sema.ndefines))
    return fail("--call and -D need a FILE (a TileLang Python file or a .tl file)");
  // The seed's --compare is fixed at 8 threads, vector 2; explicit values win.
  if (a->compare) {
    if (a->has_extents)
      return fail("--compare uses its own five shapes; drop --extents");
    if (!a->has_threads)
      a->threads = 8;
    if (!a->has_vector)
      a->vector = 2;
  }
  if (a->threads < 1)
    return fail("threads must be >= 1, got %" PRId64, a->threads);
  if (a->vector < 1)
    return fail("vector must be >= 1, got %" PRId64, a->vector);
  TlBuf out;
  tl_buf_init(&out, ar);
  if (a->compare) {
    tl_explain_partition_compare(&out, a->threads, a->vector, a->format);
    return write_output(ar, a->out_path, &out);
  }
  TlPartitionPlan p;
  char err[256];
  if (!tl_partition_plan_default(&p, a->ndims, a->extents, a->threads, a->vector, err, sizeof err))
    return fail("%s", err);
  if (a->format == TL_EXPLAIN_YAML && p.total > YAML_MAX_POINTS)
    return fail("the space has %" PRId64 " points and --format yaml lists every one (at most %" PRId64
                "); use --format table, which summarises",
                p.total, YAML_MAX_POINTS);
  tl_explain_partition_render(&out, &p, a->format, NULL);
  return write_output(ar, a->out_path, &out);
}

int tl_explain_partition_main(int argc, char **argv, TlExplainCompileFn compile) {
  Args a = {.ndims = 2, .extents = {128, 32}, .threads = 128, .vector = 8, .compile = compile};
  bool help = false;
  if (!parse_args(argc, argv, &a, &help))
    return 1;
  if (help) {
    fputs(kUsage, stdout);
    return 0;
  }
  TlArena ar;
  tl_arena_init(&ar);
  int rc = run(&ar, &a);
  tl_arena_free(&ar);
  return rc;
}
