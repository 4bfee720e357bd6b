// plan-shared: lays the shared tiles of each kernel out in one dynamic
// shared-memory block (declaration order, each 128-byte aligned, swizzled
// tiles 1024-byte aligned, stages included) and checks the total against the target's per-block limit,
// naming the buffers and their bytes when it does not fit.
//
// When the tiles one after the other do not fit, tiles whose lifetimes do not
// overlap share memory (TileLang's MergeSharedMemoryAllocations does this
// always; tlc only when it must, so kernels that fit keep their layout). A
// lifetime is the span of top-level statements of the kernel body that
// name the tile (a loop is one statement: a tile used in it lives through
// it; a persistent kernel's body is all one loop, so nothing overlays). Tiles that TMA reads or writes, or that a producer warpgroup uses,
// live through the whole kernel (the async proxy is not ordered by the
// barriers below). Between the last use of a tile and the first use of a
// tile placed over it there must be a barrier of every thread; one is
// inserted at the top level where thread-sync left none.
#include <string.h>

#include "tlc/Passes.h"

// An XOR-swizzled tile starts on a 1024-byte boundary: the hardware's
// swizzle (wgmma descriptors, TMA) is a function of address bits 4-9, so
// the pattern tlc computes from the tile's own offsets matches only there.
enum { SHARED_ALIGN = 128, SWIZZLED_ALIGN = 1024 };

static void describe_kb(char *buf, size_t n, int64_t bytes) {
  if (bytes % 1024 == 0)
    snprintf(buf, n, "%lld KB", (long long)(bytes / 1024));
  else
    snprintf(buf, n, "%.1f KB", (double)bytes / 1024.0);
}

static int64_t align_of(const TlBuffer *b) {
  return b->swizzle ? SWIZZLED_ALIGN : SHARED_ALIGN;
}

// The tiles one after the other, in declaration order; returns the end.
static int64_t place_in_order(TlKernel *kn) {
  int64_t off = 0;
  for (int i = 0; i < kn->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
    if (b->scope != SCOPE_SHARED || b->alias_of) continue;
    int64_t align = align_of(b);
    off = (off + align - 1) / align * align;
    b->shared_offset = off;
    off += tl_buffer_bytes(b);
  }
  return off;
}

// Lifetimes, as [first, last] top-level statement indices per buffer.
typedef struct Life {
  TlBuffer *buf;
  int first, last; // first > last: never named
  bool whole;      // lives through the kernel (TMA, producer, or unknown)
} Life;

typedef struct Lives {
  Life *v;
  int n;
  int at;     // the top-level statement being walked
  bool whole; // walking what lives throughout (the producer's statements)
} Lives;

static Life *life_of(Lives *L, const TlBuffer *b) {
  for (int i = 0; i < L->n; i++)
    if (L->v[i].buf == b) return &L->v[i];
  return NULL;
}

static void use(Lives *L, const TlBuffer *b) {
  if (b && b->alias_of) b = b->alias_of; // a T.view's uses keep its tile alive
  Life *f = b ? life_of(L, b) : NULL;
  if (!f) return;
  if (L->whole) f->whole = true;
  if (f->first > f->last) f->first = f->last = L->at;
  if (L->at < f->first) f->first = L->at;
  if (L->at > f->last) f->last = L->at;
}

static void uses_in_expr(Lives *L, const TlExpr *e, int depth) {
  if (!e || depth > 512) return;
  if (e->kind == EX_LOAD) use(L, e->buf);
  for (int i = 0; i < e->nargs; i++)
    uses_in_expr(L, e->args[i], depth + 1);
}

static void uses_in_region(Lives *L, const TlRegion *r) {
  use(L, r->buf);
  for (int i = 0; i < r->ndims; i++)
    uses_in_expr(L, r->start[i], 0);
}

static void uses_in_body(Lives *L, const TlVec *body);

static void uses_in_stmt(Lives *L, const TlStmt *s) {
  bool saved = L->whole;
  if (s->kind == ST_TMA_LOAD || s->kind == ST_TMA_STORE)
    L->whole = true; // the async proxy: no barrier below orders it
  use(L, s->buf);
  use(L, s->a);
  use(L, s->b);
  use(L, s->c);
  if (s->src.buf) uses_in_region(L, &s->src);
  if (s->dst.buf) uses_in_region(L, &s->dst);
  for (int i = 0; i < s->nindices; i++)
    uses_in_expr(L, s->indices[i], 0);
  uses_in_expr(L, s->value, 0);
  uses_in_expr(L, s->cond, 0);
  uses_in_expr(L, s->start, 0);
  uses_in_expr(L, s->stop, 0);
  uses_in_expr(L, s->step, 0);
  uses_in_expr(L, s->stage_a, 0);
  uses_in_expr(L, s->stage_b, 0);
  for (int i = 0; i < s->pipe_buffers.len; i++)
    use(L, TL_VEC_AT(s->pipe_buffers, TlBuffer, i));
  uses_in_body(L, &s->body);
  uses_in_body(L, &s->else_body);
  L->whole = saved;
}

static void uses_in_body(Lives *L, const TlVec *body) {
  for (int i = 0; i < body->len; i++)
    uses_in_stmt(L, TL_VEC_AT(*body, TlStmt, i));
}

static bool lives_overlap(const Life *x, const Life *y) {
  if (x->whole || y->whole) return true;
  if (x->first > x->last || y->first > y->last) return true; // unknown: keep apart
  return !(x->last < y->first || y->last < x->first);
}

// Is there a top-level barrier strictly between statements lo and hi?
static bool barrier_between(const TlVec *body, int lo, int hi) {
  for (int i = lo + 1; i < hi && i < body->len; i++)
    if (TL_VEC_AT(*body, TlStmt, i)->kind == ST_SYNC && !TL_VEC_AT(*body, TlStmt, i)->barrier_arrive)
      return true;
  return false;
}

// First fit by lifetime: each tile (declaration order) goes to the lowest
// aligned offset where it overlaps no placed tile that is alive with it.
// Returns the end; *overlaid reports whether any two tiles share bytes.
static int64_t place_by_lifetime(TlArena *a, TlKernel *kn, bool *overlaid) {
  Lives L = {0};
  L.v = TL_NEW_ARRAY(a, Life, kn->buffers.len > 0 ? kn->buffers.len : 1);
  for (int i = 0; i < kn->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
    if (b->scope != SCOPE_SHARED || b->alias_of) continue; // a T.view sits on its tile
    L.v[L.n++] = (Life){.buf = b, .first = 1, .last = 0};
  }
  for (L.at = 0; L.at < kn->body.len; L.at++)
    uses_in_stmt(&L, TL_VEC_AT(kn->body, TlStmt, L.at));
  L.whole = true; // the producer warpgroup's tiles
  uses_in_body(&L, &kn->producer);
  int64_t end = 0;
  *overlaid = false;
  int *barrier_before = TL_NEW_ARRAY(a, int, kn->body.len + 1);
  memset(barrier_before, 0, sizeof(int) * (size_t)(kn->body.len + 1));
  for (int i = 0; i < L.n; i++) {
    TlBuffer *b = L.v[i].buf;
    int64_t bytes = tl_buffer_bytes(b), align = align_of(b), off = 0;
    for (bool moved = true; moved;) {
      moved = false;
      off = (off + align - 1) / align * align;
      for (int j = 0; j < i; j++) {
        const TlBuffer *c = L.v[j].buf;
        int64_t cb = tl_buffer_bytes(c);
        if (!lives_overlap(&L.v[i], &L.v[j]) || off >= c->shared_offset + cb ||
            c->shared_offset >= off + bytes)
          continue;
        off = c->shared_offset + cb;
        moved = true;
      }
    }
    b->shared_offset = off;
    if (off + bytes > end) end = off + bytes;
    for (int j = 0; j < i; j++) {
      const TlBuffer *c = L.v[j].buf;
      if (off >= c->shared_offset + tl_buffer_bytes(c) || c->shared_offset >= off + bytes) continue;
      *overlaid = true;
      const Life *early = L.v[j].last < L.v[i].first ? &L.v[j] : &L.v[i];
      const Life *late = early == &L.v[j] ? &L.v[i] : &L.v[j];
      if (!barrier_between(&kn->body, early->last, late->first)) barrier_before[late->first] = 1;
    }
  }
  // Insert the barriers, last first so the indices stay valid.
  for (int at = kn->body.len - 1; at >= 0; at--) {
    if (!barrier_before[at]) continue;
    TlStmt *sync = tl_stmt_new(a, ST_SYNC, TL_VEC_AT(kn->body, TlStmt, at)->loc);
    TlVec one = {0};
    tl_vec_push(a, &one, sync);
    tl_vec_push(a, &one, TL_VEC_AT(kn->body, TlStmt, at));
    tl_vec_splice(a, &kn->body, at, &one);
  }
  return end;
}

bool tl_plan_shared(TlArena *a, TlModule *m, TlDiag *d) {
  bool ok = true;
  for (int k = 0; k < m->kernels.len; k++) {
    TlKernel *kn = TL_VEC_AT(m->kernels, TlKernel, k);
    int64_t extra = kn->ring_stages ? TL_RING_BARRIER_BYTES : 0;
    int64_t off = place_in_order(kn);
    bool overlaid = false;
    // First fit is cubic in the tiles at worst: past a few hundred (no real
    // kernel has them) the tiles stay one after the other and the error says so.
    int nshared = 0;
    for (int i = 0; i < kn->buffers.len; i++)
      nshared += TL_VEC_AT(kn->buffers, TlBuffer, i)->scope == SCOPE_SHARED;
    // A persistent kernel's body runs once per tile inside a loop the CUDA
    // emitter adds: its top-level spans wrap around, so nothing is overlaid.
    if (off + extra > m->max_shared_bytes && nshared <= 256 && !kn->persistent)
      off = place_by_lifetime(a, kn, &overlaid);
    kn->shared_bytes = off;
    for (int i = 0; i < kn->buffers.len; i++) { // a T.view sits on its tile's bytes
      TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
      if (b->alias_of) b->shared_offset = b->alias_of->shared_offset;
    }
    // A warp-specialized kernel's mbarriers are static shared memory, which
    // the alignment of the dynamic block rounds up to 1 KB; it counts too.
    off += extra;
    if (off > m->max_shared_bytes) {
      char used[32], lim[32];
      describe_kb(used, sizeof used, off);
      describe_kb(lim, sizeof lim, m->max_shared_bytes);
      tl_error(d, kn->loc,
               "kernel '%s' uses %s (%lld bytes) of shared memory, over the %s limit of %s "
               "(%lld bytes) by %lld bytes",
               kn->name, used, (long long)off, m->target_name, lim, (long long)m->max_shared_bytes,
               (long long)(off - m->max_shared_bytes));
      if (overlaid)
        tl_note(d, kn->loc, "that is with the tiles whose lifetimes do not overlap sharing memory");
      for (int i = 0; i < kn->buffers.len; i++) {
        TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
        if (b->scope != SCOPE_SHARED || b->alias_of)
          continue;
        char shape[96];
        size_t o = 0;
        for (int j = 0; j < b->ndims && o < sizeof shape; j++)
          o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%lld", j ? "x" : "", (long long)b->shape[j]);
        if (b->stages > 1)
          tl_note(d, b->loc, "'%s' uses %lld bytes (%d stages x %s %s)", b->name,
                  (long long)tl_buffer_bytes(b), b->stages, shape, tl_dtype_name(b->dtype));
        else
          tl_note(d, b->loc, "'%s' uses %lld bytes (%s %s)", b->name, (long long)tl_buffer_bytes(b),
                  shape, tl_dtype_name(b->dtype));
      }
      // With multi-buffered tiles: how many stages would fit?
      int64_t fixed = 0, per_stage = 0, stages = 0;
      for (int i = 0; i < kn->buffers.len; i++) {
        TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
        if (b->scope != SCOPE_SHARED || b->alias_of)
          continue;
        int64_t one = (tl_buffer_bytes(b) / (b->stages > 1 ? b->stages : 1) + SHARED_ALIGN - 1) /
                      SHARED_ALIGN * SHARED_ALIGN;
        if (b->stages > 1) {
          per_stage += one;
          stages = b->stages;
        } else {
          fixed += one;
        }
      }
      if (stages > 1) {
        int64_t fit = per_stage ? (m->max_shared_bytes - fixed) / per_stage : 0;
        if (fit >= 1)
          tl_note(d, kn->loc, "with %lld stage%s the pipelined tiles fit; use num_stages=%lld",
                  (long long)fit, fit == 1 ? "" : "s", (long long)fit);
        else
          tl_note(d, kn->loc, "even one stage of the pipelined tiles does not fit; use smaller tiles");
      }
      ok = false;
    }
  }
  return ok;
}
