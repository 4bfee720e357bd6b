// thread-sync: inserts __syncthreads() where one statement of the block
// reads or writes memory that an earlier statement wrote (or writes memory
// an earlier statement read) since the last barrier. Shared and global
// buffers count; per-thread registers do not. Loops, `for` and `while`
// (whose condition is the same in every thread), are entered (with a
// barrier at the end of the body when the next iteration would race with
// this one). An `if` is first one unit: a hazard between what came before
// and anything in it gets a barrier before the `if`. When its condition is
// the same in every thread of the block (block indices, loop counters,
// runtime sizes, scalars defined once from those: T.Persistent's tile
// coordinates, `if bx * 64 < M:`), its branches are then walked too, so a
// hazard inside a branch gets a barrier there; every thread takes the same
// branch, so all reach it. No barrier is ever placed under a condition that
// may differ between threads, except the named barriers of T.ws scopes: a
// barrier inside one is its own threads' (1 + first/128), and a shared tile
// one scope hands to another with no mbarrier between gets a named barrier
// pair (hand-overs, at the end of this file).
#include "tlc/Passes.h"

enum { MAX_BUFS = 64 };

// A set of buffers. `async[i]`: b[i] is only written by the element stores
// of T.ptx_cp_async (ST_STORE async_copy), which stand for cp.async writes:
// like TileLang (TVM's storage sync) two of those do not order each other
// (the user orders them with mbarriers or wait_group), so a meet of two
// async entries is no hazard; any read or other write of the buffer is.
typedef struct Set {
  const TlBuffer *b[MAX_BUFS];
  bool async[MAX_BUFS];
  int n;
  bool overflow; // too many to track: assume everything
} Set;

static void set_add_as(Set *s, const TlBuffer *b, bool async) {
  if (!b || b->scope == SCOPE_LOCAL || b->scope == SCOPE_FRAGMENT) return;
  if (b->alias_of) b = b->alias_of; // T.view: the same bytes
  for (int i = 0; i < s->n; i++)
    if (s->b[i] == b) {
      s->async[i] = s->async[i] && async;
      return;
    }
  if (s->n == MAX_BUFS)
    s->overflow = true;
  else {
    s->async[s->n] = async;
    s->b[s->n++] = b;
  }
}

static void set_add(Set *s, const TlBuffer *b) {
  set_add_as(s, b, false);
}

static bool set_meets(const Set *a, const Set *b) {
  if ((a->overflow && b->n) || (b->overflow && a->n)) return true;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++)
      if (a->b[i] == b->b[j] && !(a->async[i] && b->async[j])) return true;
  return false;
}

static void set_union(Set *a, const Set *b) {
  for (int i = 0; i < b->n; i++)
    set_add_as(a, b->b[i], b->async[i]);
  a->overflow = a->overflow || b->overflow;
}

static void reads_of(const TlExpr *e, Set *r) {
  if (!e) return;
  if (e->kind == EX_LOAD) set_add(r, e->buf);
  for (int i = 0; i < e->nargs; i++)
    reads_of(e->args[i], r);
}

// T.atomic_add(..., return_prev=True) in e: its element is written too.
static void atomic_writes_of(const TlExpr *e, Set *w) {
  if (!e) return;
  if (e->kind == EX_CALL && e->fn == FN_ATOMIC_ADD) set_add(w, e->args[0]->buf);
  for (int i = 0; i < e->nargs; i++)
    atomic_writes_of(e->args[i], w);
}

static void effects(const TlStmt *s, Set *r, Set *w);

// The effects of s outside T.ws scopes (what the block's statements outside
// them do; a scope's own accesses are left out).
static void plain_effects(const TlStmt *s, Set *r, Set *w) {
  if (s->kind == ST_IF && s->group_threads) return;
  Set ir = {0}, iw = {0};
  if (s->body.len || s->else_body.len) { // the statement's own part, then its bodies'
    TlStmt head = *s;
    head.body = head.else_body = (TlVec){0};
    effects(&head, r, w);
    for (int i = 0; i < s->body.len; i++)
      plain_effects(TL_VEC_AT(s->body, TlStmt, i), r, w);
    for (int i = 0; i < s->else_body.len; i++)
      plain_effects(TL_VEC_AT(s->else_body, TlStmt, i), r, w);
    return;
  }
  effects(s, &ir, &iw);
  set_union(r, &ir);
  set_union(w, &iw);
}

static void effects(const TlStmt *s, Set *r, Set *w) {
  // An async copy's write lands after a wait_group; the pipeline's own
  // wait + barrier orders it, so it is not a hazard here.
  if (s->kind == ST_CP_ASYNC) return;
  if (s->kind == ST_STORE || s->kind == ST_VSTORE) set_add_as(w, s->buf, s->async_copy);
  if (s->kind == ST_VLOAD) set_add(r, s->buf);
  if (s->kind == ST_TMA_STORE) // the TMA unit reads the staged tile
    set_add(r, s->src.buf);
  if (s->kind == ST_STORE && s->update_op != OP_EQ) set_add(r, s->buf);
  if (s->kind == ST_GEMM) {
    set_add(r, s->a);
    set_add(r, s->b);
  }
  for (int i = 0; i < s->nindices; i++) {
    reads_of(s->indices[i], r);
    atomic_writes_of(s->indices[i], w);
  }
  reads_of(s->value, r);
  reads_of(s->cond, r);
  reads_of(s->start, r);
  reads_of(s->stop, r);
  atomic_writes_of(s->value, w);
  atomic_writes_of(s->cond, w);
  atomic_writes_of(s->start, w);
  atomic_writes_of(s->stop, w);
  for (int i = 0; i < s->body.len; i++)
    effects(TL_VEC_AT(s->body, TlStmt, i), r, w);
  for (int i = 0; i < s->else_body.len; i++)
    effects(TL_VEC_AT(s->else_body, TlStmt, i), r, w);
}

typedef struct State {
  Set read, written; // since the last barrier
  // The part of those outside T.ws scopes. Two scopes are ordered by the
  // kernel's own mbarriers, not by block barriers (which one scope's threads
  // alone would never complete), so a scope is checked only against these.
  Set plain_read, plain_written;
} State;

enum { MAX_UNIFORM_SCALARS = 256 };

// The scalars of a kernel that hold the same value in every thread: defined
// by one `let` of a uniform value and never re-assigned.
typedef struct Uniform {
  const TlVar *var[MAX_UNIFORM_SCALARS];
  int n;
  const TlBuffer *local[MAX_UNIFORM_SCALARS]; // local arrays every thread fills alike
  int nlocal;
} Uniform;

// The walk's context. A dry walk changes nothing and only counts the
// barriers it would insert (to compare two entry states of a loop body).
typedef struct Ctx {
  TlArena *arena;
  bool dry;
  int inserted;
  const Uniform *uniform;
  int loops; // loops around the statement being walked
} Ctx;

static bool is_uniform_scalar(const Uniform *u, const TlVar *v) {
  for (int i = 0; i < u->n; i++)
    if (u->var[i] == v) return true;
  return false;
}

static bool is_uniform_local(const Uniform *u, const TlBuffer *b) {
  for (int i = 0; i < u->nlocal; i++)
    if (u->local[i] == b) return true;
  return false;
}

// The same value in every thread of the block: no thread index, and memory
// only as an element of a global tensor the kernel never writes (a length
// or an index table: `if seqlen[bz] > 0:`) or of a local array every thread
// fills with the same values (a replicated fragment: `if block_mask[k]:`),
// at a uniform index.
static bool uniform_expr(const Uniform *u, const TlExpr *e) {
  switch (e->kind) {
  case EX_INT:
  case EX_FLOAT:
    return true;
  case EX_LOAD:
    if (!e->buf) return false;
    if (!(e->buf->scope == SCOPE_GLOBAL && !e->buf->written) &&
        !(e->buf->scope == SCOPE_LOCAL && is_uniform_local(u, e->buf)))
      return false;
    for (int i = 0; i < e->nargs; i++)
      if (!uniform_expr(u, e->args[i])) return false;
    return true;
  case EX_VAR:
    return e->var->kind == VAR_BLOCK_IDX || e->var->kind == VAR_LOOP || e->var->kind == VAR_SIZE ||
           e->var->kind == VAR_TILE_ITER ||
           (e->var->kind == VAR_SCALAR && is_uniform_scalar(u, e->var));
  case EX_BINARY:
  case EX_UNARY:
  case EX_CAST:
  case EX_SELECT:
    for (int i = 0; i < e->nargs; i++)
      if (!uniform_expr(u, e->args[i])) return false;
    return true;
  default:
    return false;
  }
}

// Counts the lets and sets of each scalar under s (lets[i]/sets[i] for
// scalars[i]; at most MAX_UNIFORM_SCALARS tracked, the rest never uniform).
// nested[i]: a let or set of scalars[i] under an if or a loop.
typedef struct Defs {
  const TlVar *scalar[MAX_UNIFORM_SCALARS];
  const TlExpr *value[MAX_UNIFORM_SCALARS];
  int lets[MAX_UNIFORM_SCALARS], sets[MAX_UNIFORM_SCALARS];
  bool nested[MAX_UNIFORM_SCALARS];
  int n;
} Defs;

static void count_defs_at(const TlVec *body, Defs *d, int depth);

static void count_defs(const TlVec *body, Defs *d) {
  count_defs_at(body, d, 0);
}

// Is every let and set of scalar v under body a uniform value?
static bool defs_uniform(const Uniform *u, const TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if ((s->kind == ST_LET || s->kind == ST_SET) && s->var == v &&
        (!s->value || !uniform_expr(u, s->value)))
      return false;
    if (!defs_uniform(u, &s->body, v) || !defs_uniform(u, &s->else_body, v)) return false;
  }
  return true;
}

static void count_defs_at(const TlVec *body, Defs *d, int depth) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if ((s->kind == ST_LET || s->kind == ST_SET) && s->var && s->var->kind == VAR_SCALAR) {
      int j = 0;
      while (j < d->n && d->scalar[j] != s->var)
        j++;
      if (j == d->n && d->n < MAX_UNIFORM_SCALARS) {
        d->scalar[d->n] = s->var;
        d->lets[d->n] = d->sets[d->n] = 0;
        d->nested[d->n] = false;
        d->n++;
      }
      if (j < d->n) {
        if (depth > 0) d->nested[j] = true;
        if (s->kind == ST_LET) {
          d->lets[j]++;
          d->value[j] = s->value;
        } else {
          d->sets[j]++;
        }
      }
    }
    count_defs_at(&s->body, d, depth + 1);
    count_defs_at(&s->else_body, d, depth + 1);
  }
}

// Does every thread store the same values to local array b under body: every
// store to it at a uniform index of a uniform value, under uniform branches
// and loop bounds only (a partitioned nest's `if r * 128 + tx < n` is not)?
static bool stores_uniform(const Uniform *u, const TlVec *body, const TlBuffer *b, bool ctx_ok) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->buf == b && s->kind != ST_STORE) return false; // vector or async forms: not tracked
    if (s->kind == ST_STORE && s->buf == b) {
      if (!ctx_ok || s->update_op != OP_EQ || s->atomic || !uniform_expr(u, s->value)) return false;
      for (int d = 0; d < s->nindices; d++)
        if (!uniform_expr(u, s->indices[d])) return false;
    }
    bool ok = ctx_ok;
    if (s->kind == ST_IF || s->kind == ST_WHILE) ok = ok && uniform_expr(u, s->cond);
    if (s->kind == ST_FOR)
      ok = ok && uniform_expr(u, s->start) && uniform_expr(u, s->stop) &&
           (!s->step || uniform_expr(u, s->step));
    if (!stores_uniform(u, &s->body, b, ok) || !stores_uniform(u, &s->else_body, b, ok))
      return false;
  }
  return true;
}

static void local_arrays(const TlVec *body, const TlBuffer **out, int *n) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_LOCAL) {
      int j = 0;
      while (j < *n && out[j] != s->buf)
        j++;
      if (j == *n && *n < MAX_UNIFORM_SCALARS) out[(*n)++] = s->buf;
    }
    local_arrays(&s->body, out, n);
    local_arrays(&s->else_body, out, n);
  }
}

// The uniform scalars and local arrays of a kernel body, to a fixed point (a
// let may use a scalar defined before it, an array may be filled from another).
static void find_uniform(const TlVec *body, Uniform *u) {
  static Defs d; // large; the pass runs one kernel at a time
  d.n = 0;
  count_defs(body, &d);
  u->n = 0;
  u->nlocal = 0;
  static const TlBuffer *locals[MAX_UNIFORM_SCALARS];
  int nlocals = 0;
  local_arrays(body, locals, &nlocals);
  for (bool grew = true; grew;) {
    grew = false;
    for (int j = 0; j < d.n; j++) {
      if (is_uniform_scalar(u, d.scalar[j])) continue;
      // Defined once from uniform values; or (T.alloc_var, then `x = A[bz]`)
      // let and set only at the top of the body, each from uniform values:
      // every thread runs them all, in order, so all hold the same value.
      bool once = d.lets[j] == 1 && d.sets[j] == 0 && d.value[j] && uniform_expr(u, d.value[j]);
      bool top = d.lets[j] <= 1 && !d.nested[j] && defs_uniform(u, body, d.scalar[j]);
      if (once || top) {
        u->var[u->n++] = d.scalar[j];
        grew = true;
      }
    }
    for (int j = 0; j < nlocals; j++)
      if (!is_uniform_local(u, locals[j]) && stores_uniform(u, body, locals[j], true)) {
        u->local[u->nlocal++] = locals[j];
        grew = true;
      }
  }
}

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
    if (s->kind == ST_SYNC && !s->barrier_arrive) return true;
    if (s->kind != ST_ASYNC_WAIT && s->kind != ST_WGMMA_WAIT && s->kind != ST_COMMENT) return false;
  }
  return false;
}

static bool hazard(const State *st, const Set *r, const Set *w) {
  return set_meets(&st->written, r) || set_meets(&st->written, w) || set_meets(&st->read, w);
}

// A hazard between what came before and a statement whose accesses are r/w,
// pr/pw of them outside T.ws scopes: scope against scope does not count.
static bool hazard_split(const State *st, const Set *r, const Set *w, const Set *pr,
                         const Set *pw) {
  State plain = {.read = st->plain_read, .written = st->plain_written};
  return hazard(st, pr, pw) || hazard(&plain, r, w);
}

static void record(State *st, const Set *r, const Set *w, const Set *pr, const Set *pw) {
  set_union(&st->read, r);
  set_union(&st->written, w);
  set_union(&st->plain_read, pr);
  set_union(&st->plain_written, pw);
}

static void body_effects(const TlVec *body, Set *r, Set *w, Set *pr, Set *pw) {
  for (int i = 0; i < body->len; i++) {
    effects(TL_VEC_AT(*body, TlStmt, i), r, w);
    plain_effects(TL_VEC_AT(*body, TlStmt, i), pr, pw);
  }
}

static void sync_stmt(Ctx *c, TlStmt *s, TlVec *out, State *st);

// How many barriers would the walk put in loop s (its body and back edge),
// entered with `entry`?
static int barriers_needed(const Ctx *c, TlStmt *s, State entry) {
  Ctx dry = {c->arena, true, 0, c->uniform, c->loops};
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
  Set r = {0}, w = {0}, pr = {0}, pw = {0};
  reads_of(s->cond, &r);
  reads_of(s->cond, &pr);
  body_effects(&s->body, &r, &w, &pr, &pw);
  if (!hazard_split(st, &r, &w, &pr, &pw)) return false;
  return barriers_needed(c, s, *st) > barriers_needed(c, s, (State){0});
}

static void sync_stmt(Ctx *c, TlStmt *s, TlVec *out, State *st) {
  TlArena *a = c->arena;
  if (s->kind == ST_IF && s->group_threads) {
    // A T.ws scope (sync_stmts has put the block barrier its run of sibling
    // scopes needs before the first of them): barriers between its own
    // statements (named barriers of its threads, see the CUDA emitter); in
    // a loop, also one at its end when its next run would race with this one.
    Set r = {0}, w = {0};
    effects(s, &r, &w);
    State inner = {0};
    TlVec body = sync_stmts(c, &s->body, &inner);
    if (c->loops && hazard(&inner, &r, &w)) tl_vec_push(a, &body, barrier(c, s->loc));
    if (!c->dry) s->body = body;
    set_union(&st->read, &r);
    set_union(&st->written, &w);
    tl_vec_push(a, out, s);
    return;
  }
  if (s->kind == ST_SYNC && !s->barrier_arrive) {
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
      set_union(&st->plain_read, &cond);
    }
    // The body as the walk leaves it (a dry walk keeps the statement as it
    // was and looks at the would-be body).
    bool loop = s->kind == ST_FOR || s->kind == ST_WHILE;
    c->loops += loop;
    TlVec body = sync_stmts(c, &s->body, st);
    c->loops -= loop;
    if ((s->kind == ST_FOR || s->kind == ST_WHILE) && !starts_with_barrier(&body)) {
      // The next iteration's start against this iteration's end.
      Set r = {0}, w = {0}, pr = {0}, pw = {0};
      reads_of(s->cond, &r);
      reads_of(s->cond, &pr);
      body_effects(&body, &r, &w, &pr, &pw);
      if (hazard_split(st, &r, &w, &pr, &pw)) {
        tl_vec_push(a, &body, barrier(c, s->loc));
        *st = (State){0};
        record(st, &r, &w, &pr, &pw);
      }
    }
    if (!c->dry) s->body = body;
    tl_vec_push(a, out, s);
    return;
  }
  Set r = {0}, w = {0}, pr = {0}, pw = {0};
  effects(s, &r, &w);
  plain_effects(s, &pr, &pw);
  if (hazard_split(st, &r, &w, &pr, &pw)) {
    tl_vec_push(a, out, barrier(c, s->loc));
    *st = (State){0};
  }
  if (s->kind == ST_IF && uniform_expr(c->uniform, s->cond)) {
    // Every thread takes the same branch: walk each from here; afterwards
    // either may have run.
    Set cond = {0};
    reads_of(s->cond, &cond); // only tensors the kernel never writes
    set_union(&st->read, &cond);
    set_union(&st->plain_read, &cond);
    State then_st = *st, else_st = *st;
    TlVec then_body = sync_stmts(c, &s->body, &then_st);
    TlVec else_body = sync_stmts(c, &s->else_body, &else_st);
    if (!c->dry) {
      s->body = then_body;
      s->else_body = else_body;
    }
    *st = then_st;
    record(st, &else_st.read, &else_st.written, &else_st.plain_read, &else_st.plain_written);
    tl_vec_push(a, out, s);
    return;
  }
  record(st, &r, &w, &pr, &pw);
  tl_vec_push(a, out, s);
}

static bool is_scope(const TlStmt *s) { return s->kind == ST_IF && s->group_threads; }

// Sibling T.ws scopes run side by side and may wait on each other's
// mbarriers, so a block barrier between two of them deadlocks (the seesaw
// sparse MLA's producer waits for the consumers' "buffer free" arrivals while
// the consumers would wait at the barrier). When any scope of a run of
// siblings races with what the block did before them, the barrier goes
// before the first of the run.
static void barrier_before_scopes(Ctx *c, const TlVec *body, int first, TlVec *out,
                                  State *st) {
  Set r = {0}, w = {0};
  for (int j = first; j < body->len && is_scope(TL_VEC_AT(*body, TlStmt, j)); j++)
    effects(TL_VEC_AT(*body, TlStmt, j), &r, &w);
  State plain = {.read = st->plain_read, .written = st->plain_written};
  if (!hazard(&plain, &r, &w)) return;
  tl_vec_push(c->arena, out, barrier(c, TL_VEC_AT(*body, TlStmt, first)->loc));
  *st = (State){0};
}

static TlVec sync_stmts(Ctx *c, const TlVec *body, State *st) {
  TlVec out = {0};
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (is_scope(s) && (i == 0 || !is_scope(TL_VEC_AT(*body, TlStmt, i - 1))))
      barrier_before_scopes(c, body, i, &out, st);
    sync_stmt(c, s, &out, st);
  }
  return out;
}

static void sync_body(Ctx *c, TlVec *body, State *st) {
  TlVec out = sync_stmts(c, body, st);
  if (!c->dry) *body = out;
}

// ---- Hand-overs between T.ws scopes ----------------------------------------
//
// Two scopes run side by side, ordered only by the kernel's own mbarriers.
// A shared tile one scope writes once (at its top level, after its loop) and
// another only reads after its own loop (MLA decode's row sums, written by
// the first consumer warpgroup and read by the second for its rescale) is
// ordered by nothing: the user's last mbarrier hand-over comes before the
// write. Such a pair gets a named barrier: the writer arrives after its last
// write (bar.arrive, no wait), the reader meets it before its first read.

static bool has_stmt(const TlStmt *s, bool (*pred)(const TlStmt *)) {
  if (pred(s)) return true;
  for (int i = 0; i < s->body.len; i++)
    if (has_stmt(TL_VEC_AT(s->body, TlStmt, i), pred)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (has_stmt(TL_VEC_AT(s->else_body, TlStmt, i), pred)) return true;
  return false;
}

// Something another scope may be waiting for.
static bool signals(const TlStmt *s) {
  return s->kind == ST_MBAR_ARRIVE || s->kind == ST_TMA_LOAD || (s->kind == ST_SYNC && s->barrier_id);
}

// Something that waits for another scope.
static bool waits(const TlStmt *s) {
  return s->kind == ST_MBAR_WAIT || (s->kind == ST_SYNC && s->barrier_id && !s->barrier_arrive);
}

static bool any_in(const TlVec *body, int lo, int hi, bool (*pred)(const TlStmt *)) {
  for (int i = lo; i < hi && i < body->len; i++)
    if (has_stmt(TL_VEC_AT(*body, TlStmt, i), pred)) return true;
  return false;
}

static bool touches(const TlStmt *s, const TlBuffer *b, bool write) {
  Set r = {0}, w = {0}, one = {0};
  effects(s, &r, &w);
  set_add(&one, b);
  return set_meets(write ? &w : &r, &one);
}

// Index of the last (first) statement of body that writes (reads) b, or -1.
static int last_writer(const TlVec *body, const TlBuffer *b) {
  for (int i = body->len - 1; i >= 0; i--)
    if (touches(TL_VEC_AT(*body, TlStmt, i), b, true)) return i;
  return -1;
}

static int first_reader(const TlVec *body, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++)
    if (touches(TL_VEC_AT(*body, TlStmt, i), b, false)) return i;
  return -1;
}

// The barrier cannot deadlock when the reader signals nothing from its
// meeting point on (the writer cannot be waiting for it), or the writer waits
// for nothing up to its arrival.
static bool hand_over_safe(const TlStmt *writer, int wpos, const TlStmt *reader, int rpos) {
  return !any_in(&reader->body, rpos, reader->body.len, signals) ||
         !any_in(&writer->body, 0, wpos + 1, waits);
}

static int max_user_barrier(const TlVec *body) {
  int id = 0;
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_SYNC && s->barrier_id > id) id = s->barrier_id;
    int in = max_user_barrier(&s->body), ie = max_user_barrier(&s->else_body);
    id = in > id ? in : id;
    id = ie > id ? ie : id;
  }
  return id;
}

static void insert_at(TlArena *a, TlVec *body, int at, TlStmt *s) {
  TlVec out = {0};
  for (int i = 0; i < body->len; i++) {
    if (i == at) tl_vec_push(a, &out, s);
    tl_vec_push(a, &out, TL_VEC_AT(*body, TlStmt, i));
  }
  if (at >= body->len) tl_vec_push(a, &out, s);
  *body = out;
}

// One hand-over from `writer` to `reader` of the tiles the writer writes and
// the reader only reads, each safe on its own and together.
static void hand_over_pair(TlArena *a, TlDiag *d, TlKernel *k, TlStmt *writer, TlStmt *reader,
                           int *next_id) {
  Set wr = {0}, ww = {0}, rr = {0}, rw = {0};
  body_effects(&writer->body, &wr, &ww, &(Set){0}, &(Set){0});
  body_effects(&reader->body, &rr, &rw, &(Set){0}, &(Set){0});
  int wpos = -1, rpos = INT32_MAX;
  const TlBuffer *first = NULL;
  for (int i = 0; i < ww.n; i++) {
    const TlBuffer *b = ww.b[i];
    Set one = {0};
    set_add(&one, b);
    if (b->scope != SCOPE_SHARED || ww.async[i] || !set_meets(&rr, &one) || set_meets(&rw, &one))
      continue;
    int w = last_writer(&writer->body, b), r = first_reader(&reader->body, b);
    if (w < 0 || r < 0) continue;
    int nw = w > wpos ? w : wpos, nr = r < rpos ? r : rpos;
    if (!hand_over_safe(writer, nw, reader, nr)) continue;
    wpos = nw;
    rpos = nr;
    first = first ? first : b;
  }
  if (!first) return;
  int64_t threads = writer->group_threads + reader->group_threads;
  if (*next_id > 15 || threads % 32 || threads > k->launch_threads) {
    tl_warning(d, reader->loc,
               "no named barrier left to order '%s' between two T.ws scopes; the "
               "kernel's mbarriers must order it",
               first->name);
    return;
  }
  // Located at the last write and the first read they order.
  TlStmt *arrive = tl_stmt_new(a, ST_SYNC, TL_VEC_AT(writer->body, TlStmt, wpos)->loc);
  arrive->barrier_id = *next_id;
  arrive->barrier_threads = threads;
  arrive->barrier_arrive = true;
  TlStmt *meet = tl_stmt_new(a, ST_SYNC, TL_VEC_AT(reader->body, TlStmt, rpos)->loc);
  meet->barrier_id = *next_id;
  meet->barrier_threads = threads;
  ++*next_id;
  insert_at(a, &writer->body, wpos + 1, arrive);
  insert_at(a, &reader->body, rpos, meet);
}

static void hand_over(TlArena *a, TlDiag *d, TlKernel *k) {
  if (!k->launch_threads) return;
  int next_id = tl_first_free_barrier_id(k), user = max_user_barrier(&k->body);
  next_id = user >= next_id ? user + 1 : next_id;
  for (int i = 0; i < k->body.len; i++)
    for (int j = 0; j < k->body.len; j++) {
      TlStmt *w = TL_VEC_AT(k->body, TlStmt, i), *r = TL_VEC_AT(k->body, TlStmt, j);
      if (i != j && w->kind == ST_IF && w->group_threads && r->kind == ST_IF && r->group_threads)
        hand_over_pair(a, d, k, w, r, &next_id);
    }
}

bool tl_thread_sync(TlArena *a, TlModule *m, TlDiag *d) {
  for (int k = 0; k < m->kernels.len; k++) {
    State st = {0};
    TlKernel *kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    static Uniform uniform; // large; one kernel at a time
    find_uniform(&kernel->body, &uniform);
    Ctx c = {a, false, 0, &uniform, 0};
    sync_body(&c, &kernel->body, &st);
    hand_over(a, d, kernel);
  }
  return true;
}
