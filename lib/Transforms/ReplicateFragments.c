// replicate-fragments: a fragment read at block level (an `if` condition, a
// loop bound, a scalar outside every T.Parallel) becomes a per-thread local
// array that every thread holds whole, as TileLang's layout inference
// replicates such a fragment over the threads.
//
// Why: TileLang's block-sparse attention copies one row of the block mask
// into `block_mask = T.alloc_fragment([n])` and tests `if block_mask[k]:` in
// its K/V loop. A distributed fragment holds element k in one thread only;
// every thread must see it, so it is replicated instead.
//
// A fragment is replicated when, after lower-tile-ops,
//   * some statement outside every T.Parallel reads it (or stores to it),
//   * no T.gemm or T.reduce_* names it (they need its distributed layout),
//   * every T.Parallel nest that stores to it stores to nothing but local or
//     replicated buffers (such a nest runs whole in every thread, so every
//     thread's copy gets every element), and
//   * it has at most MAX_REPLICATED elements (its registers in every thread).
// Any other block-level read is left for the partition pass to report.
#include "tlc/Passes.h"
#include "tlc/Support.h"

enum { MAX_REPLICATED = 256 };

typedef struct Ctx {
  TlArena *arena;
  TlVec candidates; // TlBuffer*: fragments read at block level
  TlVec excluded;   // TlBuffer*: fragments that must stay distributed
  TlVec nests;      // Nest*: the T.Parallel nests that store to a fragment
} Ctx;

static bool contains(const TlVec *v, const TlBuffer *b) {
  for (int i = 0; i < v->len; i++)
    if (TL_VEC_AT(*v, TlBuffer, i) == b) return true;
  return false;
}

static void add(Ctx *c, TlVec *v, TlBuffer *b) {
  if (b && b->scope == SCOPE_FRAGMENT && !contains(v, b)) tl_vec_push(c->arena, v, b);
}

static void fragments_read(Ctx *c, const TlExpr *e) {
  if (!e) return;
  if (e->kind == EX_LOAD) add(c, &c->candidates, e->buf);
  for (int i = 0; i < e->nargs; i++)
    fragments_read(c, e->args[i]);
}

// The statement's own expressions, not those of its bodies.
static void own_reads(Ctx *c, const TlStmt *s) {
  fragments_read(c, s->value);
  fragments_read(c, s->cond);
  fragments_read(c, s->start);
  fragments_read(c, s->stop);
  fragments_read(c, s->step);
  for (int i = 0; i < s->nindices; i++)
    fragments_read(c, s->indices[i]);
}

// What one T.Parallel nest does with fragments.
typedef struct Nest {
  TlVec stored;  // TlBuffer*: fragments it stores to
  TlVec touched; // TlBuffer*: fragments it stores to or reads
  bool other;    // it stores to shared or global memory
} Nest;

static void nest_loads(Ctx *c, const TlExpr *e, Nest *n) {
  if (!e) return;
  if (e->kind == EX_LOAD) add(c, &n->touched, e->buf);
  for (int i = 0; i < e->nargs; i++)
    nest_loads(c, e->args[i], n);
}

static void nest_walk(Ctx *c, const TlVec *body, Nest *n) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf) {
      add(c, &n->stored, s->buf);
      add(c, &n->touched, s->buf);
      if (s->buf->scope != SCOPE_FRAGMENT && s->buf->scope != SCOPE_LOCAL) n->other = true;
    }
    nest_loads(c, s->value, n);
    nest_loads(c, s->cond, n);
    nest_loads(c, s->start, n);
    nest_loads(c, s->stop, n);
    for (int d = 0; d < s->nindices; d++)
      nest_loads(c, s->indices[d], n);
    nest_walk(c, &s->body, n);
    nest_walk(c, &s->else_body, n);
  }
}

static void collect(Ctx *c, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    switch (s->kind) {
    case ST_PARALLEL: {
      Nest *n = TL_NEW(c->arena, Nest);
      nest_walk(c, &s->body, n);
      if (n->stored.len) tl_vec_push(c->arena, &c->nests, n);
      continue;
    }
    case ST_GEMM:
      add(c, &c->excluded, s->a);
      add(c, &c->excluded, s->b);
      add(c, &c->excluded, s->c);
      continue;
    case ST_REDUCE:
    case ST_COPY:
    case ST_FILL:
      add(c, &c->excluded, s->src.buf);
      add(c, &c->excluded, s->dst.buf);
      continue;
    case ST_STORE:
      add(c, &c->candidates, s->buf);
      break;
    default:
      break;
    }
    own_reads(c, s);
    collect(c, &s->body);
    collect(c, &s->else_body);
  }
}

bool tl_replicate_fragments(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++) {
    TlKernel *kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    Ctx c = {a, {0}, {0}, {0}};
    collect(&c, &kernel->body);
    TlVec chosen = {0};
    for (int i = 0; i < c.candidates.len; i++) {
      TlBuffer *b = TL_VEC_AT(c.candidates, TlBuffer, i);
      if (!contains(&c.excluded, b) && b->stages == 1 && tl_buffer_elems(b) <= MAX_REPLICATED)
        tl_vec_push(a, &chosen, b);
    }
    // A nest that stores to a replica runs whole in every thread only if it
    // stores to no shared or global memory and every fragment it touches is
    // a replica too; otherwise it is partitioned and each thread would fill
    // only its part. Drop such replicas until no nest has one.
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = 0; i < c.nests.len; i++) {
        const Nest *n = TL_VEC_AT(c.nests, Nest, i);
        bool whole = !n->other;
        for (int t = 0; whole && t < n->touched.len; t++)
          whole = contains(&chosen, TL_VEC_AT(n->touched, TlBuffer, t));
        for (int t = 0; !whole && t < n->stored.len; t++) {
          TlBuffer *b = TL_VEC_AT(n->stored, TlBuffer, t);
          for (int j = 0; j < chosen.len; j++)
            if (TL_VEC_AT(chosen, TlBuffer, j) == b) {
              chosen.items[j] = chosen.items[--chosen.len];
              changed = true;
              break;
            }
        }
      }
    }
    for (int i = 0; i < chosen.len; i++)
      TL_VEC_AT(chosen, TlBuffer, i)->scope = SCOPE_LOCAL;
  }
  return true;
}
