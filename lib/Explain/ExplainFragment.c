// explain-partition for a nest over fragments: the elements placed by the
// fragment layout the nest follows (FragNest.c maps them), as a table and
// yaml fields (also --emit=plan's), and which fragment a nest follows.
#include "ExplainPartitionInternal.h"

#include <stdlib.h>
#include <string.h>

/* ---- fragment nests: elements placed by a fragment layout ---- */

// The element in register `reg` of `thread` as a tuple, and how many of the
// thread's registers hold one (a nest over part of a fragment skips some).
static void frag_owned(TlBuf *b, const TlFragNest *n, int64_t thread) {
  int64_t count = tl_frag_nest_thread_count(n, thread), shown = 0, idx[2];
  char s[TUPLE_MAX];
  tl_buf_printf(b, "  thread %3" PRId64 ": ", thread);
  for (int64_t r = 0; r < n->registers && shown < OWNED_SHOWN; r++) {
    int64_t e = tl_frag_nest_element(n, thread, r);
    if (e < 0) continue;
    tl_frag_nest_index(n, e, idx);
    tl_buf_printf(b, "%s%s@%" PRId64, shown++ ? ", " : "", tl_xp_tuple_str(s, idx, n->ndims), r);
  }
  if (count > OWNED_SHOWN) tl_buf_printf(b, " ... (+%" PRId64 ")", count - OWNED_SHOWN);
  tl_buf_putc(b, '\n');
}

// One element: its holder and register, or for a replicated element the
// register and the first holders.
static void frag_row(TlBuf *b, const void *nest, int64_t flat) {
  const TlFragNest *n = nest;
  int64_t idx[2], thread, reg, holders = tl_frag_nest_holders(n, flat);
  char s[TUPLE_MAX];
  tl_frag_nest_index(n, flat, idx);
  tl_buf_printf(b, "  %-14s %4" PRId64, tl_xp_tuple_str(s, idx, n->ndims), flat);
  if (n->replicas == 1) {
    tl_frag_nest_holder(n, flat, 0, &thread, &reg);
    tl_buf_printf(b, "  %6" PRId64 "  %8" PRId64 "\n", thread, reg);
    return;
  }
  for (int64_t k = 0; k < holders && k < OWNED_SHOWN; k++) {
    tl_frag_nest_holder(n, flat, k, &thread, &reg);
    tl_buf_printf(b, k ? ", %" PRId64 "@%" PRId64 : "  %" PRId64 "@%" PRId64, thread, reg);
  }
  if (holders > OWNED_SHOWN) tl_buf_printf(b, " ... (+%" PRId64 ")", holders - OWNED_SHOWN);
  tl_buf_putc(b, '\n');
}

static void frag_table(TlBuf *b, const TlFragNest *n, const char *title, const char *follows,
                       const char *fragment) {
  char s[TUPLE_MAX];
  const TlFragLayout *L = n->layout;
  if (title) tl_buf_printf(b, "%s\n", title);
  tl_buf_printf(b, "T.Parallel%s  threads=%" PRId64 "  follows %s%s%s\n",
                tl_xp_tuple_str(s, n->extents, n->ndims), n->threads, follows,
                fragment ? ", the layout of " : "", fragment ? fragment : "");
  tl_buf_printf(b, "elements = %" PRId64 ";  registers per thread = %" PRId64, n->elements,
                n->registers);
  if (n->mapped)
    tl_buf_printf(b, ";  threads holding elements = %" PRId64 ";  threads per element = %" PRId64,
                  n->threads_used, n->replicas);
  tl_buf_putc(b, '\n');
  if (!n->mapped) {
    tl_buf_printf(b,
                  "elements not listed: %" PRId64 " threads x %" PRId64
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
  tl_xp_table_rows(b, n->elements, frag_row, n);
  tl_buf_puts(b, "\nby thread (which elements each thread holds, @register)\n");
  frag_owned(b, n, 0);
  if (n->threads > 1) frag_owned(b, n, 1);
  if (n->threads > 2) frag_owned(b, n, n->threads - 1);
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
  if (!e) return NULL;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT && tl_layout_equal(e->buf->layout, l))
    return e->buf->name;
  for (int i = 0; i < e->nargs; i++) {
    const char *name = expr_fragment(e->args[i], l);
    if (name) return name;
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
    if (!name && !stores) name = expr_fragment(s->cond, l);
    if (!name) name = body_fragment(&s->body, l, stores);
    if (!name) name = body_fragment(&s->else_body, l, stores);
    if (name) return name;
  }
  return NULL;
}

const char *tl_explain_fragment_name(const TlStmt *seq) {
  const char *name = body_fragment(&seq->body, seq->plan_frag, true);
  return name ? name : body_fragment(&seq->body, seq->plan_frag, false);
}

void tl_explain_fragment_render(TlBuf *out, const TlFragNest *n, TlExplainFormat f,
                                const char *title, const char *follows, const char *fragment) {
  if (f == TL_EXPLAIN_TABLE) {
    frag_table(out, n, title, follows, fragment);
    return;
  }
  if (f == TL_EXPLAIN_SVG) {
    tl_xp_frag_svg(out, n, title, follows, fragment);
    return;
  }
  TlYaml em;
  tl_xp_y_begin(&em, out, title);
  tl_explain_fragment_yaml_fields(&em, n, follows, fragment, false);
  tl_xp_y_finish(&em);
}
