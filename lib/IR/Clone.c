// A deep copy of a module (tl_module_clone): kernels, buffers, variables,
// statements and expressions are all new objects, with every pointer between
// them redirected to the copies. The passes rewrite a module in place (buffer
// stages, layouts and swizzles, loop extents, whole statement lists), so
// --harness copies the module sema made before the passes run and lowers its
// reference from the copy, instead of running sema a second time.
//
// Shared, not copied: what no pass changes after creating it (fragment
// layouts, constant tables, names and comment text, the source).
#include <string.h>

#include "tlc/IR.h"

// Old -> new pointers of one kernel's buffers and variables.
typedef struct Cloner {
  TlArena *arena;
  TlVec old_buffers, new_buffers;
  TlVec old_vars, new_vars;
} Cloner;

static void *copy_of(const TlVec *from, const TlVec *to, const void *old) {
  for (int i = 0; i < from->len; i++)
    if (from->items[i] == old) return to->items[i];
  return NULL;
}

// The one copy of `old` (size bytes, aligned to align) in this kernel: made
// the first time, found in from/to after that. NULL for NULL.
static void *copy_once(Cloner *c, TlVec *from, TlVec *to, const void *old, size_t size,
                       size_t align) {
  if (!old) return NULL;
  void *copy = copy_of(from, to, old);
  if (copy) return copy;
  copy = tl_arena_alloc(c->arena, size, align);
  memcpy(copy, old, size);
  tl_vec_push(c->arena, from, (void *)old);
  tl_vec_push(c->arena, to, copy);
  return copy;
}

static TlVar *clone_var(Cloner *c, const TlVar *v) {
  return copy_once(c, &c->old_vars, &c->new_vars, v, sizeof *v, _Alignof(TlVar));
}

static TlBuffer *clone_buffer(Cloner *c, const TlBuffer *b) {
  TlBuffer *copy = copy_once(c, &c->old_buffers, &c->new_buffers, b, sizeof *b, _Alignof(TlBuffer));
  for (int d = 0; copy && d < TL_MAX_DIMS; d++) { // runtime sizes: the copy's own variables
    copy->dyn[d] = clone_var(c, b->dyn[d]);
    copy->dyn_stride[d] = clone_var(c, b->dyn_stride[d]);
  }
  if (copy && b->alias_of) copy->alias_of = clone_buffer(c, b->alias_of);
  return copy;
}

static TlExpr *clone_expr(Cloner *c, const TlExpr *e) {
  if (!e) return NULL;
  TlExpr *copy = TL_NEW(c->arena, TlExpr);
  *copy = *e;
  copy->var = clone_var(c, e->var);
  copy->buf = clone_buffer(c, e->buf);
  if (e->nargs) {
    copy->args = TL_NEW_ARRAY(c->arena, TlExpr *, e->nargs);
    for (int i = 0; i < e->nargs; i++)
      copy->args[i] = clone_expr(c, e->args[i]);
  }
  return copy;
}

static TlVec clone_buffers(Cloner *c, const TlVec *buffers) {
  TlVec copy = {0};
  for (int i = 0; i < buffers->len; i++)
    tl_vec_push(c->arena, &copy, clone_buffer(c, TL_VEC_AT(*buffers, TlBuffer, i)));
  return copy;
}

// A vector of integers stored as pointers (a loop's order= and stage=).
static TlVec clone_values(Cloner *c, const TlVec *values) {
  TlVec copy = {0};
  for (int i = 0; i < values->len; i++)
    tl_vec_push(c->arena, &copy, values->items[i]);
  return copy;
}

static void clone_region(Cloner *c, TlRegion *r) {
  r->buf = clone_buffer(c, r->buf);
  for (int i = 0; i < r->ndims; i++)
    r->start[i] = clone_expr(c, r->start[i]);
}

static TlLayoutFn *clone_layout_fn(Cloner *c, const TlLayoutFn *f) {
  if (!f) return NULL;
  TlLayoutFn *copy = TL_NEW(c->arena, TlLayoutFn);
  *copy = *f;
  for (int i = 0; i < f->nparams; i++)
    copy->params[i] = clone_var(c, f->params[i]);
  copy->thread = clone_expr(c, f->thread);
  copy->local = clone_expr(c, f->local);
  return copy;
}

static TlVec clone_body(Cloner *c, const TlVec *body);

static TlStmt *clone_stmt(Cloner *c, const TlStmt *s) {
  TlStmt *copy = TL_NEW(c->arena, TlStmt);
  *copy = *s;
  copy->body = clone_body(c, &s->body);
  copy->else_body = clone_body(c, &s->else_body);
  copy->var = clone_var(c, s->var);
  copy->start = clone_expr(c, s->start);
  copy->stop = clone_expr(c, s->stop);
  copy->step = clone_expr(c, s->step);
  copy->order = clone_values(c, &s->order);
  copy->stage = clone_values(c, &s->stage);
  for (int i = 0; i < s->nvars; i++)
    copy->vars[i] = clone_var(c, s->vars[i]);
  copy->layout = clone_layout_fn(c, s->layout);
  copy->buf = clone_buffer(c, s->buf);
  if (s->nindices) {
    copy->indices = TL_NEW_ARRAY(c->arena, TlExpr *, s->nindices);
    for (int i = 0; i < s->nindices; i++)
      copy->indices[i] = clone_expr(c, s->indices[i]);
  }
  copy->value = clone_expr(c, s->value);
  copy->cond = clone_expr(c, s->cond);
  clone_region(c, &copy->src);
  clone_region(c, &copy->dst);
  copy->a = clone_buffer(c, s->a);
  copy->b = clone_buffer(c, s->b);
  copy->c = clone_buffer(c, s->c);
  copy->stage_a = clone_expr(c, s->stage_a);
  copy->stage_b = clone_expr(c, s->stage_b);
  copy->offset_a = clone_expr(c, s->offset_a);
  copy->offset_b = clone_expr(c, s->offset_b);
  copy->pipe_buffers = clone_buffers(c, &s->pipe_buffers);
  return copy;
}

static TlVec clone_body(Cloner *c, const TlVec *body) {
  TlVec copy = {0};
  for (int i = 0; i < body->len; i++)
    tl_vec_push(c->arena, &copy, clone_stmt(c, TL_VEC_AT(*body, TlStmt, i)));
  return copy;
}

TlKernel *tl_kernel_clone(TlArena *a, const TlKernel *k) {
  Cloner c = {.arena = a}; // buffers and variables belong to one kernel
  TlKernel *copy = TL_NEW(a, TlKernel);
  *copy = *k;
  copy->sizes = (TlVec){0};
  for (int i = 0; i < k->sizes.len; i++)
    tl_vec_push(a, &copy->sizes, clone_var(&c, TL_VEC_AT(k->sizes, TlVar, i)));
  copy->tile_iter = clone_var(&c, k->tile_iter);
  copy->params = clone_buffers(&c, &k->params);
  copy->buffers = clone_buffers(&c, &k->buffers);
  for (int d = 0; d < 3; d++) {
    copy->grid[d] = clone_expr(&c, k->grid[d]);
    copy->block_vars[d] = clone_var(&c, k->block_vars[d]);
    copy->thread_vars[d] = clone_var(&c, k->thread_vars[d]);
  }
  copy->body = clone_body(&c, &k->body);
  // Warp specialization (empty before the passes, cloned for completeness).
  copy->producer = clone_body(&c, &k->producer);
  copy->tma_maps = (TlVec){0};
  for (int i = 0; i < k->tma_maps.len; i++) {
    const TlTmaMap *t = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
    TlTmaMap *tc = TL_NEW(a, TlTmaMap);
    *tc = *t;
    tc->global = clone_buffer(&c, t->global);
    tc->tile = clone_buffer(&c, t->tile);
    tl_vec_push(a, &copy->tma_maps, tc);
  }
  return copy;
}

TlModule *tl_module_clone(TlArena *a, const TlModule *m) {
  TlModule *copy = TL_NEW(a, TlModule);
  *copy = *m;
  copy->kernels = (TlVec){0};
  for (int i = 0; i < m->kernels.len; i++)
    tl_vec_push(a, &copy->kernels, tl_kernel_clone(a, TL_VEC_AT(m->kernels, TlKernel, i)));
  return copy;
}
