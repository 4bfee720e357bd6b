// Facts the checks share, computed once after lowering: how often each
// variable is assigned (a variable assigned only by its initializer can be
// replaced by it), which loops have plain counters, every kernel launch with
// its constant configuration, and each kernel's shared memory.
#include "Verify.h"

#include <stdlib.h>
#include <string.h>

static void each_expr(TvExpr *e, void (*fn)(TvExpr *, void *), void *ctx) {
  if (!e) return;
  fn(e, ctx);
  for (int i = 0; i < e->nkids; i++)
    each_expr(e->kids[i], fn, ctx);
}

// Every expression under s, pre-order, including initializers.
void tv_for_each_expr(TvStmt *s, void (*fn)(TvExpr *, void *), void *ctx) {
  if (!s) return;
  each_expr(s->cond, fn, ctx);
  each_expr(s->inc, fn, ctx);
  each_expr(s->expr, fn, ctx);
  for (int i = 0; i < s->vars.len; i++)
    each_expr(TV_AT(s->vars, TvVar, i)->init, fn, ctx);
  for (int i = 0; i < s->exprs.len; i++)
    each_expr(TV_AT(s->exprs, TvExpr, i), fn, ctx);
  for (int i = 0; i < s->nkids; i++)
    tv_for_each_expr(s->kids[i], fn, ctx);
}

/* ---- assignments and loop counters ---- */

static TvVar *assigned_var(TvExpr *e) {
  e = tv_strip(e);
  return e && e->kind == EX_VAR ? e->var : NULL;
}

static bool is_assign_op(const char *op) {
  size_t n = strlen(op);
  return !strcmp(op, "=") || (n >= 2 && op[n - 1] == '=' && strcmp(op, "==") && strcmp(op, "!=") &&
                              strcmp(op, "<=") && strcmp(op, ">="));
}

static bool is_incdec(const char *op) {
  return !strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "p++") || !strcmp(op, "p--");
}

static void count_assign(TvExpr *e, void *ctx) {
  TvExpr *skip = ctx; // a for loop's own increment
  if (e == skip) return;
  TvVar *v;
  if (e->kind == EX_BINARY && is_assign_op(e->op) && (v = assigned_var(e->kids[0])))
    v->nassign++;
  else if (e->kind == EX_UNARY && is_incdec(e->op) && (v = assigned_var(e->kids[0])))
    v->nassign++;
  else if (e->kind == EX_UNARY && !strcmp(e->op, "&") && (v = assigned_var(e->kids[0])))
    v->addr_taken = true;
}

// for (int v = a; ...; ++v / v++ / v += c / v = v + c) with a positive constant step.
static TvVar *loop_counter(TvStmt *s) {
  TvStmt *init = s->kids[0];
  if (!init || init->kind != ST_DECL || init->vars.len != 1 || !s->inc) return NULL;
  TvVar *v = TV_AT(init->vars, TvVar, 0);
  TvExpr *inc = tv_strip(s->inc);
  long long step;
  if (!v->init || !v->is_integer || !inc || assigned_var(inc->kids ? inc->kids[0] : NULL) != v)
    return NULL;
  if (inc->kind == EX_UNARY && (!strcmp(inc->op, "++") || !strcmp(inc->op, "p++"))) return v;
  if (inc->kind == EX_BINARY && !strcmp(inc->op, "+=") && tv_const_eval(inc->kids[1], &step) &&
      step > 0)
    return v;
  if (inc->kind == EX_BINARY && !strcmp(inc->op, "=")) {
    TvExpr *r = tv_strip(inc->kids[1]);
    if (r && r->kind == EX_BINARY && !strcmp(r->op, "+") && assigned_var(r->kids[0]) == v &&
        tv_const_eval(r->kids[1], &step) && step > 0)
      return v;
  }
  return NULL;
}

typedef struct WriteScan {
  const TvVar *v;
  bool hit;
} WriteScan;

static void find_write(TvExpr *e, void *ctx) {
  WriteScan *w = ctx;
  bool writes = (e->kind == EX_BINARY && is_assign_op(e->op)) ||
                (e->kind == EX_UNARY && (is_incdec(e->op) || !strcmp(e->op, "&")));
  if (writes && e->nkids >= 1 && assigned_var(e->kids[0]) == w->v) w->hit = true;
}

bool tv_stmt_writes_var(TvStmt *s, const TvVar *v) {
  if (!s) return false;
  if (s->kind == ST_ASM) // operands may be outputs, as count_stmt counts them
    for (int i = 0; i < s->exprs.len; i++)
      if (assigned_var(TV_AT(s->exprs, TvExpr, i)) == v) return true;
  for (int i = 0; i < s->nkids; i++)
    if (tv_stmt_writes_var(s->kids[i], v)) return true;
  WriteScan w = {v, false};
  each_expr(s->cond, find_write, &w);
  each_expr(s->inc, find_write, &w);
  each_expr(s->expr, find_write, &w);
  for (int i = 0; i < s->vars.len; i++)
    each_expr(TV_AT(s->vars, TvVar, i)->init, find_write, &w);
  for (int i = 0; i < s->exprs.len; i++)
    each_expr(TV_AT(s->exprs, TvExpr, i), find_write, &w);
  return w.hit;
}

static void count_stmt(TvStmt *s) {
  if (!s) return;
  TvExpr *skip = NULL;
  if (s->kind == ST_FOR) {
    TvVar *v = loop_counter(s);
    if (v) {
      v->loop = s;
      skip = s->inc;
    }
  }
  // Operands of inline asm may be outputs: count them as assignments.
  if (s->kind == ST_ASM)
    for (int i = 0; i < s->exprs.len; i++) {
      TvVar *v = assigned_var(TV_AT(s->exprs, TvExpr, i));
      if (v) v->nassign++;
    }
  each_expr(s->cond, count_assign, skip);
  each_expr(s->inc, count_assign, skip);
  each_expr(s->expr, count_assign, skip);
  for (int i = 0; i < s->vars.len; i++)
    each_expr(TV_AT(s->vars, TvVar, i)->init, count_assign, skip);
  for (int i = 0; i < s->exprs.len; i++)
    each_expr(TV_AT(s->exprs, TvExpr, i), count_assign, skip);
  for (int i = 0; i < s->nkids; i++)
    count_stmt(s->kids[i]);
}

/* ---- launches ---- */

// A dim3 argument: dim3(x, y, z), a plain integer, or a variable holding one.
static bool dim3_eval(TvExpr *e, long long out[3], int depth) {
  e = tv_strip(e);
  long long v;
  if (!e || depth > 8) return false;
  out[0] = out[1] = out[2] = 1;
  if (tv_const_eval(e, &v)) {
    out[0] = v;
    return true;
  }
  if (e->kind == EX_VAR)
    return tv_single_assignment(e->var) && dim3_eval(e->var->init, out, depth + 1);
  if (e->kind == EX_CAST && e->nkids == 1) return dim3_eval(e->kids[0], out, depth + 1);
  if (e->kind != EX_CALL || !e->name) return false;
  if (e->nkids == 1 && strcmp(e->name, "dim3"))
    return dim3_eval(e->kids[0], out, depth + 1); // a copy or conversion
  if (strcmp(e->name, "dim3") || e->nkids > 3) return false;
  for (int i = 0; i < e->nkids; i++)
    if (!tv_const_eval(e->kids[i], &out[i])) return false;
  return true;
}

typedef struct LaunchCtx {
  TvProgram *p;
  TvFunc *in;
} LaunchCtx;

static TvExpr *strip_casts(TvExpr *e) {
  for (e = tv_strip(e); e && e->kind == EX_CAST && e->nkids == 1;)
    e = tv_strip(e->kids[0]);
  return e;
}

// cudaLaunchCooperativeKernel((const void *)K, grid, block, args, smem,
// stream) with `void *args[] = {(void *)&a, ..., nullptr}` (T.sync_grid's
// launch) as the launch K<<<grid, block, smem, stream>>>(a, ...) it is, so
// the launcher checks see its arguments. NULL for any other call.
static TvExpr *cooperative_launch(TvExpr *e) {
  if (e->kind != EX_CALL || !e->name || strcmp(e->name, "cudaLaunchCooperativeKernel") ||
      e->nkids != 6)
    return NULL;
  TvExpr *k = strip_casts(e->kids[0]), *args = strip_casts(e->kids[3]);
  if (!k || k->kind != EX_FUNCREF || !k->func || !args || args->kind != EX_VAR ||
      !args->var->init)
    return NULL;
  TvExpr *list = tv_strip(args->var->init);
  TvExpr *l = tv_alloc(sizeof *l);
  *l = *e;
  l->kind = EX_LAUNCH;
  l->func = k->func;
  l->name = NULL;
  l->nconfig = 4;
  l->kids = tv_alloc(sizeof(TvExpr *) * (size_t)(4 + list->nkids));
  l->kids[0] = e->kids[1], l->kids[1] = e->kids[2], l->kids[2] = e->kids[4], l->kids[3] = e->kids[5];
  l->nkids = 4;
  for (int i = 0; i < list->nkids; i++) {
    TvExpr *a = strip_casts(list->kids[i]);
    if (a && a->kind == EX_UNARY && !strcmp(a->op, "&") && a->nkids == 1)
      l->kids[l->nkids++] = tv_strip(a->kids[0]);
    else if (a && a->kind != EX_INT) // the closing nullptr ends the list
      l->kids[l->nkids++] = list->kids[i];
  }
  return l;
}

static void find_launch(TvExpr *e, void *ctx) {
  LaunchCtx *c = ctx;
  TvExpr *coop = cooperative_launch(e);
  if (coop) e = coop;
  if (e->kind != EX_LAUNCH || !e->func) return;
  TvLaunch *l = tv_alloc(sizeof *l);
  l->e = e;
  l->in = c->in;
  l->dims_known =
      e->nconfig >= 2 && dim3_eval(e->kids[0], l->grid, 0) && dim3_eval(e->kids[1], l->block, 0);
  l->smem_known = e->nconfig >= 3 ? tv_const_eval(e->kids[2], &l->smem) : (l->smem = 0, true);
  tv_push(&e->func->launches, l);
}

// The block size from every launch; the grid too when every launch's is a
// constant (a persistent kernel's grid is the SM count, read at run time:
// its block size is still known, and its grid stays 0, unknown).
static void kernel_dims(TvFunc *k) {
  k->threads_known = k->launches.len > 0;
  bool grid_known = true;
  for (int i = 0; i < k->launches.len; i++) {
    TvLaunch *l = TV_AT(k->launches, TvLaunch, i);
    long long block[3];
    if (!l->dims_known && (l->e->nconfig < 2 || !dim3_eval(l->e->kids[1], block, 0))) {
      k->threads_known = false;
      continue;
    }
    grid_known &= l->dims_known;
    for (int d = 0; d < 3; d++) {
      long long b = l->dims_known ? l->block[d] : block[d];
      if (b > k->threads[d]) k->threads[d] = b;
      if (l->dims_known && l->grid[d] > k->grid[d]) k->grid[d] = l->grid[d];
    }
  }
  if (!grid_known) k->grid[0] = k->grid[1] = k->grid[2] = 0;
}

/* ---- shared memory ---- */

// "// 16384 bytes" after the declaration, on the same line.
static long long bytes_comment(const TvProgram *p, const TvExpr *init) {
  size_t i = init->end;
  while (i < p->text_len && p->text[i] != '\n') {
    if (p->text[i] == '/' && i + 1 < p->text_len && p->text[i + 1] == '/') {
      char *end;
      long long n = strtoll(p->text + i + 2, &end, 10);
      while (*end == ' ')
        end++;
      return end != p->text + i + 2 && !strncmp(end, "bytes", 5) ? n : -1;
    }
    i++;
  }
  return -1;
}

// T* v = (T*)(tl_smem + OFF): a view into dynamic shared memory.
static void smem_view(const TvProgram *p, TvVar *v) {
  if (!v->is_pointer || !v->init) return;
  TvExpr *e = tv_strip(v->init);
  while (e && e->kind == EX_CAST && e->cast_to_pointer)
    e = tv_strip(e->kids[0]);
  long long off = 0;
  if (e && e->kind == EX_BINARY && !strcmp(e->op, "+")) {
    TvExpr *base = tv_strip(e->kids[0]), *o = e->kids[1];
    if (base && base->kind != EX_VAR) {
      base = tv_strip(e->kids[1]);
      o = e->kids[0];
    }
    if (!base || base->kind != EX_VAR || !tv_const_eval(o, &off)) return;
    e = base;
  }
  if (!e || e->kind != EX_VAR || !e->var->is_dynamic_smem) return;
  v->is_smem_view = true;
  v->smem_offset = off * (e->var->elem_size > 0 ? e->var->elem_size : 1);
  v->smem_bytes = bytes_comment(p, v->init);
}

typedef struct SharedCtx {
  TvProgram *p;
  TvFunc *f;
  TvVec seen; // file-scope shared variables already counted
} SharedCtx;

static void shared_globals(TvExpr *e, void *ctx) {
  SharedCtx *c = ctx;
  if (e->kind != EX_VAR || e->var->kind != VAR_GLOBAL || !e->var->is_shared ||
      e->var->is_dynamic_smem)
    return;
  for (int i = 0; i < c->seen.len; i++)
    if (c->seen.items[i] == e->var) return;
  tv_push(&c->seen, e->var);
  if (e->var->size > 0) c->f->static_smem += e->var->size;
}

static void shared_stmt(SharedCtx *c, TvStmt *s) {
  if (!s) return;
  for (int i = 0; i < s->vars.len; i++) {
    TvVar *v = TV_AT(s->vars, TvVar, i);
    if (v->is_shared && !v->is_dynamic_smem && v->size > 0) c->f->static_smem += v->size;
    smem_view(c->p, v);
    if (v->is_smem_view) {
      long long end = v->smem_offset + (v->smem_bytes >= 0 ? v->smem_bytes
                                        : v->elem_size > 0 ? v->elem_size
                                                           : 1);
      if (end > c->f->dynamic_smem_use) {
        c->f->dynamic_smem_use = end;
        c->f->dynamic_smem_end = v;
      }
    }
  }
  for (int i = 0; i < s->nkids; i++)
    shared_stmt(c, s->kids[i]);
}

bool tv_single_assignment(const TvVar *v) {
  return v->init && v->nassign == 0 && !v->addr_taken && !v->loop &&
         (v->kind == VAR_LOCAL || !strncmp(v->type, "const", 5));
}

bool tv_is_barrier_call(const TvExpr *e) {
  static const char *const names[] = {"__syncthreads",     "__syncthreads_count",
                                      "__syncthreads_and", "__syncthreads_or",
                                      "__barrier_sync",
                                      // tlc's cluster barrier (barrier.cluster.arrive + wait): every
                                      // thread of both blocks of a cluster, so a block barrier too
                                      "tl_cluster_sync",
                                      // T.sync_grid(): every thread of the grid
                                      "tl_grid_sync", NULL};
  if (e->kind != EX_CALL || !e->name) return false;
  for (int i = 0; names[i]; i++)
    if (!strcmp(e->name, names[i])) return true;
  return false;
}

void tv_model(TvProgram *p) {
  for (int i = 0; i < p->funcs.len; i++)
    count_stmt(TV_AT(p->funcs, TvFunc, i)->body);
  for (int i = 0; i < p->funcs.len; i++) {
    LaunchCtx c = {p, TV_AT(p->funcs, TvFunc, i)};
    tv_for_each_expr(c.in->body, find_launch, &c);
  }
  for (int i = 0; i < p->funcs.len; i++) {
    TvFunc *f = TV_AT(p->funcs, TvFunc, i);
    kernel_dims(f);
    SharedCtx c = {.p = p, .f = f};
    shared_stmt(&c, f->body);
    tv_for_each_expr(f->body, shared_globals, &c);
  }
}
