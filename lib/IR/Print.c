// IR printer: a stable text form of both levels, for --emit=ir,
// --print-after and FileCheck tests. Expressions print fully parenthesized
// only where precedence requires it; every statement shows its line:col.
#include "tlc/IR.h"

#include <string.h>

static int precedence(const TlExpr *e) {
  if (e->kind == EX_BINARY) {
    static const int prec[] = {
#define X(k, s, p) p,
        TL_BINOPS(X)
#undef X
    };
    return (e->op == OP_MIN || e->op == OP_MAX || e->op == OP_FMOD) ? 10 : prec[e->op];
  }
  if (e->kind == EX_UNARY)
    return 7;
  return 10;
}

static void print_expr_prec(TlBuf *out, const TlExpr *e, int min_prec) {
  bool paren = precedence(e) < min_prec;
  if (paren)
    tl_buf_putc(out, '(');
  switch (e->kind) {
  case EX_INT:
    tl_buf_printf(out, "%lld", (long long)e->ival);
    break;
  case EX_FLOAT: {
    char num[40];
    snprintf(num, sizeof num, "%.9g", e->fval);
    tl_buf_puts(out, num);
    if (!strpbrk(num, ".eEni"))
      tl_buf_puts(out, ".0");
    if (e->dtype != TY_FLOAT32)
      tl_buf_printf(out, ":%s", tl_dtype_name(e->dtype));
    break;
  }
  case EX_VAR:
    tl_buf_puts(out, e->var->name);
    break;
  case EX_LOAD:
  case EX_ELEM:
    tl_buf_puts(out, e->kind == EX_LOAD ? e->buf->name : e->var->name);
    tl_buf_putc(out, '[');
    for (int i = 0; i < e->nargs; i++) {
      if (i)
        tl_buf_puts(out, ", ");
      print_expr_prec(out, e->args[i], 0);
    }
    tl_buf_putc(out, ']');
    break;
  case EX_BINARY:
    if (e->op == OP_MIN || e->op == OP_MAX || e->op == OP_FMOD) {
      tl_buf_printf(out, "%s(", tl_op_name(e->op));
      print_expr_prec(out, e->args[0], 0);
      tl_buf_puts(out, ", ");
      print_expr_prec(out, e->args[1], 0);
      tl_buf_putc(out, ')');
    } else {
      int p = precedence(e);
      print_expr_prec(out, e->args[0], e->op == OP_POW ? p + 1 : p);
      tl_buf_printf(out, " %s ", tl_op_name(e->op));
      print_expr_prec(out, e->args[1], e->op == OP_POW ? p : p + 1);
    }
    break;
  case EX_UNARY:
    tl_buf_puts(out, e->op == OP_NOT ? "not " : "-");
    print_expr_prec(out, e->args[0], 7);
    break;
  case EX_CALL:
    tl_buf_printf(out, "%s(", tl_intrinsic_name(e->fn));
    for (int i = 0; i < e->nargs; i++) {
      if (i)
        tl_buf_puts(out, ", ");
      print_expr_prec(out, e->args[i], 0);
    }
    tl_buf_putc(out, ')');
    break;
  case EX_CAST:
    tl_buf_printf(out, "cast<%s>(", tl_dtype_name(e->dtype));
    print_expr_prec(out, e->args[0], 0);
    tl_buf_putc(out, ')');
    break;
  case EX_SELECT:
    tl_buf_puts(out, "select(");
    for (int i = 0; i < 3; i++) {
      if (i)
        tl_buf_puts(out, ", ");
      print_expr_prec(out, e->args[i], 0);
    }
    tl_buf_putc(out, ')');
    break;
  }
  if (paren)
    tl_buf_putc(out, ')');
}

void tl_ir_print_expr(TlBuf *out, const TlExpr *e) {
  print_expr_prec(out, e, 0);
}

static void print_region(TlBuf *out, const TlRegion *r) {
  tl_buf_printf(out, "%s[", r->buf->name);
  for (int i = 0; i < r->ndims; i++) {
    if (i)
      tl_buf_puts(out, ", ");
    tl_ir_print_expr(out, r->start[i]);
    tl_buf_printf(out, " +: %lld", (long long)r->extent[i]);
  }
  tl_buf_putc(out, ']');
}

static void print_body(TlBuf *out, const TlVec *body, int level);

static void print_stmt(TlBuf *out, const TlStmt *s, int level) {
  tl_buf_indent(out, level);
  switch (s->kind) {
  case ST_SEQ:
    tl_buf_puts(out, "{\n");
    print_body(out, &s->body, level + 1);
    tl_buf_indent(out, level);
    tl_buf_puts(out, "}\n");
    return;
  case ST_FOR:
    tl_buf_printf(out, "for %s %s in ", tl_loop_kind_name(s->loop_kind), s->var->name);
    tl_ir_print_expr(out, s->start);
    tl_buf_puts(out, "..");
    tl_ir_print_expr(out, s->stop);
    if (s->step && !(s->step->kind == EX_INT && s->step->ival == 1)) {
      tl_buf_puts(out, " step ");
      tl_ir_print_expr(out, s->step);
    }
    if (s->loop_kind == LOOP_PIPELINED)
      tl_buf_printf(out, " stages %d", s->num_stages);
    if (s->plan.ndims > 0)
      tl_buf_printf(out, " partition(threads %lld, vector %lld, steps %lld%s)",
                    (long long)s->plan.threads, (long long)s->plan.vector,
                    (long long)s->plan.steps, s->plan.guard ? ", guarded" : "");
    tl_buf_printf(out, " @%d:%d {\n", s->loc.line, s->loc.col);
    print_body(out, &s->body, level + 1);
    break;
  case ST_PARALLEL:
    tl_buf_puts(out, "parallel (");
    for (int i = 0; i < s->nvars; i++)
      tl_buf_printf(out, "%s%s < %lld", i ? ", " : "", s->vars[i]->name,
                    (long long)s->extents[i]);
    tl_buf_putc(out, ')');
    if (s->origin != ORIGIN_USER)
      tl_buf_printf(out, " from %s", tl_origin_name(s->origin));
    if (s->coalesced_width)
      tl_buf_printf(out, " coalesced_width %lld", (long long)s->coalesced_width);
    if (s->layout)
      tl_buf_printf(out, " layout %s", s->layout->name);
    tl_buf_printf(out, " @%d:%d {\n", s->loc.line, s->loc.col);
    print_body(out, &s->body, level + 1);
    break;
  case ST_STORE:
    tl_buf_printf(out, "%s[", s->buf ? s->buf->name : s->var->name);
    for (int i = 0; i < s->nindices; i++) {
      if (i)
        tl_buf_puts(out, ", ");
      tl_ir_print_expr(out, s->indices[i]);
    }
    if (s->update_op == OP_EQ)
      tl_buf_puts(out, "] = ");
    else if (s->update_op == OP_FMOD)
      tl_buf_puts(out, "] %= ");
    else
      tl_buf_printf(out, "] %s= ", tl_op_name(s->update_op));
    tl_ir_print_expr(out, s->value);
    tl_buf_printf(out, " @%d:%d\n", s->loc.line, s->loc.col);
    return;
  case ST_LET:
  case ST_SET:
    tl_buf_printf(out, "%s%s: %s = ", s->kind == ST_LET ? "let " : "", s->var->name,
                  tl_dtype_name(s->var->dtype));
    tl_ir_print_expr(out, s->value);
    tl_buf_printf(out, " @%d:%d\n", s->loc.line, s->loc.col);
    return;
  case ST_IF:
    tl_buf_puts(out, "if ");
    tl_ir_print_expr(out, s->cond);
    tl_buf_printf(out, " @%d:%d {\n", s->loc.line, s->loc.col);
    print_body(out, &s->body, level + 1);
    if (s->else_body.len) {
      tl_buf_indent(out, level);
      tl_buf_puts(out, "} else {\n");
      print_body(out, &s->else_body, level + 1);
    }
    break;
  case ST_COPY:
    tl_buf_puts(out, "copy ");
    print_region(out, &s->src);
    tl_buf_puts(out, " -> ");
    print_region(out, &s->dst);
    tl_buf_printf(out, " @%d:%d\n", s->loc.line, s->loc.col);
    return;
  case ST_GEMM:
    tl_buf_printf(out, "gemm %s%s, %s%s -> %s%s @%d:%d\n", s->a->name, s->trans_a ? "^T" : "",
                  s->b->name, s->trans_b ? "^T" : "", s->c->name,
                  !s->c->layout         ? ""
                  : s->wgmma_in_flight  ? " (wgmma, group in flight)"
                  : s->use_wgmma        ? " (wgmma)"
                  : s->use_mma          ? " (tensor cores)"
                                        : " (CUDA cores)",
                  s->loc.line, s->loc.col);
    return;
  case ST_FILL:
    tl_buf_puts(out, "fill ");
    print_region(out, &s->dst);
    tl_buf_puts(out, " = ");
    tl_ir_print_expr(out, s->value);
    tl_buf_printf(out, " @%d:%d\n", s->loc.line, s->loc.col);
    return;
  case ST_REDUCE: {
    static const char *names[] = {"sum", "max", "min", "abssum", "absmax"};
    tl_buf_printf(out, "reduce_%s ", names[s->reduce]);
    print_region(out, &s->src);
    tl_buf_puts(out, " -> ");
    print_region(out, &s->dst);
    tl_buf_printf(out, " dim %d%s @%d:%d\n", s->reduce_dim, s->reduce_clear ? " clear" : "",
                  s->loc.line, s->loc.col);
    return;
  }
  case ST_VLOAD:
    tl_buf_printf(out, "%s[0..%lld] = vload %s[", s->var->name, (long long)s->width,
                  s->buf->name);
    tl_ir_print_expr(out, s->indices[0]);
    tl_buf_printf(out, "] @%d:%d\n", s->loc.line, s->loc.col);
    return;
  case ST_VSTORE:
    tl_buf_printf(out, "vstore %s[", s->buf->name);
    tl_ir_print_expr(out, s->indices[0]);
    tl_buf_printf(out, "] = %s[0..%lld] @%d:%d\n", s->var->name, (long long)s->width,
                  s->loc.line, s->loc.col);
    return;
  case ST_DECL:
    tl_buf_printf(out, "decl %s: %s[%lld]\n", s->var->name, tl_dtype_name(s->var->dtype),
                  (long long)s->var->lanes);
    return;
  case ST_SYNC:
    tl_buf_puts(out, "sync\n");
    return;
  case ST_COMMENT:
    tl_buf_printf(out, "// %s\n", s->text);
    return;
  case ST_CP_ASYNC:
    tl_buf_printf(out, "cp_async %s[", s->buf->name);
    tl_ir_print_expr(out, s->indices[0]);
    tl_buf_printf(out, "] <- ");
    tl_ir_print_expr(out, s->value);
    tl_buf_printf(out, " x %lld", (long long)s->width);
    if (s->cond) {
      tl_buf_puts(out, " if ");
      tl_ir_print_expr(out, s->cond);
    }
    tl_buf_printf(out, " @%d:%d\n", s->loc.line, s->loc.col);
    return;
  case ST_ASYNC_COMMIT:
    tl_buf_puts(out, "async_commit\n");
    return;
  case ST_ASYNC_WAIT:
    tl_buf_printf(out, "async_wait %lld\n", (long long)s->width);
    return;
  case ST_WGMMA_WAIT:
    tl_buf_printf(out, "wgmma_wait %s\n", s->buf->name);
    return;
  }
  tl_buf_indent(out, level);
  tl_buf_puts(out, "}\n");
}

static void print_body(TlBuf *out, const TlVec *body, int level) {
  for (int i = 0; i < body->len; i++)
    print_stmt(out, TL_VEC_AT(*body, TlStmt, i), level);
}

static void print_buffer_type(TlBuf *out, const TlBuffer *b) {
  tl_buf_printf(out, "%s %s[", tl_scope_name(b->scope), tl_dtype_name(b->dtype));
  if (b->stages > 1)
    tl_buf_printf(out, "%d x ", b->stages);
  for (int i = 0; i < b->ndims; i++)
    tl_buf_printf(out, "%s%lld", i ? ", " : "", (long long)b->shape[i]);
  tl_buf_putc(out, ']');
}

void tl_ir_print_module(TlBuf *out, const TlModule *m) {
  for (int k = 0; k < m->kernels.len; k++) {
    const TlKernel *kn = TL_VEC_AT(m->kernels, TlKernel, k);
    tl_buf_printf(out, "kernel %s(", kn->name);
    for (int i = 0; i < kn->params.len; i++) {
      TlBuffer *b = TL_VEC_AT(kn->params, TlBuffer, i);
      tl_buf_printf(out, "%s%s: ", i ? ", " : "", b->name);
      print_buffer_type(out, b);
    }
    tl_buf_printf(out, ") grid(%lld, %lld, %lld) threads(%lld, %lld, %lld)",
                  (long long)kn->grid_const[0], (long long)kn->grid_const[1],
                  (long long)kn->grid_const[2], (long long)kn->threads[0],
                  (long long)kn->threads[1], (long long)kn->threads[2]);
    if (kn->thread_level)
      tl_buf_printf(out, " shared_bytes %lld", (long long)kn->shared_bytes);
    tl_buf_printf(out, " level %s @%d:%d {\n", kn->thread_level ? "thread" : "tile", kn->loc.line,
                  kn->loc.col);
    for (int i = 0; i < kn->buffers.len; i++) {
      TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
      tl_buf_printf(out, "  alloc %s: ", b->name);
      print_buffer_type(out, b);
      if (b->scope == SCOPE_SHARED && kn->thread_level)
        tl_buf_printf(out, " offset %lld", (long long)b->shared_offset);
      tl_buf_printf(out, " @%d:%d\n", b->loc.line, b->loc.col);
    }
    print_body(out, &kn->body, 1);
    tl_buf_puts(out, "}\n");
  }
}
