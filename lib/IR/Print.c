// IR printer: one stable text form of both levels, for --emit=ir,
// --print-after, FileCheck tests and .tir files. The text is complete: every
// field a pass or the emitter reads is printed, so lib/IR/Parse.c reads it
// back into the same module (docs/ir.md has the grammar). Expressions are
// parenthesized only where precedence requires it; a dtype is printed only
// where it differs from what the parser would infer; every statement shows
// its line:col in the source the kernel came from.
#include "IRText.h"

#include <stdlib.h>
#include <string.h>

static void print_layout(TlBuf *out, const TlFragLayout *l);

typedef struct P {
  TlBuf *out;
  const TlKernel *k;
  TlVec scope; // TlVar*: the variables visible here, innermost last
  TlArena *arena;
} P;

TlDtype tl_irtext_implied_dtype(const TlExpr *e) {
  switch (e->kind) {
  case EX_INT:
    return TY_INT32;
  case EX_FLOAT:
    return TY_FLOAT32;
  case EX_VAR:
  case EX_ELEM:
    return e->var->dtype;
  case EX_LOAD:
    return e->buf->dtype;
  case EX_BINARY:
    if (e->op >= OP_EQ && e->op <= OP_OR) return TY_BOOL;
    return e->args[0]->dtype;
  case EX_UNARY:
    return e->op == OP_NOT ? TY_BOOL : e->args[0]->dtype;
  case EX_CALL:
    if (e->fn == FN_RNG_RAND) return TY_UINT32;
    if (tl_intrinsic_is_rng(e->fn)) return TY_FLOAT32;
    return e->fn == FN_SWIZZLE ? TY_INT32 : e->args[0]->dtype;
  case EX_SELECT:
    return e->args[1]->dtype;
  case EX_CAST:
    return e->dtype;
  }
  return TY_INT32;
}

const char *tl_irtext_var_kind_name(TlVarKind k) {
  static const char *names[] = {"block", "thread", "loop", "scalar", "array", "size", "tile_iter"};
  return names[k];
}

const char *tl_irtext_layout_kind_name(TlLayoutKind k) {
  static const char *names[] = {"none", "gemm_c", "rows", "row_of"};
  return names[k];
}

const char *tl_irtext_reduce_name(TlReduceKind k) {
  static const char *names[] = {"sum", "max", "min", "abssum", "absmax"};
  return names[k];
}

long long tl_irtext_var_number(const TlVar *v) {
  size_t n = strlen(v->name);
  if (!v->cname || strncmp(v->cname, v->name, n) != 0 || v->cname[n] != '_' || !v->cname[n + 1])
    return -1;
  long long num = 0;
  for (const char *p = v->cname + n + 1; *p; p++) {
    if (*p < '0' || *p > '9' || num > 100000000) return -1;
    num = num * 10 + (*p - '0');
  }
  // A leading zero would not read back as the same name.
  if (v->cname[n + 1] == '0' && v->cname[n + 2]) return -1;
  return num;
}

// A string in the text: between double quotes, '"' and '\\' escaped with a
// backslash (the lexer of ParseTokens.c reads it back). Every string the
// text holds goes through here, so that any name or sentence parses back.
void tl_irtext_put_string(TlBuf *out, const char *s) {
  tl_buf_putc(out, '"');
  for (const char *c = s; *c; c++) {
    if (*c == '"' || *c == '\\') tl_buf_putc(out, '\\');
    tl_buf_putc(out, *c);
  }
  tl_buf_putc(out, '"');
}

// NAME#N (or NAME#"CNAME"): a variable's full identity in the text.
static void print_var_key(TlBuf *out, const TlVar *v) {
  long long n = tl_irtext_var_number(v);
  if (n >= 0)
    tl_buf_printf(out, "%s#%lld", v->name, n);
  else {
    tl_buf_printf(out, "%s#", v->name);
    tl_irtext_put_string(out, v->cname);
  }
}

TlVar *tl_irtext_resolve(const TlVec *scope, const TlKernel *k, const char *name) {
  for (int i = scope->len - 1; i >= 0; i--) {
    TlVar *v = TL_VEC_AT(*scope, TlVar, i);
    if (strcmp(v->name, name) == 0) return v;
  }
  for (int d = 0; d < 3; d++) {
    if (k->block_vars[d] && strcmp(k->block_vars[d]->name, name) == 0) return k->block_vars[d];
    if (k->thread_vars[d] && strcmp(k->thread_vars[d]->name, name) == 0) return k->thread_vars[d];
  }
  for (int i = 0; i < k->sizes.len; i++)
    if (strcmp(TL_VEC_AT(k->sizes, TlVar, i)->name, name) == 0)
      return TL_VEC_AT(k->sizes, TlVar, i);
  return NULL;
}

static bool is_buffer_name(const P *p, const char *name) {
  const TlVec *lists[] = {&p->k->params, &p->k->buffers};
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < lists[l]->len; i++)
      if (strcmp(TL_VEC_AT(*lists[l], TlBuffer, i)->name, name) == 0) return true;
  return false;
}

// A bare name when it resolves to v; the full key when another variable or
// a buffer of that name (a register array `acc` next to a fragment `acc`)
// would take it.
static void print_var_ref(const P *p, const TlVar *v) {
  if (!p->k || (tl_irtext_resolve(&p->scope, p->k, v->name) == v && !is_buffer_name(p, v->name)))
    tl_buf_puts(p->out, v->name);
  else
    print_var_key(p->out, v);
}

// A float that reads back to the same double: 9 digits when they suffice.
static void print_double(TlBuf *out, double x) {
  char num[40];
  snprintf(num, sizeof num, "%.9g", x);
  if (strtod(num, NULL) != x && x == x) snprintf(num, sizeof num, "%.17g", x);
  tl_buf_puts(out, num);
  if (!strpbrk(num, ".eEni")) tl_buf_puts(out, ".0");
}

// Precedences of TL_BINOPS (Python's order); unary operators bind tighter,
// calls and primaries tightest.
enum { UNARY = 11, PRIMARY = 14 };

static int precedence(const TlExpr *e) {
  if (e->kind == EX_BINARY) {
    static const int prec[] = {
#define X(k, s, p) p,
        TL_BINOPS(X)
#undef X
    };
    return (e->op == OP_MIN || e->op == OP_MAX || e->op == OP_FMOD) ? PRIMARY : prec[e->op];
  }
  if (e->kind == EX_UNARY) return UNARY;
  return PRIMARY;
}

static void print_expr_prec(const P *p, const TlExpr *e, int min_prec);

static void print_args(const P *p, const TlExpr *e, int from) {
  for (int i = from; i < e->nargs; i++) {
    if (i > from) tl_buf_puts(p->out, ", ");
    print_expr_prec(p, e->args[i], 0);
  }
}

static void print_expr_prec(const P *p, const TlExpr *e, int min_prec) {
  TlBuf *out = p->out;
  // A dtype other than the implied one (or an untyped literal) is written
  // as a `:dtype` suffix, which binds to a primary: operators get parentheses.
  bool annotate = e->kind != EX_CAST && !(e->kind == EX_CALL && e->fn == FN_REINTERPRET) &&
                  (e->dtype != tl_irtext_implied_dtype(e) || e->untyped);
  bool paren = precedence(e) < min_prec || (annotate && precedence(e) < PRIMARY);
  if (paren) tl_buf_putc(out, '(');
  switch (e->kind) {
  case EX_INT:
    tl_buf_printf(out, "%lld", (long long)e->ival);
    break;
  case EX_FLOAT:
    print_double(out, e->fval);
    break;
  case EX_VAR:
    print_var_ref(p, e->var);
    break;
  case EX_LOAD:
  case EX_ELEM:
    if (e->kind == EX_LOAD)
      tl_buf_puts(out, e->buf->name);
    else
      print_var_ref(p, e->var);
    tl_buf_putc(out, '[');
    print_args(p, e, 0);
    tl_buf_putc(out, ']');
    break;
  case EX_BINARY:
    if (e->op == OP_MIN || e->op == OP_MAX || e->op == OP_FMOD) {
      tl_buf_printf(out, "%s(", tl_op_name(e->op));
      print_args(p, e, 0);
      tl_buf_putc(out, ')');
    } else {
      int pr = precedence(e);
      print_expr_prec(p, e->args[0], e->op == OP_POW ? pr + 1 : pr);
      tl_buf_printf(out, " %s ", tl_op_name(e->op));
      print_expr_prec(p, e->args[1], e->op == OP_POW ? pr : pr + 1);
    }
    break;
  case EX_UNARY:
    tl_buf_puts(out, e->op == OP_NOT ? "not " : e->op == OP_BITNOT ? "~" : "-");
    // -(1) is a negation of a literal; -1 is a negative literal.
    if (e->op != OP_NOT && (e->args[0]->kind == EX_INT || e->args[0]->kind == EX_FLOAT)) {
      tl_buf_putc(out, '(');
      print_expr_prec(p, e->args[0], 0);
      tl_buf_putc(out, ')');
    } else {
      print_expr_prec(p, e->args[0], UNARY);
    }
    break;
  case EX_CALL:
    if (e->fn == FN_SWIZZLE)
      tl_buf_printf(out, "swizzle<%s>(", e->buf->name);
    else if (e->fn == FN_REINTERPRET)
      tl_buf_printf(out, "reinterpret<%s>(", tl_dtype_name(e->dtype));
    else
      tl_buf_printf(out, "%s(", tl_intrinsic_name(e->fn));
    print_args(p, e, 0);
    tl_buf_putc(out, ')');
    break;
  case EX_CAST:
    tl_buf_printf(out, "cast<%s%s>(", e->untyped ? "~" : "", tl_dtype_name(e->dtype));
    print_expr_prec(p, e->args[0], 0);
    tl_buf_putc(out, ')');
    break;
  case EX_SELECT:
    tl_buf_puts(out, "select(");
    print_args(p, e, 0);
    tl_buf_putc(out, ')');
    break;
  }
  if (paren) tl_buf_putc(out, ')');
  if (annotate) tl_buf_printf(out, ":%s%s", e->untyped ? "~" : "", tl_dtype_name(e->dtype));
}

void tl_ir_print_expr(TlBuf *out, const TlExpr *e) {
  P p = {out, NULL, {0}, out->arena};
  print_expr_prec(&p, e, 0);
}

static void expr(const P *p, const TlExpr *e) {
  print_expr_prec(p, e, 0);
}

static void print_region(const P *p, const TlRegion *r) {
  tl_buf_printf(p->out, "%s[", r->buf->name);
  for (int i = 0; i < r->ndims; i++) {
    if (i) tl_buf_puts(p->out, ", ");
    expr(p, r->start[i]);
    tl_buf_printf(p->out, " +: %lld", (long long)r->extent[i]);
  }
  tl_buf_putc(p->out, ']');
}

static void print_loc(TlBuf *out, TlLoc loc) {
  tl_buf_printf(out, " @%d:%d", loc.line, loc.col);
}

static void print_int_list(TlBuf *out, const char *key, const TlVec *v) {
  tl_buf_printf(out, " %s [", key);
  for (int i = 0; i < v->len; i++)
    tl_buf_printf(out, "%s%lld", i ? ", " : "", (long long)(intptr_t)v->items[i]);
  tl_buf_putc(out, ']');
}

static void print_plan(TlBuf *out, const TlPartitionPlan *pl) {
  tl_buf_printf(out, " partition(threads %lld, vector %lld, steps %lld%s, extents [",
                (long long)pl->threads, (long long)pl->vector, (long long)pl->steps,
                pl->guard ? ", guarded" : "");
  for (int i = 0; i < pl->ndims; i++)
    tl_buf_printf(out, "%s%lld", i ? ", " : "", (long long)pl->extents[i]);
  tl_buf_printf(out, "], total %lld, accesses %lld, slots %lld, threads_used %lld)",
                (long long)pl->total, (long long)pl->accesses, (long long)pl->slots,
                (long long)pl->threads_used);
}

static void push(P *p, const TlVar *v) {
  tl_vec_push(p->arena, &p->scope, (void *)v);
}

// The facts a statement may carry besides its kind's own syntax, each led by
// a keyword, printed only when set. Parse.c accepts them on any statement.
static void print_facts(P *p, const TlStmt *s) {
  TlBuf *out = p->out;
  if (s->origin != ORIGIN_USER) tl_buf_printf(out, " from %s", tl_origin_name(s->origin));
  if (s->coalesced_width)
    tl_buf_printf(out, " coalesced_width %lld", (long long)s->coalesced_width);
  // A copy's coalesced_width= (lower-tile-ops passes it on to its nest);
  // vector accesses and waits print their width in their own syntax.
  if (s->width && s->kind != ST_VLOAD && s->kind != ST_VSTORE && s->kind != ST_CP_ASYNC &&
      s->kind != ST_ASYNC_WAIT)
    tl_buf_printf(out, " width %lld", (long long)s->width);
  if (s->layout) {
    const TlLayoutFn *f = s->layout;
    int mark = p->scope.len;
    tl_buf_printf(out, " layout %s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
      if (i) tl_buf_puts(out, ", ");
      print_var_key(out, f->params[i]);
      push(p, f->params[i]);
    }
    tl_buf_puts(out, ") -> (");
    expr(p, f->thread);
    tl_buf_puts(out, ", ");
    expr(p, f->local);
    tl_buf_printf(out, ") replicate %lld at %d:%d", (long long)f->replicate, f->loc.line,
                  f->loc.col);
    p->scope.len = mark;
  }
  if (s->num_stages || s->loop_kind == LOOP_PIPELINED)
    tl_buf_printf(out, " stages %d", s->num_stages);
  if (s->plan.ndims > 0) print_plan(out, &s->plan);
  if (s->plan_loc.line || s->plan_origin != ORIGIN_USER || s->plan_has_layout)
    tl_buf_printf(out, " plan_at %d:%d %s%s", s->plan_loc.line, s->plan_loc.col,
                  tl_origin_name(s->plan_origin), s->plan_has_layout ? " plan_has_layout" : "");
  if (s->order.len) print_int_list(out, "order", &s->order);
  if (s->stage.len) print_int_list(out, "stage", &s->stage);
  if (s->pipe_buffers.len) {
    tl_buf_puts(out, " pipe_buffers [");
    for (int i = 0; i < s->pipe_buffers.len; i++)
      tl_buf_printf(out, "%s%s", i ? ", " : "", TL_VEC_AT(s->pipe_buffers, TlBuffer, i)->name);
    tl_buf_putc(out, ']');
  }
  if (s->applied_stages) tl_buf_printf(out, " applied_stages %d", s->applied_stages);
  if (s->per_thread) tl_buf_puts(out, " per_thread");
  if (s->async_copy) tl_buf_puts(out, " async_copy");
  if (s->atomic) tl_buf_puts(out, " atomic_add");
  if (s->plan_frag) { // a partitioned nest that follows a fragment layout (for the plan)
    tl_buf_puts(out, " plan_frag [");
    for (int i = 0; i < s->plan_frag_ndims; i++)
      tl_buf_printf(out, "%s%lld", i ? ", " : "", (long long)s->plan_frag_extents[i]);
    tl_buf_puts(out, "] ");
    print_layout(out, s->plan_frag);
  }
  if (s->group_threads)
    tl_buf_printf(out, " warpgroups %lld %lld", (long long)s->group_lo,
                  (long long)s->group_threads);
  if (s->kind == ST_GEMM) tl_buf_printf(out, " gemm_id %d", s->gemm_id);
  if (s->wgmma_in_flight) tl_buf_puts(out, " wgmma_in_flight");
  if (s->a_packed) tl_buf_puts(out, " a_packed");
  if (s->engine_why) {
    tl_buf_puts(out, " why_not_wgmma ");
    tl_irtext_put_string(out, s->engine_why);
  }
  if (s->stage_a) {
    tl_buf_puts(out, " stage_a ");
    expr(p, s->stage_a);
  }
  if (s->stage_b) {
    tl_buf_puts(out, " stage_b ");
    expr(p, s->stage_b);
  }
  if (s->offset_a) {
    tl_buf_puts(out, " offset_a ");
    expr(p, s->offset_a);
  }
  if (s->offset_b) {
    tl_buf_puts(out, " offset_b ");
    expr(p, s->offset_b);
  }
}

static void end_line(P *p, const TlStmt *s) {
  print_facts(p, s);
  print_loc(p->out, s->loc);
  tl_buf_putc(p->out, '\n');
}

static void open_block(P *p, const TlStmt *s) {
  print_facts(p, s);
  print_loc(p->out, s->loc);
  tl_buf_puts(p->out, " {\n");
}

static void print_body(P *p, const TlVec *body, int level);

static void print_stmt(P *p, const TlStmt *s, int level) {
  TlBuf *out = p->out;
  int mark = p->scope.len;
  tl_buf_indent(out, level);
  switch (s->kind) {
  case ST_SEQ:
    tl_buf_putc(out, '{');
    print_facts(p, s);
    if (s->loc.line) print_loc(out, s->loc);
    tl_buf_putc(out, '\n');
    print_body(p, &s->body, level + 1);
    break;
  case ST_FOR:
    tl_buf_printf(out, "for %s ", tl_loop_kind_name(s->loop_kind));
    print_var_key(out, s->var);
    tl_buf_puts(out, " in ");
    expr(p, s->start);
    tl_buf_puts(out, "..");
    expr(p, s->stop);
    if (s->step && !(s->step->kind == EX_INT && s->step->ival == 1 && s->step->dtype == TY_INT32 &&
                     !s->step->untyped)) {
      tl_buf_puts(out, " step ");
      expr(p, s->step);
    }
    open_block(p, s);
    push(p, s->var);
    print_body(p, &s->body, level + 1);
    break;
  case ST_PARALLEL:
    tl_buf_puts(out, "parallel (");
    for (int i = 0; i < s->nvars; i++) {
      if (i) tl_buf_puts(out, ", ");
      print_var_key(out, s->vars[i]);
      tl_buf_printf(out, " < %lld", (long long)s->extents[i]);
    }
    tl_buf_putc(out, ')');
    open_block(p, s);
    for (int i = 0; i < s->nvars; i++)
      push(p, s->vars[i]);
    print_body(p, &s->body, level + 1);
    break;
  case ST_STORE:
    if (s->buf)
      tl_buf_puts(out, s->buf->name);
    else
      print_var_ref(p, s->var);
    tl_buf_putc(out, '[');
    for (int i = 0; i < s->nindices; i++) {
      if (i) tl_buf_puts(out, ", ");
      expr(p, s->indices[i]);
    }
    if (s->update_op == OP_EQ)
      tl_buf_puts(out, "] = ");
    else if (s->update_op == OP_FMOD)
      tl_buf_puts(out, "] %= ");
    else
      tl_buf_printf(out, "] %s= ", tl_op_name(s->update_op));
    expr(p, s->value);
    end_line(p, s);
    return;
  case ST_LET:
  case ST_SET:
    if (s->kind == ST_LET) {
      tl_buf_puts(out, "let ");
      print_var_key(out, s->var);
    } else {
      print_var_ref(p, s->var);
    }
    tl_buf_printf(out, ": %s = ", tl_dtype_name(s->var->dtype));
    expr(p, s->value);
    end_line(p, s);
    if (s->kind == ST_LET) push(p, s->var); // visible to the rest of the enclosing body
    return;
  case ST_WHILE:
    tl_buf_puts(out, "while ");
    expr(p, s->cond);
    open_block(p, s);
    print_body(p, &s->body, level + 1);
    break;
  case ST_IF:
    tl_buf_puts(out, "if ");
    expr(p, s->cond);
    open_block(p, s);
    print_body(p, &s->body, level + 1);
    if (s->else_body.len) {
      tl_buf_indent(out, level);
      tl_buf_puts(out, "} else {\n");
      print_body(p, &s->else_body, level + 1);
    }
    break;
  case ST_COPY:
    tl_buf_puts(out, "copy ");
    print_region(p, &s->src);
    tl_buf_puts(out, " -> ");
    print_region(p, &s->dst);
    end_line(p, s);
    return;
  case ST_GEMM:
    // Before layout inference nothing is decided yet: no "(CUDA cores)".
    tl_buf_printf(out, "gemm %s%s, %s%s -> %s%s", s->a->name, s->trans_a ? "^T" : "", s->b->name,
                  s->trans_b ? "^T" : "", s->c->name,
                  s->use_wgmma   ? " (wgmma)"
                  : s->use_mma   ? " (tensor cores)"
                  : s->c->layout ? " (CUDA cores)"
                                 : "");
    if (s->cond) { // an in-flight wgmma issued by every thread, predicated on this
      tl_buf_puts(out, " if ");
      expr(p, s->cond);
    }
    end_line(p, s);
    return;
  case ST_FILL:
    tl_buf_puts(out, "fill ");
    print_region(p, &s->dst);
    tl_buf_puts(out, " = ");
    expr(p, s->value);
    end_line(p, s);
    return;
  case ST_REDUCE:
    tl_buf_printf(out, "reduce_%s ", tl_irtext_reduce_name(s->reduce));
    print_region(p, &s->src);
    tl_buf_puts(out, " -> ");
    print_region(p, &s->dst);
    tl_buf_printf(out, " dim %d%s", s->reduce_dim, s->reduce_clear ? " clear" : "");
    end_line(p, s);
    return;
  case ST_VLOAD:
    print_var_ref(p, s->var);
    tl_buf_printf(out, "[0..%lld] = vload %s[", (long long)s->width, s->buf->name);
    expr(p, s->indices[0]);
    tl_buf_putc(out, ']');
    end_line(p, s);
    return;
  case ST_VSTORE:
    tl_buf_printf(out, "vstore %s[", s->buf->name);
    expr(p, s->indices[0]);
    tl_buf_puts(out, "] = ");
    print_var_ref(p, s->var);
    tl_buf_printf(out, "[0..%lld]", (long long)s->width);
    end_line(p, s);
    return;
  case ST_DECL:
    tl_buf_puts(out, "decl ");
    print_var_key(out, s->var);
    tl_buf_printf(out, ": %s[%lld]", tl_dtype_name(s->var->dtype), (long long)s->var->lanes);
    end_line(p, s);
    push(p, s->var); // visible to the rest of the enclosing body
    return;
  case ST_MMA:
    tl_buf_printf(out, "mma %s[%lld], %s[%lld] -> %s[%lld] k %d", s->a->name,
                  (long long)s->mma_offset[0], s->b->name, (long long)s->mma_offset[1], s->c->name,
                  (long long)s->mma_offset[2], s->mma_k);
    end_line(p, s);
    return;
  case ST_SYNC:
    tl_buf_puts(out, "sync");
    if (s->grid_sync) tl_buf_puts(out, " grid");
    if (s->barrier_id)
      tl_buf_printf(out, " barrier %d %lld%s", s->barrier_id, (long long)s->barrier_threads,
                    s->barrier_arrive ? " arrive" : "");
    end_line(p, s);
    return;
  case ST_COMMENT:
    // The text runs to the end of the line; a comment has no facts or location.
    tl_buf_printf(out, "// %s\n", s->text);
    return;
  case ST_CP_ASYNC:
    tl_buf_printf(out, "cp_async %s[", s->buf->name);
    expr(p, s->indices[0]);
    tl_buf_printf(out, "] <- ");
    expr(p, s->value);
    tl_buf_printf(out, " x %lld", (long long)s->width);
    if (s->cond) {
      tl_buf_puts(out, " if ");
      expr(p, s->cond);
    }
    end_line(p, s);
    return;
  case ST_ASYNC_COMMIT:
    tl_buf_puts(out, "async_commit");
    end_line(p, s);
    return;
  case ST_ASYNC_WAIT:
    tl_buf_printf(out, "async_wait %lld", (long long)s->width);
    end_line(p, s);
    return;
  case ST_WGMMA_WAIT:
    tl_buf_printf(out, "wgmma_wait %s", s->buf->name); // width N: groups left in flight
    end_line(p, s);
    return;
  case ST_WGMMA_PACK:
    tl_buf_printf(out, "wgmma_pack %s", s->buf->name);
    end_line(p, s);
    return;
  case ST_TMA_LOAD:
    tl_buf_puts(out, "tma_load ");
    print_region(p, &s->src);
    tl_buf_printf(out, " -> %s map %d", s->dst.buf->name, s->tma_map);
    end_line(p, s);
    return;
  case ST_TMA_STORE:
    tl_buf_printf(out, "tma_store %s -> ", s->src.buf->name);
    print_region(p, &s->dst);
    tl_buf_printf(out, " map %d", s->tma_map);
    end_line(p, s);
    return;
  case ST_TMA_STORE_WAIT:
    tl_buf_puts(out, "tma_store_wait");
    end_line(p, s);
    return;
  case ST_MBAR_WAIT:
    tl_buf_printf(out, "mbar_wait %s parity ", tl_ring_name(s->ring));
    expr(p, s->value);
    end_line(p, s);
    return;
  case ST_MBAR_ARRIVE: // the full ring's expected bytes print as the width fact
    tl_buf_printf(out, "mbar_arrive %s", tl_ring_name(s->ring));
    end_line(p, s);
    return;
  case ST_RNG_INIT:
    tl_buf_puts(out, "rng_init ");
    expr(p, s->value);
    tl_buf_puts(out, ", ");
    expr(p, s->start);
    tl_buf_puts(out, ", ");
    expr(p, s->stop);
    end_line(p, s);
    return;
  }
  p->scope.len = mark;
  tl_buf_indent(out, level);
  tl_buf_puts(out, "}\n");
}

static void print_body(P *p, const TlVec *body, int level) {
  int mark = p->scope.len;
  for (int i = 0; i < body->len; i++)
    print_stmt(p, TL_VEC_AT(*body, TlStmt, i), level);
  p->scope.len = mark;
}

static void print_var_key(TlBuf *out, const TlVar *v);

// A runtime size prints as its variable's key (m#0).
static void print_buffer_type(TlBuf *out, const TlBuffer *b) {
  tl_buf_printf(out, "%s %s[", tl_scope_name(b->scope), tl_dtype_name(b->dtype));
  if (b->stages > 1) tl_buf_printf(out, "%d x ", b->stages);
  for (int i = 0; i < b->ndims; i++) {
    tl_buf_puts(out, i ? ", " : "");
    if (b->dyn[i]) {
      print_var_key(out, b->dyn[i]);
      if (tl_buffer_dyn_scale(b, i) > 1)
        tl_buf_printf(out, " * %lld", (long long)tl_buffer_dyn_scale(b, i));
    } else
      tl_buf_printf(out, "%lld", (long long)b->shape[i]);
  }
  tl_buf_putc(out, ']');
}

static void print_layout(TlBuf *out, const TlFragLayout *l) {
  tl_buf_printf(out,
                "%s(rows %lld, cols %lld, threads %lld, wm %lld, wn %lld, g %lld, vec %lld, "
                "locals %lld",
                tl_irtext_layout_kind_name(l->kind), (long long)l->rows, (long long)l->cols,
                (long long)l->threads, (long long)l->wm, (long long)l->wn, (long long)l->g,
                (long long)l->vec, (long long)l->locals);
  if (l->wgmma) tl_buf_puts(out, ", wgmma");
  if (l->parent) {
    tl_buf_puts(out, ", parent ");
    print_layout(out, l->parent);
  }
  tl_buf_putc(out, ')');
}

// What a buffer carries besides its type: the facts the passes recorded.
static void print_buffer_facts(TlBuf *out, const TlBuffer *b, const TlKernel *kn) {
  if (b->scope == SCOPE_SHARED && (kn->thread_level || b->shared_offset))
    tl_buf_printf(out, " offset %lld", (long long)b->shared_offset);
  if (b->swizzle) tl_buf_printf(out, " swizzle %d", b->swizzle);
  if (b->alias_of) tl_buf_printf(out, " alias_of %s", b->alias_of->name);
  if (b->aliased) tl_buf_puts(out, " aliased");
  if (b->region_tile) tl_buf_puts(out, " region_tile");
  if (b->wgmma_operand) tl_buf_puts(out, " wgmma_operand");
  // Only global buffers' uses are read later (the launcher's const).
  if (b->scope == SCOPE_GLOBAL) {
    if (b->view_of) tl_buf_printf(out, " view_of %s", b->view_of->name);
    if (b->strided) { // a runtime stride prints as its variable's key
      tl_buf_puts(out, " strides [");
      for (int d = 0; d < b->ndims; d++) {
        tl_buf_puts(out, d ? ", " : "");
        if (b->dyn_stride[d])
          print_var_key(out, b->dyn_stride[d]);
        else
          tl_buf_printf(out, "%lld", (long long)b->stride[d]);
      }
      tl_buf_putc(out, ']');
    }
    if (b->written) tl_buf_puts(out, " written");
    if (b->read) tl_buf_puts(out, " read");
    if (b->output) tl_buf_puts(out, " output");
    if (b->scratch) tl_buf_puts(out, " scratch");
  }
  if (b->layout) {
    tl_buf_puts(out, " layout ");
    print_layout(out, b->layout);
  }
  if (b->table) {
    tl_buf_printf(out, " table [");
    for (int64_t i = 0; i < b->table_len; i++)
      tl_buf_printf(out, "%s%d", i ? ", " : "", b->table[i]);
    tl_buf_putc(out, ']');
  }
  print_loc(out, b->loc);
}

// Every variable of the kernel, once, in order of first appearance.
static void add_var(TlArena *a, TlVec *seen, const TlVar *v) {
  if (!v) return;
  for (int i = 0; i < seen->len; i++)
    if (seen->items[i] == v) return;
  tl_vec_push(a, seen, (void *)v);
}

static void collect_expr(TlArena *a, TlVec *seen, const TlExpr *e) {
  if (!e) return;
  if (e->kind == EX_VAR || e->kind == EX_ELEM) add_var(a, seen, e->var);
  for (int i = 0; i < e->nargs; i++)
    collect_expr(a, seen, e->args[i]);
}

static void collect_body(TlArena *a, TlVec *seen, const TlVec *body);

static void collect_region(TlArena *a, TlVec *seen, const TlRegion *r) {
  for (int i = 0; i < r->ndims; i++)
    collect_expr(a, seen, r->start[i]);
}

static void collect_stmt(TlArena *a, TlVec *seen, const TlStmt *s) {
  add_var(a, seen, s->var);
  for (int i = 0; i < s->nvars; i++)
    add_var(a, seen, s->vars[i]);
  if (s->layout) {
    for (int i = 0; i < s->layout->nparams; i++)
      add_var(a, seen, s->layout->params[i]);
    collect_expr(a, seen, s->layout->thread);
    collect_expr(a, seen, s->layout->local);
  }
  collect_expr(a, seen, s->start);
  collect_expr(a, seen, s->stop);
  collect_expr(a, seen, s->step);
  for (int i = 0; i < s->nindices; i++)
    collect_expr(a, seen, s->indices[i]);
  collect_expr(a, seen, s->value);
  collect_expr(a, seen, s->cond);
  collect_expr(a, seen, s->stage_a);
  collect_expr(a, seen, s->stage_b);
  collect_expr(a, seen, s->offset_a);
  collect_expr(a, seen, s->offset_b);
  if (s->kind == ST_COPY || s->kind == ST_REDUCE || s->kind == ST_TMA_LOAD)
    collect_region(a, seen, &s->src);
  if (s->kind == ST_TMA_STORE) collect_region(a, seen, &s->dst);
  if (s->kind == ST_COPY || s->kind == ST_REDUCE || s->kind == ST_FILL)
    collect_region(a, seen, &s->dst);
  collect_body(a, seen, &s->body);
  collect_body(a, seen, &s->else_body);
}

static void collect_body(TlArena *a, TlVec *seen, const TlVec *body) {
  for (int i = 0; i < body->len; i++)
    collect_stmt(a, seen, TL_VEC_AT(*body, TlStmt, i));
}

static void print_index_vars(TlBuf *out, const char *key, TlVar *const *vars) {
  if (!vars[0] && !vars[1] && !vars[2]) return;
  tl_buf_printf(out, "  %s", key);
  for (int d = 0; d < 3; d++) {
    tl_buf_putc(out, ' ');
    if (vars[d])
      print_var_key(out, vars[d]);
    else
      tl_buf_putc(out, '-');
  }
  tl_buf_putc(out, '\n');
}

// `sizes m#0, n#1` (the launcher's order) and `grid y EXPR` for each extent
// the launcher computes (printed as 0 in the kernel line).
static void print_runtime_sizes(TlBuf *out, const TlKernel *kn) {
  if (kn->sizes.len == 0) return;
  tl_buf_puts(out, "  sizes ");
  for (int i = 0; i < kn->sizes.len; i++) {
    tl_buf_puts(out, i ? ", " : "");
    print_var_key(out, TL_VEC_AT(kn->sizes, TlVar, i));
  }
  tl_buf_putc(out, '\n');
  P p = {out, kn, {0}, out->arena};
  for (int d = 0; d < 3; d++) {
    if (kn->grid_const[d] > 0) continue;
    tl_buf_printf(out, "  grid %c ", "xyz"[d]);
    print_expr_prec(&p, kn->grid[d], 0);
    tl_buf_putc(out, '\n');
  }
}

static void print_kernel(TlBuf *out, const TlKernel *kn) {
  tl_buf_printf(out, "kernel %s(", kn->name);
  for (int i = 0; i < kn->params.len; i++) {
    TlBuffer *b = TL_VEC_AT(kn->params, TlBuffer, i);
    tl_buf_printf(out, "%s%s: ", i ? ", " : "", b->name);
    print_buffer_type(out, b);
    print_buffer_facts(out, b, kn);
  }
  tl_buf_printf(out, ") grid(%lld, %lld, %lld) threads(%lld, %lld, %lld)",
                (long long)kn->grid_const[0], (long long)kn->grid_const[1],
                (long long)kn->grid_const[2], (long long)kn->threads[0], (long long)kn->threads[1],
                (long long)kn->threads[2]);
  if (kn->thread_level || kn->shared_bytes)
    tl_buf_printf(out, " shared_bytes %lld", (long long)kn->shared_bytes);
  tl_buf_printf(out, " level %s", kn->thread_level ? "thread" : "tile");
  if (kn->flat) tl_buf_puts(out, " flat");
  if (kn->swizzle_panel) tl_buf_printf(out, " swizzle_panel %lld", (long long)kn->swizzle_panel);
  if (kn->ring_stages)
    tl_buf_printf(out, " ring_stages %d regs %d %d blocks_per_sm %d", kn->ring_stages,
                  kn->consumer_regs, kn->producer_regs, kn->blocks_per_sm);
  if (kn->persistent) tl_buf_puts(out, " persistent");
  if (kn->cluster) tl_buf_printf(out, " cluster %d %c", kn->cluster, "xyz"[kn->cluster_dim]);
  if (kn->ws_why) {
    tl_buf_puts(out, " ws_why ");
    tl_irtext_put_string(out, kn->ws_why);
  }
  if (kn->launcher) tl_buf_printf(out, " launcher %s", kn->launcher);
  if (kn->fallback) tl_buf_printf(out, " fallback %s", kn->fallback);
  if (kn->is_fallback) tl_buf_puts(out, " is_fallback");
  if (kn->launch_threads) tl_buf_printf(out, " launch_threads %lld", (long long)kn->launch_threads);
  if (kn->nmbar) {
    tl_buf_puts(out, " mbarriers [");
    for (int i = 0; i < kn->nmbar; i++)
      tl_buf_printf(out, "%s%lld", i ? ", " : "", (long long)kn->mbar_counts[i]);
    tl_buf_putc(out, ']');
  }
  tl_buf_printf(out, " next_id %d @%d:%d {\n", kn->next_id, kn->loc.line, kn->loc.col);

  TlArena *a = out->arena;
  TlVec vars = {0};
  for (int i = 0; i < kn->sizes.len; i++)
    add_var(a, &vars, TL_VEC_AT(kn->sizes, TlVar, i));
  for (int d = 0; d < 3; d++) {
    add_var(a, &vars, kn->block_vars[d]);
    add_var(a, &vars, kn->thread_vars[d]);
  }
  collect_body(a, &vars, &kn->producer);
  collect_body(a, &vars, &kn->body);
  for (int i = 0; i < vars.len; i++) {
    const TlVar *v = TL_VEC_AT(vars, TlVar, i);
    tl_buf_puts(out, "  var ");
    print_var_key(out, v);
    tl_buf_printf(out, ": %s %s", tl_dtype_name(v->dtype), tl_irtext_var_kind_name(v->kind));
    if (v->kind == VAR_BLOCK_IDX || v->kind == VAR_THREAD_IDX)
      tl_buf_printf(out, " %c", "xyz"[v->dim]);
    if (v->extent) tl_buf_printf(out, " extent %lld", (long long)v->extent);
    if (v->lanes) tl_buf_printf(out, " lanes %lld", (long long)v->lanes);
    if (v->divisor) tl_buf_printf(out, " divisor %lld", (long long)v->divisor);
    print_loc(out, v->loc);
    tl_buf_putc(out, '\n');
  }
  print_index_vars(out, "block_vars", kn->block_vars);
  print_index_vars(out, "thread_vars", kn->thread_vars);
  print_runtime_sizes(out, kn);
  for (int i = 0; i < kn->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
    tl_buf_printf(out, "  alloc %s: ", b->name);
    print_buffer_type(out, b);
    print_buffer_facts(out, b, kn);
    tl_buf_putc(out, '\n');
  }
  for (int i = 0; i < kn->tma_maps.len; i++) {
    const TlTmaMap *t = TL_VEC_AT(kn->tma_maps, TlTmaMap, i);
    tl_buf_printf(out, "  tma_map %d: %s -> %s rows %d cols %d box [", i, t->global->name,
                  t->tile->name, t->row_dim, t->col_dim);
    for (int d = 0; d < t->rank; d++)
      tl_buf_printf(out, "%s%lld", d ? ", " : "", (long long)t->box[d]);
    tl_buf_printf(out, "] panel_cols %lld swizzle %d%s%s\n", (long long)t->panel_cols,
                  t->swizzle_bytes, t->multicast ? " multicast" : "", t->store ? " store" : "");
  }
  P p = {out, kn, {0}, a};
  if (kn->ring_stages) { // the producer warpgroup's code, then the compute threads'
    tl_buf_puts(out, "  producer {\n");
    print_body(&p, &kn->producer, 2);
    tl_buf_puts(out, "  }\n");
  }
  print_body(&p, &kn->body, 1);
  tl_buf_puts(out, "}\n");
}

void tl_ir_print_module(TlBuf *out, const TlModule *m) {
  tl_buf_puts(out, "module source ");
  tl_irtext_put_string(out, m->src ? m->src->name : "");
  tl_buf_printf(out, " target %s sm %d max_shared_bytes %lld max_threads %lld",
                m->target_name ? m->target_name : "none", m->sm, (long long)m->max_shared_bytes,
                (long long)m->max_threads);
  if (m->has_wgmma) tl_buf_puts(out, " has_wgmma");
  if (m->has_tma) tl_buf_puts(out, " has_tma");
  if (m->clusters) tl_buf_puts(out, " clusters");
  if (m->nvcc_arch) {
    tl_buf_puts(out, " nvcc_arch ");
    tl_irtext_put_string(out, m->nvcc_arch);
  }
  tl_buf_putc(out, '\n');
  for (int k = 0; k < m->kernels.len; k++)
    print_kernel(out, TL_VEC_AT(m->kernels, TlKernel, k));
}
