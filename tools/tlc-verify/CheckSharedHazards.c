// Check 6: shared-memory hazards. Two accesses to the same shared bytes,
// at least one a write, must be ordered when they may come from different
// threads or from an asynchronous copy: a block barrier between them (RAW,
// WAR and WAW alike), and for a cp.async write also the
// cp.async.wait_group that retires its group before the barrier.
//
// The check runs each kernel's statements in order over an abstract state:
// the accesses completed since the last barrier, the committed cp.async
// groups (oldest first) and the writes not committed yet. A loop that
// contains a barrier, a commit or a wait is run once per value of its
// counter when its bounds are constants (tlc's pipelined loops), so a
// stage index (k + 2) % 3 is one stage at each step and loop-carried pairs
// are the pairs of consecutive iterations; other loops run twice with the
// counter over its range, so that the second pass meets the first one's
// accesses. Ranges come from Range.c. Every pair is taken as coming from
// different threads: tlc spreads copies over all threads and the tile reads
// (ldmatrix, wgmma) are warp- or warpgroup-wide.
#include "Hazards.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct State {
  TvVec done;   // Access*: completed since the last barrier
  TvVec groups; // TvVec*: committed cp.async groups, oldest first
  TvVec open;   // Access*: cp.async writes not committed yet
  const TvStmt *last_wait;
  long long last_wait_n; // the groups it leaves in flight
  // wgmma reads shared memory asynchronously too: its reads join a group
  // at wgmma.commit_group and complete at wgmma.wait_group N.
  TvVec wg_groups; // TvVec*: committed wgmma groups' reads, oldest first
  TvVec wg_open;   // Access*: reads of wgmma not committed yet
  const TvExpr *last_wg_wait;
  long long last_wg_wait_n;
  // Completed generic-proxy writes (stores, cp.async) that no
  // fence.proxy.async has followed yet: wgmma (the async proxy) must not
  // read them. A barrier does not clear these; the fence does.
  TvVec unfenced;
  TvVec unfenced_wg; // wgmma reads completed since the last fence.proxy.async
} State;

typedef struct Hz {
  TvProgram *p;
  TvRangeEnv env;
  TvVec counters;   // TvVar*: loop counters being run at one value
  TvVec reported;   // char*: "site|site" pairs already reported
  long long budget; // statements left to run one value at a time
  bool wgmma;       // the file issues wgmma: track writes for the proxy fence
  // Roles: a branch that returns (the producer warpgroup) runs as one role,
  // the threads after it as another; 0 before any split. Their accesses and
  // mbarrier operations go to the phase model (Mbarrier.c) when the kernel
  // uses mbarriers.
  int role, nroles;
  MbModel *mb; // NULL: the kernel uses no mbarrier
  // Scanning an mbarrier operation's operands: the barrier word is ordered
  // by the phase model itself (and against its init by the walk), so it is
  // not a tile access for Mbarrier.c to pair.
  bool mb_op;
  long long period; // the kernel's loop period (periodic loops), 0 none
  // TMA stores' reads of their shared tiles (async proxy) that no
  // cp.async.bulk.wait_group.read has completed yet. tlc issues and waits
  // on them in one thread, under `if (threadIdx.x == 0)`, so they are kept
  // in program order across branches, not per path.
  TvVec bulk_reads;
  const TvVar *pinned_size; // a runtime size pinned for this walk (its range_lo)
} Hz;

#define MAX_TRIP 4096
#define MAX_GROUPS 8
#define STEP_BUDGET 2000000

/* ---- the state ---- */

static TvVec vec_copy(TvVec v) {
  TvVec c = {0};
  for (int i = 0; i < v.len; i++)
    tv_push(&c, v.items[i]);
  return c;
}

static TvVec groups_copy(const TvVec *groups) {
  TvVec c = {0};
  for (int i = 0; i < groups->len; i++) {
    TvVec *g = tv_alloc(sizeof *g);
    *g = vec_copy(*TV_AT(*groups, TvVec, i));
    tv_push(&c, g);
  }
  return c;
}

static State state_copy(const State *s) {
  State c = {.done = vec_copy(s->done),
             .open = vec_copy(s->open),
             .last_wait = s->last_wait,
             .last_wait_n = s->last_wait_n};
  c.groups = groups_copy(&s->groups);
  c.wg_groups = groups_copy(&s->wg_groups);
  c.wg_open = vec_copy(s->wg_open);
  c.unfenced = vec_copy(s->unfenced);
  c.unfenced_wg = vec_copy(s->unfenced_wg);
  c.last_wg_wait = s->last_wg_wait;
  c.last_wg_wait_n = s->last_wg_wait_n;
  return c;
}

static void vec_union(TvVec *into, const TvVec *from) {
  for (int i = 0; i < from->len; i++) {
    int j = 0;
    while (j < into->len && into->items[j] != from->items[i])
      j++;
    if (j == into->len) tv_push(into, from->items[i]);
  }
}

// Two completed accesses that no check can tell apart: the same statement,
// kind, bytes and thread map (and the same wait completing it). A role
// without block barriers (the producer of a persistent ring) completes one
// such access per iteration; keeping the first stands for the others (a
// report names the first pair met anyway), so the lists of completed
// accesses stay as long as the distinct sites and stages, not the trips.
static bool same_summary(const Access *a, const Access *b) {
  return a->site == b->site && a->buf == b->buf && a->space == b->space && a->kind == b->kind &&
         a->lo == b->lo && a->hi == b->hi && a->per_thread == b->per_thread &&
         a->slot_k == b->slot_k && a->slot_g == b->slot_g && a->slot_d == b->slot_d &&
         a->atomic == b->atomic && a->retired_by == b->retired_by && a->tma == b->tma &&
         a->mod == b->mod && a->rlo == b->rlo && a->rhi == b->rhi;
}

static void push_summary(TvVec *into, Access *a) {
  for (int i = 0; i < into->len; i++)
    if (into->items[i] == a || same_summary(TV_AT(*into, Access, i), a)) return;
  tv_push(into, a);
}

// vec_union for lists of completed accesses, which are summaries.
static void summary_union(TvVec *into, const TvVec *from) {
  for (int i = 0; i < from->len; i++)
    push_summary(into, TV_AT(*from, Access, i));
}

// Both paths may have been taken: every pending or unordered access of
// either. Groups are aligned from the newest, which is what a wait counts.
static void groups_join(TvVec *a, const TvVec *b) {
  while (a->len < b->len) {
    TvVec *g = tv_alloc(sizeof *g);
    tv_push(a, NULL);
    memmove(&a->items[1], &a->items[0], sizeof(void *) * (size_t)(a->len - 1));
    a->items[0] = g;
  }
  for (int i = 1; i <= b->len; i++)
    vec_union(TV_AT(*a, TvVec, a->len - i), TV_AT(*b, TvVec, b->len - i));
}

static void state_join(State *a, const State *b) {
  summary_union(&a->done, &b->done);
  vec_union(&a->open, &b->open);
  vec_union(&a->wg_open, &b->wg_open);
  summary_union(&a->unfenced, &b->unfenced);
  summary_union(&a->unfenced_wg, &b->unfenced_wg);
  groups_join(&a->groups, &b->groups);
  groups_join(&a->wg_groups, &b->wg_groups);
  if (!a->last_wg_wait) {
    a->last_wg_wait = b->last_wg_wait;
    a->last_wg_wait_n = b->last_wg_wait_n;
  }
  if (!a->last_wait) {
    a->last_wait = b->last_wait;
    a->last_wait_n = b->last_wait_n;
  }
}

// A loop whose trip count is unknown could commit without bound: the
// oldest groups are merged, which only keeps writes pending longer.
static void cap(TvVec *groups) {
  while (groups->len > MAX_GROUPS) {
    vec_union(TV_AT(*groups, TvVec, 1), TV_AT(*groups, TvVec, 0));
    memmove(&groups->items[0], &groups->items[1], sizeof(void *) * (size_t)(groups->len - 1));
    groups->len--;
  }
}

static void cap_groups(State *s) {
  cap(&s->groups);
  cap(&s->wg_groups);
}

/* ---- messages ---- */

static const char *iter_text(const Hz *h) {
  const char *s = h->env.block_x_pinned ? tv_printf("blockIdx.x = %lld", h->env.block_x) : "";
  if (h->pinned_size)
    s = tv_printf("%s%s%s = %lld", s, s[0] ? ", " : "", h->pinned_size->name, h->pinned_size->range_lo);
  for (int i = 0; i < h->counters.len; i++) {
    const TvVar *v = TV_AT(h->counters, TvVar, i);
    s = tv_printf("%s%s%s = %lld", s, s[0] ? ", " : "", v->name, v->range_lo);
  }
  return s;
}

const char *hz_describe(const Access *a) {
  const char *stage = a->stage ? tv_printf("stage '%s', ", a->stage) : "";
  const char *iter = a->iter[0] ? tv_printf(", %s", a->iter) : "";
  const char *elems = a->ehi == TV_POS_INF ? tv_printf("elements from %lld", a->elo)
                                           : tv_printf("elements [%lld, %lld]", a->elo, a->ehi);
  return tv_printf("%s at %u:%u (%s%s%s)", a->what, a->site->loc.line, a->site->loc.col, stage,
                   elems, iter);
}

// The instruction of an asm statement, for messages: its text up to the
// first ';' ("cp.async.wait_group 1").
static const char *wait_text(const TvStmt *w) {
  const char *t = w->text ? w->text : "cp.async.wait_group";
  size_t n = strcspn(t, ";\\\n");
  return tv_printf("'%s' at %u:%u", tv_strndup(t, n), w->loc.line, w->loc.col);
}

// One report per access, buffer and kind of hazard: the first pair met
// (in the earliest iteration) stands for the others.
static void report_kind(Hz *h, const Access *a, const Access *b, const char *kind,
                        const char *order) {
  const char *key = tv_printf("%p|%s|%s", (const void *)a->site, a->buf->name, kind);
  for (int i = 0; i < h->reported.len; i++)
    if (!strcmp(TV_AT(h->reported, char, i), key)) return;
  tv_push(&h->reported, (void *)key);
  tv_error(a->site->loc, "shared-memory race on '%s' (%s): the %s may overlap the %s: %s",
           a->buf->name, kind, hz_describe(a), hz_describe(b), order);
}

static void report(Hz *h, const Access *a, const Access *b, const char *order) {
  report_kind(h, a, b,
              a->kind == ACC_READ   ? "read after write"
              : b->kind == ACC_READ ? "write after read"
                                    : "write after write",
              order);
}

// Mbarrier.c's finding: two accesses of different roles (or a TMA write and
// an access of its own role) that no mbarrier phase orders either way.
static void report_roles(void *ctx, const Access *a, const Access *b, const char *order) {
  report_kind(ctx, a, b,
              a->kind == ACC_READ || b->kind == ACC_READ ? "read and write unordered"
                                                         : "writes unordered",
              order);
}

/* ---- accesses ---- */

// Do the windows [alo, ahi] + m * Z and [blo, bhi] + m * Z meet?
static bool windows_meet(long long m, long long alo, long long ahi, long long blo, long long bhi) {
  // b shifted by n * m meets a when alo - bhi <= n * m <= ahi - blo.
  long long from = alo - bhi, to = ahi - blo;
  long long n = from >= 0 ? (from + m - 1) / m : -((-from) / m);
  return n * m <= to;
}

static bool overlap(const Access *a, const Access *b) {
  if (a->space != b->space || a->lo > b->hi || b->lo > a->hi) return false;
  // Same row length: the bytes each touches modulo the row.
  if (a->mod && a->mod == b->mod && !windows_meet(a->mod, a->rlo, a->rhi, b->rlo, b->rhi))
    return false;
  return true;
}

// Both accesses give each element to the same thread: no other thread
// touches what one thread wrote, so program order suffices.
static bool same_thread(const Access *a, const Access *b) {
  return a->per_thread && b->per_thread && a->buf == b->buf && a->slot_k == b->slot_k &&
         a->slot_g == b->slot_g && a->slot_d == b->slot_d;
}

typedef struct Span {
  long long lo, hi, tid;
  bool is_b;
} Span;

static int by_start(const void *p, const void *q) {
  const Span *a = p, *b = q;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

// Both accesses' bytes known per thread: does a byte of one thread's part
// of a meet another thread's part of b? A tree step that reads slot(t) and
// slot(t) + h and writes slot(t) races only when some slot(t) + h is
// another thread's slot, which the intervals cannot tell.
static bool threads_meet(const Access *a, const Access *b) {
  if (!a->tstart || !b->tstart || a->nthreads != b->nthreads) return true;
  long long n = a->nthreads;
  Span *s = tv_alloc(sizeof *s * (size_t)(2 * n));
  int k = 0;
  for (long long t = 0; t < n; t++) {
    if (a->truns[t]) s[k++] = (Span){a->tstart[t], a->tstart[t] + a->width - 1, t, false};
    if (b->truns[t]) s[k++] = (Span){b->tstart[t], b->tstart[t] + b->width - 1, t, true};
  }
  qsort(s, (size_t)k, sizeof *s, by_start);
  // Sweep: the furthest-reaching span of each side seen so far, and a
  // second one of another thread, so that a span meeting only its own
  // thread's is not counted.
  long long reach[2][2] = {{LLONG_MIN, LLONG_MIN}, {LLONG_MIN, LLONG_MIN}};
  long long owner[2][2] = {{-1, -1}, {-1, -1}};
  for (int i = 0; i < k; i++) {
    int other = !s[i].is_b, self = s[i].is_b;
    for (int j = 0; j < 2; j++)
      if (reach[other][j] >= s[i].lo && owner[other][j] != s[i].tid) return true;
    // Keep the two furthest reaches of this side with different owners.
    if (owner[self][0] == s[i].tid) {
      if (s[i].hi > reach[self][0]) reach[self][0] = s[i].hi;
    } else if (owner[self][1] == s[i].tid) {
      if (s[i].hi > reach[self][1]) reach[self][1] = s[i].hi;
    } else if (s[i].hi > reach[self][1]) {
      reach[self][1] = s[i].hi;
      owner[self][1] = s[i].tid;
    }
    if (reach[self][1] > reach[self][0]) {
      long long r = reach[self][0], o = owner[self][0];
      reach[self][0] = reach[self][1];
      owner[self][0] = owner[self][1];
      reach[self][1] = r;
      owner[self][1] = o;
    }
  }
  return false;
}

// Against b, completed by its thread but not yet ordered by a barrier.
static void check_done(Hz *h, const Access *a, const Access *b) {
  // A statement is taken not to write an element twice (tlc's copies give
  // each element one thread and step; swizzles are permutations): its own
  // write-after-write pairs are not proven, and not reported.
  // The halves of one split vector store (((uint4*)&X[i])[0] and [1]) are
  // one statement's write in this sense.
  bool self_waw = a->kind != ACC_READ && b->kind != ACC_READ && !a->atomic &&
                  (a->site == b->site || (a->vector_base && b->vector_base && a->buf == b->buf &&
                                          !strcmp(a->vector_base, b->vector_base)));
  if (!overlap(a, b) || (a->kind == ACC_READ && b->kind == ACC_READ) || same_thread(a, b) ||
      self_waw || (a->atomic && b->atomic) || !threads_meet(a, b))
    return;
  const char *order = "no __syncthreads() between them";
  if (b->retired_by)
    order = tv_printf("no __syncthreads() after %s, which completes the cp.async write for the "
                      "thread that issued "
                      "it only",
                      wait_text(b->retired_by));
  report(h, a, b, order);
}

// Against b, a cp.async write that may still be in flight.
static void check_pending(Hz *h, const State *st, const Access *a, const Access *b, int newer) {
  if (!overlap(a, b) || (a->kind != ACC_READ && a->site == b->site)) return;
  const char *order;
  if (newer < 0)
    order = "the write is not committed to a cp.async group yet";
  else if (st->last_wait)
    order = tv_printf(
        "its cp.async group is still in flight: %s, the last wait before, leaves the newest %lld "
        "group%s pending, and %d %s committed after it",
        wait_text(st->last_wait), st->last_wait_n, st->last_wait_n == 1 ? "" : "s", newer,
        newer == 1 ? "was" : "were");
  else
    order = tv_printf(
        "its cp.async group is still in flight: no cp.async.wait_group follows its commit");
  report(h, a, b, order);
}

// A write against b, a wgmma read that may still be in flight: a barrier
// does not complete wgmma, only wgmma.wait_group does.
static void check_wgmma(Hz *h, const State *st, const Access *a, const Access *b, int newer) {
  if (!overlap(a, b)) return;
  const char *order;
  if (newer < 0)
    order = "the wgmma reading it is not committed to a group yet";
  else if (st->last_wg_wait)
    order = tv_printf(
        "the wgmma group reading it is still in flight: '%s' at %u:%u, the last wgmma wait before, "
        "leaves the newest %lld group%s pending, and %d %s committed after it",
        tv_expr_text(h->p, st->last_wg_wait), st->last_wg_wait->loc.line, st->last_wg_wait->loc.col,
        st->last_wg_wait_n, st->last_wg_wait_n == 1 ? "" : "s", newer, newer == 1 ? "was" : "were");
  else
    order = "the wgmma group reading it is still in flight: no wgmma.wait_group follows its commit";
  report(h, a, b, order);
}

static void add_access_to(Hz *h, State *st, Access *a, TvVec *into) {
  // TLC_VERIFY_DEBUG=1 shows every access the check sees.
  if (getenv("TLC_VERIFY_DEBUG"))
    fprintf(stderr, "hazard: %s of '%s' (role %d)%s\n", hz_describe(a), a->buf->name, h->role,
            a->per_thread ? tv_printf(" (per thread: slot %lld at %lld)", a->slot_k, a->slot_d)
                          : "");
  if (h->mb && !h->mb_op) {
    a->role = h->role;
    mb_access(h->mb, a);
  }
  for (int i = 0; i < st->done.len; i++)
    check_done(h, a, TV_AT(st->done, Access, i));
  for (int g = 0; g < st->groups.len; g++) {
    const TvVec *grp = TV_AT(st->groups, TvVec, g);
    for (int i = 0; i < grp->len; i++)
      check_pending(h, st, a, TV_AT(*grp, Access, i), st->groups.len - 1 - g);
  }
  for (int i = 0; i < st->open.len; i++)
    check_pending(h, st, a, TV_AT(st->open, Access, i), -1);
  if (into == &st->done)
    push_summary(into, a);
  else
    tv_push(into, a);
  if (a->kind != ACC_READ) {
    for (int g = 0; g < st->wg_groups.len; g++) {
      const TvVec *grp = TV_AT(st->wg_groups, TvVec, g);
      for (int i = 0; i < grp->len; i++)
        check_wgmma(h, st, a, TV_AT(*grp, Access, i), st->wg_groups.len - 1 - g);
    }
    for (int i = 0; i < st->wg_open.len; i++)
      check_wgmma(h, st, a, TV_AT(st->wg_open, Access, i), -1);
  }
}

// Reports a against every access of list it may overlap, for the reason `order`.
static void report_overlaps(Hz *h, const Access *a, const TvVec *list, const char *order) {
  for (int i = 0; i < list->len; i++) {
    const Access *b = TV_AT(*list, Access, i);
    if (overlap(a, b)) report(h, a, b, order);
  }
}

// A read that wgmma makes in the background: it joins the open wgmma group.
// It goes through the async proxy, so the generic writes it may see must
// have been followed by a fence.proxy.async.
static void add_wgmma_read(Hz *h, State *st, Access *a) {
  a->done_seq = LLONG_MAX; // until the wgmma wait that retires its group
  report_overlaps(h, a, &st->unfenced,
                  "no fence.proxy.async between them: the write is in the generic proxy, wgmma "
                  "reads through the async proxy");
  add_access_to(h, st, a, &st->wg_open);
}

static void add_access(Hz *h, State *st, Access *a) {
  if (a->kind != ACC_READ)
    report_overlaps(h, a, &h->bulk_reads,
                    "the TMA store reading it may still be in flight: no "
                    "cp.async.bulk.wait_group.read between them");
  add_access_to(h, st, a, a->kind == ACC_ASYNC ? &st->open : &st->done);
  if (a->kind == ACC_WRITE && h->wgmma) push_summary(&st->unfenced, a);
  if (a->kind != ACC_READ)
    report_overlaps(h, a, &st->unfenced_wg,
                    "no fence.proxy.async between them: wgmma read through the async proxy, the "
                    "write is in the generic proxy");
}

// The text of the first `x % s` in e whose x names a variable: the stage.
static const char *stage_text(const Hz *h, const TvExpr *e, int depth) {
  if (!e || depth > 32) return NULL;
  if (e->kind == EX_BINARY && !strcmp(e->op, "%")) {
    long long v;
    if (!tv_const_eval(e->kids[0], &v)) return tv_expr_text(h->p, e);
  }
  if (e->kind == EX_CALL && e->func) return NULL; // inside tl_swz: a swizzle, not a stage
  for (int i = 0; i < e->nkids; i++) {
    const char *s = stage_text(h, e->kids[i], depth + 1);
    if (s) return s;
  }
  return NULL;
}

static bool is_shared(const TvVar *v) {
  return v && (v->is_smem_view || v->is_dynamic_smem || (v->is_shared && v->is_array));
}

// The bytes a view or shared array spans (hi TV_POS_INF: unknown).
static void buffer_bytes(const TvVar *v, long long *base, long long *end) {
  if (v->is_smem_view) {
    *base = v->smem_offset;
    *end = v->smem_bytes >= 0 ? v->smem_offset + v->smem_bytes - 1 : TV_POS_INF;
  } else if (!v->is_dynamic_smem && v->size > 0) {
    *base = 0;
    *end = v->size - 1;
  } else {
    *base = 0;
    *end = TV_POS_INF;
  }
}

// An access of buf at element index idx (NULL: 0). width > 0: that many
// bytes from the element; width 0: a tile from there, one pipeline stage
// long when the index has a stage term, else to the end of the buffer.
static Access *make_access(Hz *h, const TvExpr *site, const TvVar *buf, AccKind kind,
                           const TvExpr *idx, long long width, const char *what) {
  Access *a = tv_alloc(sizeof *a);
  a->site = site;
  a->buf = buf;
  a->space = buf->is_smem_view || buf->is_dynamic_smem ? NULL : buf;
  a->kind = kind;
  a->what = what;
  a->iter = iter_text(h);
  a->stage = stage_text(h, idx, 0);
  long long elem = buf->elem_size > 0 ? buf->elem_size : 1, base, end;
  buffer_bytes(buf, &base, &end);
  TvRange r = idx ? tv_range(&h->env, idx, NULL, 0) : (TvRange){0, 0};
  if (r.lo == TV_NEG_INF || r.hi == TV_POS_INF) {
    a->lo = base;
    a->hi = end;
  } else {
    a->lo = base + r.lo * elem;
    long long stride, stages;
    if (width > 0)
      a->hi = base + r.hi * elem + width - 1;
    else if (idx && tv_stage_term(&h->env, idx, &stride, &stages))
      a->hi = base + r.hi * elem + stride * elem - 1;
    else
      a->hi = end;
    if (a->hi > end) a->hi = end;
  }
  long long m, wlo, whi;
  if (idx && width > 0 && a->hi != TV_POS_INF && tv_residue_window(&h->env, idx, &m, &wlo, &whi) &&
      (whi - wlo) * elem + width <= m * elem) {
    a->mod = m * elem;
    a->rlo = base + wlo * elem;
    a->rhi = base + whi * elem + width - 1;
  }
  // Each thread's bytes, when the index is one value per thread.
  const TvFunc *k = h->env.kernel;
  if (idx && width > 0 && a->hi != TV_POS_INF && k->threads_known && k->threads[1] <= 1 &&
      k->threads[2] <= 1 && k->threads[0] <= 1024) {
    long long n = k->threads[0], *vals = tv_alloc(sizeof *vals * (size_t)n);
    bool *runs = tv_alloc(sizeof *runs * (size_t)n);
    if (tv_thread_values(&h->env, idx, n, vals, runs)) {
      for (long long t = 0; t < n; t++)
        vals[t] = base + vals[t] * elem;
      a->nthreads = n;
      a->width = width;
      a->tstart = vals;
      a->truns = runs;
    }
  }
  if (idx && width > 0)
    a->per_thread =
        tv_thread_slot(&h->env, idx, (width + elem - 1) / elem, &a->slot_k, &a->slot_g, &a->slot_d);
  a->elo = (a->lo - base) / elem;
  a->ehi = a->hi == TV_POS_INF ? TV_POS_INF : (a->hi - base) / elem;
  return a;
}

/* ---- expressions ---- */

static void scan(Hz *h, State *st, TvExpr *e);

static TvExpr *strip_casts(TvExpr *e) {
  e = tv_strip(e);
  while (e && e->kind == EX_CAST && e->nkids == 1)
    e = tv_strip(e->kids[0]);
  return e;
}

// X[i] on a shared buffer: the buffer, and the index in *idx.
static const TvVar *element(TvExpr *e, TvExpr **idx) {
  e = tv_strip(e);
  if (!e || e->kind != EX_SUBSCRIPT) return NULL;
  TvExpr *base = tv_strip(e->kids[0]);
  if (!base || base->kind != EX_VAR || !is_shared(base->var) ||
      (base->var->is_array && base->var->rank > 1))
    return NULL;
  *idx = e->kids[1];
  return base->var;
}

// i + k, an index expression made for ((T*)&X[i])[k] (no source range).
static TvExpr *index_plus(TvExpr *i, long long k) {
  TvExpr *c = tv_alloc(sizeof *c);
  c->kind = EX_INT;
  c->value = k;
  c->loc = i->loc;
  TvExpr *sum = tv_alloc(sizeof *sum);
  sum->kind = EX_BINARY;
  strcpy(sum->op, "+");
  sum->loc = i->loc;
  sum->kids = tv_alloc(2 * sizeof *sum->kids);
  sum->kids[0] = i;
  sum->kids[1] = c;
  sum->nkids = 2;
  return sum;
}

// *(T*)&X[i]: the buffer, the index and sizeof(T). Also ((T*)&X[i])[k]
// (tlc writes a 32-byte vector as two 16-byte halves): element i + k *
// sizeof(T) / sizeof(X[0]).
static const TvVar *vector_element(TvExpr *e, TvExpr **idx, long long *width) {
  e = tv_strip(e);
  long long k;
  if (e && e->kind == EX_SUBSCRIPT && tv_const_eval(e->kids[1], &k) && k >= 0) {
    TvExpr *cast = tv_strip(e->kids[0]);
    if (!cast || cast->kind != EX_CAST || !cast->cast_to_pointer || cast->cast_pointee_size <= 0)
      return NULL;
    TvExpr *addr = tv_strip(cast->kids[0]);
    if (!addr || addr->kind != EX_UNARY || strcmp(addr->op, "&")) return NULL;
    const TvVar *v = element(addr->kids[0], idx);
    if (!v || v->elem_size <= 0 || (k * cast->cast_pointee_size) % v->elem_size) return NULL;
    *width = cast->cast_pointee_size;
    if (k) *idx = index_plus(*idx, k * cast->cast_pointee_size / v->elem_size);
    return v;
  }
  if (!e || e->kind != EX_UNARY || strcmp(e->op, "*")) return NULL;
  TvExpr *cast = tv_strip(e->kids[0]);
  if (!cast || cast->kind != EX_CAST || !cast->cast_to_pointer || cast->cast_pointee_size <= 0)
    return NULL;
  TvExpr *addr = tv_strip(cast->kids[0]);
  if (!addr || addr->kind != EX_UNARY || strcmp(addr->op, "&")) return NULL;
  *width = cast->cast_pointee_size;
  return element(addr->kids[0], idx);
}

// A pointer into shared memory passed to a function: &X[i] (width 16, an
// ldmatrix row or a vector), X + off or X (a tile from there).
static const TvVar *shared_pointer(TvExpr *e, TvExpr **idx, long long *width) {
  e = strip_casts(e);
  if (!e) return NULL;
  *idx = NULL;
  *width = 0;
  if (e->kind == EX_UNARY && !strcmp(e->op, "&")) {
    *width = 16;
    return element(e->kids[0], idx);
  }
  if (e->kind == EX_VAR && is_shared(e->var)) return e->var;
  if (e->kind == EX_BINARY && !strcmp(e->op, "+")) {
    TvExpr *b = strip_casts(e->kids[0]);
    if (b && b->kind == EX_VAR && is_shared(b->var)) {
      *idx = e->kids[1];
      return b->var;
    }
  }
  return NULL;
}

static bool is_assign(const char *op) {
  size_t n = strlen(op);
  return n > 0 && op[n - 1] == '=' && strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") &&
         strcmp(op, ">=");
}

// Is e a pointer derived from v: v, &v[i], v + i, casts of those, its
// shared-window address (a one-argument call), or a local initialized from
// one of them? A may-analysis: more roots only mean more writes assumed.
static bool rooted_at(const TvExpr *e, const TvVar *v) {
  for (int depth = 0; e && depth < 16; depth++) {
    e = strip_casts((TvExpr *)e);
    if (!e) return false;
    // unsigned s = __cvta_generic_to_shared(smem): s is smem's address. Its
    // asm operand counts as an assignment (Model.c), so any local with an
    // initializer is followed: a store then may be taken for one through v.
    if (e->kind == EX_VAR && e->var != v && e->var->kind == VAR_LOCAL && e->var->init &&
        !e->var->loop)
      e = e->var->init;
    else if (e->kind == EX_VAR)
      return e->var == v;
    else if (e->kind == EX_CALL && e->nkids == 1)
      e = e->kids[0]; // an address conversion: __cvta_generic_to_shared(p), tl_smem_addr(p)
    else if (e->kind == EX_SUBSCRIPT ||
             (e->kind == EX_UNARY && (!strcmp(e->op, "&") || !strcmp(e->op, "*"))) ||
             (e->kind == EX_BINARY && (!strcmp(e->op, "+") || !strcmp(e->op, "-"))))
      e = e->kids[0];
    else
      return false;
  }
  return false;
}

static bool param_stored(const TvFunc *f, int param, int depth);

// Does e store through v: an assignment to *v, v[i], or v passed to a
// function that stores through that parameter?
static bool expr_stores(const TvExpr *e, const TvVar *v, int depth) {
  if (!e) return false;
  if (e->kind == EX_BINARY && is_assign(e->op) && rooted_at(e->kids[0], v)) return true;
  if (e->kind == EX_CALL && e->func)
    for (int i = 0; i < e->nkids; i++)
      if (rooted_at(e->kids[i], v) && param_stored(e->func, i, depth + 1)) return true;
  for (int i = 0; i < e->nkids; i++)
    if (expr_stores(e->kids[i], v, depth)) return true;
  return false;
}

static bool stmt_stores(const TvStmt *s, const TvVar *v, int depth) {
  if (!s) return false;
  // mbarrier.init is a plain store; the other mbarrier operations are
  // atomic (reads here: they race only with the init).
  if (s->kind == ST_ASM && s->text &&
      (strstr(s->text, "st.shared") || strstr(s->text, "stmatrix") ||
       strstr(s->text, "mbarrier.init")))
    for (int i = 0; i < s->exprs.len; i++)
      if (rooted_at(TV_AT(s->exprs, TvExpr, i), v)) return true;
  if (expr_stores(s->cond, v, depth) || expr_stores(s->expr, v, depth) ||
      expr_stores(s->inc, v, depth))
    return true;
  for (int i = 0; i < s->vars.len; i++)
    if (expr_stores(TV_AT(s->vars, TvVar, i)->init, v, depth)) return true;
  for (int i = 0; i < s->exprs.len; i++)
    if (expr_stores(TV_AT(s->exprs, TvExpr, i), v, depth)) return true;
  for (int i = 0; i < s->nkids; i++)
    if (stmt_stores(s->kids[i], v, depth)) return true;
  return false;
}

// Does f store to shared memory through its pointer parameter `param`?
// Then the tile passed there is written, not only read.
static bool param_stored(const TvFunc *f, int param, int depth) {
  if (!f || !f->body || depth > 6 || param >= f->params.len) return false;
  return stmt_stores(f->body, TV_AT(f->params, TvVar, param), depth);
}

/* ---- wgmma ---- */

// What a function does with wgmma, in tlc's order: issue (its shared
// operands are read in the background), commit the group, wait.
typedef struct Wgmma {
  bool issues, commits;
  bool predicated; // its wgmma are `@q`: issued only where its last parameter `on` is true
  long long wait; // the groups its last wgmma.wait_group leaves pending; -1: none
  const TvExpr *wait_site;
} Wgmma;

static void wgmma_stmt(const TvStmt *s, Wgmma *w, int depth);

static void wgmma_expr(const TvExpr *e, Wgmma *w, int depth) {
  if (!e || depth > 8) return;
  if (e->kind == EX_CALL && e->name && !strncmp(e->name, "tl_wgmma_wait", 13) && e->ntargs >= 1) {
    w->wait = e->targs[0];
    w->wait_site = e;
    return;
  }
  if (e->kind == EX_CALL && e->func) wgmma_stmt(e->func->body, w, depth + 1);
  for (int i = 0; i < e->nkids; i++)
    wgmma_expr(e->kids[i], w, depth);
}

static void wgmma_stmt(const TvStmt *s, Wgmma *w, int depth) {
  if (!s || depth > 8) return;
  if (s->kind == ST_ASM && s->text) {
    w->issues |= strstr(s->text, "wgmma.mma_async") != NULL;
    w->predicated |= strstr(s->text, "@q wgmma.mma_async") != NULL;
    w->commits |= strstr(s->text, "wgmma.commit_group") != NULL;
  }
  wgmma_expr(s->cond, w, depth);
  wgmma_expr(s->expr, w, depth);
  wgmma_expr(s->inc, w, depth);
  for (int i = 0; i < s->vars.len; i++)
    wgmma_expr(TV_AT(s->vars, TvVar, i)->init, w, depth);
  for (int i = 0; i < s->exprs.len; i++)
    wgmma_expr(TV_AT(s->exprs, TvExpr, i), w, depth);
  for (int i = 0; i < s->nkids; i++)
    wgmma_stmt(s->kids[i], w, depth);
}

// A wait completes the accesses of all but the newest n groups: for the
// phase model, they are done at this event of the role.
static void retire(Hz *h, TvVec groups, long long n, TvLoc loc) {
  long long seq = mb_tick(h->mb, h->role, loc);
  for (int g = 0; g + n < groups.len; g++) {
    const TvVec *grp = TV_AT(groups, TvVec, g);
    for (int i = 0; i < grp->len; i++) {
      Access *a = TV_AT(*grp, Access, i);
      if (a->done_seq == LLONG_MAX && a->role == h->role) {
        a->done_seq = seq;
        a->done_loc = loc;
      }
    }
  }
}

static void wg_commit(State *st) {
  TvVec *g = tv_alloc(sizeof *g);
  *g = st->wg_open;
  st->wg_open = (TvVec){0};
  tv_push(&st->wg_groups, g);
}

// wgmma.wait_group n: the reads of all but the newest n groups are done.
static void wg_wait(Hz *h, State *st, const TvExpr *site, long long n) {
  st->last_wg_wait = site;
  st->last_wg_wait_n = n;
  if (h->mb && st->wg_groups.len > n) retire(h, st->wg_groups, n, site->loc);
  while (st->wg_groups.len > n) {
    summary_union(&st->done, TV_AT(st->wg_groups, TvVec, 0));
    summary_union(&st->unfenced_wg, TV_AT(st->wg_groups, TvVec, 0));
    memmove(&st->wg_groups.items[0], &st->wg_groups.items[1],
            sizeof(void *) * (size_t)(st->wg_groups.len - 1));
    st->wg_groups.len--;
  }
}

/* ---- mbarriers and TMA ---- */

static bool known(TvRange r) {
  return r.lo != TV_NEG_INF && r.hi != TV_POS_INF;
}

// What an mbarrier or TMA instruction does, and which of its operands (of
// an asm statement) or parameters (of a helper that holds one) carry the
// barrier, the value (count, parity, bytes), the TMA's tile and tensor map.
typedef enum { MB_NONE, MB_INIT, MB_WAIT, MB_ARRIVE, MB_EXPECT_ARRIVE, MB_EXPECT, MB_TMA } MbOp;
typedef struct MbSig {
  MbOp op;
  int bar, val, dst, map; // operand or parameter index, -1 none
  bool val_const;         // the value is the constant val_value
  long long val_value;
} MbSig;

// The operand numbers of an asm text after `from`: [%N] groups in order.
static int bracket_operands(const char *from, int *out, int max) {
  int n = 0;
  for (const char *c = strchr(from, '['); c && n < max; c = strchr(c + 1, '['))
    if (c[1] == '%') out[n++] = atoi(c + 2);
  return n;
}

static MbSig asm_sig(const char *t) {
  MbSig g = {.op = MB_NONE, .bar = -1, .val = -1, .dst = -1, .map = -1};
  if (!t) return g;
  const char *k;
  int ops[8], n;
  if ((k = strstr(t, "cp.async.bulk.tensor")) && strstr(k, "mbarrier")) {
    n = bracket_operands(k, ops, 8);
    if (n >= 3) g = (MbSig){MB_TMA, ops[n - 1], -1, ops[0], ops[1], false, 0};
    return g;
  }
  if ((k = strstr(t, "mbarrier.init")))
    g.op = MB_INIT;
  else if ((k = strstr(t, "mbarrier.try_wait.parity")) ||
           (k = strstr(t, "mbarrier.test_wait.parity")))
    g.op = MB_WAIT;
  else if ((k = strstr(t, "mbarrier.arrive.expect_tx")))
    g.op = MB_EXPECT_ARRIVE;
  else if ((k = strstr(t, "mbarrier.expect_tx")))
    g.op = MB_EXPECT;
  else if ((k = strstr(t, "mbarrier.arrive")))
    g.op = MB_ARRIVE;
  else
    return g;
  n = bracket_operands(k, ops, 1);
  if (n < 1) return (MbSig){.op = MB_NONE};
  g.bar = ops[0];
  // The value is the first %M after the barrier's brackets.
  const char *close = strchr(strchr(k, '[') ? strchr(k, '[') : k, ']');
  const char *v = close ? strchr(close, '%') : NULL;
  const char *end = close ? strchr(close, ';') : NULL;
  if (v && (!end || v < end) && g.op != MB_ARRIVE) g.val = atoi(v + 1);
  return g;
}

static MbSig func_sig(const TvStmt *s, const TvFunc *f, int depth);

// A helper's signature in terms of its parameters: the operand expression
// of each role traced back to the parameter it comes from.
static int param_of(const TvFunc *f, const TvExpr *e, bool pointer) {
  for (int i = 0; i < f->params.len; i++) {
    const TvVar *v = TV_AT(f->params, TvVar, i);
    if (pointer ? rooted_at(e, v)
                : (strip_casts((TvExpr *)e) && strip_casts((TvExpr *)e)->kind == EX_VAR &&
                   strip_casts((TvExpr *)e)->var == v))
      return i;
  }
  return -1;
}

static MbSig func_sig(const TvStmt *s, const TvFunc *f, int depth) {
  MbSig none = {.op = MB_NONE};
  if (!s || depth > 16) return none;
  if (s->kind == ST_ASM) {
    MbSig g = asm_sig(s->text);
    if (g.op == MB_NONE) return none;
    MbSig p = {g.op, -1, -1, -1, -1, false, 0};
    const TvExpr *ve = g.val >= 0 && g.val < s->exprs.len ? TV_AT(s->exprs, TvExpr, g.val) : NULL;
    if (g.bar >= 0 && g.bar < s->exprs.len)
      p.bar = param_of(f, TV_AT(s->exprs, TvExpr, g.bar), true);
    if (g.dst >= 0 && g.dst < s->exprs.len)
      p.dst = param_of(f, TV_AT(s->exprs, TvExpr, g.dst), true);
    if (g.map >= 0 && g.map < s->exprs.len)
      p.map = param_of(f, TV_AT(s->exprs, TvExpr, g.map), true);
    if (ve) {
      p.val = param_of(f, ve, false);
      p.val_const = p.val < 0 && tv_const_eval(ve, &p.val_value);
    }
    return p;
  }
  for (int i = 0; i < s->nkids; i++) {
    MbSig g = func_sig(s->kids[i], f, depth + 1);
    if (g.op != MB_NONE) return g;
  }
  return none;
}

typedef struct SigCache {
  const TvFunc *f;
  MbSig sig;
} SigCache;
static TvVec sig_cache; // SigCache*

static MbSig helper_sig(const TvFunc *f) {
  if (!f || !f->body) return (MbSig){.op = MB_NONE};
  for (int i = 0; i < sig_cache.len; i++)
    if (TV_AT(sig_cache, SigCache, i)->f == f) return TV_AT(sig_cache, SigCache, i)->sig;
  SigCache *c = tv_alloc(sizeof *c);
  c->f = f;
  c->sig = func_sig(f->body, f, 0);
  tv_push(&sig_cache, c);
  return c->sig;
}

static bool is_mb_stmt(const TvStmt *s) {
  if (s->kind == ST_ASM) return asm_sig(s->text).op != MB_NONE;
  TvExpr *e = s->kind == ST_EXPR ? tv_strip(s->expr) : NULL;
  return e && e->kind == EX_CALL && helper_sig(e->func).op != MB_NONE;
}

// e's value with the counters run one value at a time: integer operators
// (including ^, &, |, shifts, which intervals only bound), counters,
// constants and locals assigned once. False when any part is not known.
static bool eval_now(const TvExpr *e, long long *out, int depth) {
  e = tv_strip((TvExpr *)e);
  if (!e || depth > 32) return false;
  if (tv_const_eval(e, out)) return true;
  long long a, b;
  switch (e->kind) {
  case EX_VAR:
    if (e->var->has_range && e->var->range_lo == e->var->range_hi) {
      *out = e->var->range_lo;
      return true;
    }
    return tv_single_assignment(e->var) && eval_now(e->var->init, out, depth + 1);
  case EX_CAST:
    return e->cast_to_integer && e->nkids == 1 && eval_now(e->kids[0], out, depth + 1);
  case EX_UNARY:
    if (!eval_now(e->kids[0], &a, depth + 1)) return false;
    if (!strcmp(e->op, "-")) return *out = -a, true;
    if (!strcmp(e->op, "+")) return *out = a, true;
    if (!strcmp(e->op, "~")) return *out = ~a, true;
    if (!strcmp(e->op, "!")) return *out = !a, true;
    return false;
  case EX_BINARY:
    if (e->nkids != 2 || !eval_now(e->kids[0], &a, depth + 1) ||
        !eval_now(e->kids[1], &b, depth + 1))
      return false;
    // Comparisons (a predicate argument: k > 0).
    if (!strcmp(e->op, "<") || !strcmp(e->op, ">") || !strcmp(e->op, "<=") || !strcmp(e->op, ">=") ||
        !strcmp(e->op, "==") || !strcmp(e->op, "!=")) {
      *out = e->op[0] == '<'   ? (e->op[1] ? a <= b : a < b)
             : e->op[0] == '>' ? (e->op[1] ? a >= b : a > b)
             : e->op[0] == '=' ? a == b
                               : a != b;
      return true;
    }
    switch (e->op[0]) {
    case '+':
      *out = a + b;
      return !e->op[1];
    case '-':
      *out = a - b;
      return !e->op[1];
    case '*':
      *out = a * b;
      return !e->op[1];
    case '/':
      *out = !b ? 0 : e->floor_op ? tv_floor_div(a, b) : a / b;
      return b && !e->op[1];
    case '%':
      *out = !b ? 0 : e->floor_op ? tv_floor_mod(a, b) : a % b;
      return b && !e->op[1];
    case '^':
      *out = a ^ b;
      return !e->op[1];
    case '&':
      *out = a & b;
      return !e->op[1];
    case '|':
      *out = a | b;
      return !e->op[1];
    case '<':
      *out = a << b;
      return !strcmp(e->op, "<<") && b >= 0 && b < 63;
    case '>':
      *out = a >> b;
      return !strcmp(e->op, ">>") && b >= 0 && b < 63;
    default:
      return false;
    }
  default:
    return false;
  }
}

// The single value of e on this path, or -1.
static long long one_value(Hz *h, const TvExpr *e) {
  long long v;
  if (eval_now(e, &v, 0)) return v;
  TvRange r = e ? tv_range(&h->env, e, NULL, 0) : (TvRange){-1, -2};
  return r.lo == r.hi && r.lo != TV_NEG_INF ? r.lo : -1;
}

// The mbarrier element an address names: &bar[i], bar + i, bar, through
// casts and address conversions (tl_smem_addr(p), __cvta_generic_to_shared).
static const TvVar *bar_ref(Hz *h, TvExpr *e, long long *elem) {
  *elem = -1;
  for (int depth = 0; depth < 8; depth++) {
    e = strip_casts(e);
    if (e && e->kind == EX_CALL && e->nkids == 1)
      e = e->kids[0];
    else
      break;
  }
  TvExpr *idx;
  long long width;
  const TvVar *v = shared_pointer(e, &idx, &width);
  if (!v) return NULL;
  *elem = idx ? one_value(h, idx) : 0;
  return v;
}

// How many threads run this statement: the product of threadIdx's ranges
// under the guards of the path (-1: not known). Every thread of the range
// is taken to reach it (tlc's roles are guarded by threadIdx bounds only).
static long long path_threads(Hz *h) {
  long long n = 1;
  for (int d = 0; d < 3; d++) {
    static const char *const names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"};
    TvExpr t = {.kind = EX_BUILTIN, .builtin = BI_THREAD_IDX, .dim = d, .name = names[d]};
    TvRange r = tv_range(&h->env, &t, NULL, 0);
    if (!known(r)) return -1;
    n *= r.hi - r.lo + 1;
  }
  return n;
}

// cuTensorMapEncodeTiled(map, type, rank, base, dims, strides, box, ...):
// a call of at least 8 arguments whose first is rooted at the map. Called
// directly, or inside a file function that is passed the map; then its
// arguments are read through the caller's.
typedef struct Encode {
  const TvVar *map;
  const int *type_size;
  long long bytes; // -1 not found, -2 found twice differently
} Encode;

// An argument of the encode call, read through the wrapper's parameters
// (f NULL: the call is in the host function itself).
static TvExpr *through(TvExpr *e, const TvFunc *f, TvExpr *const *args, int nargs) {
  e = strip_casts(e);
  if (f && e && e->kind == EX_VAR && e->var->kind == VAR_PARAM)
    for (int i = 0; i < f->params.len && i < nargs; i++)
      if (TV_AT(f->params, TvVar, i) == e->var) return strip_casts(args[i]);
  return e;
}

static long long encoded_bytes(TvExpr *call, const TvFunc *f, TvExpr *const *args, int nargs,
                               const int *type_size) {
  long long type, rank, bytes = 1;
  TvExpr *t = through(call->kids[1], f, args, nargs), *r = through(call->kids[2], f, args, nargs),
         *box = through(call->kids[6], f, args, nargs);
  if (!t || !r || !box || !tv_const_eval(t, &type) || !tv_const_eval(r, &rank) || type < 0 ||
      type > 12 || rank < 1 || rank > 5)
    return -1;
  if (box->kind == EX_VAR && box->var->init) box = tv_strip(box->var->init);
  if (!box || box->nkids < rank) return -1;
  for (int i = 0; i < rank; i++) {
    long long v;
    if (!tv_const_eval(tv_strip(box->kids[i]), &v) || v <= 0) return -1;
    bytes *= v;
  }
  return bytes * type_size[type];
}

static void note_bytes(Encode *en, long long b) {
  if (b < 0 || en->bytes == -2) return;
  en->bytes = en->bytes >= 0 && en->bytes != b ? -2 : b;
}

static void find_encode_in(TvExpr *e, void *ctx);

typedef struct Inner {
  Encode *en;
  const TvFunc *f;
  const TvVar *param;
  TvExpr *const *args;
  int nargs;
} Inner;

static void find_encode_inner(TvExpr *e, void *ctx) {
  Inner *in = ctx;
  if (e->kind == EX_CALL && e->nkids >= 8 && rooted_at(e->kids[0], in->param))
    note_bytes(in->en, encoded_bytes(e, in->f, in->args, in->nargs, in->en->type_size));
}

static void find_encode_in(TvExpr *e, void *ctx) {
  Encode *en = ctx;
  if (e->kind != EX_CALL) return;
  if (!e->func || !e->func->body) { // the driver's entry point, called directly
    if (e->nkids >= 8 && rooted_at(e->kids[0], en->map))
      note_bytes(en, encoded_bytes(e, NULL, NULL, 0, en->type_size));
    return;
  }
  for (int i = 0; i < e->nkids && i < e->func->params.len; i++)
    if (rooted_at(e->kids[i], en->map)) {
      Inner in = {en, e->func, TV_AT(e->func->params, TvVar, i), e->kids, e->nkids};
      tv_for_each_expr(e->func->body, find_encode_inner, &in);
    }
}

static long long encode_box_bytes(TvStmt *host, const TvVar *map, const int *type_size) {
  Encode en = {map, type_size, -1};
  tv_for_each_expr(host, find_encode_in, &en);
  return en.bytes >= 0 ? en.bytes : -1;
}

// The bytes one TMA load through the tensor map `map` writes: the box of
// the map's encoding (cuTensorMapEncodeTiled's boxDim and data type), found
// through the kernel parameter, each launch's argument and the host call
// that encodes it. -1 when not found, or when launches disagree.
static long long tma_bytes(Hz *h, TvExpr *map) {
  static const int type_size[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4}; // CUtensorMapDataType
  map = strip_casts(map);
  if (map && map->kind == EX_UNARY && !strcmp(map->op, "&")) map = strip_casts(map->kids[0]);
  if (!map || map->kind != EX_VAR) return -1;
  const TvFunc *k = h->env.kernel;
  int pi = -1;
  for (int i = 0; i < k->params.len; i++)
    if (TV_AT(k->params, TvVar, i) == map->var) pi = i;
  if (pi < 0) return -1;
  long long bytes = -1;
  for (int l = 0; l < k->launches.len; l++) {
    const TvLaunch *ln = TV_AT(k->launches, TvLaunch, l);
    TvExpr *arg =
        ln->e->nconfig + pi < ln->e->nkids ? strip_casts(ln->e->kids[ln->e->nconfig + pi]) : NULL;
    if (!arg || arg->kind != EX_VAR || !ln->in) return -1;
    long long b = encode_box_bytes(ln->in->body, arg->var, type_size);
    if (getenv("TLC_VERIFY_DEBUG"))
      fprintf(stderr, "tma: map '%s' -> launch arg '%s' in '%s': %lld bytes\n", map->var->name,
              arg->var->name, ln->in->name, b);
    if (b < 0 || (bytes >= 0 && b != bytes)) return -1;
    bytes = b;
  }
  return bytes;
}

static void check_done(Hz *h, const Access *a, const Access *b);

// Applies one mbarrier or TMA operation; ops are the asm statement's
// operands or the helper call's arguments, as the signature numbers them.
static void mb_apply(Hz *h, State *st, const TvExpr *site, MbSig g, TvExpr *const *ops, int nops,
                     const char *name) {
#define OP(i) ((i) >= 0 && (i) < nops ? ops[i] : NULL)
  long long elem = -1;
  const TvVar *bar = OP(g.bar) ? bar_ref(h, OP(g.bar), &elem) : NULL;
  long long val = g.val_const ? g.val_value : OP(g.val) ? one_value(h, OP(g.val)) : -1;
  long long threads = path_threads(h);
  switch (g.op) {
  case MB_INIT:
    mb_init(h->mb, site, bar, elem, val);
    break;
  case MB_WAIT:
    mb_wait(h->mb, h->role, site, bar, elem, val);
    break;
  case MB_ARRIVE:
    mb_arrive(h->mb, h->role, site, bar, elem, threads, 0);
    break;
  case MB_EXPECT_ARRIVE:
  case MB_EXPECT:
    mb_arrive(h->mb, h->role, site, bar, elem, g.op == MB_EXPECT ? 0 : threads,
              val < 0 || threads < 0 ? -1 : val * threads);
    break;
  case MB_TMA: {
    TvExpr *idx;
    long long width;
    const TvVar *buf = OP(g.dst) ? shared_pointer(OP(g.dst), &idx, &width) : NULL;
    if (!buf) break;
    long long bytes = tma_bytes(h, OP(g.map));
    Access *a = make_access(h, site, buf, ACC_WRITE, idx, bytes > 0 ? bytes : 0,
                            tv_printf("TMA write by '%s'", name));
    a->tma = true;
    a->bar = bar;
    a->bar_elem = elem;
    a->tma_bytes = bytes;
    a->done_seq = LLONG_MAX;
    // Against what other threads did since the last barrier (a TMA issued
    // by one thread over a tile the others read); mbarriers order the rest.
    for (int i = 0; i < st->done.len; i++)
      check_done(h, a, TV_AT(st->done, Access, i));
    a->role = h->role;
    mb_access(h->mb, a);
    break;
  }
  default:
    break;
  }
#undef OP
}

/* ---- calls ---- */

// Does s (a helper's body) hold inline asm with both texts (b NULL: a only)?
static bool asm_has(const TvStmt *s, const char *a, const char *b, int depth) {
  if (!s || depth > 8) return false;
  if (s->kind == ST_ASM && s->text && strstr(s->text, a) && (!b || strstr(s->text, b))) return true;
  for (int i = 0; i < s->nkids; i++)
    if (asm_has(s->kids[i], a, b, depth + 1)) return true;
  return false;
}

// A TMA store (cp.async.bulk.tensor from shared to global): it reads its
// shared tile through the async proxy, in the background.
static bool is_tma_store(const TvFunc *f) {
  return f && asm_has(f->body, "cp.async.bulk.tensor", ".global.shared", 0);
}

// cp.async.bulk.wait_group[.read] N: tlc waits for every TMA store (N = 0).
static bool is_bulk_wait(const TvFunc *f) {
  return f && asm_has(f->body, "cp.async.bulk.wait_group", NULL, 0);
}

// A TMA store's read of its tile: the generic writes it may see must have
// been fenced (fence.proxy.async), and it stays in flight until a bulk wait.
static void add_tma_store_read(Hz *h, State *st, Access *a) {
  report_overlaps(h, a, &st->unfenced,
                  "no fence.proxy.async between them: the write is in the generic proxy, the TMA "
                  "store reads through the async proxy");
  tv_push(&h->bulk_reads, a);
}

// The bulk wait completes the reads for the thread that issued them; other
// threads still need a barrier after it before they overwrite the tile.
static void bulk_wait(Hz *h, State *st) {
  for (int i = 0; i < h->bulk_reads.len; i++)
    push_summary(&st->done, TV_AT(h->bulk_reads, Access, i));
  h->bulk_reads.len = 0;
}

// f(args): the shared tiles it is passed are read (or written) by it; by
// wgmma in the background when f issues wgmma.
static void scan_call(Hz *h, State *st, TvExpr *e) {
  if (e->name && !strncmp(e->name, "tl_wgmma_wait", 13) && e->ntargs >= 1) {
    wg_wait(h, st, e, e->targs[0]);
    return;
  }
  if (is_bulk_wait(e->func)) {
    bulk_wait(h, st);
    return;
  }
  bool tma_store = is_tma_store(e->func);
  MbSig mb = helper_sig(e->func);
  if (mb.op != MB_NONE && h->mb)
    mb_apply(h, st, e, mb, e->kids, e->nkids, e->name ? e->name : "call");
  if (mb.op == MB_TMA) return; // its tile is the write above; its mbarrier is not read by it
  h->mb_op = mb.op != MB_NONE;
  bool async = e->name && !strncmp(e->name, "tl_cp_async", 11) && e->ntargs >= 1 && e->targs[0] > 0;
  Wgmma wg = {.wait = -1};
  if (e->func && !async) wgmma_stmt(e->func->body, &wg, 0);
  // A predicated wgmma gemm (tlc issues it in every iteration so that ptxas
  // keeps the pipeline, the first one off) reads nothing where `on` is false
  // on this path (its commit adds an empty group, its wait retires nothing
  // a later wait would not).
  long long on = 1;
  const TvFunc *f = e->func;
  bool off = wg.issues && wg.predicated && f && f->params.len == e->nkids && e->nkids > 0 &&
             !strcmp(TV_AT(f->params, TvVar, e->nkids - 1)->name, "on") &&
             eval_now(e->kids[e->nkids - 1], &on, 0) && !on;
  for (int i = 0; i < e->nkids; i++) {
    TvExpr *idx;
    long long width;
    bool atomic = i == 0 && e->name && !strncmp(e->name, "atomic", 6);
    const TvVar *buf = e->func || atomic ? shared_pointer(e->kids[i], &idx, &width) : NULL;
    if (!buf) {
      scan(h, st, e->kids[i]);
      continue;
    }
    scan(h, st, idx);
    if (off) continue;
    if (async && i == 0) {
      add_access(h, st, make_access(h, e, buf, ACC_ASYNC, idx, e->targs[0], "cp.async write"));
      continue;
    }
    if (atomic) { // atomicAdd(&s[i], v): an update of that one element
      width = buf->elem_size > 0 ? buf->elem_size : 1;
      Access *a = make_access(h, e, buf, ACC_WRITE, idx, width,
                              tv_printf("atomic update by '%s'", e->name));
      a->atomic = true;
      add_access(h, st, a);
      continue;
    }
    const char *by = tv_printf(" by '%s'", e->name ? e->name : "call");
    if (tma_store) {
      add_tma_store_read(
          h, st, make_access(h, e, buf, ACC_READ, idx, 0, tv_printf("TMA store read%s", by)));
      continue;
    }
    if (wg.issues) {
      add_wgmma_read(h, st,
                     make_access(h, e, buf, ACC_READ, idx, width, tv_printf("wgmma read%s", by)));
      continue;
    }
    // A helper that stores through the pointer (st.shared, stmatrix) is
    // taken to write it, one that does not to read it.
    bool stores = !async && param_stored(e->func, i, 0);
    add_access(h, st,
               make_access(h, e, buf, stores ? ACC_WRITE : ACC_READ, idx, width,
                           tv_printf("%s%s", stores ? "write" : "read", by)));
  }
  if (off)
    ;
  else if (wg.issues && wg.commits)
    wg_commit(st);
  else if (e->name && !strcmp(e->name, "tl_wgmma_commit"))
    wg_commit(st);
  if (wg.issues && wg.wait >= 0 && !off) wg_wait(h, st, wg.wait_site, wg.wait);
  h->mb_op = false;
}

// The shared location an lvalue names, if any.
static const TvVar *shared_lvalue(TvExpr *e, TvExpr **idx, long long *width) {
  const TvVar *v = vector_element(e, idx, width);
  if (v) return v;
  v = element(e, idx);
  if (v) *width = v->elem_size > 0 ? v->elem_size : 1;
  return v;
}

static void scan_assign(Hz *h, State *st, TvExpr *e) {
  TvExpr *idx;
  long long width;
  const TvVar *buf = shared_lvalue(e->kids[0], &idx, &width);
  scan(h, st, e->kids[1]);
  if (!buf) {
    scan(h, st, e->kids[0]);
    return;
  }
  scan(h, st, idx);
  if (strcmp(e->op, "="))
    add_access(h, st, make_access(h, e->kids[0], buf, ACC_READ, idx, width, "read"));
  Access *w = make_access(h, e->kids[0], buf, ACC_WRITE, idx, width, "write");
  TvExpr *lhs = tv_strip(e->kids[0]);
  if (lhs && lhs->kind == EX_SUBSCRIPT) {
    TvExpr *cast = tv_strip(lhs->kids[0]);
    TvExpr *addr = cast && cast->kind == EX_CAST ? tv_strip(cast->kids[0]) : NULL;
    if (addr && addr->kind == EX_UNARY && !strcmp(addr->op, "&"))
      w->vector_base = tv_expr_text(h->p, addr->kids[0]);
  }
  add_access(h, st, w);
}

static void scan(Hz *h, State *st, TvExpr *e) {
  if (!e) return;
  TvExpr *idx;
  long long width;
  const TvVar *buf;
  if (e->kind == EX_BINARY && is_assign(e->op)) {
    scan_assign(h, st, e);
    return;
  }
  if (e->kind == EX_UNARY &&
      (!strcmp(e->op, "++") || !strcmp(e->op, "--") || !strcmp(e->op, "p++") ||
       !strcmp(e->op, "p--")) &&
      (buf = shared_lvalue(e->kids[0], &idx, &width))) {
    scan(h, st, idx);
    add_access(h, st, make_access(h, e, buf, ACC_READ, idx, width, "read"));
    add_access(h, st, make_access(h, e, buf, ACC_WRITE, idx, width, "write"));
    return;
  }
  if ((buf = vector_element(e, &idx, &width))) {
    scan(h, st, idx);
    add_access(h, st, make_access(h, e, buf, ACC_READ, idx, width, "read"));
    return;
  }
  if ((buf = element(e, &idx))) {
    scan(h, st, idx);
    add_access(
        h, st,
        make_access(h, e, buf, ACC_READ, idx, buf->elem_size > 0 ? buf->elem_size : 1, "read"));
    return;
  }
  if (e->kind == EX_CALL) {
    scan_call(h, st, e);
    return;
  }
  if (e->kind == EX_COND ||
      (e->kind == EX_BINARY && (!strcmp(e->op, "&&") || !strcmp(e->op, "||")))) {
    // Either arm may run: the accesses of both count.
    for (int i = 0; i < e->nkids; i++)
      scan(h, st, e->kids[i]);
    return;
  }
  for (int i = 0; i < e->nkids; i++)
    scan(h, st, e->kids[i]);
}

/* ---- synchronization ---- */

static void barrier(State *st) {
  st->done.len = 0;
}

static void commit(State *st) {
  TvVec *g = tv_alloc(sizeof *g);
  *g = st->open;
  st->open = (TvVec){0};
  tv_push(&st->groups, g);
}

// cp.async.wait_group n: all but the newest n groups complete; their writes
// are then done for the issuing thread, still unordered for the others.
static void wait_group(Hz *h, State *st, const TvStmt *s, long long n) {
  st->last_wait = s;
  st->last_wait_n = n;
  if (h->mb && st->groups.len > n) retire(h, st->groups, n, s->loc);
  while (st->groups.len > n) {
    TvVec *g = TV_AT(st->groups, TvVec, 0);
    for (int i = 0; i < g->len; i++) {
      Access *a = tv_alloc(sizeof *a);
      *a = *TV_AT(*g, Access, i);
      a->retired_by = s;
      push_summary(&st->done, a);
      if (h->wgmma) push_summary(&st->unfenced, a);
    }
    memmove(&st->groups.items[0], &st->groups.items[1],
            sizeof(void *) * (size_t)(st->groups.len - 1));
    st->groups.len--;
  }
}

static bool asm_barrier(const char *t) {
  return strstr(t, "bar.sync") || strstr(t, "barrier.sync") || strstr(t, "barrier.cta.sync");
}

// Applies an asm statement's synchronization; false when it has none.
static bool asm_sync(Hz *h, State *st, const TvStmt *s) {
  const char *t = s->text ? s->text : "";
  const char *w = strstr(t, "cp.async.wait_group");
  if (strstr(t, "cp.async.commit_group"))
    commit(st);
  else if (w) {
    char *end;
    long long n = strtoll(w + strlen("cp.async.wait_group"), &end, 10);
    // An operand (%0) instead of a number: nothing is known to complete.
    wait_group(h, st, s, end == w + strlen("cp.async.wait_group") ? st->groups.len : n);
  } else if (strstr(t, "cp.async.wait_all"))
    wait_group(h, st, s, 0);
  else if (asm_barrier(t))
    barrier(st);
  else if (strstr(t, "fence.proxy.async"))
    st->unfenced.len = st->unfenced_wg.len = 0; // every thread fences its own accesses
  else
    return false;
  return true;
}

static bool has_sync(const TvStmt *s) {
  if (!s) return false;
  if (s->kind == ST_ASM && s->text &&
      (strstr(s->text, "cp.async.commit_group") || strstr(s->text, "cp.async.wait") ||
       asm_barrier(s->text)))
    return true;
  if (s->kind == ST_EXPR && s->expr && tv_is_barrier_call(tv_strip(s->expr))) return true;
  if (is_mb_stmt(s)) return true; // an mbarrier's stage and parity need one value per step
  for (int i = 0; i < s->nkids; i++)
    if (has_sync(s->kids[i])) return true;
  return false;
}

/* ---- statements ---- */

static void walk(Hz *h, State *st, TvStmt *s);

// 1 when cond holds on this path, 0 when it does not, -1 unknown: with the
// counters at one value, `k + 2 < 128` is decided.
static int decide(Hz *h, const TvExpr *c) {
  c = tv_strip((TvExpr *)c);
  if (!c) return -1;
  if (c->kind == EX_UNARY && !strcmp(c->op, "!")) {
    int d = decide(h, c->kids[0]);
    return d < 0 ? d : !d;
  }
  if (c->kind != EX_BINARY) return -1;
  if (!strcmp(c->op, "&&") || !strcmp(c->op, "||")) {
    int a = decide(h, c->kids[0]), b = decide(h, c->kids[1]), stop = c->op[0] == '|';
    if (a == stop || b == stop) return stop;
    return a == !stop && b == !stop ? !stop : -1;
  }
  TvRange a = tv_range(&h->env, c->kids[0], NULL, 0), b = tv_range(&h->env, c->kids[1], NULL, 0);
  if (!known(a) || !known(b) || a.lo < -(1LL << 40) || a.hi > (1LL << 40) || b.lo < -(1LL << 40) ||
      b.hi > (1LL << 40))
    return -1;
  long long lo = a.lo - b.hi, hi = a.hi - b.lo; // of a - b
  const char *op = c->op;
  if (!strcmp(op, "<")) return hi < 0 ? 1 : lo >= 0 ? 0 : -1;
  if (!strcmp(op, "<=")) return hi <= 0 ? 1 : lo > 0 ? 0 : -1;
  if (!strcmp(op, ">")) return lo > 0 ? 1 : hi <= 0 ? 0 : -1;
  if (!strcmp(op, ">=")) return lo >= 0 ? 1 : hi < 0 ? 0 : -1;
  if (!strcmp(op, "==") || !strcmp(op, "!=")) {
    int eq = lo == 0 && hi == 0 ? 1 : (lo > 0 || hi < 0) ? 0 : -1;
    return eq < 0 || op[0] == '=' ? eq : !eq;
  }
  return -1;
}

// Does every path through s end in a return? Then nothing after it runs
// on that path, and its state does not flow on.
static bool returns(const TvStmt *s) {
  if (!s) return false;
  if (s->kind == ST_RETURN) return true;
  if (s->kind == ST_BLOCK) return s->nkids > 0 && returns(s->kids[s->nkids - 1]);
  if (s->kind == ST_IF) return returns(s->kids[0]) && returns(s->kids[1]);
  return false;
}

static bool is_loose_if(const TvStmt *s);

static void walk_if(Hz *h, State *st, TvStmt *s) {
  scan(h, st, s->cond);
  int d = is_loose_if(s) ? -1 : decide(h, s->cond);
  TvGuard *saved = h->env.guards;
  if (d != 0) {
    State other = d < 0 ? state_copy(st) : (State){0};
    // A branch that returns splits the threads into two roles (the
    // producer warpgroup and the rest), which only mbarriers order.
    bool split = d < 0 && returns(s->kids[0]);
    if (split) h->role = ++h->nroles;
    tv_push_cond(&h->env, s->cond, false);
    walk(h, st, s->kids[0]);
    tv_pop_guards(&h->env, saved);
    if (split) h->role = ++h->nroles;
    if (d < 0) {
      tv_push_cond(&h->env, s->cond, true);
      walk(h, &other, s->kids[1]);
      tv_pop_guards(&h->env, saved);
      // A branch that returns leaves its accesses behind it (they were
      // checked against what came before); only the other flows on.
      if (returns(s->kids[0]))
        *st = other;
      else if (!returns(s->kids[1]))
        state_join(st, &other);
    }
    return;
  }
  tv_push_cond(&h->env, s->cond, true);
  walk(h, st, s->kids[1]);
  tv_pop_guards(&h->env, saved);
}

// for (int v = a; v < b; v += c): v, its first and last value and the step
// when they are constants on this path.
static TvVar *counted_loop(Hz *h, TvStmt *s, TvRange *span, long long *step) {
  TvVar *v = s->kids[0] && s->kids[0]->vars.len == 1 ? TV_AT(s->kids[0]->vars, TvVar, 0) : NULL;
  TvExpr *c = tv_strip(s->cond);
  if (!v || v->loop != s || v->nassign || v->addr_taken || !c || c->kind != EX_BINARY ||
      !tv_strip(c->kids[0]) || tv_strip(c->kids[0])->kind != EX_VAR ||
      tv_strip(c->kids[0])->var != v ||
      (strcmp(c->op, "<") && strcmp(c->op, "<=") && strcmp(c->op, "!=")))
    return NULL;
  TvRange start = tv_range(&h->env, v->init, NULL, 0),
          stop = tv_range(&h->env, c->kids[1], NULL, 0);
  if (!known(start) || !known(stop)) return NULL;
  span->lo = start.lo;
  span->hi = !strcmp(c->op, "<=") ? stop.hi : stop.hi - 1;
  TvExpr *inc = tv_strip(s->inc);
  *step = 0;
  if (inc && inc->kind == EX_UNARY && strstr(inc->op, "++"))
    *step = 1;
  else if (inc && inc->kind == EX_BINARY && !strcmp(inc->op, "+=") &&
           tv_const_eval(inc->kids[1], step) && *step <= 0)
    *step = 0;
  // A single value each only when the bounds are exact.
  if (start.lo != start.hi || stop.lo != stop.hi) *step = 0;
  return v;
}

/* ---- periodic loops ---- */

// A persistent kernel's tile loop runs hundreds of tiles, each a pipelined
// loop run value by value: tens of thousands of steps per role. But what
// check 6 reads of the tile counter t (stage indices, mbarrier elements and
// parities, decided conditions) comes through `e % c` terms, periodic in t:
// (t * 64 + k) % 3 repeats every 3 tiles, ((t * 64 + k) / 3) % 2 every 6.
// When every use of t that the check reads is such a term, the loop is
// periodic with the lcm K of their periods, and its iterations t and t + K
// look the same to the check. Such a loop is run for the fewest n > K of
// its T values with n = T (mod K): every residue, every pair of
// consecutive residues, and a final state congruent to the full run's. (tlc's persistent loop also
// breaks at a tile the counters do not decide, so the shorter run is an execution of its own.) K is
// one number per kernel, the lcm over its long loops, so the roles' tile loops, of one trip count,
// stop at the same tile.

#define PERIOD_MIN_TRIP 16 // shorter loops are run in full
#define MAX_PINNED_BLOCKS 64 // grids past this many blocks in x are walked with blockIdx.x's range
#define MAX_PINNED_TRIPS 40  // a runtime-size ring loop is walked for trip counts 0 .. 40
#define MAX_PINNED_SIZE 65536
#define PERIOD_MAX 1024

static long long gcd_ll(long long a, long long b) {
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// lcm; 0 (not periodic) absorbs, and a period past PERIOD_MAX counts as 0.
static long long lcm_ll(long long a, long long b) {
  if (!a || !b) return 0;
  long long l = a / gcd_ll(a, b) * b;
  return l > PERIOD_MAX ? 0 : l;
}

// A variable whose value is its initializer: read through it.
static const TvExpr *value_of(const TvVar *x) {
  return x && x->kind == VAR_LOCAL && x->init && !x->nassign && !x->addr_taken && !x->loop ? x->init
                                                                                           : NULL;
}

static bool mentions(const TvExpr *e, const TvVar *v, int depth) {
  if (!e || depth > 24) return e != NULL;
  if (e->kind == EX_VAR) {
    if (e->var == v) return true;
    if (e->var && e->var->nassign && e->var->kind == VAR_LOCAL) return true; // unknown: assume so
    const TvExpr *init = value_of(e->var);
    return init && mentions(init, v, depth + 1);
  }
  for (int i = 0; i < e->nkids; i++)
    if (mentions(e->kids[i], v, depth + 1)) return true;
  return false;
}

// e as an integer-coefficient affine form in v with constant divisions:
// the product of its divisors (a shift of v by c * D moves e by a multiple
// of c), or -1 when it is not of that form.
static long long divisors(const TvExpr *e, const TvVar *v, int depth) {
  e = tv_strip((TvExpr *)e);
  if (!e || depth > 24) return -1;
  if (!mentions(e, v, 0)) return 1;
  if (e->kind == EX_VAR) {
    if (e->var == v) return 1;
    const TvExpr *init = value_of(e->var);
    return init ? divisors(init, v, depth + 1) : -1;
  }
  if (e->kind == EX_CAST && e->nkids == 1 && !e->cast_to_pointer)
    return divisors(e->kids[0], v, depth + 1);
  if (e->kind == EX_UNARY && !strcmp(e->op, "-")) return divisors(e->kids[0], v, depth + 1);
  if (e->kind != EX_BINARY) return -1;
  long long c, a = divisors(e->kids[0], v, depth + 1), b = divisors(e->kids[1], v, depth + 1);
  if (a < 0 || b < 0) return -1;
  if (!strcmp(e->op, "+") || !strcmp(e->op, "-")) return a * b > PERIOD_MAX ? -1 : a * b;
  if (!strcmp(e->op, "*"))
    return mentions(e->kids[0], v, 0) && mentions(e->kids[1], v, 0) ? -1 : a * b;
  if ((!strcmp(e->op, "/") || !strcmp(e->op, ">>")) && !mentions(e->kids[1], v, 0) &&
      tv_const_eval(e->kids[1], &c)) {
    long long d = e->op[0] == '/' ? c : c >= 0 && c < 20 ? 1LL << c : -1;
    return d > 0 && a * d <= PERIOD_MAX ? a * d : -1;
  }
  return -1;
}

// The period in v of a value the check reads: 1 when it does not depend on
// v, 0 when it is not periodic (v itself, or a form not understood).
static long long period(const TvExpr *e, const TvVar *v, int depth) {
  e = tv_strip((TvExpr *)e);
  if (!e || !mentions(e, v, 0)) return 1;
  if (depth > 24) return 0;
  if (e->kind == EX_VAR) {
    const TvExpr *init = e->var != v ? value_of(e->var) : NULL;
    return init ? period(init, v, depth + 1) : 0;
  }
  long long c;
  if (e->kind == EX_BINARY && (!strcmp(e->op, "%") || !strcmp(e->op, "&")) &&
      !mentions(e->kids[1], v, 0) && tv_const_eval(e->kids[1], &c)) {
    long long m = e->op[0] == '%' ? c : (c >= 0 && (c & (c + 1)) == 0 ? c + 1 : -1);
    if (m > 0) {
      long long d = divisors(e->kids[0], v, 0);
      if (d > 0) return lcm_ll(m, d) ? (m * d <= PERIOD_MAX ? m * d : 0) : 0;
    }
  }
  long long p = 1;
  for (int i = 0; i < e->nkids && p; i++)
    p = lcm_ll(p, period(e->kids[i], v, depth + 1));
  return p;
}

static MbSig helper_sig(const TvFunc *f);
static const TvVar *shared_pointer(TvExpr *e, TvExpr **idx, long long *width);
static bool is_shared(const TvVar *v);

// The period in v of what the check reads in e: shared-memory indices and
// pointers, mbarrier operands, conditions; not global-memory indices, the
// values stored, or a TMA load's coordinates.
// Does e read shared memory or call a helper (which may hold an mbarrier
// operation or a shared access)?
static bool seen_by_check(const TvExpr *e, int depth) {
  if (!e || depth > 64) return e != NULL;
  if (e->kind == EX_VAR && is_shared(e->var)) return true;
  if (e->kind == EX_CALL && e->func) return true;
  for (int i = 0; i < e->nkids; i++)
    if (seen_by_check(e->kids[i], depth + 1)) return true;
  return false;
}

static long long read_period(TvExpr *e, const TvVar *v, int depth) {
  e = tv_strip(e);
  if (!e || depth > 64) return e ? 0 : 1;
  long long p = 1;
  if (e->kind == EX_SUBSCRIPT && e->nkids == 2) {
    TvExpr *base = tv_strip(e->kids[0]);
    if (base && base->kind == EX_VAR && is_shared(base->var)) return period(e->kids[1], v, 0);
  }
  // A condition that only picks between values the check does not read (an
  // edge guard on a global load: c ? A[i] : 0) need not be periodic.
  if (e->kind == EX_COND && e->nkids == 3 && (seen_by_check(e->kids[1], 0) || seen_by_check(e->kids[2], 0)))
    p = period(e->kids[0], v, 0);
  if (e->kind == EX_CALL) {
    MbSig g = helper_sig(e->func);
    for (int i = 0; i < e->nkids && p; i++) {
      TvExpr *idx;
      long long width;
      bool operand = g.op != MB_NONE && (i == g.bar || i == g.val || i == g.dst || i == g.map);
      if (operand || (g.op != MB_TMA && shared_pointer(e->kids[i], &idx, &width)))
        p = lcm_ll(p, period(e->kids[i], v, 0));
      else if (g.op != MB_TMA)
        p = lcm_ll(p, read_period(e->kids[i], v, depth + 1));
    }
    return p;
  }
  for (int i = 0; i < e->nkids && p; i++)
    p = lcm_ll(p, read_period(e->kids[i], v, depth + 1));
  return p;
}

// `if (c) break;`: the walk takes no break, so c is not read.
static bool only_break(const TvStmt *s) {
  while (s && s->kind == ST_BLOCK && s->nkids == 1)
    s = s->kids[0];
  return s && s->kind == ST_BREAK;
}

// Ifs of periodic loops whose conditions are not periodic in the counter
// (an edge guard on a tile's rows: bid < batch) but whose branches hold no
// barrier, wait or mbarrier operation: walk_if runs both branches whatever
// the condition decides, so that a shorter run meets every access a longer
// one could. Set once per kernel by kernel_period.
static TvVec loose_ifs;

static bool is_loose_if(const TvStmt *s) {
  for (int i = 0; i < loose_ifs.len; i++)
    if (loose_ifs.items[i] == s) return true;
  return false;
}

static long long stmt_period(TvStmt *s, const TvVar *v, int depth) {
  if (!s) return 1;
  if (depth > 64) return 0;
  long long p = 1;
  if (s->cond && !(s->kind == ST_IF && only_break(s->kids[0]) && !s->kids[1])) {
    p = period(s->cond, v, 0);
    if (!p && s->kind == ST_IF && !has_sync(s->kids[0]) && !has_sync(s->kids[1])) {
      if (!is_loose_if(s)) tv_push(&loose_ifs, s);
      p = 1;
    }
  }
  if (s->expr) p = lcm_ll(p, read_period(s->expr, v, 0));
  if (s->inc) p = lcm_ll(p, read_period(s->inc, v, 0));
  for (int i = 0; i < s->exprs.len && p; i++)
    p = lcm_ll(p, s->kind == ST_ASM ? period(TV_AT(s->exprs, TvExpr, i), v, 0)
                                    : read_period(TV_AT(s->exprs, TvExpr, i), v, 0));
  for (int i = 0; i < s->nkids && p; i++)
    p = lcm_ll(p, stmt_period(s->kids[i], v, depth + 1));
  return p;
}

// for (int v = a; v < b; ++v) with constant a and b: its trip count, else -1.
static long long const_trip(TvStmt *s, TvVar **var) {
  TvVar *v = s->kids[0] && s->kids[0]->vars.len == 1 ? TV_AT(s->kids[0]->vars, TvVar, 0) : NULL;
  TvExpr *c = tv_strip(s->cond), *inc = tv_strip(s->inc);
  long long a, b;
  if (!v || v->loop != s || v->nassign || v->addr_taken || !c || c->kind != EX_BINARY ||
      strcmp(c->op, "<") || !tv_strip(c->kids[0]) || tv_strip(c->kids[0])->var != v || !v->init ||
      !tv_const_eval(v->init, &a) || !tv_const_eval(c->kids[1], &b) || !inc ||
      inc->kind != EX_UNARY || !strstr(inc->op, "++"))
    return -1;
  *var = v;
  return b > a ? b - a : 0;
}

// Does the loop body leave the loop by `if (c) break;` (not in a nested
// loop)? Then a run of its first n values is an execution too: the one
// where c holds at n.
static bool breaks_out(const TvStmt *s, int depth) {
  if (!s || depth > 64 || s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO ||
      s->kind == ST_SWITCH)
    return false;
  if (s->kind == ST_IF && only_break(s->kids[0]) && !s->kids[1]) return true;
  for (int i = 0; i < s->nkids; i++)
    if (breaks_out(s->kids[i], depth + 1)) return true;
  return false;
}

// The period of a loop the walk may stop early: a long loop with a break,
// whose reads are periodic in its counter; 0 otherwise.
static long long loop_period(TvStmt *s) {
  TvVar *v;
  if (s->kind != ST_FOR || const_trip(s, &v) <= PERIOD_MIN_TRIP || !breaks_out(s->kids[1], 0))
    return 0;
  return stmt_period(s->kids[1], v, 0);
}

// The kernel's loop period K: the lcm over its loops that may stop early.
static long long kernel_period(TvStmt *s, long long k, int depth) {
  if (!s || depth > 64) return k;
  if (s->kind == ST_FOR) {
    long long p = loop_period(s);
    if (p > 0) k = lcm_ll(k, p) ? lcm_ll(k, p) : k;
  }
  for (int i = 0; i < s->nkids; i++)
    k = kernel_period(s->kids[i], k, depth + 1);
  return k;
}

// Does e depend on blockIdx.x (through the variables it reads)?
static bool mentions_block_x(const TvExpr *e, int depth) {
  if (!e || depth > 24) return false;
  if (e->kind == EX_BUILTIN) return e->builtin == BI_BLOCK_IDX && e->dim == 0;
  if (e->kind == EX_VAR) return mentions_block_x(value_of(e->var), depth + 1);
  for (int i = 0; i < e->nkids; i++)
    if (mentions_block_x(e->kids[i], depth + 1)) return true;
  return false;
}

static void pin(TvVar *v, long long value) {
  v->has_range = true;
  v->range_lo = v->range_hi = value;
}

// Does e read v (through the variables it reads)?
static bool mentions_var(const TvExpr *e, const TvVar *v, int depth) {
  if (!e || depth > 24) return false;
  if (e->kind == EX_VAR) return e->var == v || mentions_var(value_of(e->var), v, depth + 1);
  for (int i = 0; i < e->nkids; i++)
    if (mentions_var(e->kids[i], v, depth + 1)) return true;
  return false;
}

// An integer parameter of the kernel that a loop with barriers, waits,
// commits or mbarrier operations ends at (a runtime size), and the loop.
static TvVar *sync_loop_by_size(const TvFunc *f, TvStmt *s, TvStmt **loop, int depth) {
  if (!s || depth > 64) return NULL;
  if (s->kind == ST_FOR && has_sync(s->kids[1]) && s->cond)
    for (int i = 0; i < f->params.len; i++) {
      TvVar *v = TV_AT(f->params, TvVar, i);
      if (v->is_integer && !v->is_pointer && !v->nassign && mentions_var(s->cond, v, 0)) {
        *loop = s;
        return v;
      }
    }
  for (int i = 0; i < s->nkids; i++) {
    TvVar *v = sync_loop_by_size(f, s->kids[i], loop, depth + 1);
    if (v) return v;
  }
  return NULL;
}

// The local variables a loop bound reads, through the variables it reads,
// that the model cannot bound to one value (integers, neither parameters
// nor loop counters, assigned once or only before `loop`: a bound that a
// min/max loop finds); at most `max`.
static int unknown_locals(const TvFunc *f, TvStmt *loop, const TvExpr *e, TvVar **out, int n, int max,
                          int depth) {
  if (!e || depth > 24) return n;
  if (e->kind == EX_VAR) {
    TvVar *b = e->var;
    if (b->kind != VAR_LOCAL || b->loop || !b->is_integer || b->is_pointer || b->addr_taken ||
        (!tv_single_assignment(b) && tv_stmt_writes_var(loop, b)))
      return n;
    TvRangeEnv env = {.kernel = f};
    TvRange r = tv_range(&env, e, NULL, 0);
    if (known(r) && r.lo == r.hi) return n;
    for (int i = 0; i < n; i++)
      if (out[i] == b) return n;
    if (n < max) out[n++] = b;
    return n;
  }
  for (int i = 0; i < e->nkids; i++)
    n = unknown_locals(f, loop, e->kids[i], out, n, max, depth + 1);
  return n;
}

// The local variable that a loop with barriers, waits, commits or mbarrier
// operations ends at (`for (k = 0; k < loop_ed; ++k)`, loop_ed computed
// from block indices or runtime sizes the model does not bound to one
// value), and the loop. Pinning it decides the prologue's guards
// (`if (1 < loop_ed)`) and the loop's trip count together. A bound of
// several such variables (`(end - begin + 255) / 256`), or a start of them,
// has the others pinned to 0 in *others (the bound's first one varies).
enum { MAX_BOUND_VARS = 4 };
static TvVar *sync_loop_by_bound(const TvFunc *f, TvStmt *s, TvStmt **loop, TvVar **others, int *nothers,
                                 int depth) {
  if (!s || depth > 64) return NULL;
  if (s->kind == ST_FOR && has_sync(s->kids[1]) && s->cond) {
    TvExpr *c = tv_strip(s->cond);
    TvExpr *stop = c && c->kind == EX_BINARY && c->nkids == 2 && !strcmp(c->op, "<") ? c->kids[1] : NULL;
    TvVar *counter = s->kids[0] && s->kids[0]->vars.len == 1 ? TV_AT(s->kids[0]->vars, TvVar, 0) : NULL;
    TvVar *vars[MAX_BOUND_VARS];
    int n = unknown_locals(f, s, stop, vars, 0, MAX_BOUND_VARS, 0);
    if (n > 0 && counter) // a start of such variables (`for (k = first; k < last; ...)`) is pinned to 0 too
      n = unknown_locals(f, s, counter->init, vars, n, MAX_BOUND_VARS, 0);
    if (n > 0) {
      *loop = s;
      *nothers = n - 1;
      for (int i = 1; i < n; i++)
        others[i - 1] = vars[i];
      return vars[0];
    }
  }
  for (int i = 0; i < s->nkids; i++) {
    TvVar *v = sync_loop_by_bound(f, s->kids[i], loop, others, nothers, depth + 1);
    if (v) return v;
  }
  return NULL;
}

// For each trip count of `loop` up to MAX_PINNED_TRIPS that some value of
// `size` from 0 to MAX_PINNED_SIZE gives, the smallest such value, in order
// of trip count; returns how many. (A ring of S stages behaves alike at trip
// counts congruent modulo 2S past 2S: 40 covers rings of up to 10 stages.)
static int sizes_by_trip(const TvFunc *f, TvStmt *loop, TvVar *size, long long *sizes) {
  TvRangeEnv env = {.kernel = f};
  TvExpr *c = tv_strip(loop->cond);
  TvVar *v = loop->kids[0] && loop->kids[0]->vars.len == 1 ? TV_AT(loop->kids[0]->vars, TvVar, 0) : NULL;
  TvExpr *lhs = c && c->kind == EX_BINARY && c->nkids == 2 ? tv_strip(c->kids[0]) : NULL;
  if (!v || !lhs || strcmp(c->op, "<") || lhs->kind != EX_VAR || lhs->var != v) return 0;
  int n = 0;
  long long last = -1;
  for (long long x = 0; x <= MAX_PINNED_SIZE; x++) {
    pin(size, x);
    TvRange start = tv_range(&env, v->init, NULL, 0), stop = tv_range(&env, c->kids[1], NULL, 0);
    size->has_range = false;
    if (!known(start) || !known(stop) || start.lo != start.hi || stop.lo != stop.hi) return 0;
    long long trip = stop.lo > start.lo ? stop.lo - start.lo : 0;
    if (trip > MAX_PINNED_TRIPS) break;
    if (trip > last) {
      sizes[n++] = x;
      last = trip;
    }
  }
  return n;
}

// A loop with barriers, waits or commits whose bounds depend on blockIdx.x.
static bool sync_loop_by_block(const TvStmt *s, int depth) {
  if (!s || depth > 64) return false;
  if (s->kind == ST_FOR && has_sync(s->kids[1]) &&
      (mentions_block_x(s->cond, 0) ||
       (s->kids[0] && s->kids[0]->vars.len == 1 && mentions_block_x(TV_AT(s->kids[0]->vars, TvVar, 0)->init, 0))))
    return true;
  for (int i = 0; i < s->nkids; i++)
    if (sync_loop_by_block(s->kids[i], depth + 1)) return true;
  return false;
}

static void run_body(Hz *h, State *st, TvStmt *s) {
  TvGuard *saved = tv_push_cond(&h->env, s->cond, false);
  walk(h, st, s->kids[1]);
  scan(h, st, s->inc);
  tv_pop_guards(&h->env, saved);
}

static void walk_for(Hz *h, State *st, TvStmt *s) {
  walk(h, st, s->kids[0]);
  TvRange span = {0, -1};
  long long step = 0;
  TvVar *v = counted_loop(h, s, &span, &step);
  if (v && span.lo > span.hi) return; // the body never runs
  long long trip = step > 0 ? (span.hi - span.lo) / step + 1 : 0;
  // A periodic loop stops after n values, K < n <= 2K (see above): a tile
  // loop of any trip count is run for that many.
  long long p = v && step == 1 && h->period > 0 ? loop_period(s) : 0;
  long long walked = p > 0 && h->period % p == 0 && trip > 3 * h->period
                         ? h->period + 1 + (trip - h->period - 1) % h->period
                         : trip;
  if (v && step > 0 && walked <= MAX_TRIP && has_sync(s->kids[1]) && h->budget > 0) {
    // One value at a time: each stage index names one stage.
    tv_push(&h->counters, v);
    v->has_range = true;
    long long last = walked < trip ? span.lo + walked - 1 : span.hi;
    for (long long k = span.lo; k <= last; k += step) {
      v->range_lo = v->range_hi = k;
      run_body(h, st, s);
    }
    h->counters.len--;
    v->has_range = false;
    return;
  }
  // Twice with the counter over its range: the second pass meets the
  // accesses the first left unordered. Zero trips joins the state before.
  if (v) {
    v->has_range = true;
    v->range_lo = span.lo;
    v->range_hi = span.hi;
  }
  State before = v ? (State){0} : state_copy(st);
  for (int pass = 0; pass < 2; pass++) {
    run_body(h, st, s);
    cap_groups(st);
  }
  if (!v) state_join(st, &before);
  if (v) v->has_range = false;
}

static void walk(Hz *h, State *st, TvStmt *s) {
  if (!s) return;
  h->budget--;
  switch (s->kind) {
  case ST_BLOCK: {
    // if (c) { ...; return; } ...: the rest of the block runs only when !c
    // (a warp-specialized kernel's producer role returns).
    TvGuard *saved = h->env.guards;
    for (int i = 0; i < s->nkids; i++) {
      TvStmt *k = s->kids[i];
      walk(h, st, k);
      if (k->kind == ST_IF && !k->kids[1] && returns(k->kids[0]))
        tv_push_cond(&h->env, k->cond, true);
    }
    tv_pop_guards(&h->env, saved);
    break;
  }
  case ST_DECL:
    for (int i = 0; i < s->vars.len; i++)
      scan(h, st, TV_AT(s->vars, TvVar, i)->init);
    break;
  case ST_EXPR:
    if (s->expr && tv_is_barrier_call(tv_strip(s->expr)))
      barrier(st);
    else
      scan(h, st, s->expr);
    break;
  case ST_RETURN:
    scan(h, st, s->expr);
    break;
  case ST_ASM:
    if (h->mb && asm_sig(s->text).op != MB_NONE) {
      TvExpr *site = tv_alloc(sizeof *site);
      site->loc = s->loc;
      site->name = "asm";
      mb_apply(h, st, site, asm_sig(s->text), (TvExpr *const *)s->exprs.items, s->exprs.len, "asm");
      if (asm_sig(s->text).op == MB_TMA) break;
    }
    if (!asm_sync(h, st, s))
      for (int i = 0; i < s->exprs.len; i++)
        scan(h, st, TV_AT(s->exprs, TvExpr, i));
    break;
  case ST_IF:
    walk_if(h, st, s);
    break;
  case ST_FOR:
    walk_for(h, st, s);
    break;
  case ST_WHILE:
  case ST_DO:
    // Not emitted by tlc: run twice, like a loop of unknown trip count.
    for (int pass = 0; pass < 2; pass++) {
      scan(h, st, s->cond);
      walk(h, st, s->kids[0]);
      cap_groups(st);
    }
    break;
  default:
    scan(h, st, s->cond);
    for (int i = 0; i < s->exprs.len; i++)
      scan(h, st, TV_AT(s->exprs, TvExpr, i));
    for (int i = 0; i < s->nkids; i++)
      walk(h, st, s->kids[i]);
    break;
  }
}

static bool uses_mbarrier(const TvStmt *s) {
  if (!s) return false;
  if (is_mb_stmt(s)) return true;
  for (int i = 0; i < s->nkids; i++)
    if (uses_mbarrier(s->kids[i])) return true;
  return false;
}

void tv_check_shared_hazards(TvProgram *p) {
  bool wgmma = false;
  for (int i = 0; i < p->funcs.len; i++) {
    Wgmma w = {.wait = -1};
    wgmma_stmt(TV_AT(p->funcs, TvFunc, i)->body, &w, 0);
    wgmma |= w.issues || is_tma_store(TV_AT(p->funcs, TvFunc, i));
  }
  for (int i = 0; i < p->funcs.len; i++) {
    TvFunc *f = TV_AT(p->funcs, TvFunc, i);
    if (!f->body || !f->is_global) continue;
    // Roles that agree on a loop's trip count only block by block (causal
    // attention: the producer's and the consumers' loops both end at a
    // bound of blockIdx.x) are walked once per block, for every block of a
    // small grid; a finding stops the walks (it is the first block's).
    long long blocks = uses_mbarrier(f->body) && f->threads_known && f->grid[0] > 1 &&
                               f->grid[0] <= MAX_PINNED_BLOCKS && sync_loop_by_block(f->body, 0)
                           ? f->grid[0]
                           : 0;
    // A pipelined loop that runs a runtime size's trip count ((K + 31) / 32,
    // in the producer's and the consumers' loops alike) has a stage index,
    // and parity, of one value per step only when the count is known: the
    // kernel is walked once per trip count up to MAX_PINNED_TRIPS, each with
    // the size pinned to the smallest value giving it; findings name it
    // (k_1 = 33).
    long long sizes[MAX_PINNED_TRIPS + 1];
    TvStmt *loop = NULL;
    TvVar *size = !blocks ? sync_loop_by_size(f, f->body, &loop, 0) : NULL;
    TvVar *others[MAX_BOUND_VARS];
    int nothers = 0;
    if (!blocks && !size) size = sync_loop_by_bound(f, f->body, &loop, others, &nothers, 0);
    for (int j = 0; j < nothers; j++)
      pin(others[j], 0);
    int nsizes = size ? sizes_by_trip(f, loop, size, sizes) : 0;
    if (!nsizes)
      for (int j = 0; j < nothers; j++)
        others[j]->has_range = false;
    TvVec reported = {0};
    int walks = blocks ? (int)blocks : nsizes ? nsizes : 1;
    for (long long b = 0; b < walks; b++) {
      int errors = tv_error_count();
      Hz h = {.p = p, .env = {.kernel = f, .block_x_pinned = blocks > 0, .block_x = b},
              .budget = STEP_BUDGET, .wgmma = wgmma, .reported = reported};
      if (nsizes) {
        pin(size, sizes[b]);
        h.pinned_size = size;
      }
      if (uses_mbarrier(f->body)) h.mb = mb_new(p);
      loose_ifs.len = 0;
      h.period = kernel_period(f->body, 1, 0);
      State st = {0};
      walk(&h, &st, f->body);
      if (h.mb) mb_finish(h.mb, overlap, report_roles, &h);
      reported = h.reported;
      if (nsizes) size->has_range = false;
      if (tv_error_count() > errors) break;
    }
    for (int j = 0; j < nothers; j++)
      others[j]->has_range = false;
  }
}
