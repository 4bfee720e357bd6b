// Eager @tilelang.jit functions, TileLang's current kernel style: the
// function's own body declares its sizes and tensors and holds the T.Kernel.
//
//   @tilelang.jit
//   def matmul(A, B, block_M, block_N, block_K, dtype=T.float16):
//       M, N, K = T.const("M, N, K")
//       A: T.Tensor((M, K), dtype)
//       B: T.Tensor((K, N), dtype)
//       C = T.empty((M, N), dtype)
//       with T.Kernel(...) as (bx, by):
//           ...
//       return C
//
// `matmul.compile(M=1024, N=1024, K=1024, block_M=128, ...)` binds the
// parameters that are not tensors and the T.const sizes by keyword and gives
// a kernel value; compiling it runs the statements before the T.Kernel at
// compile time, makes the annotated parameters the kernel's input tensors
// (in parameter order) and the T.empty outputs its last tensors (in the
// order they are created), then lowers the T.Kernel block as a
// @T.prim_func's. tilelang.compile(prim_func, out_idx=...) gives the
// prim_func itself: tlc's launcher takes every tensor, outputs included.
// This file compiles the body; the evaluator's half (which functions are
// eager, f.compile, T.const) is lib/Eval/EvalEager.c.
#include <string.h>

#include "SemaInternal.h"

// What compiling an eager function collects before its T.Kernel blocks.
typedef struct {
  TlBuffer **inputs; // per parameter: its tensor, or NULL
  TlVec outputs;     // TlBuffer*: the T.empty tensors in creation order
  TlVec withs;       // TlNode*: the T.Kernel blocks, in order
  TlVec scratch;     // TlNode*: the T.alloc_global statements
  const TlNode *ret;
} EagerBody;

static void define_buffer(Sema *s, TlBuffer *b) {
  TlSym *y = tl_scope_define(s, s->scope, b->name, SYM_BUFFER, b->loc);
  y->buf = b;
}

// `A: T.Tensor((M, K), dtype)`: the shape of tensor parameter A.
static bool tensor_decl(Sema *s, const TlNode *def, EagerBody *body, const TlNode *st) {
  const char *name = st->a->name;
  int at = tl_sema_param_index(def, name);
  if (at < 0) {
    tl_error(s->diag, st->a->loc, "'%s' is annotated as a tensor but is not a parameter of '%s'",
             name, def->name);
    tl_note(s->diag, st->a->loc, "an output is created with %s = T.empty(shape, dtype)", name);
    return false;
  }
  if (body->inputs[at]) {
    tl_error(s->diag, st->a->loc, "tensor '%s' is annotated twice", name);
    tl_note(s->diag, body->inputs[at]->loc, "first annotated here");
    return false;
  }
  TlBuffer *b = tl_sema_tensor_param(s, name, st->a->loc, st->b);
  if (!b) return false;
  body->inputs[at] = b;
  define_buffer(s, b);
  return true;
}

static bool is_empty_call(Sema *s, const TlNode *st) {
  if (st->kind != ND_ASSIGN || st->list.len != 1 || !st->a || st->a->kind != ND_CALL) return false;
  const char *t = tl_sema_t_attr(s, st->a->a);
  return t && strcmp(t, "empty") == 0;
}

// `C = T.empty((M, N), dtype)`: an output tensor.
static bool empty_decl(Sema *s, EagerBody *body, const TlNode *st) {
  const TlNode *target = TL_VEC_AT(st->list, TlNode, 0), *call = st->a;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.empty makes one tensor; assign it to a name");
    return false;
  }
  static const char *const kws[] = {"shape", "dtype", NULL};
  if (!tl_sema_check_keywords(s, call, "T.empty", kws)) return false;
  const TlNode *shape = tl_sema_arg(call, 0, "shape");
  const TlNode *dtype = tl_sema_arg(call, 1, "dtype");
  if (!shape || call->list.len > 2) {
    tl_error(s->diag, call->loc, "T.empty takes a shape and a dtype");
    return false;
  }
  TlBuffer *b = tl_sema_global_buffer(s, target->name, target->loc, shape, dtype);
  if (!b) return false;
  b->output = true;
  tl_vec_push(s->arena, &body->outputs, b);
  define_buffer(s, b);
  return true;
}

// One statement of the body before (or, for `return`, after) the T.Kernel
// blocks: several blocks follow each other, with T.alloc_global buffers.
static bool body_stmt(Sema *s, const TlNode *def, EagerBody *body, const TlNode *st) {
  if (st->kind == ND_EXPR_STMT && st->a->kind == ND_STR) return true; // docstring
  if (body->ret) {
    tl_error(s->diag, st->loc, "a statement after the eager function's return");
    return false;
  }
  if (st->kind == ND_WITH) {
    tl_vec_push(s->arena, &body->withs, (void *)st);
    return true;
  }
  if (tl_sema_is_alloc_global(s, st)) {
    tl_vec_push(s->arena, &body->scratch, (void *)st);
    return true;
  }
  if (body->withs.len) {
    if (st->kind == ND_RETURN) {
      body->ret = st;
      return true;
    }
    tl_error(s->diag, st->loc,
             "after its T.Kernel blocks an eager function only returns its "
             "T.empty outputs");
    return false;
  }
  if (tl_sema_is_tensor_decl(s, st)) return tensor_decl(s, def, body, st);
  if (is_empty_call(s, st)) return empty_decl(s, body, st);
  if (st->kind == ND_RETURN) {
    tl_error(s->diag, st->loc, "an eager function returns after its T.Kernel block");
    return false;
  }
  return tl_sema_exec(s, st);
}

static bool returns_output(const TlNode *ret, const char *name) {
  const TlNode *v = ret ? ret->a : NULL;
  if (!v) return false;
  if (v->kind == ND_NAME) return strcmp(v->name, name) == 0;
  for (int i = 0; v->kind == ND_TUPLE && i < v->list.len; i++) {
    const TlNode *x = TL_VEC_AT(v->list, TlNode, i);
    if (x->kind == ND_NAME && strcmp(x->name, name) == 0) return true;
  }
  return false;
}

static bool is_output_name(const EagerBody *body, const char *name) {
  for (int i = 0; i < body->outputs.len; i++)
    if (strcmp(TL_VEC_AT(body->outputs, TlBuffer, i)->name, name) == 0) return true;
  return false;
}

// TileLang returns exactly the T.empty tensors: each must be returned, and
// only they can be.
static bool check_return(Sema *s, const EagerBody *body) {
  bool ok = true;
  for (int i = 0; i < body->outputs.len; i++) {
    const TlBuffer *b = TL_VEC_AT(body->outputs, TlBuffer, i);
    if (!returns_output(body->ret, b->name)) {
      tl_error(s->diag, b->loc,
               "'%s' is created with T.empty but not returned; an eager function "
               "returns its outputs (return %s)",
               b->name, b->name);
      ok = false;
    }
  }
  const TlNode *v = body->ret ? body->ret->a : NULL;
  int n = !v ? 0 : v->kind == ND_TUPLE ? v->list.len : 1;
  for (int i = 0; i < n; i++) {
    const TlNode *x = v->kind == ND_TUPLE ? TL_VEC_AT(v->list, TlNode, i) : v;
    if (x->kind != ND_NAME || !is_output_name(body, x->name)) {
      tl_error(s->diag, x->loc, "an eager function returns the tensors it creates with T.empty");
      ok = false;
    }
  }
  return ok;
}

// A keyword of f.compile that names neither a parameter nor a T.const would
// silently do nothing: a typo (K=... for k) must not go unnoticed.
static bool check_consts_used(Sema *s, const struct TlEagerState *e) {
  bool ok = true;
  for (int i = 0; i < e->consts->items.len; i++) {
    if (e->declared[i]) continue;
    const TlValue *v = TL_VEC_AT(e->consts->values, TlValue, i);
    tl_error(s->diag, v->loc,
             "'%s.compile' got '%s', which is neither a parameter nor a T.const "
             "of '%s'",
             e->fname, TL_VEC_AT(e->consts->items, TlValue, i)->s, e->fname);
    ok = false;
  }
  return ok;
}

TlEagerBlocks tl_sema_eager_kernel(Sema *s, const TlValue *kv, TlKernel *k, int part) {
  TlEagerBlocks r = {0};
  const TlNode *def = kv->fn;
  struct TlEagerState state = {kv->consts, NULL, kv->loc, kv->s};
  state.declared = TL_NEW_ARRAY(s->arena, bool, kv->consts->items.len + 1);
  struct TlEagerState *saved = s->eager;
  s->eager = &state;
  EagerBody body = {0};
  body.inputs = TL_NEW_ARRAY(s->arena, TlBuffer *, def->params.len + 1);
  bool ok = true;
  for (int i = 0; i < def->params.len && ok; i++) { // `def f(A: T.Tensor(...))`
    const TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (!tl_sema_is_tensor_annotation(s, p->a)) continue;
    body.inputs[i] = tl_sema_tensor_param(s, p->name, p->loc, p->a);
    ok = body.inputs[i] != NULL;
    if (ok) define_buffer(s, body.inputs[i]);
  }
  for (int i = 0; i < def->list.len && ok; i++)
    ok = body_stmt(s, def, &body, TL_VEC_AT(def->list, TlNode, i));
  s->eager = saved;
  if (!ok) return r;
  if (body.withs.len == 0) {
    tl_error(s->diag, def->loc, "eager function '%s' has no 'with T.Kernel(...)' block",
             def->name);
    return r;
  }
  // The first run reports the body's errors; a later one (the next block)
  // would repeat them.
  if (part == 0 && (!check_return(s, &body) || !check_consts_used(s, &state))) return r;
  for (int i = 0; i < def->params.len; i++)
    if (body.inputs[i]) tl_sema_add_param(s, k, body.inputs[i]);
  for (int i = 0; i < body.outputs.len; i++)
    tl_sema_add_param(s, k, TL_VEC_AT(body.outputs, TlBuffer, i));
  for (int i = 0; i < body.scratch.len; i++)
    if (!tl_sema_scratch_param(s, k, TL_VEC_AT(body.scratch, TlNode, i))) return r;
  r.nwith = body.withs.len;
  r.nscratch = body.scratch.len;
  r.with = TL_VEC_AT(body.withs, TlNode, part);
  tl_sema_kernel_block(s, k, r.with);
  r.ok = true;
  return r;
}
