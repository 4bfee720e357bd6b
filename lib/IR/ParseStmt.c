// The IR text parser's statements: the keyword forms (a table: keyword,
// kind, operands, whether it has a block, what it declares), stores and
// reductions, the facts that end a statement's line, and bodies.
#include "IRParse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void tl_irp_int_list(Parser *p, TlVec *out) {
  tl_irp_expect(p, "[");
  if (!tl_irp_is_punct(tl_irp_peek(p), "]")) do {
      tl_vec_push(p->a, out, (void *)(intptr_t)tl_irp_integer(p, "an integer"));
    } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, "]");
}

// KEY N: a named count, as plans and layouts print their fields.
static int64_t keyed_count(Parser *p, const char *key, const char *what) {
  tl_irp_expect_word(p, key);
  return tl_irp_count(p, what);
}

static void parse_plan(Parser *p, TlPartitionPlan *pl) {
  tl_irp_expect(p, "(");
  pl->threads = keyed_count(p, "threads", "a thread count");
  tl_irp_expect(p, ",");
  pl->vector = keyed_count(p, "vector", "a vector width");
  tl_irp_expect(p, ",");
  pl->steps = keyed_count(p, "steps", "a step count");
  tl_irp_expect(p, ",");
  if (tl_irp_accept_word(p, "guarded")) {
    pl->guard = true;
    tl_irp_expect(p, ",");
  }
  tl_irp_expect_word(p, "extents");
  TlVec ext = {0};
  Tok *t = tl_irp_peek(p);
  tl_irp_int_list(p, &ext);
  if (ext.len < 1 || ext.len > TL_MAX_NEST)
    tl_irp_error_at(p, t, "a partition plan has 1 to %d extents", TL_MAX_NEST);
  pl->ndims = ext.len;
  for (int i = 0; i < ext.len; i++)
    pl->extents[i] = (int64_t)(intptr_t)ext.items[i];
  tl_irp_expect(p, ",");
  pl->total = keyed_count(p, "total", "a total");
  tl_irp_expect(p, ",");
  pl->accesses = keyed_count(p, "accesses", "an access count");
  tl_irp_expect(p, ",");
  pl->slots = keyed_count(p, "slots", "a slot count");
  tl_irp_expect(p, ",");
  pl->threads_used = keyed_count(p, "threads_used", "a thread count");
  tl_irp_expect(p, ")");
}

static TlLayoutFn *parse_layout_fn(Parser *p) {
  TlLayoutFn *f = TL_NEW(p->a, TlLayoutFn);
  f->name = tl_irp_ident(p, "a layout function name");
  int mark = p->scope.len;
  tl_irp_expect(p, "(");
  if (!tl_irp_is_punct(tl_irp_peek(p), ")")) do {
      if (f->nparams == TL_MAX_DIMS + 1)
        tl_irp_error_at(p, tl_irp_peek(p), "a layout function takes at most %d parameters",
                        TL_MAX_DIMS + 1);
      f->params[f->nparams] = tl_irp_var_key(p);
      tl_irp_push_scope(p, f->params[f->nparams++]);
    } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, ")");
  tl_irp_expect(p, "->");
  tl_irp_expect(p, "(");
  f->thread = tl_irp_expr(p);
  tl_irp_expect(p, ",");
  f->local = tl_irp_expr(p);
  tl_irp_expect(p, ")");
  p->scope.len = mark;
  f->replicate = keyed_count(p, "replicate", "a replication count");
  tl_irp_expect_word(p, "at");
  f->loc = (TlLoc){p->origin, 0, 0, 1};
  f->loc.line = tl_irp_small_int(p, "a line number");
  tl_irp_expect(p, ":");
  f->loc.col = tl_irp_small_int(p, "a column");
  return f;
}

// The keyword-led facts of Print.c's print_facts, in any order.
const TlFragLayout *tl_irp_layout(Parser *p);

static void parse_facts(Parser *p, TlStmt *s) {
  for (;;) {
    Tok *t = tl_irp_peek(p);
    if (t->kind != TK_IDENT) return;
    tl_irp_next(p);
    if (tl_irp_is_word(t, "from")) {
      s->origin = tl_irp_origin(p);
    } else if (tl_irp_is_word(t, "coalesced_width")) {
      s->coalesced_width = tl_irp_count(p, "a width");
    } else if (tl_irp_is_word(t, "width")) {
      s->width = tl_irp_count(p, "a width");
    } else if (tl_irp_is_word(t, "layout")) {
      s->layout = parse_layout_fn(p);
    } else if (tl_irp_is_word(t, "stages")) {
      s->num_stages = tl_irp_small_int(p, "a stage count");
    } else if (tl_irp_is_word(t, "partition")) {
      parse_plan(p, &s->plan);
    } else if (tl_irp_is_word(t, "plan_at")) {
      s->plan_loc = (TlLoc){p->origin, 0, 0, 1};
      s->plan_loc.line = tl_irp_small_int(p, "a line number");
      tl_irp_expect(p, ":");
      s->plan_loc.col = tl_irp_small_int(p, "a column");
      s->plan_origin = tl_irp_origin(p);
    } else if (tl_irp_is_word(t, "plan_has_layout")) {
      s->plan_has_layout = true;
    } else if (tl_irp_is_word(t, "order")) {
      tl_irp_int_list(p, &s->order);
    } else if (tl_irp_is_word(t, "stage")) {
      tl_irp_int_list(p, &s->stage);
    } else if (tl_irp_is_word(t, "pipe_buffers")) {
      tl_irp_expect(p, "[");
      if (!tl_irp_is_punct(tl_irp_peek(p), "]")) do {
          tl_vec_push(p->a, &s->pipe_buffers, tl_irp_buffer(p));
        } while (tl_irp_accept(p, ","));
      tl_irp_expect(p, "]");
    } else if (tl_irp_is_word(t, "applied_stages")) {
      s->applied_stages = tl_irp_small_int(p, "a stage count");
    } else if (tl_irp_is_word(t, "per_thread")) {
      s->per_thread = true;
    } else if (tl_irp_is_word(t, "async_copy")) {
      s->async_copy = true;
    } else if (tl_irp_is_word(t, "atomic_add")) {
      s->atomic = true;
    } else if (tl_irp_is_word(t, "warpgroups")) {
      s->group_lo = tl_irp_count(p, "a first thread");
      s->group_threads = tl_irp_count(p, "a thread count");
    } else if (tl_irp_is_word(t, "gemm_id")) {
      s->gemm_id = tl_irp_small_int(p, "a gemm id");
    } else if (tl_irp_is_word(t, "plan_frag")) {
      TlVec v = {0};
      tl_irp_int_list(p, &v);
      if (v.len < 1 || v.len > 2) tl_irp_error_at(p, t, "plan_frag takes one or two extents");
      s->plan_frag_ndims = v.len;
      for (int i = 0; i < v.len; i++)
        s->plan_frag_extents[i] = (int64_t)(intptr_t)v.items[i];
      s->plan_frag = tl_irp_layout(p);
    } else if (tl_irp_is_word(t, "wgmma_in_flight")) {
      s->wgmma_in_flight = true;
    } else if (tl_irp_is_word(t, "a_packed")) {
      s->a_packed = true;
    } else if (tl_irp_is_word(t, "why_not_wgmma")) {
      if (tl_irp_peek(p)->kind != TK_STRING)
        tl_irp_error_at(p, tl_irp_peek(p), "why_not_wgmma takes a quoted reason");
      s->engine_why = tl_irp_next(p)->text;
    } else if (tl_irp_is_word(t, "stage_a")) {
      s->stage_a = tl_irp_expr(p);
    } else if (tl_irp_is_word(t, "stage_b")) {
      s->stage_b = tl_irp_expr(p);
    } else if (tl_irp_is_word(t, "offset_a")) {
      s->offset_a = tl_irp_expr(p);
    } else if (tl_irp_is_word(t, "offset_b")) {
      s->offset_b = tl_irp_expr(p);
    } else {
      tl_irp_error_at(p, t, "unknown statement attribute '%s'", t->text);
    }
  }
}

// The end of a statement's line: facts, the location, then '{' and a body
// when the statement has one.
static void finish_line(Parser *p, TlStmt *s, bool block) {
  parse_facts(p, s);
  s->loc = tl_irp_parse_loc(p);
  if (block) tl_irp_expect(p, "{");
  tl_irp_expect_newline(p);
}

void tl_irp_close_block(Parser *p) {
  tl_irp_expect(p, "}");
  tl_irp_expect_newline(p);
}

static void parse_region(Parser *p, TlRegion *r) {
  r->buf = tl_irp_buffer(p);
  r->loc = p->line_loc;
  tl_irp_expect(p, "[");
  if (!tl_irp_is_punct(tl_irp_peek(p), "]")) do {
      if (r->ndims == TL_MAX_DIMS)
        tl_irp_error_at(p, tl_irp_peek(p), "a region has at most %d dimensions", TL_MAX_DIMS);
      r->start[r->ndims] = tl_irp_expr(p);
      tl_irp_expect(p, "+:");
      r->extent[r->ndims++] = tl_irp_count(p, "an extent");
    } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, "]");
}

static TlLoopKind loop_kind(Parser *p) {
  Tok *t = tl_irp_peek(p);
  const char *name = tl_irp_ident(p, "a loop kind");
  for (int i = LOOP_SERIAL; i <= LOOP_PIPELINED; i++)
    if (strcmp(name, tl_loop_kind_name((TlLoopKind)i)) == 0) return (TlLoopKind)i;
  tl_irp_error_at(p, t, "unknown loop kind '%s'", name);
}

// NAME[0..W]: a register array and its width (vload / vstore).
static TlVar *lanes_of(Parser *p, int64_t *width) {
  TlVar *v = tl_irp_var_ref(p);
  tl_irp_expect(p, "[");
  if (tl_irp_integer(p, "0") != 0)
    tl_irp_error_at(p, &p->toks[p->pos - 1], "a vector access starts at lane 0");
  tl_irp_expect(p, "..");
  *width = tl_irp_count(p, "a width");
  tl_irp_expect(p, "]");
  return v;
}

/* ---- statements: KEYWORD operands facts @line:col, one function per form ---- */

static void for_operands(Parser *p, TlStmt *s) {
  s->loop_kind = loop_kind(p);
  s->var = tl_irp_var_key(p);
  tl_irp_expect_word(p, "in");
  s->start = tl_irp_expr(p);
  tl_irp_expect(p, "..");
  s->stop = tl_irp_expr(p);
  s->step =
      tl_irp_accept_word(p, "step") ? tl_irp_expr(p) : tl_expr_int(p->a, p->line_loc, 1, TY_INT32);
}

static void parallel_operands(Parser *p, TlStmt *s) {
  tl_irp_expect(p, "(");
  do {
    if (s->nvars == TL_MAX_DIMS)
      tl_irp_error_at(p, tl_irp_peek(p), "T.Parallel has at most %d variables", TL_MAX_DIMS);
    s->vars[s->nvars] = tl_irp_var_key(p);
    tl_irp_expect(p, "<");
    s->extents[s->nvars++] = tl_irp_count(p, "an extent");
  } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, ")");
}

// `: dtype = value` after a scalar, which the var table already typed.
static void typed_value(Parser *p, TlStmt *s) {
  tl_irp_expect(p, ":");
  Tok *dt = tl_irp_peek(p);
  if (tl_irp_dtype(p) != s->var->dtype)
    tl_irp_error_at(p, dt, "'%s' is declared %s in the var table", s->var->name,
                    tl_dtype_name(s->var->dtype));
  tl_irp_expect(p, "=");
  s->value = tl_irp_expr(p);
}

static void let_operands(Parser *p, TlStmt *s) {
  s->var = tl_irp_var_key(p);
  typed_value(p, s);
}

static void if_operands(Parser *p, TlStmt *s) {
  s->cond = tl_irp_expr(p);
}

static void copy_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->src);
  tl_irp_expect(p, "->");
  parse_region(p, &s->dst);
}

// A gemm operand: BUF, or BUF^T when it is transposed.
static TlBuffer *gemm_operand(Parser *p, bool *transposed) {
  TlBuffer *b = tl_irp_buffer(p);
  if (tl_irp_accept(p, "^")) {
    tl_irp_expect_word(p, "T");
    *transposed = true;
  }
  return b;
}

static void gemm_operands(Parser *p, TlStmt *s) {
  s->a = gemm_operand(p, &s->trans_a);
  tl_irp_expect(p, ",");
  s->b = gemm_operand(p, &s->trans_b);
  tl_irp_expect(p, "->");
  s->c = tl_irp_buffer(p);
  if (tl_irp_accept(p, "(")) {
    if (tl_irp_accept_word(p, "wgmma")) {
      s->use_wgmma = true;
    } else {
      if (tl_irp_accept_word(p, "tensor"))
        s->use_mma = true;
      else
        tl_irp_expect_word(p, "CUDA");
      tl_irp_expect_word(p, "cores");
    }
    tl_irp_expect(p, ")");
  }
  if (tl_irp_accept_word(p, "if")) s->cond = tl_irp_expr(p);
}

static void fill_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->dst);
  tl_irp_expect(p, "=");
  s->value = tl_irp_expr(p);
}

// After the keyword reduce_KIND, which parse_stmt has read into s->reduce.
static void reduce_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->src);
  tl_irp_expect(p, "->");
  parse_region(p, &s->dst);
  tl_irp_expect_word(p, "dim");
  s->reduce_dim = tl_irp_small_int(p, "a dimension");
  s->reduce_clear = tl_irp_accept_word(p, "clear");
}

// BUF[i, ...]: the buffer and its indices.
static void access(Parser *p, TlStmt *s) {
  s->buf = tl_irp_buffer(p);
  int n;
  s->indices = tl_irp_index_list(p, &n);
  s->nindices = n;
}

static void vstore_operands(Parser *p, TlStmt *s) {
  access(p, s);
  tl_irp_expect(p, "=");
  s->var = lanes_of(p, &s->width);
}

static void decl_operands(Parser *p, TlStmt *s) {
  s->var = tl_irp_var_key(p);
  tl_irp_expect(p, ":");
  Tok *dt = tl_irp_peek(p);
  TlDtype ty = tl_irp_dtype(p);
  tl_irp_expect(p, "[");
  int64_t lanes = tl_irp_count(p, "a register count");
  tl_irp_expect(p, "]");
  if (ty != s->var->dtype || lanes != s->var->lanes)
    tl_irp_error_at(p, dt, "'%s' is declared %s[%lld] in the var table", s->var->name,
                    tl_dtype_name(s->var->dtype), (long long)s->var->lanes);
}

static void no_operands(Parser *p, TlStmt *s) {
  (void)p;
  (void)s;
}

// mma A[off], B[off] -> C[off] k K: one mma.sync atom on local buffers.
static void mma_operands(Parser *p, TlStmt *s) {
  TlBuffer **bufs[3] = {&s->a, &s->b, &s->c};
  for (int i = 0; i < 3; i++) {
    if (i == 1) tl_irp_expect(p, ",");
    if (i == 2) tl_irp_expect(p, "->");
    *bufs[i] = tl_irp_buffer(p);
    tl_irp_expect(p, "[");
    s->mma_offset[i] = tl_irp_count(p, "an element offset");
    tl_irp_expect(p, "]");
  }
  tl_irp_expect_word(p, "k");
  s->mma_k = tl_irp_small_int(p, "an mma K");
}

// sync [grid | barrier ID THREADS [arrive]]: __syncthreads, the grid, or
// named barrier ID of THREADS (arrive: bar.arrive, the thread does not wait).
static void sync_operands(Parser *p, TlStmt *s) {
  if (tl_irp_accept_word(p, "grid")) {
    s->grid_sync = true;
    return;
  }
  if (!tl_irp_accept_word(p, "barrier")) return;
  s->barrier_id = tl_irp_small_int(p, "a barrier id");
  s->barrier_threads = tl_irp_count(p, "a thread count");
  s->barrier_arrive = tl_irp_accept_word(p, "arrive");
}

static void wgmma_wait_operands(Parser *p, TlStmt *s) {
  s->buf = tl_irp_buffer(p);
}

static void async_wait_operands(Parser *p, TlStmt *s) {
  s->width = tl_irp_count(p, "a group count");
}

static void cp_async_operands(Parser *p, TlStmt *s) {
  access(p, s);
  tl_irp_expect(p, "<-");
  s->value = tl_irp_expr(p);
  s->width = keyed_count(p, "x", "a width");
  if (tl_irp_accept_word(p, "if")) s->cond = tl_irp_expr(p);
}

// `map N`: the kernel's tensor map a TMA copy uses.
static void tma_map(Parser *p, TlStmt *s) {
  tl_irp_expect_word(p, "map");
  Tok *mt = tl_irp_peek(p);
  s->tma_map = tl_irp_small_int(p, "a tensor map index");
  if (s->tma_map >= p->k->tma_maps.len)
    tl_irp_error_at(p, mt, "tensor map %d is not declared", s->tma_map);
}

static void tma_load_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->src);
  tl_irp_expect(p, "->");
  s->dst.buf = tl_irp_buffer(p);
  s->dst.ndims = s->dst.buf->ndims;
  tma_map(p, s);
}

static void tma_store_operands(Parser *p, TlStmt *s) {
  s->src.buf = tl_irp_buffer(p);
  s->src.ndims = s->src.buf->ndims;
  tl_irp_expect(p, "->");
  parse_region(p, &s->dst);
  tma_map(p, s);
}

void tl_irp_ring(Parser *p, TlStmt *s) {
  Tok *rt = tl_irp_peek(p);
  if (tl_irp_accept_word(p, "full"))
    s->ring = RING_FULL;
  else if (tl_irp_accept_word(p, "empty"))
    s->ring = RING_EMPTY;
  else if (tl_irp_accept_word(p, "user"))
    s->ring = RING_USER;
  else
    tl_irp_error_at(p, rt, "expected a barrier ring (full, empty or user), found '%s'",
                    tl_irp_describe(rt));
}

static void mbar_wait_operands(Parser *p, TlStmt *s) {
  tl_irp_ring(p, s);
  tl_irp_expect_word(p, "parity");
  s->value = tl_irp_expr(p);
}

// (the full ring's expected bytes come as the width fact)
static void mbar_arrive_operands(Parser *p, TlStmt *s) {
  tl_irp_ring(p, s);
}

// rng_init SEED, SUBSEQUENCE, OFFSET
static void rng_init_operands(Parser *p, TlStmt *s) {
  s->value = tl_irp_expr(p);
  tl_irp_expect(p, ",");
  s->start = tl_irp_expr(p);
  tl_irp_expect(p, ",");
  s->stop = tl_irp_expr(p);
}

// Where the variables a statement declares are visible.
typedef enum {
  DECLARES_NONE,
  DECLARES_IN_BODY, // for, parallel: in the statement's own body
  DECLARES_AFTER,   // let, decl: in the rest of the enclosing body
} DeclScope;

// The statements that start with a keyword. A block form (for, parallel,
// if, while) ends its line with '{' and has a body; if may add `} else {`.
static const struct StmtForm {
  const char *keyword;
  TlStmtKind kind;
  void (*operands)(Parser *p, TlStmt *s);
  bool block;
  DeclScope declares;
} stmt_forms[] = {
    {"for", ST_FOR, for_operands, true, DECLARES_IN_BODY},
    {"parallel", ST_PARALLEL, parallel_operands, true, DECLARES_IN_BODY},
    {"let", ST_LET, let_operands, false, DECLARES_AFTER},
    {"if", ST_IF, if_operands, true, DECLARES_NONE},
    {"while", ST_WHILE, if_operands, true, DECLARES_NONE}, // while COND {
    {"copy", ST_COPY, copy_operands, false, DECLARES_NONE},
    {"gemm", ST_GEMM, gemm_operands, false, DECLARES_NONE},
    {"fill", ST_FILL, fill_operands, false, DECLARES_NONE},
    {"vstore", ST_VSTORE, vstore_operands, false, DECLARES_NONE},
    {"decl", ST_DECL, decl_operands, false, DECLARES_AFTER},
    {"sync", ST_SYNC, sync_operands, false, DECLARES_NONE},
    {"mma", ST_MMA, mma_operands, false, DECLARES_NONE},
    {"async_commit", ST_ASYNC_COMMIT, no_operands, false, DECLARES_NONE},
    {"wgmma_wait", ST_WGMMA_WAIT, wgmma_wait_operands, false, DECLARES_NONE},
    {"wgmma_pack", ST_WGMMA_PACK, wgmma_wait_operands, false, DECLARES_NONE},
    {"async_wait", ST_ASYNC_WAIT, async_wait_operands, false, DECLARES_NONE},
    {"cp_async", ST_CP_ASYNC, cp_async_operands, false, DECLARES_NONE},
    {"tma_load", ST_TMA_LOAD, tma_load_operands, false, DECLARES_NONE},
    {"tma_store", ST_TMA_STORE, tma_store_operands, false, DECLARES_NONE},
    {"tma_store_wait", ST_TMA_STORE_WAIT, no_operands, false, DECLARES_NONE},
    {"mbar_wait", ST_MBAR_WAIT, mbar_wait_operands, false, DECLARES_NONE},
    {"mbar_arrive", ST_MBAR_ARRIVE, mbar_arrive_operands, false, DECLARES_NONE},
    {"rng_init", ST_RNG_INIT, rng_init_operands, false, DECLARES_NONE},
};

// The variables s declares, into scope.
static void declare(Parser *p, const TlStmt *s) {
  if (s->kind == ST_PARALLEL)
    for (int i = 0; i < s->nvars; i++)
      tl_irp_push_scope(p, s->vars[i]);
  else
    tl_irp_push_scope(p, s->var);
}

// The body of a block form (and an if's else body), then its closing brace.
static void block_body(Parser *p, TlStmt *s, int mark) {
  tl_irp_parse_body(p, &s->body);
  p->scope.len = mark;
  if (s->kind == ST_IF && tl_irp_is_punct(tl_irp_peek(p), "}") &&
      tl_irp_is_word(tl_irp_peek_at(p, 1), "else")) {
    tl_irp_next(p);
    tl_irp_next(p);
    tl_irp_expect(p, "{");
    tl_irp_expect_newline(p);
    tl_irp_parse_body(p, &s->else_body);
    p->scope.len = mark;
  }
  tl_irp_close_block(p);
}

static TlStmt *keyword_stmt(Parser *p, const struct StmtForm *f) {
  int mark = p->scope.len;
  TlStmt *s = tl_stmt_new(p->a, f->kind, p->line_loc);
  f->operands(p, s);
  finish_line(p, s, f->block);
  if (f->declares != DECLARES_NONE) declare(p, s);
  if (f->block) block_body(p, s, mark);
  return s;
}

static TlStmt *reduce_stmt(Parser *p, Tok *t) {
  tl_irp_next(p);
  TlStmt *s = tl_stmt_new(p->a, ST_REDUCE, p->line_loc);
  int kind = -1;
  for (int i = REDUCE_SUM; i <= REDUCE_ABSMAX; i++)
    if (strcmp(t->text + 7, tl_irtext_reduce_name((TlReduceKind)i)) == 0) kind = i;
  if (kind < 0) tl_irp_error_at(p, t, "unknown reduction '%s'", t->text);
  s->reduce = (TlReduceKind)kind;
  reduce_operands(p, s);
  finish_line(p, s, false);
  return s;
}

// NAME: dtype = value re-assigns a scalar.
static TlStmt *set_stmt(Parser *p) {
  TlStmt *s = tl_stmt_new(p->a, ST_SET, p->line_loc);
  s->var = tl_irp_var_ref(p);
  typed_value(p, s);
  finish_line(p, s, false);
  return s;
}

// BUF[i] OP= value or ARRAY[i] OP= value: `=` or an update such as `+=`.
static void store_update(Parser *p, TlStmt *s) {
  static const struct {
    const char *s;
    TlOp op;
  } updates[] = {{"=", OP_EQ},  {"+", OP_ADD},       {"-", OP_SUB},   {"*", OP_MUL},
                 {"/", OP_DIV}, {"//", OP_FLOORDIV}, {"%", OP_FMOD},  {"**", OP_POW},
                 {"^", OP_XOR}, {"&", OP_BITAND},    {"|", OP_BITOR}, {"<<", OP_SHL},
                 {">>", OP_SHR}};
  Tok *ot = tl_irp_peek(p);
  int found = -1;
  for (size_t i = 0; i < sizeof updates / sizeof updates[0]; i++)
    if (tl_irp_is_punct(ot, updates[i].s)) found = (int)i;
  if (tl_irp_is_word(ot, "min") || tl_irp_is_word(ot, "max")) found = -2;
  if (found == -1)
    tl_irp_error_at(p, ot, "expected '=' or an update such as '+=', found '%s'",
                    tl_irp_describe(ot));
  tl_irp_next(p);
  if (found == -2)
    s->update_op = tl_irp_is_word(ot, "min") ? OP_MIN : OP_MAX;
  else
    s->update_op = updates[found].op;
  if (s->update_op != OP_EQ) tl_irp_expect(p, "=");
}

// A store (buffer or register array), or NAME[0..W] = vload BUF[i].
static TlStmt *store_stmt(Parser *p, Tok *t) {
  bool is_buf = !tl_irp_is_punct(tl_irp_peek_at(p, 1), "#") && tl_irp_find_buffer(p, t->text);
  int start = p->pos;
  TlBuffer *b = NULL;
  TlVar *v = NULL;
  if (is_buf)
    b = tl_irp_buffer(p);
  else
    v = tl_irp_var_ref(p);
  int save = p->pos;
  TlStmt *s;
  if (v && tl_irp_accept(p, "[") && tl_irp_peek(p)->kind == TK_INT &&
      tl_irp_is_punct(tl_irp_peek_at(p, 1), "..")) {
    p->pos = start;
    s = tl_stmt_new(p->a, ST_VLOAD, p->line_loc);
    s->var = lanes_of(p, &s->width);
    tl_irp_expect(p, "=");
    tl_irp_expect_word(p, "vload");
    access(p, s);
    finish_line(p, s, false);
    return s;
  }
  p->pos = save;
  s = tl_stmt_new(p->a, ST_STORE, p->line_loc);
  s->buf = b;
  s->var = v;
  int n;
  s->indices = tl_irp_index_list(p, &n);
  s->nindices = n;
  store_update(p, s);
  // "%=" is printed for both float and integer modulo: the target's dtype
  // tells which.
  s->value = tl_irp_expr(p);
  if (s->update_op == OP_FMOD && !tl_dtype_is_float(b ? b->dtype : v->dtype))
    s->update_op = OP_FLOORMOD;
  finish_line(p, s, false);
  return s;
}

static TlStmt *parse_stmt(Parser *p) {
  Tok *t = tl_irp_peek(p);
  tl_irp_scan_line_loc(p);
  TlStmt *s;
  if (t->kind == TK_COMMENT) {
    tl_irp_next(p);
    s = tl_stmt_new(p->a, ST_COMMENT, p->line_loc);
    s->text = t->text;
    tl_irp_expect_newline(p);
    return s;
  }
  if (tl_irp_accept(p, "{")) {
    s = tl_stmt_new(p->a, ST_SEQ, p->line_loc);
    parse_facts(p, s);
    if (tl_irp_is_punct(tl_irp_peek(p), "@"))
      s->loc = tl_irp_parse_loc(p);
    else
      s->loc = (TlLoc){0};
    tl_irp_expect_newline(p);
    tl_irp_parse_body(p, &s->body);
    tl_irp_close_block(p);
    return s;
  }
  if (t->kind != TK_IDENT)
    tl_irp_error_at(p, t, "expected a statement, found '%s'", tl_irp_describe(t));
  for (size_t i = 0; i < sizeof stmt_forms / sizeof stmt_forms[0]; i++)
    if (tl_irp_accept_word(p, stmt_forms[i].keyword)) return keyword_stmt(p, &stmt_forms[i]);
  if (strncmp(t->text, "reduce_", 7) == 0) return reduce_stmt(p, t);
  if (tl_irp_is_punct(tl_irp_peek_at(p, 1), ":") ||
      (tl_irp_is_punct(tl_irp_peek_at(p, 1), "#") && tl_irp_is_punct(tl_irp_peek_at(p, 3), ":")))
    return set_stmt(p);
  return store_stmt(p, t);
}

void tl_irp_parse_body(Parser *p, TlVec *body) {
  if (++p->depth > MAX_DEPTH)
    tl_irp_error_at(p, tl_irp_peek(p), "blocks nested more than %d deep", MAX_DEPTH);
  int mark = p->scope.len;
  while (!tl_irp_is_punct(tl_irp_peek(p), "}")) {
    if (tl_irp_peek(p)->kind == TK_EOF)
      tl_irp_error_at(p, tl_irp_peek(p), "expected '}' before the end of the file");
    tl_vec_push(p->a, body, parse_stmt(p));
  }
  p->scope.len = mark;
  p->depth--;
}
