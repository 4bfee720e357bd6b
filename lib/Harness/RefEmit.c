// The reference lowering: every kernel of the tile IR (as sema made it)
// becomes NAME_ref_kernel and a launcher NAME_ref(params..., stream), written
// to be obviously right rather than fast.
//
//   * The grid is the kernel's; each block runs TL_REF_THREADS threads,
//     whatever threads= says, and ignores T.use_swizzle (block b is tile b).
//   * Block-level statements run in program order, executed by the whole
//     block, each followed by __syncthreads(): no statement sees a
//     half-finished predecessor. Control flow at block level is uniform.
//   * A T.Parallel nest (layouts and coalesced_width ignored) and every tile
//     op hand out their points round-robin: point p to thread p % R.
//   * Loops of every kind (T.Pipelined included) are plain serial loops.
//   * A store outside T.Parallel happens once per block (thread 0), except
//     into a local buffer: local buffers are per-thread, every thread writes
//     its own copy (and a tile op whose destination is local runs entirely in
//     every thread).
//   * Shared and fragment buffers live in a per-block scratch area in global
//     memory, poisoned with 0xFF bytes (NaN) before the kernel runs; local
//     buffers are per-thread arrays, poisoned the same way.
//   * Every element access is bounds-checked: an index outside its buffer is
//     clamped and its source line recorded in tlr_oob_line, which the harness
//     reports as a failure. T.copy / T.fill instead zero-fill loads and skip
//     stores outside a global tensor, as the language defines.
#include <string.h>

#include "HarnessInternal.h"

typedef struct Emit {
  TlRef r;
  TlBuf *o;
  bool one_writer; // in a replicated one-point nest: memory stores by thread 0 only
  bool warned_scope_loops; // the warning on T.ws scopes with mbarrier loops, given
} Emit;

static void line(Emit *e, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(Emit *e, int level, const char *fmt, ...) {
  tl_buf_indent(e->o, level);
  va_list ap;
  va_start(ap, fmt);
  tl_buf_vprintf(e->o, fmt, ap);
  va_end(ap);
  tl_buf_putc(e->o, '\n');
}

static void unsupported(Emit *e, TlLoc loc, const char *what) {
  if (e->r.ok) tl_error(e->r.diag, loc, "the harness reference lowering does not support %s", what);
  e->r.ok = false;
}

static const char *X(Emit *e, const TlExpr *x) {
  return tl_ref_expr(&e->r, x);
}

static bool has_load(const TlExpr *x) {
  if (!x) return false;
  if (x->kind == EX_LOAD) return true;
  for (int i = 0; i < x->nargs; i++)
    if (has_load(x->args[i])) return true;
  return false;
}

// The accumulator dtype for values of dtypes a and b: float64 if either is,
// float32 for any other float, int64 for integers.
static TlDtype acc_dtype(TlDtype a, TlDtype b) {
  if (a == TY_FLOAT64 || b == TY_FLOAT64) return TY_FLOAT64;
  if (tl_dtype_is_float(a) || tl_dtype_is_float(b)) return TY_FLOAT32;
  return TY_INT64;
}

// The loop over a tile op's points: round-robin over the block, or every
// point in every thread when the destination is a per-thread local buffer.
static void points_loop(Emit *e, int level, int64_t count, bool per_thread) {
  if (per_thread)
    line(e, level, "for (long long tl_p = 0; tl_p < %lldLL; ++tl_p) {", (long long)count);
  else
    line(e, level, "for (long long tl_p = threadIdx.x; tl_p < %lldLL; tl_p += %d) {",
         (long long)count, TL_REF_THREADS);
}

// Declares tl_<name><i> = the i-th coordinate of point tl_p in extents[0..n).
static void decompose(Emit *e, int level, const char *name, const int64_t *ext, int n) {
  int64_t stride[TL_MAX_DIMS];
  for (int i = n - 1; i >= 0; i--)
    stride[i] = i == n - 1 ? 1 : stride[i + 1] * ext[i + 1];
  for (int i = 0; i < n; i++) {
    if (n == 1)
      line(e, level, "const long long tl_%s0 = tl_p;", name);
    else if (i == 0)
      line(e, level, "const long long tl_%s%d = tl_p / %lldLL;", name, i, (long long)stride[i]);
    else if (stride[i] == 1)
      line(e, level, "const long long tl_%s%d = tl_p %% %lldLL;", name, i, (long long)ext[i]);
    else
      line(e, level, "const long long tl_%s%d = tl_p / %lldLL %% %lldLL;", name, i,
           (long long)stride[i], (long long)ext[i]);
  }
}

static void block_stmts(Emit *e, const TlVec *body, int level);
static void elem_stmts(Emit *e, const TlVec *body, int level);

static void store(Emit *e, const TlStmt *s, int level) {
  if (s->nindices != s->buf->ndims) {
    unsupported(e, s->loc, "flat stores (thread IR)");
    return;
  }
  const char *idx[TL_MAX_DIMS];
  for (int d = 0; d < s->nindices; d++)
    idx[d] = X(e, s->indices[d]);
  const char *target = tl_ref_access(&e->r, s->buf, idx, s->loc.line);
  const char *value = X(e, s->value);
  if (s->atomic) { // the reference's blocks run concurrently too
    line(e, level, "%satomicAdd(&%s, %s);", e->one_writer ? "if (threadIdx.x == 0) " : "", target, value);
    return;
  }
  if (s->update_op != OP_EQ)
    value = tl_ref_binop(&e->r, s->update_op, s->buf->dtype, target, value);
  if (e->one_writer && s->buf->scope != SCOPE_LOCAL)
    line(e, level, "if (threadIdx.x == 0) %s = %s;", target, value);
  else
    line(e, level, "%s = %s;", target, value);
}

static void for_header(Emit *e, const TlStmt *s, int level) {
  int64_t step = 1;
  tl_expr_is_const(s->step, &step); // sema requires a constant step
  if (s->loop_kind == LOOP_PIPELINED)
    line(e, level, "// T.Pipelined(num_stages=%d) at line %d: a plain serial loop here",
         s->num_stages, s->loc.line);
  const char *v = s->var->cname;
  line(e, level, "for (%s %s = %s; %s %s %s; %s += %lld) {", tl_dtype_cuda(s->var->dtype), v,
       X(e, s->start), v, step > 0 ? "<" : ">", X(e, s->stop), v, (long long)step);
}

// Statements inside a T.Parallel body: one thread, one point.
static void elem_stmt(Emit *e, const TlStmt *s, int level) {
  switch (s->kind) {
  case ST_SEQ:
    elem_stmts(e, &s->body, level);
    return;
  case ST_COMMENT:
    line(e, level, "// %s", s->text);
    return;
  case ST_STORE:
    store(e, s, level);
    return;
  case ST_LET:
    line(e, level, "%s %s = %s;", tl_dtype_cuda(s->var->dtype), s->var->cname, X(e, s->value));
    return;
  case ST_SET:
    line(e, level, "%s = %s;", s->var->cname, X(e, s->value));
    return;
  case ST_IF:
    line(e, level, "if (%s) {", X(e, s->cond));
    elem_stmts(e, &s->body, level + 1);
    if (s->else_body.len) {
      line(e, level, "} else {");
      elem_stmts(e, &s->else_body, level + 1);
    }
    line(e, level, "}");
    return;
  case ST_FOR:
    for_header(e, s, level);
    elem_stmts(e, &s->body, level + 1);
    line(e, level, "}");
    return;
  default:
    unsupported(e, s->loc, "this statement inside T.Parallel");
    return;
  }
}

static void elem_stmts(Emit *e, const TlVec *body, int level) {
  for (int i = 0; i < body->len && e->r.ok; i++)
    elem_stmt(e, TL_VEC_AT(*body, TlStmt, i), level);
}

// Does the nest store only into local buffers (at least once)? Such a nest
// is not divided among the threads (language.md §7.4: every thread updates
// its own copy, e.g. `m[i] = T.rsqrt(m[i] / N)` on a one-element fragment,
// which is every thread's register), so the reference runs every point in
// every thread too.
static bool stores_only_local(const TlVec *body, bool *any) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind == ST_STORE) {
      if (!st->buf || st->buf->scope != SCOPE_LOCAL) return false;
      *any = true;
    }
    if (!stores_only_local(&st->body, any) || !stores_only_local(&st->else_body, any)) return false;
  }
  return true;
}

static bool stores_local(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind == ST_STORE && st->buf && st->buf->scope == SCOPE_LOCAL) return true;
    if (stores_local(&st->body) || stores_local(&st->else_body)) return true;
  }
  return false;
}

static void parallel(Emit *e, const TlStmt *s, int level) {
  int64_t total = 1;
  TlBuf ext;
  tl_buf_init(&ext, e->r.arena);
  for (int i = 0; i < s->nvars; i++) {
    total *= s->extents[i];
    tl_buf_printf(&ext, "%s%lld", i ? ", " : "", (long long)s->extents[i]);
  }
  bool any = false, per_thread = stores_only_local(&s->body, &any) && any;
  // One point that writes a local buffer (TileLang's T.Parallel(blk_m) with
  // blk_m = 1 over one-element fragments, which are replicated): every thread
  // runs it for its own copy, thread 0 writes memory (as the partition pass).
  bool replicated = !per_thread && total == 1 && stores_local(&s->body);
  if (per_thread)
    line(e, level,
         "{ // T.Parallel(%s) at line %d: local buffers only, every point in every thread",
         ext.data, s->loc.line);
  else if (replicated)
    line(e, level,
         "{ // T.Parallel(%s) at line %d: one point writing local buffers: every thread, "
         "memory by thread 0",
         ext.data, s->loc.line);
  else
    line(e, level, "{ // T.Parallel(%s) at line %d: point p -> thread p %% %d", ext.data,
         s->loc.line, TL_REF_THREADS);
  points_loop(e, level + 1, total, per_thread || replicated);
  e->one_writer = replicated;
  int64_t stride[TL_MAX_DIMS];
  for (int i = s->nvars - 1; i >= 0; i--)
    stride[i] = i == s->nvars - 1 ? 1 : stride[i + 1] * s->extents[i + 1];
  for (int i = 0; i < s->nvars; i++) {
    const TlVar *v = s->vars[i];
    const char *t = tl_dtype_cuda(v->dtype);
    if (s->nvars == 1)
      line(e, level + 2, "[[maybe_unused]] const %s %s = (%s)tl_p;", t, v->cname, t);
    else if (i == 0)
      line(e, level + 2, "[[maybe_unused]] const %s %s = (%s)(tl_p / %lldLL);", t, v->cname, t,
           (long long)stride[i]);
    else if (stride[i] == 1)
      line(e, level + 2, "[[maybe_unused]] const %s %s = (%s)(tl_p %% %lldLL);", t, v->cname, t,
           (long long)s->extents[i]);
    else
      line(e, level + 2, "[[maybe_unused]] const %s %s = (%s)(tl_p / %lldLL %% %lldLL);", t,
           v->cname, t, (long long)stride[i], (long long)s->extents[i]);
  }
  elem_stmts(e, &s->body, level + 2);
  e->one_writer = false;
  line(e, level + 1, "}");
  line(e, level, "}");
}

// Hoists the start of each dimension of r into tl_<name><d>.
static bool region_starts(Emit *e, int level, const TlRegion *r, const char *name) {
  bool loads = false;
  for (int d = 0; d < r->ndims; d++) {
    line(e, level, "const long long tl_%s%d = (long long)%s;", name, d,
         tl_ref_paren(&e->r, X(e, r->start[d])));
    loads = loads || has_load(r->start[d]);
  }
  return loads;
}

// "idx0 >= 0 && idx0 < S0 && ..." for the indices tl_<name><d>.
static const char *in_bounds(Emit *e, const TlBuffer *b, const char *name) {
  TlBuf s;
  tl_buf_init(&s, e->r.arena);
  for (int d = 0; d < b->ndims; d++)
    tl_buf_printf(&s, "%stl_%s%d >= 0 && tl_%s%d < %lldLL", d ? " && " : "", name, d, name, d,
                  (long long)b->shape[d]);
  return s.data;
}

static const char **index_names(Emit *e, const char *name, int n) {
  const char **idx = TL_NEW_ARRAY(e->r.arena, const char *, TL_MAX_DIMS);
  for (int d = 0; d < n; d++)
    idx[d] = tl_arena_printf(e->r.arena, "tl_%s%d", name, d);
  return idx;
}

// Declares the indices tl_<name><d> of region r at the copy's point: start
// plus the coordinate of the next non-unit dimension, in order.
static void region_point(Emit *e, int level, const TlRegion *r, const char *start,
                         const char *name) {
  int k = 0;
  for (int d = 0; d < r->ndims; d++) {
    if (r->extent[d] == 1)
      line(e, level, "const long long tl_%s%d = tl_%s%d;", name, d, start, d);
    else
      line(e, level, "const long long tl_%s%d = tl_%s%d + tl_e%d;", name, d, start, d, k++);
  }
}

static void copy(Emit *e, const TlStmt *s, int level) {
  const TlRegion *src = &s->src, *dst = &s->dst;
  TlBuffer *sb = src->buf, *db = dst->buf;
  // The copy's iteration space: the destination's non-unit extents, which
  // sema matched (in order) with the source's.
  int64_t ext[TL_MAX_DIMS], total = 1;
  int n = 0;
  for (int d = 0; d < dst->ndims; d++)
    if (dst->extent[d] != 1) {
      ext[n++] = dst->extent[d];
      total *= dst->extent[d];
    }
  line(e, level,
       "{ // T.copy(%s, %s) at line %d: %lld points, zero-filled / skipped outside a "
       "global tensor",
       sb->name, db->name, s->loc.line, (long long)total);
  bool loads = region_starts(e, level + 1, src, "ss");
  loads = region_starts(e, level + 1, dst, "ds") || loads;
  if (loads) line(e, level + 1, "__syncthreads(); // the starts were read before anyone writes");
  points_loop(e, level + 1, total, db->scope == SCOPE_LOCAL);
  decompose(e, level + 2, "e", ext, n);
  region_point(e, level + 2, src, "ss", "s");
  region_point(e, level + 2, dst, "ds", "d");
  const char **si = index_names(e, "s", src->ndims), **di = index_names(e, "d", dst->ndims);
  if (db->scope == SCOPE_GLOBAL) line(e, level + 2, "if (!(%s)) continue;", in_bounds(e, db, "d"));
  const char *v;
  if (sb->scope == SCOPE_GLOBAL)
    v = tl_arena_printf(e->r.arena, "((%s) ? %s : %s)", in_bounds(e, sb, "s"),
                        tl_ref_access_unchecked(&e->r, sb, si),
                        tl_ref_convert(&e->r, "0", TY_INT32, sb->dtype));
  else
    v = tl_ref_access(&e->r, sb, si, s->loc.line);
  line(e, level + 2, "const %s tl_v = %s;", tl_dtype_cuda(sb->dtype), v);
  const char *target = db->scope == SCOPE_GLOBAL ? tl_ref_access_unchecked(&e->r, db, di)
                                                 : tl_ref_access(&e->r, db, di, s->loc.line);
  const char *converted = tl_ref_convert(&e->r, "tl_v", sb->dtype, db->dtype);
  if (s->atomic) // T.atomic_add(dst, src): other blocks add into dst too
    line(e, level + 2, "atomicAdd(&%s, %s);", target, converted);
  else
    line(e, level + 2, "%s = %s;", target, converted);
  line(e, level + 1, "}");
  line(e, level, "}");
}

static void fill(Emit *e, const TlStmt *s, int level) {
  const TlRegion *dst = &s->dst;
  TlBuffer *db = dst->buf;
  int64_t total = 1;
  for (int d = 0; d < dst->ndims; d++)
    total *= dst->extent[d];
  line(e, level, "{ // T.fill(%s) at line %d: %lld points", db->name, s->loc.line,
       (long long)total);
  line(e, level + 1, "const %s tl_v = %s;", tl_dtype_cuda(db->dtype), X(e, s->value));
  bool loads = region_starts(e, level + 1, dst, "ds") || has_load(s->value);
  if (loads)
    line(e, level + 1, "__syncthreads(); // the value and starts were read before anyone writes");
  points_loop(e, level + 1, total, db->scope == SCOPE_LOCAL);
  decompose(e, level + 2, "e", dst->extent, dst->ndims);
  for (int d = 0; d < dst->ndims; d++)
    line(e, level + 2, "const long long tl_d%d = tl_ds%d + tl_e%d;", d, d, d);
  const char **di = index_names(e, "d", dst->ndims);
  if (db->scope == SCOPE_GLOBAL) {
    line(e, level + 2, "if (!(%s)) continue;", in_bounds(e, db, "d"));
    line(e, level + 2, "%s = tl_v;", tl_ref_access_unchecked(&e->r, db, di));
  } else {
    line(e, level + 2, "%s = tl_v;", tl_ref_access(&e->r, db, di, s->loc.line));
  }
  line(e, level + 1, "}");
  line(e, level, "}");
}

static void gemm(Emit *e, const TlStmt *s, int level) {
  const TlBuffer *A = s->a, *B = s->b, *C = s->c;
  int64_t M = C->shape[0], N = C->shape[1];
  int64_t K = s->trans_a ? A->shape[0] : A->shape[1];
  TlDtype acc = acc_dtype(A->dtype, B->dtype);
  const char *at = tl_dtype_cuda(acc);
  line(e, level,
       "{ // T.gemm(%s, %s, %s%s%s) at line %d: C[m, n] += sum_k A[m, k] * B[k, n] in %s, "
       "one (m, n) per thread",
       A->name, B->name, C->name, s->trans_a ? ", transpose_A" : "",
       s->trans_b ? ", transpose_B" : "", s->loc.line, at);
  points_loop(e, level + 1, M * N, false);
  line(e, level + 2, "const long long tl_m = tl_p / %lldLL, tl_n = tl_p %% %lldLL;", (long long)N,
       (long long)N);
  line(e, level + 2, "%s tl_acc = 0;", at);
  line(e, level + 2, "for (long long tl_k = 0; tl_k < %lldLL; ++tl_k)", (long long)K);
  const char *ai[2] = {s->trans_a ? "tl_k" : "tl_m", s->trans_a ? "tl_m" : "tl_k"};
  const char *bi[2] = {s->trans_b ? "tl_n" : "tl_k", s->trans_b ? "tl_k" : "tl_n"};
  const char *ci[2] = {"tl_m", "tl_n"};
  const char *a = tl_ref_convert(&e->r, tl_ref_access_unchecked(&e->r, A, ai), A->dtype, acc);
  const char *b = tl_ref_convert(&e->r, tl_ref_access_unchecked(&e->r, B, bi), B->dtype, acc);
  line(e, level + 3, "tl_acc += %s * %s;", a, b);
  const char *c = tl_ref_access_unchecked(&e->r, C, ci);
  const char *sum =
      tl_arena_printf(e->r.arena, "%s + tl_acc", tl_ref_convert(&e->r, c, C->dtype, acc));
  line(e, level + 2, "%s = %s;", c, tl_ref_convert(&e->r, sum, acc, C->dtype));
  line(e, level + 1, "}");
  line(e, level, "}");
}

static void reduce(Emit *e, const TlStmt *s, int level) {
  static const char *const names[] = {"sum", "max", "min", "abssum", "absmax"};
  const TlRegion *src = &s->src, *dst = &s->dst;
  TlBuffer *sb = src->buf, *db = dst->buf;
  int dim = s->reduce_dim;
  TlDtype acc = acc_dtype(sb->dtype, db->dtype);
  const char *at = tl_dtype_cuda(acc);
  int64_t ext[TL_MAX_DIMS], total = 1;
  int n = 0;
  for (int d = 0; d < sb->ndims; d++)
    if (d != dim) {
      ext[n++] = sb->shape[d];
      total *= sb->shape[d];
    }
  line(e, level,
       "{ // T.reduce_%s(%s, %s, dim=%d, clear=%s) at line %d: one output per thread, in %s",
       names[s->reduce], sb->name, db->name, dim, s->reduce_clear ? "True" : "False", s->loc.line,
       at);
  bool loads = region_starts(e, level + 1, src, "ss");
  loads = region_starts(e, level + 1, dst, "ds") || loads;
  if (loads) line(e, level + 1, "__syncthreads(); // the starts were read before anyone writes");
  points_loop(e, level + 1, total, db->scope == SCOPE_LOCAL);
  decompose(e, level + 2, "o", ext, n);
  // Destination indices: the kept dimensions in order (or [0] when a 1-D
  // source reduces to a 1-element tile).
  const char **di = index_names(e, "d", db->ndims);
  for (int d = 0; d < db->ndims; d++)
    line(e, level + 2, "const long long tl_d%d = tl_ds%d + %s;", d, d,
         n ? tl_arena_printf(e->r.arena, "tl_o%d", d) : "0");
  const char *target = tl_ref_access(&e->r, db, di, s->loc.line);
  const char *init;
  if (!s->reduce_clear)
    init = tl_ref_convert(&e->r, target, db->dtype, acc);
  else if (s->reduce == REDUCE_MAX || s->reduce == REDUCE_MIN) {
    bool mx = s->reduce == REDUCE_MAX;
    init = acc == TY_FLOAT64 ? (mx ? "(-__longlong_as_double(0x7ff0000000000000LL))"
                                   : "__longlong_as_double(0x7ff0000000000000LL)")
           : acc == TY_FLOAT32
               ? (mx ? "(-__int_as_float(0x7f800000))" : "__int_as_float(0x7f800000)")
               : (mx ? "(-9223372036854775807LL - 1LL)" : "9223372036854775807LL");
  } else {
    init = "0";
  }
  line(e, level + 2, "%s tl_acc = %s;", at, init);
  line(e, level + 2, "for (long long tl_r = 0; tl_r < %lldLL; ++tl_r) {",
       (long long)sb->shape[dim]);
  const char **si = index_names(e, "s", sb->ndims);
  for (int d = 0, k = 0; d < sb->ndims; d++)
    line(e, level + 3, "const long long tl_s%d = tl_ss%d + %s;", d, d,
         d == dim ? "tl_r" : tl_arena_printf(e->r.arena, "tl_o%d", k++));
  line(e, level + 3, "%s tl_x = %s;", at,
       tl_ref_convert(&e->r, tl_ref_access(&e->r, sb, si, s->loc.line), sb->dtype, acc));
  if (s->reduce == REDUCE_ABSSUM || s->reduce == REDUCE_ABSMAX)
    line(e, level + 3, "tl_x = tl_x < 0 ? -tl_x : tl_x;");
  TlOp op = s->reduce == REDUCE_MAX || s->reduce == REDUCE_ABSMAX ? OP_MAX
            : s->reduce == REDUCE_MIN                             ? OP_MIN
                                                                  : OP_ADD;
  line(e, level + 3, "tl_acc = %s;", tl_ref_binop(&e->r, op, acc, "tl_acc", "tl_x"));
  line(e, level + 2, "}");
  line(e, level + 2, "%s = %s;", target, tl_ref_convert(&e->r, "tl_acc", acc, db->dtype));
  line(e, level + 1, "}");
  line(e, level, "}");
}

// Does body hold a loop with an mbarrier wait inside (in_loop: body is in one)?
static bool loop_waits_on_mbarrier(const TlVec *body, bool in_loop) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_MBAR_WAIT && in_loop) return true;
    bool loop = in_loop || s->kind == ST_FOR || s->kind == ST_WHILE;
    if (loop_waits_on_mbarrier(&s->body, loop) || loop_waits_on_mbarrier(&s->else_body, loop))
      return true;
  }
  return false;
}

// Statements at block level: the whole block executes each one, then waits.
static void block_stmt(Emit *e, const TlStmt *s, int level) {
  switch (s->kind) {
  case ST_SEQ:
    block_stmts(e, &s->body, level);
    return;
  case ST_COMMENT:
    line(e, level, "// %s", s->text);
    return;
  case ST_PARALLEL:
    parallel(e, s, level);
    break;
  case ST_COPY:
    copy(e, s, level);
    break;
  case ST_FILL:
    fill(e, s, level);
    break;
  case ST_GEMM:
    gemm(e, s, level);
    break;
  case ST_REDUCE:
    reduce(e, s, level);
    break;
  case ST_STORE:
    if (s->buf->scope == SCOPE_LOCAL) {
      store(e, s, level); // every thread's own copy
    } else if (s->atomic) {
      // Every thread of the kernel adds (TileLang's semantics; the
      // reference's own thread count differs): thread 0 adds for all.
      const TlKernel *k = e->r.kernel;
      long long threads = (long long)(k->threads[0] * k->threads[1] * k->threads[2]);
      line(e, level, "if (threadIdx.x == 0) { // T.atomic_add outside T.Parallel: once per thread");
      line(e, level + 1, "for (int tl_t = 0; tl_t < %lld; ++tl_t) {", threads);
      store(e, s, level + 2);
      line(e, level + 1, "}");
      line(e, level, "}");
    } else {
      line(e, level,
           "if (threadIdx.x == 0) { // a store outside T.Parallel happens once per block");
      store(e, s, level + 1);
      line(e, level, "}");
    }
    break;
  case ST_LET:
    line(e, level, "%s %s = %s;", tl_dtype_cuda(s->var->dtype), s->var->cname, X(e, s->value));
    break;
  case ST_SET:
    line(e, level, "%s = %s;", s->var->cname, X(e, s->value));
    break;
  case ST_IF:
    if (s->group_threads) { // a T.ws scope: the reference runs it with every thread, in order
      if (!e->warned_scope_loops && loop_waits_on_mbarrier(&s->body, false)) {
        // Its loop hands tiles to or from another scope's loop by mbarriers:
        // run one scope after the other, the reference computes the
        // kernel's result only where that order gives the same (one trip,
        // MInference with a single block), else a FAIL is the reference's
        // (FlashMLA's producer and consumer loops). A PASS still means the
        // kernel matched it.
        tl_warning(e->r.diag, s->loc,
                   "the reference runs T.ws scopes one after another; this scope's loop waits on "
                   "mbarriers, so where the kernel interleaves the scopes' loops the reference "
                   "may compute something else (a FAIL is then not the kernel's)");
        e->warned_scope_loops = true;
      }
      block_stmts(e, &s->body, level);
      return;
    }
    line(e, level, "if (%s) {", X(e, s->cond));
    block_stmts(e, &s->body, level + 1);
    if (s->else_body.len) {
      line(e, level, "} else {");
      block_stmts(e, &s->else_body, level + 1);
    }
    line(e, level, "}");
    break;
  case ST_FOR:
    for_header(e, s, level);
    block_stmts(e, &s->body, level + 1);
    line(e, level, "}");
    break;
  case ST_WHILE: // its condition is the same in every thread (language.md)
    line(e, level, "while (%s) {", X(e, s->cond));
    block_stmts(e, &s->body, level + 1);
    line(e, level, "}");
    break;
  case ST_SYNC: // T.sync_threads(): every block statement ends with a barrier here anyway
    if (s->grid_sync) { // the launcher runs the phases around it as separate launches
      line(e, level, "// T.sync_grid(): the next phase is the next launch");
      return;
    }
    break;
  case ST_MBAR_WAIT: // the kernel's own mbarriers: the reference runs the scopes in program order
  case ST_MBAR_ARRIVE:
    return;
  case ST_RNG_INIT:
    unsupported(e, s->loc, "T.rng_init (each thread's generator stream follows the kernel's own "
                           "partition)");
    return;
  default:
    unsupported(e, s->loc, "thread-level statements (the reference reads the tile IR)");
    return;
  }
  line(e, level, "__syncthreads();");
}

static void block_stmts(Emit *e, const TlVec *body, int level) {
  for (int i = 0; i < body->len && e->r.ok; i++)
    block_stmt(e, TL_VEC_AT(*body, TlStmt, i), level);
}

int64_t tl_ref_scratch_bytes(const TlKernel *k) {
  int64_t total = 0;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if ((b->scope == SCOPE_SHARED && !b->alias_of) || b->scope == SCOPE_FRAGMENT)
      total += (tl_buffer_elems(b) * (tl_dtype_bits(b->dtype) / 8) + 15) / 16 * 16;
  }
  return total;
}

static void param_list(Emit *e, const TlKernel *k) {
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    tl_buf_printf(e->o, "%s%s *%s", i ? ", " : "", tl_dtype_cuda(b->dtype),
                  tl_ref_buf_name(&e->r, b));
  }
}

static void kernel(Emit *e, const TlKernel *k, const char *file) {
  e->r.kernel = k;
  int64_t gx = k->grid_const[0], gy = k->grid_const[1], gz = k->grid_const[2];
  int64_t scratch = tl_ref_scratch_bytes(k);
  line(e, 0, "// Reference for kernel %s (%s:%d): grid (%lld, %lld, %lld), %d threads per block,",
       k->name, file, k->loc.line, (long long)gx, (long long)gy, (long long)gz, TL_REF_THREADS);
  line(e, 0, "// %lld bytes of per-block scratch for its shared and fragment buffers.",
       (long long)scratch);
  tl_buf_printf(e->o, "extern \"C\" __global__ void __launch_bounds__(%d) %s_ref_kernel(",
                TL_REF_THREADS, k->name);
  param_list(e, k);
  // T.sync_grid() at the top level splits the body into phases, each run
  // over the whole grid by its own launch (tl_phase); the top-level scalar
  // lets run in every phase (a value a phase changes does not carry into
  // the next: locals are per launch).
  int phases = 1;
  for (int i = 0; i < k->body.len; i++) {
    const TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    phases += s->kind == ST_SYNC && s->grid_sync;
  }
  tl_buf_printf(e->o, "%sunsigned char *tl_scratch, long long tl_block0%s) {\n",
                k->params.len ? ", " : "", phases > 1 ? ", int tl_phase" : "");
  // Blocks may run in several launches (chunks of the grid): tl_block is the
  // block's linear index in the whole grid, x fastest.
  line(e, 1, "[[maybe_unused]] const long long tl_block = tl_block0 + (long long)blockIdx.x;");
  static const char *const block_index[] = {"tl_block %% %lldLL", "tl_block / %lldLL %% %lldLL",
                                            "tl_block / %lldLL"};
  for (int d = 0; d < 3; d++) {
    const TlVar *v = k->block_vars[d];
    if (!v) continue;
    const char *val =
        d == 0   ? tl_arena_printf(e->r.arena, block_index[0], (long long)gx)
        : d == 1 ? tl_arena_printf(e->r.arena, block_index[1], (long long)gx, (long long)gy)
                 : tl_arena_printf(e->r.arena, block_index[2], (long long)(gx * gy));
    line(e, 1, "[[maybe_unused]] const %s %s = (%s)(%s);", tl_dtype_cuda(v->dtype), v->cname,
         tl_dtype_cuda(v->dtype), val);
  }
  if (scratch > 0)
    line(e, 1, "unsigned char *tl_mine = tl_scratch + (long long)blockIdx.x * %lldLL;",
         (long long)scratch);
  else
    line(e, 1, "(void)tl_scratch;");
  int64_t off = 0;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->view_of) continue; // a parameter's memory under another shape
    const char *t = tl_dtype_cuda(b->dtype), *name = tl_ref_buf_name(&e->r, b);
    if (b->alias_of) { // T.view: its tile's bytes, declared before it
      line(e, 1, "[[maybe_unused]] %s *%s = (%s *)%s; // view of %s", t, name, t,
           tl_ref_buf_name(&e->r, b->alias_of), b->alias_of->name);
      continue;
    }
    if (b->scope == SCOPE_LOCAL) {
      line(e, 1, "%s %s[%lld]; // local: one per thread", t, name, (long long)tl_buffer_elems(b));
      line(e, 1, "tlr_poison(%s, sizeof(%s));", name, name);
      continue;
    }
    line(e, 1, "[[maybe_unused]] %s *%s = (%s *)(tl_mine + %lld); // %s", t, name, t,
         (long long)off, tl_scope_name(b->scope));
    off += (tl_buffer_elems(b) * (tl_dtype_bits(b->dtype) / 8) + 15) / 16 * 16;
  }
  if (phases == 1) {
    block_stmts(e, &k->body, 1);
  } else {
    int phase = 0;
    for (int i = 0; i < k->body.len && e->r.ok; i++) {
      const TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
      if (s->kind == ST_SYNC && s->grid_sync) {
        block_stmt(e, s, 1);
        phase++;
        continue;
      }
      if (s->kind == ST_LET || s->kind == ST_COMMENT) {
        block_stmt(e, s, 1);
        continue;
      }
      line(e, 1, "if (tl_phase == %d) {", phase);
      block_stmt(e, s, 2);
      line(e, 1, "}");
    }
  }
  line(e, 0, "}");
  line(e, 0, "%s", "");

  // The launcher: the whole grid, in chunks when the scratch would be large.
  tl_buf_printf(e->o, "extern \"C\" cudaError_t %s_ref(", k->name);
  param_list(e, k);
  tl_buf_printf(e->o, "%scudaStream_t tl_stream) {\n", k->params.len ? ", " : "");
  // The chunk: at most 2^31 - 1 blocks per launch and 1 GiB of scratch.
  int64_t blocks = gx * gy * gz, chunk = blocks < INT32_MAX ? blocks : INT32_MAX;
  if (scratch > 0 && chunk > ((int64_t)1 << 30) / scratch)
    chunk = ((int64_t)1 << 30) / scratch > 0 ? ((int64_t)1 << 30) / scratch : 1;
  if (phases > 1 && chunk < blocks) {
    // Each phase must see every block's scratch from the phase before.
    unsupported(e, k->loc, "T.sync_grid() in a kernel whose blocks' scratch is over 1 GiB");
    return;
  }
  line(e, 1, "const long long tl_blocks = %lldLL, tl_chunk = %lldLL, tl_per_block = %lldLL;",
       (long long)blocks, (long long)chunk, (long long)scratch);
  line(e, 1, "unsigned char *tl_scratch = NULL;");
  line(e, 1, "cudaError_t tl_err = cudaSuccess;");
  if (scratch > 0)
    line(e, 1, "tl_err = cudaMalloc((void **)&tl_scratch, (size_t)(tl_chunk * tl_per_block));");
  line(
      e, 1,
      "for (long long tl_b0 = 0; tl_err == cudaSuccess && tl_b0 < tl_blocks; tl_b0 += tl_chunk) {");
  line(e, 2, "const long long tl_n = tl_blocks - tl_b0 < tl_chunk ? tl_blocks - tl_b0 : tl_chunk;");
  if (scratch > 0) {
    line(e, 2, "// Poison: a read before any write shows up as NaN.");
    line(e, 2,
         "tl_err = cudaMemsetAsync(tl_scratch, 0xFF, (size_t)(tl_n * tl_per_block), tl_stream);");
    line(e, 2, "if (tl_err != cudaSuccess)");
    line(e, 3, "break;");
  }
  if (phases > 1)
    line(e, 2, "for (int tl_phase = 0; tl_phase < %d; tl_phase++)", phases);
  tl_buf_printf(e->o, "    %s_ref_kernel<<<(unsigned)tl_n, %d, 0, tl_stream>>>(", k->name,
                TL_REF_THREADS);
  for (int i = 0; i < k->params.len; i++)
    tl_buf_printf(e->o, "%s, ", tl_ref_buf_name(&e->r, TL_VEC_AT(k->params, TlBuffer, i)));
  tl_buf_printf(e->o, "tl_scratch, tl_b0%s);\n", phases > 1 ? ", tl_phase" : "");
  line(e, 2, "tl_err = cudaGetLastError();");
  line(e, 1, "}");
  if (scratch == 0) {
    line(e, 1, "(void)tl_per_block;");
    line(e, 1, "return tl_err;");
    line(e, 0, "}");
    line(e, 0, "%s", "");
    return;
  }
  line(e, 1, "if (tl_scratch) {");
  line(e, 2, "cudaError_t tl_sync = cudaStreamSynchronize(tl_stream);");
  line(e, 2, "cudaError_t tl_free = cudaFree(tl_scratch);");
  line(e, 2, "if (tl_err == cudaSuccess)");
  line(e, 3, "tl_err = tl_sync != cudaSuccess ? tl_sync : tl_free;");
  line(e, 1, "}");
  line(e, 1, "return tl_err;");
  line(e, 0, "}");
  line(e, 0, "%s", "");
}

static const char *const helpers[] = {
    "// ---------------------------------------------------------------------------\n",
    "// Reference lowering (tlc --harness): the tile IR run naively, to check the\n",
    "// compiled kernels against. See docs/harness.md for its semantics.\n",
    "// ---------------------------------------------------------------------------\n",
    "#include <cuda_runtime.h>\n",
    "#include <cuda_fp16.h>\n",
    "#include <cuda_bf16.h>\n",
    "#include <cuda_fp8.h>\n",
    "#include <stdint.h>\n",
    "#include <math.h>\n",
    "\n",
    "typedef __half half_t;\n",
    "typedef __nv_bfloat16 bfloat16_t;\n",
    "typedef __nv_fp8_e4m3 fp8_e4_t;\n",
    "typedef __nv_fp8_e5m2 fp8_e5_t;\n",
    "\n",
    "// The source line of an out-of-bounds index the reference met (0: none).\n",
    "__device__ int tlr_oob_line;\n",
    "\n",
    "// An index checked against its extent: outside, it is recorded and clamped\n",
    "// to 0 so the reference never faults.\n",
    "__device__ __forceinline__ long long tlr_ix(long long i, long long n, int line) {\n",
    "  if (i < 0 || i >= n) {\n",
    "    tlr_oob_line = line;\n",
    "    return 0;\n",
    "  }\n",
    "  return i;\n",
    "}\n",
    "\n",
    "// Python's // and % on integers (floor; the remainder has the divisor's sign).\n",
    "__device__ __forceinline__ long long tlr_floordiv_ll(long long a, long long b) {\n",
    "  long long q = a / b;\n",
    "  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n",
    "}\n",
    "__device__ __forceinline__ long long tlr_floormod_ll(long long a, long long b) {\n",
    "  long long m = a % b;\n",
    "  return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;\n",
    "}\n",
    "template <typename T> __device__ __forceinline__ T tlr_floordiv(T a, T b) {\n",
    "  return (T)tlr_floordiv_ll((long long)a, (long long)b);\n",
    "}\n",
    "template <typename T> __device__ __forceinline__ T tlr_floormod(T a, T b) {\n",
    "  return (T)tlr_floormod_ll((long long)a, (long long)b);\n",
    "}\n",
    "template <typename T> __device__ __forceinline__ T tlr_min(T a, T b) {\n",
    "  return (T)((long long)a < (long long)b ? a : b);\n",
    "}\n",
    "template <typename T> __device__ __forceinline__ T tlr_max(T a, T b) {\n",
    "  return (T)((long long)a > (long long)b ? a : b);\n",
    "}\n",
    "template <typename T> __device__ __forceinline__ T tlr_abs(T a) {\n",
    "  return (T)((long long)a < 0 ? -(long long)a : (long long)a);\n",
    "}\n",
    "// Python's % on floats: a - floor(a / b) * b.\n",
    "__device__ __forceinline__ float tlr_fmodf(float a, float b) {\n",
    "  return a - floorf(a / b) * b;\n",
    "}\n",
    "__device__ __forceinline__ double tlr_fmod(double a, double b) {\n",
    "  return a - floor(a / b) * b;\n",
    "}\n",
    "\n",
    "// T.reinterpret: the bytes of x, one by one, as a To.\n",
    "template <typename To, typename From> __device__ __forceinline__ To tlr_bitcast(From x) {\n",
    "  To y;\n",
    "  for (size_t i = 0; i < sizeof y; i++)\n",
    "    ((unsigned char *)&y)[i] = ((const unsigned char *)&x)[i];\n",
    "  return y;\n",
    "}\n",
    "\n",
    "// Fills a per-thread buffer with 0xFF bytes (NaN for floats).\n",
    "__device__ __forceinline__ void tlr_poison(void *p, size_t n) {\n",
    "  for (size_t i = 0; i < n; i++)\n",
    "    ((unsigned char *)p)[i] = 0xFF;\n",
    "}\n",
    "\n",
    NULL};

bool tl_ref_emit_module(TlArena *a, const TlModule *ref, TlBuf *out, TlDiag *d) {
  Emit e = {{a, d, NULL, true, 0}, out, false, false};
  for (int i = 0; helpers[i]; i++)
    tl_buf_puts(out, helpers[i]);
  for (int i = 0; i < ref->kernels.len && e.r.ok; i++) {
    const TlKernel *k = TL_VEC_AT(ref->kernels, TlKernel, i);
    if (k->thread_level) {
      unsupported(&e, k->loc, "thread-level kernels (pass the module straight out of sema)");
      break;
    }
    kernel(&e, k, ref->src ? ref->src->name : "?");
  }
  return e.r.ok;
}
