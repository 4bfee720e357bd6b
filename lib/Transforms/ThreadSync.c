// thread-sync: inserts __syncthreads() where one statement of the block
// reads or writes memory that an earlier statement wrote (or writes memory
// an earlier statement read) since the last barrier. Shared and global
// buffers count; per-thread registers do not. Loops, `for` and `while`
// (whose condition is the same in every thread), are entered (with a
// barrier at the end of the body when the next iteration would race with
// this one); an `if` is one unit, so no barrier is ever placed under a
// condition that may differ between threads.
#include "tlc/Passes.h"

enum { MAX_BUFS = 64 };

typedef struct Set {
  const TlBuffer *b[MAX_BUFS];
  int n;
  bool overflow; // too many to track: assume everything
} Set;

static void set_add(Set *s, const TlBuffer *b) {
  if (!b || b->scope == SCOPE_LOCAL || b->scope == SCOPE_FRAGMENT) return;
  for (int i = 0; i < s->n; i++)
    if (s->b[i] == b) return;
  if (s->n == MAX_BUFS)
    s->overflow = true;
  else
    s->b[s->n++] = b;
}

static bool set_meets(const Set *a, const Set *b) {
  if ((a->overflow && b->n) || (b->overflow && a->n)) return true;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++)
      if (a->b[i] == b->b[j]) return true;
  return false;
}

static void set_union(Set *a, const Set *b) {
  for (int i = 0; i < b->n; i++)
    set_add(a, b->b[i]);
  a->overflow = a->overflow || b->overflow;
}

static void reads_of(const TlExpr *e, Set *r) {
  if (!e) return;
  if (e->kind == EX_LOAD) set_add(r, e->buf);
  for (int i = 0; i < e->nargs; i++)
    reads_of(e->args[i], r);
}

static void effects(const TlStmt *s, Set *r, Set *w) {
  // An async copy's write lands after a wait_group; the pipeline's own
  // wait + barrier orders it, so it is not a hazard here.
  if (s->kind == ST_CP_ASYNC) return;
  if (s->kind == ST_STORE || s->kind == ST_VSTORE) set_add(w, s->buf);
  if (s->kind == ST_VLOAD) set_add(r, s->buf);
  if (s->kind == ST_TMA_STORE) // the TMA unit reads the staged tile
    set_add(r, s->src.buf);
  if (s->kind == ST_STORE && s->update_op != OP_EQ) set_add(r, s->buf);
  if (s->kind == ST_GEMM) {
    set_add(r, s->a);
    set_add(r, s->b);
  }
  for (int i = 0; i < s->nindices; i++)
    reads_of(s->indices[i], r);
  reads_of(s->value, r);
  reads_of(s->cond, r);
  reads_of(s->start, r);
  reads_of(s->stop, r);
  for (int i = 0; i < s->body.len; i++)
    effects(TL_VEC_AT(s->body, TlStmt, i), r, w);
  for (int i = 0; i < s->else_body.len; i++)
    effects(TL_VEC_AT(s->else_body, TlStmt, i), r, w);
}

typedef struct State {
  Set read, written; // since the last barrier
} State;

// The walk's context. A dry walk changes nothing and only counts the
// barriers it would insert (to compare two entry states of a loop body).
typedef struct Ctx {
  TlArena *arena;
  bool dry;
  int inserted;
} Ctx;

static TlStmt *barrier(Ctx *c, TlLoc loc) {
  c->inserted++;
  return tl_stmt_new(c->arena, ST_SYNC, loc);
}

// Is the statement a block of per-thread work that all threads reach (a
// partitioned nest or a loop), as opposed to one statement?
static bool is_region(const TlStmt *s) {
  return s->kind == ST_FOR || s->kind == ST_WHILE ||
         (s->kind == ST_SEQ && s->plan.ndims == 0 && !s->per_thread);
}

static void sync_body(Ctx *c, TlVec *body, State *st);
static TlVec sync_stmts(Ctx *c, const TlVec *body, State *st);

// A loop body that begins with a barrier (before any memory access) needs
// no barrier on its back edge.
static bool starts_with_barrier(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_SYNC) return true;
    if (s->kind != ST_ASYNC_WAIT && s->kind != ST_WGMMA_WAIT && s->kind != ST_COMMENT) return false;
  }
  return false;
}

static bool hazard(const State *st, const Set *r, const Set *w) {
  return set_meets(&st->written, r) || set_meets(&st->written, w) || set_meets(&st->read, w);
}

static void sync_stmt(Ctx *c, TlStmt *s, TlVec *out, State *st);

// How many barriers would the walk put in loop s (its body and back edge),
// entered with `entry`?
static int barriers_needed(TlArena *a, TlStmt *s, State entry) {
  Ctx dry = {a, true, 0};
  TlVec out = {0};
  sync_stmt(&dry, s, &out, &entry);
  return dry.inserted;
}

// Should the hazard between what came before loop `s` and its body get one
// barrier before the loop? Only when the loop would otherwise need more
// barriers (per iteration) than it does on its own: then the extra one runs
// every iteration (flash attention's Q tile, stored once and read by every
// iteration's gemm; in a loop without a block barrier, it would also keep
// two compute warpgroups in lockstep).
static bool hoist_entry_barrier(Ctx *c, TlStmt *s, const State *st) {
  if (c->dry || starts_with_barrier(&s->body)) return false;
  Set r = {0}, w = {0};
  reads_of(s->cond, &r);
  for (int i = 0; i < s->body.len; i++)
    effects(TL_VEC_AT(s->body, TlStmt, i), &r, &w);
  if (!hazard(st, &r, &w)) return false;
  return barriers_needed(c->arena, s, *st) > barriers_needed(c->arena, s, (State){0});
}

static void sync_stmt(Ctx *c, TlStmt *s, TlVec *out, State *st) {
  TlArena *a = c->arena;
  if (s->kind == ST_SYNC) {
    *st = (State){0};
    tl_vec_push(a, out, s);
    return;
  }
  if (is_region(s)) {
    // Enter loops and plain sequences: barriers go between their parts. A
    // while's condition reads memory before each iteration.
    if ((s->kind == ST_FOR || s->kind == ST_WHILE) && hoist_entry_barrier(c, s, st)) {
      tl_vec_push(a, out, barrier(c, s->loc));
      *st = (State){0};
    }
    if (s->kind == ST_WHILE) {
      Set cond = {0};
      reads_of(s->cond, &cond);
      if (set_meets(&st->written, &cond)) {
        tl_vec_push(a, out, barrier(c, s->loc));
        *st = (State){0};
      }
      set_union(&st->read, &cond);
    }
    // The body as the walk leaves it (a dry walk keeps the statement as it
    // was and looks at the would-be body).
    TlVec body = sync_stmts(c, &s->body, st);
    if ((s->kind == ST_FOR || s->kind == ST_WHILE) && !starts_with_barrier(&body)) {
      // The next iteration's start against this iteration's end.
      Set r = {0}, w = {0};
      reads_of(s->cond, &r);
      for (int i = 0; i < body.len; i++)
        effects(TL_VEC_AT(body, TlStmt, i), &r, &w);
      if (hazard(st, &r, &w)) {
        tl_vec_push(a, &body, barrier(c, s->loc));
        *st = (State){0};
        set_union(&st->read, &r);
        set_union(&st->written, &w);
      }
    }
    if (!c->dry) s->body = body;
    tl_vec_push(a, out, s);
    return;
  }
  Set r = {0}, w = {0};
  effects(s, &r, &w);
  if (hazard(st, &r, &w)) {
    tl_vec_push(a, out, barrier(c, s->loc));
    *st = (State){0};
  }
  set_union(&st->read, &r);
  set_union(&st->written, &w);
  tl_vec_push(a, out, s);
}

static TlVec sync_stmts(Ctx *c, const TlVec *body, State *st) {
  TlVec out = {0};
  for (int i = 0; i < body->len; i++)
    sync_stmt(c, TL_VEC_AT(*body, TlStmt, i), &out, st);
  return out;
}

static void sync_body(Ctx *c, TlVec *body, State *st) {
  TlVec out = sync_stmts(c, body, st);
  if (!c->dry) *body = out;
}

bool tl_thread_sync(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++) {
    State st = {0};
    Ctx c = {a, false, 0};
    sync_body(&c, &TL_VEC_AT(m->kernels, TlKernel, k)->body, &st);
  }
  return true;
}
