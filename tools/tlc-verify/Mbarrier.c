// Check 6, across roles: the mbarrier phase model. A warp-specialized
// kernel splits its threads into roles (a producer warpgroup that issues TMA
// loads into a ring of stages, consumer warpgroups that read them) which
// no block barrier orders; mbarriers do. CheckSharedHazards.c walks each
// role in program order, one value per iteration of the pipelined loops, and
// records here every shared-memory access, arrive and wait with the role's
// event number. mb_finish then replays the roles against each other:
//
// - arrivals on an mbarrier element come from one role, in its program
//   order, so the n-th arrival belongs to phase n / count (count from its
//   mbarrier.init); a phase's clock is the join of its arrivals' clocks
//   (vector clocks over the roles) and of the phase before it;
// - a TMA load completes with the phase in progress on its mbarrier when it
//   is issued; an expect_tx adds the bytes the phase waits for, and the
//   bytes of its loads must add up to them (else the phase completes before
//   the data lands, or never);
// - a wait with parity p returns once the barrier's current phase has the
//   other parity. If the role knows phases up to L - 1 complete, the phase
//   in progress is at least L: when L has parity p the wait guarantees phase
//   L (the role joins its clock), otherwise it may return at once and
//   guarantees nothing new. This is the slot = position % stages,
//   parity = (position / stages) & 1 pairing, proven per wait rather than
//   matched in the text;
// - a wait whose phase is not complete when every other role is blocked or
//   done never returns (a deadlock or a missing arrival), reported.
//
// Then two accesses of different roles that may touch the same bytes (one a
// write) must be ordered: the earlier one's completion (a wgmma read
// completes at the wgmma wait that retires it, a TMA write with its phase)
// before the other's issue.
#include "Hazards.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct MbAcq {
  long long phase;    // the last phase of the element known complete, -1 none
  const TvExpr *wait; // the role's last wait on it, for messages
  long long parity;   // that wait's parity
  long long acquired; // the phase it acquired, -1: none (it may return at once)
};

typedef enum { EV_ACCESS, EV_ARRIVE, EV_WAIT } EvKind;

typedef struct Event {
  EvKind kind;
  long long seq;
  const TvExpr *site;
  Access *a;
  int bar; // barrier element index, -1 unknown
  const TvVar *bvar;
  long long threads, tx, parity;
} Event;

typedef struct Role {
  TvVec events; // Event*
  TvVec sites;  // TvLoc*, where event seq is (items[seq - 1])
  long long nseq;
  int cursor;    // mb_finish: the next event to run
  long long *vc; // mb_finish: its clock
  MbAcq *acq;    // mb_finish: its knowledge of each element
} Role;

typedef struct Phase {
  long long *vc;
  MbAcq *acq;
  long long tx, tma_bytes; // expected bytes; bytes of the loads attached
  bool tma_unknown;
  const TvExpr *expect_site, *tma_site;
} Phase;

typedef struct Bar {
  const TvVar *var;
  long long elem;
  long long count; // arrivals per phase, -1 unknown
  int arriver;     // the role that arrives: 0 none yet, -1 several (phases unknown)
  long long cum;   // mb_finish: arrivals so far
  TvVec phases;    // Phase*
  const TvExpr *init;
} Bar;

struct MbModel {
  TvProgram *p;
  TvVec roles;    // Role*, index = role id
  TvVec bars;     // Bar*
  TvVec access;   // Access*: every recorded access
  TvVec poisoned; // const TvVar*: arrays arrived at with an unknown element
  int nroles, nbars;
};

MbModel *mb_new(TvProgram *p) {
  MbModel *m = tv_alloc(sizeof *m);
  m->p = p;
  return m;
}

static Role *role_of(MbModel *m, int id) {
  while (m->roles.len <= id)
    tv_push(&m->roles, tv_alloc(sizeof(Role)));
  return TV_AT(m->roles, Role, id);
}

long long mb_tick(MbModel *m, int role, TvLoc loc) {
  Role *r = role_of(m, role);
  TvLoc *l = tv_alloc(sizeof *l);
  *l = loc;
  tv_push(&r->sites, l);
  return ++r->nseq;
}

static int bar_index(MbModel *m, const TvVar *var, long long elem) {
  if (!var || elem < 0) return -1;
  for (int i = 0; i < m->bars.len; i++) {
    Bar *b = TV_AT(m->bars, Bar, i);
    if (b->var == var && b->elem == elem) return i;
  }
  Bar *b = tv_alloc(sizeof *b);
  b->var = var;
  b->elem = elem;
  b->count = -1;
  tv_push(&m->bars, b);
  return m->bars.len - 1;
}

static Event *event(MbModel *m, int role, EvKind kind, const TvExpr *site) {
  Event *e = tv_alloc(sizeof *e);
  e->kind = kind;
  e->site = site;
  e->seq = mb_tick(m, role, site->loc);
  e->bar = -1;
  tv_push(&role_of(m, role)->events, e);
  return e;
}

void mb_access(MbModel *m, Access *a) {
  Event *e = event(m, a->role, EV_ACCESS, a->site);
  e->a = a;
  a->seq = e->seq;
  if (!a->tma && a->kind != ACC_ASYNC && a->done_seq == 0) {
    a->done_seq = a->seq; // completes when it is issued
    a->done_loc = a->site->loc;
  } else if (a->done_seq == 0) {
    a->done_seq = LLONG_MAX; // until a wait retires it
  }
  if (a->tma) e->bar = bar_index(m, a->bar, a->bar_elem);
  tv_push(&m->access, a);
}

void mb_init(MbModel *m, const TvExpr *site, const TvVar *bar, long long elem, long long count) {
  int i = bar_index(m, bar, elem);
  if (i < 0) return;
  Bar *b = TV_AT(m->bars, Bar, i);
  b->count = b->init && b->count != count ? -1 : count; // initialized twice differently: unknown
  b->init = site;
}

void mb_arrive(MbModel *m, int role, const TvExpr *site, const TvVar *bar, long long elem,
               long long threads, long long tx) {
  Event *e = event(m, role, EV_ARRIVE, site);
  e->bvar = bar;
  e->bar = bar_index(m, bar, elem);
  e->threads = threads;
  e->tx = tx;
  if (e->bar < 0 && bar) tv_push(&m->poisoned, (void *)bar);
  if (e->bar >= 0) {
    Bar *b = TV_AT(m->bars, Bar, e->bar);
    b->arriver = b->arriver == 0 || b->arriver == role ? role : -1;
    if (threads < 0) b->arriver = -1;
  }
}

void mb_wait(MbModel *m, int role, const TvExpr *site, const TvVar *bar, long long elem,
             long long parity) {
  Event *e = event(m, role, EV_WAIT, site);
  e->bvar = bar;
  e->bar = bar_index(m, bar, elem);
  e->parity = parity;
}

/* ---- clocks ---- */

static long long *vc_new(const MbModel *m) {
  return tv_alloc(sizeof(long long) * (size_t)(m->nroles + 1));
}

static MbAcq *acq_new(const MbModel *m) {
  MbAcq *a = tv_alloc(sizeof(MbAcq) * (size_t)(m->nbars + 1));
  for (int i = 0; i < m->nbars; i++)
    a[i] = (MbAcq){.phase = -1, .parity = -1, .acquired = -1};
  return a;
}

static void vc_join(const MbModel *m, long long *into, const long long *from) {
  for (int i = 0; i <= m->nroles; i++)
    if (from[i] > into[i]) into[i] = from[i];
}

static void acq_join(const MbModel *m, MbAcq *into, const MbAcq *from) {
  for (int i = 0; i < m->nbars; i++)
    if (from[i].phase > into[i].phase) into[i].phase = from[i].phase;
}

static Phase *phase_of(const MbModel *m, Bar *b, long long j) {
  while (b->phases.len <= j) {
    Phase *ph = tv_alloc(sizeof *ph);
    ph->vc = vc_new(m);
    ph->acq = acq_new(m);
    tv_push(&b->phases, ph);
  }
  return TV_AT(b->phases, Phase, j);
}

static bool bar_usable(const MbModel *m, const Bar *b) {
  for (int i = 0; i < m->poisoned.len; i++)
    if (m->poisoned.items[i] == b->var) return false;
  return b->count > 0 && b->arriver > 0;
}

static const char *bar_name(const Bar *b) {
  return tv_printf("%s[%lld]", b->var->name, b->elem);
}

static const char *at_loc(TvLoc l) {
  return tv_printf("%u:%u", l.line, l.col);
}

static const char *at(const TvExpr *e) {
  return e ? at_loc(e->loc) : "?";
}

/* ---- the replay ---- */

typedef struct Replay {
  MbModel *m;
  TvVec reported; // char*
} Replay;

static bool once(Replay *r, const char *key) {
  for (int i = 0; i < r->reported.len; i++)
    if (!strcmp(TV_AT(r->reported, char, i), key)) return false;
  tv_push(&r->reported, (void *)key);
  return true;
}

// Is phase j of b complete once all its arrivals are made (tx aside)?
static bool phase_arrived(const Bar *b, long long j) {
  return b->cum >= (j + 1) * b->count;
}

// The phase a TMA load issued now completes on: that of the latest
// arrival on its barrier while its bytes are still awaited (the expect_tx
// before the loads), else the phase in progress.
static long long tma_phase(const MbModel *m, Bar *b) {
  if (b->cum > 0) {
    Phase *last = phase_of(m, b, (b->cum - 1) / b->count);
    if (last->tx > last->tma_bytes) return (b->cum - 1) / b->count;
  }
  return b->cum / b->count;
}

// Runs one event of role id; false when it is a wait that must block.
static bool step(Replay *r, int id, bool force) {
  MbModel *m = r->m;
  Role *ro = TV_AT(m->roles, Role, id);
  Event *e = TV_AT(ro->events, Event, ro->cursor);
  ro->vc[id] = e->seq;
  Bar *b = e->bar >= 0 ? TV_AT(m->bars, Bar, e->bar) : NULL;
  bool usable = b && bar_usable(m, b);
  switch (e->kind) {
  case EV_ACCESS: {
    Access *a = e->a;
    a->vc = vc_new(m);
    memcpy(a->vc, ro->vc, sizeof(long long) * (size_t)(m->nroles + 1));
    a->acq = acq_new(m);
    memcpy(a->acq, ro->acq, sizeof(MbAcq) * (size_t)m->nbars);
    a->phase = -1;
    if (a->tma && usable) {
      a->phase = tma_phase(m, b);
      Phase *ph = phase_of(m, b, a->phase);
      if (a->tma_bytes < 0)
        ph->tma_unknown = true;
      else
        ph->tma_bytes += a->tma_bytes;
      if (!ph->tma_site) ph->tma_site = a->site;
    }
    break;
  }
  case EV_ARRIVE:
    if (!usable) break;
    if (e->tx > 0 || e->tx < 0) {
      Phase *ph = phase_of(m, b, b->cum / b->count);
      if (e->tx < 0)
        ph->tma_unknown = true;
      else
        ph->tx += e->tx;
      if (!ph->expect_site) ph->expect_site = e->site;
    }
    for (long long n = 0; n < e->threads; n++, b->cum++) {
      long long j = b->cum / b->count;
      Phase *ph = phase_of(m, b, j);
      if (n == 0 || b->cum % b->count == 0) {
        vc_join(m, ph->vc, ro->vc);
        acq_join(m, ph->acq, ro->acq);
      }
      if ((b->cum + 1) % b->count == 0) { // its last arrival: complete after the one before
        if (j > 0) {
          Phase *prev = phase_of(m, b, j - 1);
          vc_join(m, ph->vc, prev->vc);
          acq_join(m, ph->acq, prev->acq);
        }
        if (ph->acq[e->bar].phase < j) ph->acq[e->bar].phase = j;
      }
    }
    break;
  case EV_WAIT: {
    MbAcq *k = b ? &ro->acq[e->bar] : NULL;
    if (k) {
      k->wait = e->site;
      k->parity = e->parity;
      k->acquired = -1;
    }
    if (!usable || e->parity < 0) break;
    long long L = k->phase + 1;
    if ((e->parity & 1) != (L & 1)) break; // may return at once: nothing new
    if (!phase_arrived(b, L)) {
      Role *arr = TV_AT(m->roles, Role, b->arriver);
      if (!force && arr->cursor < arr->events.len) return false; // its arrivals may still come
      long long have = b->cum - L * b->count;
      if (once(r, tv_printf("%p|hang", (const void *)e->site)))
        tv_error(e->site->loc,
                 "mbarrier wait never completes: the wait on '%s' at %s (parity %lld) needs phase "
                 "%lld, %s",
                 bar_name(b), at(e->site), e->parity, L,
                 arr->cursor < arr->events.len
                     ? "whose arrivals come only after this wait in the other roles' order (a "
                       "deadlock)"
                     : tv_printf("but only %lld of its %lld arrivals are ever made",
                                 have < 0 ? 0 : have, b->count));
      break;
    }
    Phase *ph = phase_of(m, b, L);
    vc_join(m, ro->vc, ph->vc);
    acq_join(m, ro->acq, ph->acq);
    if (k->phase < L) k->phase = L;
    k->acquired = L;
    break;
  }
  }
  ro->cursor++;
  return true;
}

static void replay(Replay *r) {
  MbModel *m = r->m;
  for (int id = 0; id < m->roles.len; id++) {
    Role *ro = TV_AT(m->roles, Role, id);
    ro->vc = vc_new(m);
    ro->acq = acq_new(m);
  }
  for (;;) {
    bool progress = false, left = false;
    for (int id = 0; id < m->roles.len; id++) {
      Role *ro = TV_AT(m->roles, Role, id);
      while (ro->cursor < ro->events.len && step(r, id, false))
        progress = true;
      left |= ro->cursor < ro->events.len;
    }
    if (!left) return;
    if (progress) continue;
    // Every role is blocked on a wait: the first one never returns.
    for (int id = 0; id < m->roles.len; id++) {
      Role *ro = TV_AT(m->roles, Role, id);
      if (ro->cursor < ro->events.len) {
        step(r, id, true);
        break;
      }
    }
  }
}

// The bytes a phase expects against what its loads bring.
static void check_tx(Replay *r) {
  MbModel *m = r->m;
  for (int i = 0; i < m->bars.len; i++) {
    Bar *b = TV_AT(m->bars, Bar, i);
    for (int j = 0; j < b->phases.len; j++) {
      Phase *ph = TV_AT(b->phases, Phase, j);
      if (ph->tma_unknown || ph->tx == ph->tma_bytes) continue;
      const TvExpr *site = ph->expect_site ? ph->expect_site : ph->tma_site;
      if (!once(r, tv_printf("%p|tx", (const void *)site))) continue;
      tv_error(site->loc,
               "mbarrier transaction count mismatch on '%s' (phase %d): %s, but the TMA loads "
               "that complete on it%s write %lld bytes: %s",
               bar_name(b), j,
               ph->expect_site ? tv_printf("the expect_tx at %s announces %lld bytes",
                                           at(ph->expect_site), ph->tx)
                               : "no expect_tx announces bytes for it",
               ph->tma_site ? tv_printf(" (the first at %s)", at(ph->tma_site)) : "", ph->tma_bytes,
               ph->tx > ph->tma_bytes
                   ? "the phase never completes"
                   : "the phase may complete before the loads land, and the waiting threads read "
                     "them unfinished");
    }
  }
}

/* ---- ordering ---- */

// Is x complete before y is issued?
static bool before(const MbModel *m, const Access *x, const Access *y) {
  if (x->tma) {
    int bi = -1;
    for (int i = 0; i < m->bars.len && x->phase >= 0; i++) {
      Bar *b = TV_AT(m->bars, Bar, i);
      if (b->var == x->bar && b->elem == x->bar_elem) bi = i;
    }
    return bi >= 0 && y->acq && y->acq[bi].phase >= x->phase;
  }
  if (x->role == y->role) return x->done_seq <= y->seq;
  return y->vc && x->done_seq != LLONG_MAX && x->done_seq <= y->vc[x->role];
}

static int bar_of(const MbModel *m, const Access *x) {
  for (int i = 0; i < m->bars.len; i++) {
    Bar *b = TV_AT(m->bars, Bar, i);
    if (b->var == x->bar && b->elem == x->bar_elem) return i;
  }
  return -1;
}

// Why y is not ordered after x, in words.
static const char *missing(const MbModel *m, const Access *x, const Access *y) {
  if (x->tma) {
    int bi = bar_of(m, x);
    if (bi < 0 || x->phase < 0)
      return "the TMA write completes on no mbarrier phase the model can name";
    Bar *b = TV_AT(m->bars, Bar, bi);
    const MbAcq *k = y->acq ? &y->acq[bi] : NULL;
    const char *seen =
        !k || !k->wait ? tv_printf("no wait on '%s' precedes it in its role", bar_name(b))
        : k->acquired >= 0
            ? tv_printf("its role's last wait on it, at %s with parity %lld, acquires phase %lld",
                        at(k->wait), k->parity, k->acquired)
        : k->parity < 0
            ? tv_printf("its role's last wait on it, at %s, has a parity not known on this path, "
                        "and acquires nothing",
                        at(k->wait))
            : tv_printf("its role's last wait on it, at %s with parity %lld, acquires nothing (the "
                        "phase in progress may have the other parity, so it can return at once)",
                        at(k->wait), k->parity);
    return tv_printf("the TMA write completes with phase %lld of '%s', which is not known "
                     "complete before the %s: %s",
                     x->phase, bar_name(b), y->tma ? "other write" : "access", seen);
  }
  Role *xr = TV_AT(m->roles, Role, x->role);
  long long seen = y->vc ? y->vc[x->role] : 0;
  const char *upto =
      seen > 0 ? tv_printf("its events up to %s", at_loc(*TV_AT(xr->sites, TvLoc, seen - 1)))
               : "none of its events";
  const char *done = x->done_seq == LLONG_MAX
                         ? "which no wait is seen to complete"
                         : tv_printf("which completes at %s", at_loc(x->done_loc));
  return tv_printf("the %s's role is not known to have finished it: the mbarrier waits before the "
                   "%s order %s of that role before it, and not the %s %s",
                   x->kind == ACC_READ ? "read" : "write", y->tma ? "TMA write" : "access", upto,
                   x->kind == ACC_READ ? "read" : "write", done);
}

/* ---- the pairs, without comparing every two accesses ---- */

// A persistent ring replays tens of thousands of accesses per role, so the
// pairs are not enumerated. For an access y and another role's list xs:
// - "y is complete before x" holds for a suffix of xs: a role's clock and
//   knowledge of phases only grow along its order (P below);
// - "x is complete before y" depends on one number per x: when x completes
//   (its done event, or for a TMA write its phase), against what y knows of
//   x's role (or of x's barrier). x is unordered with y when that number
//   exceeds y's threshold.
// Accesses with the same summary (statement, kind, bytes, barrier) form a
// class; each class keeps a max tree over those numbers, so the first x of a
// class unordered with y is found in O(log n). The first is all that is
// needed: pairs with the same class and y are reported under one key, and
// the first is the pair the plain double loop would have met first.

typedef struct PairClass {
  const Access *rep;
  int role, bar;   // bar: a TMA write's barrier element (-1 none or unusable)
  TvVec xs;        // Access*, in the role's order
  long long *tree; // max tree over completion numbers (size 2 * cap)
  long long cap;
} PairClass;

static long long completion(const MbModel *m, const Access *x, int bar) {
  (void)m;
  if (x->tma) return bar >= 0 && x->phase >= 0 ? x->phase : LLONG_MAX;
  return x->done_seq;
}

static bool same_class(const Access *a, const Access *b) {
  return a->site == b->site && a->buf == b->buf && a->space == b->space && a->kind == b->kind &&
         a->lo == b->lo && a->hi == b->hi && a->atomic == b->atomic && a->tma == b->tma &&
         a->bar == b->bar && a->bar_elem == b->bar_elem && a->mod == b->mod && a->rlo == b->rlo &&
         a->rhi == b->rhi;
}

// The first index of c with completion number above thr, or -1.
static long long first_above(const PairClass *c, long long thr) {
  if (c->tree[1] <= thr) return -1;
  long long n = 1;
  while (n < c->cap)
    n = c->tree[2 * n] > thr ? 2 * n : 2 * n + 1;
  return n - c->cap;
}

typedef struct Best {
  const Access *a, *b; // as reported: report(b, a)
  long long i, j;      // the pair's positions in the walk order, smaller first
  struct Best *next;
} Best;

static long long walk_index(const Access *a) {
  return a->walk_index;
}

static void keep_best(Best **table, const Access *a, const Access *b) {
  bool rw = a->kind == ACC_READ || b->kind == ACC_READ;
  unsigned long long h =
      ((unsigned long long)(uintptr_t)b->site * 31u + (unsigned long long)(uintptr_t)b->buf) * 2u +
      rw;
  Best **slot = &table[h % 4096];
  long long i = walk_index(a) < walk_index(b) ? walk_index(a) : walk_index(b);
  long long j = walk_index(a) < walk_index(b) ? walk_index(b) : walk_index(a);
  for (Best *e = *slot; e; e = e->next) {
    bool erw = e->a->kind == ACC_READ || e->b->kind == ACC_READ;
    if (e->b->site != b->site || e->b->buf != b->buf || erw != rw) continue;
    if (i < e->i || (i == e->i && j < e->j)) *e = (Best){a, b, i, j, e->next};
    return;
  }
  Best *e = tv_alloc(sizeof *e);
  *e = (Best){a, b, i, j, *slot};
  *slot = e;
}

static int by_walk_order(const void *p, const void *q) {
  const Best *a = *(const Best *const *)p, *b = *(const Best *const *)q;
  if (a->i != b->i) return a->i < b->i ? -1 : 1;
  return a->j < b->j ? -1 : a->j > b->j;
}

void mb_finish(MbModel *m, bool (*overlap)(const Access *, const Access *),
               void (*report)(void *ctx, const Access *a, const Access *b, const char *order),
               void *ctx) {
  if (m->roles.len <= 1 && m->access.len == 0) return;
  m->nroles = m->roles.len;
  m->nbars = m->bars.len;
  Replay r = {.m = m};
  replay(&r);
  check_tx(&r);
  // Each role's accesses the replay reached, in its order; their classes.
  TvVec *lists = tv_alloc(sizeof(TvVec) * (size_t)(m->nroles + 1));
  TvVec classes = {0};
  for (int i = 0; i < m->access.len; i++) {
    Access *x = TV_AT(m->access, Access, i);
    x->walk_index = i;
    if (!x->vc) continue; // its role never ran it (not reached in the replay)
    tv_push(&lists[x->role], x);
    PairClass *c = NULL;
    for (int k = 0; k < classes.len && !c; k++) {
      PairClass *d = TV_AT(classes, PairClass, k);
      if (d->role == x->role && same_class(d->rep, x)) c = d;
    }
    if (!c) {
      c = tv_alloc(sizeof *c);
      c->rep = x;
      c->role = x->role;
      c->bar = x->tma ? bar_of(m, x) : -1;
      if (c->bar >= 0 && !bar_usable(m, TV_AT(m->bars, Bar, c->bar))) c->bar = -1;
      tv_push(&classes, c);
    }
    tv_push(&c->xs, x);
  }
  for (int k = 0; k < classes.len; k++) {
    PairClass *c = TV_AT(classes, PairClass, k);
    c->cap = 1;
    while (c->cap < c->xs.len)
      c->cap *= 2;
    c->tree = tv_alloc(sizeof(long long) * (size_t)(2 * c->cap));
    for (long long n = 0; n < 2 * c->cap; n++)
      c->tree[n] = LLONG_MIN;
    for (int n = 0; n < c->xs.len; n++)
      c->tree[c->cap + n] = completion(m, TV_AT(c->xs, Access, n), c->bar);
    for (long long n = c->cap - 1; n >= 1; n--)
      c->tree[n] = c->tree[2 * n] > c->tree[2 * n + 1] ? c->tree[2 * n] : c->tree[2 * n + 1];
  }
  // Positions in the role's list, for the suffix bound.
  for (int role = 0; role <= m->nroles; role++)
    for (int n = 0; n < lists[role].len; n++)
      TV_AT(lists[role], Access, n)->role_pos = n;
  Best **table = tv_alloc(sizeof(Best *) * 4096);
  TvVec found = {0};
  for (int yr = 0; yr < m->nroles; yr++) {
    for (int yn = 0; yn < lists[yr].len; yn++) {
      Access *y = TV_AT(lists[yr], Access, yn);
      for (int xr = 0; xr < m->nroles; xr++) {
        // Within a role program order and check 6's own walk order the
        // accesses; only TMA writes complete out of it. Role 0 runs before
        // the split, and the walk compares it with both sides.
        if ((xr == 0) != (yr == 0)) continue;
        const TvVec *xs = &lists[xr];
        // P: the first x that y completes before (a suffix from there).
        long long lo = 0, hi = xs->len;
        while (lo < hi) {
          long long mid = (lo + hi) / 2;
          if (before(m, y, TV_AT(*xs, Access, mid)))
            hi = mid;
          else
            lo = mid + 1;
        }
        long long bound = lo;
        for (int k = 0; k < classes.len; k++) {
          PairClass *c = TV_AT(classes, PairClass, k);
          const Access *x = c->rep;
          if (c->role != xr || (x->kind == ACC_READ && y->kind == ACC_READ) ||
              (x->atomic && y->atomic) || (xr == yr && !x->tma && !y->tma) || !overlap(x, y))
            continue;
          // x completes before y when its number is at most thr.
          long long thr;
          if (x->tma)
            thr = c->bar >= 0 && y->acq ? y->acq[c->bar].phase : LLONG_MIN;
          else if (xr == yr)
            thr = y->seq;
          else
            thr = y->vc ? y->vc[xr] : LLONG_MIN;
          long long n = first_above(c, thr);
          if (n < 0) continue;
          Access *first = TV_AT(c->xs, Access, n);
          if (first == y || first->role_pos >= bound) continue;
          // The earlier of the two in its own role, or the writer, comes
          // first; else the earlier in the walk.
          const Access *u = walk_index(first) < walk_index(y) ? first : y;
          const Access *v = u == y ? first : y;
          const Access *a = u, *b = v;
          if (xr == yr ? v->seq < u->seq : (!u->tma && v->tma)) a = v, b = u;
          keep_best(table, a, b);
        }
      }
    }
  }
  for (int h = 0; h < 4096; h++)
    for (Best *e = table[h]; e; e = e->next)
      tv_push(&found, e);
  if (found.len > 1) qsort(found.items, (size_t)found.len, sizeof(void *), by_walk_order);
  for (int i = 0; i < found.len; i++) {
    Best *e = TV_AT(found, Best, i);
    report(ctx, e->b, e->a,
           tv_printf("neither is ordered before the other: %s; and %s", missing(m, e->a, e->b),
                     missing(m, e->b, e->a)));
  }
}
