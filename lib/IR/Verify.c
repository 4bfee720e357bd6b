// The IR verifier, run after every pass (--verify-each, on by default in
// builds with TLC_VERIFY_IR). It checks the invariants of the level a kernel
// is at: tile IR has no thread-level nodes and thread IR no tile-level ones;
// every variable is used inside the loop or let that defines it; buffer
// accesses have one index per dimension (one flat index after flatten);
// loops have bounds; stores have values. It also checks, where that is
// cheap, the facts the passes record for later ones (the fields the IR text
// prints): buffer swizzles, offsets, tables and fragment layouts, partition
// plans, pipeline stages, async-copy and per-thread marks, variable roles.
// A failure is a compiler bug: it is reported as an internal error naming
// the pass that broke the invariant; for a module read from IR text (after
// == NULL) it is an error in that text.
#include "IRText.h"
#include "tlc/PartitionPlan.h"

#include <string.h>

enum { MAX_SCOPE = 4096 };

typedef struct V {
  const TlKernel *k;
  const char *after;
  TlDiag *d;
  const TlVar *vars[MAX_SCOPE];
  int nvars;
  bool ok;
} V;

static void fail(V *v, TlLoc loc, const char *what) {
  if (!v->ok) return; // one report per kernel is enough
  v->ok = false;
  if (v->after)
    tl_error(v->d, loc, "internal error: IR verifier failed after pass '%s' in kernel '%s': %s",
             v->after, v->k->name, what);
  else
    tl_error(v->d, loc, "invalid IR in kernel '%s': %s", v->k->name, what);
}

static void failf(V *v, TlLoc loc, const char *fmt, const char *name) {
  char msg[200];
  snprintf(msg, sizeof msg, fmt, name);
  fail(v, loc, msg);
}

// A variable's emitted name NAME_N must be below the kernel's next_id, or a
// variable a later pass makes could take the same name.
static void check_var(V *v, const TlVar *var) {
  long long n = tl_irtext_var_number(var);
  if (n >= v->k->next_id)
    failf(v, var->loc, "variable '%s' is numbered at or above the kernel's next_id", var->cname);
  if ((var->kind == VAR_BLOCK_IDX || var->kind == VAR_THREAD_IDX) && (var->dim < 0 || var->dim > 2))
    failf(v, var->loc, "index variable '%s' has no dimension x, y or z", var->name);
  if (var->kind == VAR_ARRAY && var->lanes < 1)
    failf(v, var->loc, "register array '%s' has no registers", var->name);
}

static bool in_scope(V *v, const TlVar *var) {
  if (var->kind == VAR_BLOCK_IDX || var->kind == VAR_THREAD_IDX || var->kind == VAR_TILE_ITER)
    return true;
  for (int i = 0; var->kind == VAR_SIZE && i < v->k->sizes.len; i++)
    if (TL_VEC_AT(v->k->sizes, TlVar, i) == var) return true; // a kernel parameter
  for (int i = v->nvars - 1; i >= 0; i--)
    if (v->vars[i] == var) return true;
  return false;
}

static void push(V *v, const TlVar *var) {
  check_var(v, var);
  if (v->nvars < MAX_SCOPE) v->vars[v->nvars++] = var;
}

static void check_expr(V *v, const TlExpr *e) {
  if (!e) {
    fail(v, v->k->loc, "missing expression");
    return;
  }
  switch (e->kind) {
  case EX_VAR:
    if (!in_scope(v, e->var)) {
      char msg[160];
      snprintf(msg, sizeof msg, "variable '%s' used outside its scope", e->var->name);
      fail(v, e->loc, msg);
    }
    break;
  case EX_LOAD:
    if (!e->buf)
      fail(v, e->loc, "load without a buffer");
    else if ((v->k->flat || (v->k->thread_level && e->buf->scope == SCOPE_FRAGMENT))
                 ? e->nargs != 1
                 : (e->nargs != e->buf->ndims &&
                    !(e->buf->stages > 1 && e->nargs == e->buf->ndims + 1)))
      fail(v, e->loc, "load with the wrong number of indices");
    break;
  case EX_ELEM:
    if (!e->var || e->var->kind != VAR_ARRAY || !in_scope(v, e->var))
      fail(v, e->loc, "element of an undeclared register array");
    break;
  case EX_CALL:
    if (e->fn == FN_SWIZZLE &&
        (!e->buf || e->buf->scope != SCOPE_SHARED || e->buf->swizzle == 0 || e->nargs != 2))
      fail(v, e->loc, "swizzle() of a buffer that is not a swizzled shared tile");
    if (tl_intrinsic_is_user_shuffle(e->fn) && e->nargs != 4)
      fail(v, e->loc, "shfl() takes a mask, a value, a lane and a width");
    if (e->fn == FN_ATOMIC_ADD &&
        (e->nargs != 2 || e->args[0]->kind != EX_LOAD ||
         (e->args[0]->buf->scope != SCOPE_GLOBAL && e->args[0]->buf->scope != SCOPE_SHARED)))
      fail(v, e->loc, "atomic_add() takes an element of a global or shared buffer and a value");
    if (tl_intrinsic_is_rng(e->fn)) {
      if (e->nargs != 0) fail(v, e->loc, "a random draw takes no operands");
      else if (e->fn == FN_RNG_RAND ? e->dtype != TY_UINT32
                                     : e->dtype != TY_FLOAT32 && e->dtype != TY_FLOAT64)
        fail(v, e->loc, "rng_rand() is uint32, rng_uniform() and rng_normal() float32 or float64");
      break;
    }
    // fall through
  case EX_BINARY:
  case EX_SELECT:
  case EX_UNARY:
  case EX_CAST:
    if (e->nargs < 1) fail(v, e->loc, "operator without operands");
    break;
  default:
    break;
  }
  for (int i = 0; i < e->nargs; i++)
    check_expr(v, e->args[i]);
}

static void check_body(V *v, const TlVec *body);

// A recorded partition plan must be the formula's own numbers (a
// loop_layout= plan records the layout's own counts: only their ranges).
static void check_plan(V *v, const TlStmt *s) {
  const TlPartitionPlan *p = &s->plan;
  TlPartitionPlan want;
  char err[128];
  if (s->plan_has_layout) {
    if (p->ndims > TL_MAX_NEST || p->threads < 1 || p->vector < 1 || p->steps < 0)
      fail(v, s->loc, "a partition plan out of range");
    return;
  }
  if (!tl_partition_plan_default(&want, p->ndims, p->extents, p->threads, p->vector, err,
                                 sizeof err) ||
      want.total != p->total || want.accesses != p->accesses || want.steps != p->steps ||
      want.slots != p->slots || want.threads_used != p->threads_used || want.guard != p->guard)
    fail(v, s->loc, "a partition plan that is not the formula's");
}

// The facts the passes record on statements, where they may appear.
static void check_facts(V *v, const TlStmt *s) {
  if (s->per_thread && s->kind != ST_SEQ)
    fail(v, s->loc, "per_thread on a statement that is not a block");
  if (s->async_copy && s->kind != ST_PARALLEL && s->kind != ST_FOR &&
      !(s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_SHARED && s->update_op == OP_EQ))
    fail(v, s->loc, "async_copy on a statement that is neither a loop nor a store to shared memory");
  if (s->plan.ndims > 0) check_plan(v, s);
  if ((s->pipe_buffers.len || s->applied_stages) &&
      (s->kind != ST_FOR || s->loop_kind != LOOP_PIPELINED))
    fail(v, s->loc, "pipeline facts on a loop that is not pipelined");
  for (int i = 0; i < s->pipe_buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(s->pipe_buffers, TlBuffer, i);
    if (b->scope != SCOPE_SHARED)
      failf(v, s->loc, "pipeline buffer '%s' is not a shared tile", b->name);
  }
  // num_stages=0 (no pipelining, TileLang's default) still runs one stage;
  // warp-specialize gives num_stages=1 a ring of two.
  int most = s->num_stages > 1 ? s->num_stages : s->num_stages == 1 ? 2 : 1;
  if (s->applied_stages < 0 || (s->loop_kind == LOOP_PIPELINED && s->applied_stages > most))
    fail(v, s->loc, "a pipeline applied with more stages than asked for");
  if (s->kind == ST_GEMM) {
    if (s->gemm_id < 0) fail(v, s->loc, "a gemm with a negative helper id");
    if ((s->stage_a && s->a->stages < 2) || (s->stage_b && s->b->stages < 2))
      fail(v, s->loc, "a gemm stage index on an operand that is not multi-buffered");
    if (s->stage_a) check_expr(v, s->stage_a);
    if (s->stage_b) check_expr(v, s->stage_b);
    if ((s->offset_a && !s->a->alias_of) || (s->offset_b && !s->b->alias_of))
      fail(v, s->loc, "a gemm operand offset on a tile that views no other");
    if (s->offset_a) check_expr(v, s->offset_a);
    if (s->offset_b) check_expr(v, s->offset_b);
    // A predicated issue exists so that every thread reaches the wgmma (ptxas
    // keeps a wgmma pipeline only across code it can correlate): only for a
    // wgmma gemm left in flight, whose wait comes later.
    if (s->cond && (!s->use_wgmma || !s->wgmma_in_flight))
      fail(v, s->loc, "a gemm issue predicate on a gemm that is not an in-flight wgmma");
    if (s->cond) check_expr(v, s->cond);
    if (s->a_packed && (!s->use_wgmma || s->a->scope != SCOPE_FRAGMENT))
      fail(v, s->loc, "a gemm reading a packed register-A operand that is not a register-A wgmma");
  }
}

// A tile op's regions: a start and an extent for each dimension of the
// buffer (a multi-buffered tile's stage index is not a region dimension).
static void check_region(V *v, const TlStmt *s, const TlRegion *r) {
  if (!r->buf || r->ndims != r->buf->ndims) {
    fail(v, s->loc, "a region without one start and extent per dimension of its buffer");
    return;
  }
  for (int i = 0; i < r->ndims; i++) {
    check_expr(v, r->start[i]);
    if (r->extent[i] < 1) fail(v, s->loc, "a region with an empty extent");
  }
}

static void check_regions(V *v, const TlStmt *s) {
  if (s->kind != ST_FILL) check_region(v, s, &s->src);
  check_region(v, s, &s->dst);
}

static void check_stmt(V *v, const TlStmt *s) {
  bool thread = v->k->thread_level;
  int mark = v->nvars;
  check_facts(v, s);
  switch (s->kind) {
  case ST_GEMM:
    if (thread && (!s->c->layout || s->c->layout->kind != LAYOUT_GEMM_C))
      fail(v, s->loc, "gemm accumulator without a gemm layout in thread IR");
    break;
  case ST_PARALLEL:
  case ST_COPY:
  case ST_FILL:
  case ST_REDUCE:
    if (thread) fail(v, s->loc, "a tile-level statement is left in thread IR");
    if (s->kind != ST_PARALLEL) check_regions(v, s);
    if (s->kind == ST_PARALLEL) {
      if (s->nvars < 1) fail(v, s->loc, "T.Parallel without variables");
      for (int i = 0; i < s->nvars; i++) {
        if (s->extents[i] < 1) fail(v, s->loc, "T.Parallel with a non-positive extent");
        push(v, s->vars[i]);
      }
    }
    break;
  case ST_CP_ASYNC:
    if (!thread || !s->buf || !s->value || s->value->kind != EX_LOAD)
      fail(v, s->loc, "malformed async copy");
    else {
      check_expr(v, s->indices[0]);
      check_expr(v, s->value);
      if (s->cond) check_expr(v, s->cond);
    }
    break;
  case ST_ASYNC_COMMIT:
  case ST_ASYNC_WAIT:
    break;
  case ST_WGMMA_WAIT:
    if (!s->buf || s->buf->scope != SCOPE_FRAGMENT || !s->buf->layout || !s->buf->layout->wgmma)
      fail(v, s->loc, "wgmma_wait names no wgmma accumulator");
    if (s->width < 0 || s->width > 7) fail(v, s->loc, "wgmma_wait leaves 0 to 7 groups pending");
    break;
  case ST_WGMMA_PACK: // a 16-bit fragment in wgmma's accumulator layout: a register-A operand
    if (!s->buf || s->buf->scope != SCOPE_FRAGMENT || !s->buf->layout || !s->buf->layout->wgmma ||
        tl_dtype_bits(s->buf->dtype) != 16)
      fail(v, s->loc, "wgmma_pack names no 16-bit fragment in a wgmma accumulator layout");
    break;
  case ST_MMA: {
    const TlBuffer *ops[3] = {s->a, s->b, s->c};
    // registers per operand: A 4, B 2, C 4 (32-bit words; C one element each)
    int64_t words[3] = {4, 2, 4};
    bool ok = s->mma_k == 16 || s->mma_k == 32;
    for (int i = 0; i < 3 && ok; i++) {
      int64_t per_word = i == 2 ? 1 : 32 / (ops[i] ? tl_dtype_bits(ops[i]->dtype) : 32);
      ok = ops[i] && ops[i]->scope == SCOPE_LOCAL && ops[i]->ndims == 1 && s->mma_offset[i] >= 0 &&
           s->mma_offset[i] % per_word == 0 &&
           s->mma_offset[i] + words[i] * per_word <= ops[i]->shape[0];
    }
    if (!ok)
      fail(v, s->loc, "an mma atom whose operands are not local buffers holding its registers");
    break;
  }
  case ST_SYNC: // the pipeline pass places barriers in tile IR already
    if (s->grid_sync && (s->barrier_id || v->k->cluster || v->k->ring_stages || v->k->persistent))
      fail(v, s->loc, "a grid barrier that is also a named barrier, or in a kernel launched "
                      "in clusters or warp-specialized by tlc");
    if (s->barrier_arrive && !s->barrier_id)
      fail(v, s->loc, "an arrive-only barrier that is not a named barrier");
    if (s->barrier_id &&
        (s->barrier_id > 15 || s->barrier_threads <= 0 || s->barrier_threads % 32 ||
         (v->k->launch_threads && s->barrier_threads > v->k->launch_threads)))
      fail(v, s->loc,
           "a named barrier outside 1-15, or of a thread count that is not a "
           "multiple of 32 within the block");
    break;
  case ST_TMA_LOAD:
    if (s->tma_map < 0 || s->tma_map >= v->k->tma_maps.len || !s->stage_a || !s->dst.buf ||
        TL_VEC_AT(v->k->tma_maps, TlTmaMap, s->tma_map)->tile != s->dst.buf ||
        TL_VEC_AT(v->k->tma_maps, TlTmaMap, s->tma_map)->global != s->src.buf)
      fail(v, s->loc, "TMA load without its tensor map or stage");
    else
      check_region(v, s, &s->src);
    break;
  case ST_TMA_STORE:
    if (s->tma_map < 0 || s->tma_map >= v->k->tma_maps.len || !s->src.buf || !s->dst.buf ||
        !TL_VEC_AT(v->k->tma_maps, TlTmaMap, s->tma_map)->store ||
        TL_VEC_AT(v->k->tma_maps, TlTmaMap, s->tma_map)->tile != s->src.buf ||
        TL_VEC_AT(v->k->tma_maps, TlTmaMap, s->tma_map)->global != s->dst.buf)
      fail(v, s->loc, "TMA store without its store tensor map");
    else
      check_region(v, s, &s->dst);
    break;
  case ST_TMA_STORE_WAIT:
    if (!v->k->ring_stages) fail(v, s->loc, "TMA store wait outside a warp-specialized kernel");
    break;
  case ST_RNG_INIT:
    if (!s->value || !s->start || !s->stop)
      fail(v, s->loc, "rng_init without its seed, subsequence and offset");
    else {
      check_expr(v, s->value);
      check_expr(v, s->start);
      check_expr(v, s->stop);
    }
    break;
  case ST_MBAR_WAIT:
  case ST_MBAR_ARRIVE:
    if (s->ring == RING_USER) {
      if (!v->k->nmbar || !s->stage_a || (s->kind == ST_MBAR_WAIT && !s->value))
        fail(v, s->loc, "mbarrier operation on a kernel without mbarriers");
      else if (s->stage_a->kind == EX_INT &&
               (s->stage_a->ival < 0 || s->stage_a->ival >= v->k->nmbar))
        fail(v, s->loc, "mbarrier index out of the kernel's mbarriers");
      else if (s->kind == ST_MBAR_WAIT)
        check_expr(v, s->value);
    } else if (!v->k->ring_stages || s->ring == RING_NONE || !s->stage_a ||
               (s->kind == ST_MBAR_WAIT && !s->value))
      fail(v, s->loc, "mbarrier operation outside a warp-specialized ring");
    else if (s->kind == ST_MBAR_WAIT)
      check_expr(v, s->value);
    break;
  case ST_VLOAD:
  case ST_VSTORE:
  case ST_DECL:
    if (!thread) fail(v, s->loc, "a thread-level statement in tile IR");
    if (s->kind == ST_DECL) push(v, s->var);
    if ((s->kind == ST_VLOAD || s->kind == ST_VSTORE) &&
        (!s->var || !in_scope(v, s->var) || s->width < 2))
      fail(v, s->loc, "vector access without a declared register array");
    if (s->kind == ST_VLOAD || s->kind == ST_VSTORE) check_expr(v, s->indices[0]);
    mark = v->nvars; // a declaration stays visible after the statement
    break;
  case ST_FOR:
    if (!s->var || !s->start || !s->stop || !s->step)
      fail(v, s->loc, "loop without a variable or bounds");
    else {
      check_expr(v, s->start);
      check_expr(v, s->stop);
    }
    push(v, s->var);
    break;
  case ST_STORE:
    if (!s->value) fail(v, s->loc, "store without a value");
    if (s->atomic && (s->update_op != OP_ADD || !s->buf ||
                      (s->buf->scope != SCOPE_GLOBAL && s->buf->scope != SCOPE_SHARED)))
      fail(v, s->loc, "an atomic store must be a += into global or shared memory");
    if (s->buf) {
      if ((v->k->flat || (thread && s->buf->scope == SCOPE_FRAGMENT))
              ? s->nindices != 1
              : (s->nindices != s->buf->ndims &&
                 !(s->buf->stages > 1 && s->nindices == s->buf->ndims + 1)))
        fail(v, s->loc, "store with the wrong number of indices");
    } else if (!s->var || s->var->kind != VAR_ARRAY || !in_scope(v, s->var)) {
      fail(v, s->loc, "store to nothing");
    }
    for (int i = 0; i < s->nindices; i++)
      check_expr(v, s->indices[i]);
    check_expr(v, s->value);
    break;
  case ST_LET:
    check_expr(v, s->value);
    push(v, s->var);
    mark = v->nvars;
    break;
  case ST_SET:
    check_expr(v, s->value);
    if (!in_scope(v, s->var)) fail(v, s->loc, "assignment to a variable outside its scope");
    break;
  case ST_IF:
    // T.ws scopes: whole warpgroups, each starting at a multiple of its
    // size; warp ranges (the kernel's partition is the whole block): whole
    // warps below named barrier 16.
    if (s->group_threads &&
        (!v->k->launch_threads || s->group_threads > v->k->threads[0] || s->group_lo < 0 ||
         s->group_lo + s->group_threads > v->k->launch_threads ||
         (tl_kernel_warp_ranges(v->k) ? s->group_threads % 32 || s->group_lo % 32
                                      : s->group_threads % 128 || s->group_lo % s->group_threads) ||
         tl_scope_barrier_id(v->k, s->group_lo) > 15))
      fail(v, s->loc,
           "a thread scope that does not fit the kernel's launch (whole warpgroups starting at a "
           "multiple of their size, or whole warps when the kernel's partition is the block)");
    check_expr(v, s->cond);
    break;
  case ST_WHILE:
    check_expr(v, s->cond);
    break;
  default:
    break;
  }
  check_body(v, &s->body);
  check_body(v, &s->else_body);
  if (s->kind != ST_LET && s->kind != ST_DECL) v->nvars = mark;
}

static void check_body(V *v, const TlVec *body) {
  int mark = v->nvars;
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (!s) {
      fail(v, v->k->loc, "null statement");
      continue;
    }
    check_stmt(v, s);
  }
  v->nvars = mark;
}

static void check_layout(V *v, const TlBuffer *b, const TlFragLayout *l, int depth) {
  int64_t threads = v->k->threads[0] * v->k->threads[1] * v->k->threads[2];
  // A warp range's fragments are spread over its own threads.
  bool range = tl_kernel_warp_ranges(v->k) && l->threads % 32 == 0 && l->threads < threads;
  if (l->kind == LAYOUT_NONE || l->locals < 1 || (l->threads != threads && !range) || depth > 2 ||
      (l->kind == LAYOUT_GEMM_C && (l->wm < 1 || l->wn < 1)) ||
      (l->kind == LAYOUT_ROWS && (l->g < 1 || l->vec < 1)) ||
      ((l->kind == LAYOUT_ROW_OF) != (l->parent != NULL)))
    failf(v, b->loc, "fragment '%s' has a malformed layout", b->name);
  else if (l->parent)
    check_layout(v, b, l->parent, depth + 1);
}

// The facts recorded on buffers: stages, swizzle, shared offsets, tables,
// layouts, each on the scope it belongs to.
static void check_buffer(V *v, const TlBuffer *b) {
  const TlKernel *k = v->k;
  if (b->stages < 1 || (b->stages > 1 && b->scope != SCOPE_SHARED))
    failf(v, b->loc, "buffer '%s' has stages but is not a shared tile", b->name);
  if (b->swizzle &&
      (b->scope != SCOPE_SHARED || (b->swizzle != 2 && b->swizzle != 4 && b->swizzle != 8)))
    failf(v, b->loc, "buffer '%s' has a swizzle that is not 2, 4 or 8 chunks of a shared tile",
          b->name);
  if (b->shared_offset &&
      (b->scope != SCOPE_SHARED || b->shared_offset < 0 ||
       (k->shared_bytes && b->shared_offset + tl_buffer_bytes(b) > k->shared_bytes)))
    failf(v, b->loc, "shared tile '%s' lies outside the kernel's shared block", b->name);
  if (b->view_of &&
      (b->scope != SCOPE_GLOBAL || b->view_of->param_index < 0 || b->view_of->view_of ||
       b->view_of->dtype != b->dtype || tl_buffer_is_dynamic(b->view_of) ||
       tl_buffer_elems(b) > tl_buffer_elems(b->view_of)))
    failf(v, b->loc, "view '%s' is not a global buffer within a parameter of its dtype", b->name);
  if (b->table && (b->scope != SCOPE_GLOBAL || b->table_len != tl_buffer_elems(b)))
    failf(v, b->loc, "table '%s' does not fill its buffer", b->name);
  if (b->layout) {
    if (b->scope != SCOPE_FRAGMENT)
      failf(v, b->loc, "buffer '%s' has a fragment layout but is not a fragment", b->name);
    else
      check_layout(v, b, b->layout, 0);
  }
}

static void check_kernel(V *v) {
  const TlKernel *k = v->k;
  if (k->flat && !k->thread_level) fail(v, k->loc, "flat accesses in tile IR");
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    if (b->param_index != i || b->scope != SCOPE_GLOBAL)
      failf(v, b->loc, "parameter '%s' is not a global buffer at its position", b->name);
    for (int d = 0; d < b->ndims; d++) {
      if (b->dyn[d] && !in_scope(v, b->dyn[d]))
        failf(v, b->loc, "a dimension of '%s' is a runtime size the kernel does not take", b->name);
      if (b->dyn_stride[d] && !in_scope(v, b->dyn_stride[d]))
        failf(v, b->loc, "a stride of '%s' is a runtime size the kernel does not take", b->name);
    }
    check_buffer(v, b);
  }
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    check_buffer(v, b);
    if (tl_buffer_is_dynamic(b))
      failf(v, b->loc, "on-chip buffer '%s' has a runtime size", b->name);
  }
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *size = TL_VEC_AT(k->sizes, TlVar, i);
    check_var(v, size);
    if (size->kind != VAR_SIZE)
      failf(v, size->loc, "size parameter '%s' is not a runtime size", size->name);
  }
  for (int d = 0; d < 3; d++) {
    if (k->grid_const[d] == 0 && !k->grid[d])
      fail(v, k->loc, "a grid extent computed at launch has no expression");
    if (k->grid_const[d] == 0 && k->grid[d]) check_expr(v, k->grid[d]);
  }
  for (int d = 0; d < 3; d++) {
    const TlVar *bv = k->block_vars[d], *tv = k->thread_vars[d];
    if ((bv && (bv->kind != VAR_BLOCK_IDX || bv->dim != d)) ||
        (tv && (tv->kind != VAR_THREAD_IDX || tv->dim != d)))
      fail(v, k->loc, "a block or thread index variable in the wrong role");
    if (bv) check_var(v, bv);
    if (tv) check_var(v, tv);
  }
}

bool tl_ir_verify(const TlModule *m, const char *after, TlDiag *d) {
  bool ok = true;
  for (int k = 0; k < m->kernels.len; k++) {
    V v = {0};
    v.k = TL_VEC_AT(m->kernels, TlKernel, k);
    v.after = after;
    v.d = d;
    v.ok = true;
    check_kernel(&v);
    if (v.k->producer.len && !v.k->ring_stages)
      fail(&v, v.k->loc, "producer code in a kernel without a barrier ring");
    if (v.k->cluster && (v.k->cluster != 2 || !v.k->ring_stages || v.k->cluster_dim < 0 ||
                         v.k->cluster_dim > 2 || v.k->grid_const[v.k->cluster_dim] % 2))
      fail(&v, v.k->loc,
           "a cluster of 2 blocks needs a barrier ring and an even grid along its dimension");
    for (int i = 0; i < v.k->tma_maps.len; i++) {
      const TlTmaMap *t = TL_VEC_AT(v.k->tma_maps, TlTmaMap, i);
      if (t->multicast && (!v.k->cluster || t->box[t->row_dim] * 2 != t->tile->shape[0]))
        fail(&v, v.k->loc,
             "a multicast tensor map needs a cluster and a box of half the tile's rows");
    }
    check_body(&v, &v.k->producer);
    check_body(&v, &v.k->body);
    ok = ok && v.ok;
  }
  return ok;
}
