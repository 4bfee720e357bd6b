// Kernels: @T.prim_func definitions -> TlKernel. Checks the parameter
// tensors, the T.Kernel launch (grid, threads, bound names) and lowers the
// statements of the body (allocations, loops, stores, scalars, branches,
// tile ops) into Tile IR.
#include <stdlib.h>
#include <string.h>

#include "SemaInternal.h"
#include "tlc/CIdent.h"

enum { MAX_GRID_X = 2147483647, MAX_GRID_YZ = 65535 };

TlVar *tl_sema_size_var(Sema *s, const TlValue *v, TlLoc loc) {
  TlKernel *k = s->kernel;
  if (!k) {
    tl_error(s->diag, loc, "the runtime size '%s' is used outside a kernel", v->s);
    return NULL;
  }
  for (int i = 0; i < k->sizes.len; i++) {
    TlVar *size = TL_VEC_AT(k->sizes, TlVar, i);
    if (strcmp(size->name, v->s) == 0) return size;
  }
  TlVar *size = tl_var_new(s->arena, k, v->s, VAR_SIZE, v->dtype, v->loc);
  tl_vec_push(s->arena, &k->sizes, size);
  if (v->dtype == TY_INT64) s->index_dtype = TY_INT64;
  return size;
}

// A shape: a tuple/list of positive compile-time integers, or one integer;
// a global tensor's dimensions may also be runtime sizes (T.dynamic), and
// one runtime size alone is a 1-D shape, as one integer is.
static bool shape_of(Sema *s, const TlNode *n, TlBuffer *b) {
  TlValue *v = tl_sema_eval_const(s, n);
  if (v->kind == VAL_ERROR) return false;
  TlValue *dims[TL_MAX_DIMS];
  int nd;
  if (v->kind == VAL_INT || v->kind == VAL_SIZE) { // (n) is n in Python: one dimension
    dims[0] = v;
    nd = 1;
  } else if (v->kind == VAL_TUPLE) {
    nd = v->items.len;
    if (nd == 0 || nd > TL_MAX_DIMS) {
      tl_error(s->diag, n->loc, "a shape needs 1 to %d dimensions, this one has %d", TL_MAX_DIMS,
               nd);
      return false;
    }
    for (int i = 0; i < nd; i++)
      dims[i] = TL_VEC_AT(v->items, TlValue, i);
  } else {
    tl_error(s->diag, n->loc, "expected a shape (a tuple of integers), found a %s",
             tl_value_kind_name(v->kind));
    return false;
  }
  int64_t total = 1;
  for (int i = 0; i < nd; i++) {
    if (dims[i]->kind == VAL_SIZE) {
      b->dyn[i] = tl_sema_size_var(s, dims[i], dims[i]->loc);
      if (!b->dyn[i]) return false;
      b->shape[i] = 0;
      b->dyn_scale[i] = tl_eval_size_scale(dims[i]) > 1 ? tl_eval_size_scale(dims[i]) : 0;
      if (b->dyn_scale[i] && i == nd - 1) { // specialize-sizes aligns the size itself
        tl_error(s->diag, dims[i]->loc,
                 "the last dimension of a tensor may be a runtime size, not a multiple of one "
                 "('%s * %lld')",
                 dims[i]->s, (long long)b->dyn_scale[i]);
        tl_note(s->diag, dims[i]->loc,
                "give the contiguous dimension a size of its own, e.g. "
                "T.dynamic(\"%s_x%lld\")",
                dims[i]->s, (long long)b->dyn_scale[i]);
        return false;
      }
      continue;
    }
    if (dims[i]->kind != VAL_INT) {
      tl_error(s->diag, dims[i]->loc, "dimension %d of the shape is a %s, not an integer", i,
               tl_value_kind_name(dims[i]->kind));
      return false;
    }
    if (dims[i]->i < 1) {
      tl_error(s->diag, dims[i]->loc, "dimension %d of the shape is %lld; extents must be positive",
               i, (long long)dims[i]->i);
      return false;
    }
    if (tl_mul_overflows(total, dims[i]->i, &total) || total > (INT64_MAX >> 4)) {
      tl_error(s->diag, n->loc, "the shape has more elements than fit in 64 bits");
      return false;
    }
    b->shape[i] = dims[i]->i;
  }
  b->ndims = nd;
  return true;
}

static bool dtype_of(Sema *s, const TlNode *n, TlDtype *out) {
  TlValue *v = tl_sema_eval_const(s, n);
  return v->kind != VAL_ERROR && tl_value_as_dtype(s, v, out);
}

// A global tensor: a kernel parameter, or an eager function's T.empty output.
TlBuffer *tl_sema_global_buffer(Sema *s, const char *name, TlLoc loc, const TlNode *shape,
                                const TlNode *dtype) {
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  b->name = name;
  b->loc = loc;
  b->scope = SCOPE_GLOBAL;
  b->dtype = TY_FLOAT32;
  b->stages = 1;
  if (!shape_of(s, shape, b)) return NULL;
  if (dtype && !dtype_of(s, dtype, &b->dtype)) return NULL;
  return b;
}

// T.StridedTensor's strides: one per dimension, each a positive compile-time
// integer or a runtime size (a scalar parameter, T.dynamic), in elements.
static bool strides_of(Sema *s, const TlNode *n, TlBuffer *b) {
  TlValue *v = tl_sema_eval_const(s, n);
  if (v->kind == VAL_ERROR) return false;
  int nd = v->kind == VAL_TUPLE ? v->items.len : 1;
  if ((v->kind != VAL_TUPLE && v->kind != VAL_INT && v->kind != VAL_SIZE) || nd != b->ndims) {
    tl_error(s->diag, n->loc, "T.StridedTensor takes one stride per dimension (%d here)",
             b->ndims);
    return false;
  }
  int64_t span = 1;
  for (int i = 0; i < nd; i++) {
    TlValue *d = v->kind == VAL_TUPLE ? TL_VEC_AT(v->items, TlValue, i) : v;
    if (d->kind == VAL_SIZE && tl_eval_size_scale(d) > 1) {
      tl_error(s->diag, d->loc,
               "stride %d of '%s' is a multiple of the runtime size '%s'; tlc "
               "takes a runtime size itself as a stride",
               i, b->name, d->s);
      return false;
    }
    if (d->kind == VAL_SIZE) {
      b->dyn_stride[i] = tl_sema_size_var(s, d, d->loc);
      if (!b->dyn_stride[i]) return false;
      continue;
    }
    if (d->kind != VAL_INT || d->i < 1) {
      tl_error(s->diag, d->loc, "stride %d of '%s' must be a positive integer or a runtime size", i,
               b->name);
      return false;
    }
    b->stride[i] = d->i;
    int64_t term;
    if (!b->dyn[i] && (tl_mul_overflows(b->shape[i] - 1, d->i, &term) ||
                       (span += term) > (INT64_MAX >> 4))) {
      tl_error(s->diag, n->loc, "the strides of '%s' span more elements than fit in 64 bits",
               b->name);
      return false;
    }
  }
  b->strided = true;
  return true;
}

// ann = ("T.Tensor" | "T.Buffer") ( "(" shape ("," dtype)? ")" | "[" shape ("," dtype)? "]" )
//     | "T.StridedTensor" "(" shape "," strides ("," dtype)? ")"
TlBuffer *tl_sema_tensor_param(Sema *s, const char *name, TlLoc loc, const TlNode *ann) {
  if (!tl_sema_is_tensor_annotation(s, ann)) {
    tl_error(s->diag, ann ? ann->loc : loc,
             "kernel parameter '%s' needs a tensor annotation, e.g. %s: T.Tensor((M, N), "
             "\"float16\")",
             name, name);
    return NULL;
  }
  const char *t = tl_sema_t_attr(s, ann->a);
  bool call = ann->kind == ND_CALL;
  if (strcmp(t, "StridedTensor") == 0) {
    static const char *const skws[] = {"shape", "strides", "dtype", NULL};
    if (!call || !tl_sema_check_keywords(s, ann, "T.StridedTensor", skws)) {
      if (!call) tl_error(s->diag, ann->loc, "write T.StridedTensor(shape, strides, dtype)");
      return NULL;
    }
    const TlNode *shape =
        ann->list.len > 0 ? TL_VEC_AT(ann->list, TlNode, 0) : tl_sema_kwarg(ann, "shape");
    const TlNode *strides =
        ann->list.len > 1 ? TL_VEC_AT(ann->list, TlNode, 1) : tl_sema_kwarg(ann, "strides");
    const TlNode *dtype =
        ann->list.len > 2 ? TL_VEC_AT(ann->list, TlNode, 2) : tl_sema_kwarg(ann, "dtype");
    if (!shape || !strides || ann->list.len > 3) {
      tl_error(s->diag, ann->loc, "T.StridedTensor takes a shape, strides and a dtype");
      return NULL;
    }
    TlBuffer *b = tl_sema_global_buffer(s, name, loc, shape, dtype);
    return b && strides_of(s, strides, b) ? b : NULL;
  }
  static const char *const kws[] = {"shape", "dtype", NULL};
  if (call && !tl_sema_check_keywords(s, ann, "T.Tensor", kws)) return NULL;
  const TlNode *shape = ann->list.len > 0 ? TL_VEC_AT(ann->list, TlNode, 0)
                        : call            ? tl_sema_kwarg(ann, "shape")
                                          : NULL;
  const TlNode *dtype = ann->list.len > 1 ? TL_VEC_AT(ann->list, TlNode, 1)
                        : call            ? tl_sema_kwarg(ann, "dtype")
                                          : NULL;
  if (!shape || ann->list.len > 2) {
    tl_error(s->diag, ann->loc, "T.%s takes a shape and a dtype", t);
    return NULL;
  }
  return tl_sema_global_buffer(s, name, loc, shape, dtype);
}

void tl_sema_add_param(Sema *s, TlKernel *k, TlBuffer *b) {
  b->param_index = k->params.len;
  tl_vec_push(s->arena, &k->params, b);
  if (tl_buffer_span(b) > INT32_MAX) s->index_dtype = TY_INT64;
}

// param = NAME ":" tensor-annotation
static TlBuffer *kernel_param(Sema *s, const TlNode *p) {
  TlBuffer *b = tl_sema_tensor_param(s, p->name, p->loc, p->a);
  if (b && p->b) tl_error(s->diag, p->b->loc, "kernel parameters cannot have default values");
  return b;
}

// `n: T.int32` (or T.int64, "int32"): a scalar annotation, not a tensor.
static bool is_scalar_param(Sema *s, const TlNode *p) {
  if (!p->a || tl_sema_is_tensor_annotation(s, p->a)) return false;
  if (p->a->kind == ND_STR) return true;
  const char *t = tl_sema_t_attr(s, p->a);
  TlDtype dt;
  return t && p->a->kind == ND_ATTR && tl_dtype_parse(t, &dt);
}

// A scalar kernel parameter (varlen attention's `max_seqlen_q: T.int32`):
// an integer is a runtime size of that name, an `int` parameter of the
// kernel and launcher after the tensors, usable wherever a T.dynamic size is
// (grid extents, bounds, expressions). With --size NAME=VALUE (the harness
// reference) it is that constant, as a T.dynamic size is.
static bool scalar_param(Sema *s, const TlNode *p) {
  TlValue *dv = tl_sema_eval_const(s, p->a);
  TlDtype dt;
  if (dv->kind == VAL_ERROR || !tl_value_as_dtype(s, dv, &dt)) return false;
  if (p->b) {
    tl_error(s->diag, p->b->loc, "kernel parameters cannot have default values");
    return false;
  }
  if (dt != TY_INT32 && dt != TY_INT64) {
    tl_error(s->diag, p->a->loc,
             "scalar kernel parameter '%s' is %s; tlc takes integer scalars (T.int32, T.int64) "
             "only",
             p->name, tl_dtype_name(dt));
    tl_note(s->diag, p->a->loc,
            "hint: pass it as a one-element tensor, %s: T.Tensor((1,), \"%s\"), "
            "read as %s[0]",
            p->name, tl_dtype_name(dt), p->name);
    return false;
  }
  TlValue *v = NULL;
  for (int i = 0; s->opts && i < s->opts->nsizes; i++) { // --size NAME=VALUE
    const char *b = s->opts->sizes[i];
    size_t len = strcspn(b, "=");
    if (strlen(p->name) == len && strncmp(b, p->name, len) == 0) {
      v = tl_value_new(s, VAL_INT, p->loc);
      v->i = strtoll(b + len + 1, NULL, 10);
      v->dtype = dt;
    }
  }
  if (!v) {
    v = tl_value_new(s, VAL_SIZE, p->loc);
    v->s = p->name;
    v->dtype = dt;
    if (!tl_sema_size_var(s, v, p->loc)) return false; // in parameter order
  }
  TlSym *y = tl_scope_define(s, s->scope, p->name, SYM_VALUE, p->loc);
  y->value = v;
  return true;
}

static bool only_sizes(const TlExpr *e) {
  if (e->kind == EX_VAR) return e->var->kind == VAR_SIZE;
  if (e->kind != EX_INT && e->kind != EX_BINARY && e->kind != EX_UNARY && e->kind != EX_CAST &&
      e->kind != EX_SELECT && e->kind != EX_CALL)
    return false;
  for (int i = 0; i < e->nargs; i++)
    if (!only_sizes(e->args[i])) return false;
  return true;
}

static bool uses_size(Sema *s, const TlNode *n) {
  if (n->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->name);
    return y && y->kind == SYM_VALUE && y->value->kind == VAL_SIZE;
  }
  if ((n->a && uses_size(s, n->a)) || (n->b && uses_size(s, n->b))) return true;
  for (int i = 0; i < n->list.len; i++)
    if (uses_size(s, TL_VEC_AT(n->list, TlNode, i))) return true;
  return false;
}

// T.Kernel(T.ceildiv(M, block_M)) with M a runtime size: the launcher
// computes the extent (grid_const 0). False when g uses no runtime size.
static bool runtime_grid_extent(Sema *s, TlKernel *k, int dim, const TlNode *g, bool *ok) {
  if (!uses_size(s, g)) return false;
  int before = s->diag->nerrors;
  TlExpr *e = tl_sema_fold(s, tl_sema_expr(s, g));
  if (s->diag->nerrors != before)
    *ok = false;
  else if ((e->dtype != TY_INT32 && e->dtype != TY_INT64) || !only_sizes(e)) {
    tl_error(s->diag, g->loc,
             "a grid extent is a compile-time integer or an integer expression "
             "of runtime sizes");
    *ok = false;
  }
  k->grid[dim] = e;
  k->grid_const[dim] = 0;
  return true;
}

static bool launch_config(Sema *s, TlKernel *k, const TlNode *with) {
  const TlNode *call = with->a;
  const char *t = call->kind == ND_CALL ? tl_sema_t_attr(s, call->a) : NULL;
  if (!t || strcmp(t, "Kernel") != 0) {
    tl_error(s->diag, with->loc, "a kernel body must be 'with T.Kernel(...) as ...:'");
    return false;
  }
  static const char *const kws[] = {"threads", "prelude", "is_cpu", NULL};
  if (!tl_sema_check_keywords(s, call, "T.Kernel", kws)) return false;
  int ng = call->list.len;
  if (ng < 1 || ng > 3) {
    tl_error(s->diag, call->loc, "T.Kernel takes 1 to 3 grid extents, %d given", ng);
    return false;
  }
  bool ok = true;
  for (int i = 0; i < 3; i++)
    k->grid_const[i] = 1;
  for (int i = 0; i < ng; i++) {
    TlNode *g = TL_VEC_AT(call->list, TlNode, i);
    int64_t v;
    if (runtime_grid_extent(s, k, i, g, &ok)) continue;
    if (!tl_sema_const_int(s, g, "a grid extent", &v)) {
      ok = false;
      continue;
    }
    // y and z past CUDA's 65535 are folded into x by the CUDA emitter (one
    // linear block index), so every extent may reach x's limit.
    if (v < 1 || v > MAX_GRID_X) {
      tl_error(s->diag, g->loc, "grid extent %lld is out of range; %s must be in 1..%lld",
               (long long)v,
               i == 0   ? "x"
               : i == 1 ? "y"
                        : "z",
               (long long)MAX_GRID_X);
      ok = false;
    }
    k->grid_const[i] = v;
  }
  bool past_yz = k->grid_const[1] > MAX_GRID_YZ || k->grid_const[2] > MAX_GRID_YZ;
  bool runtime = !k->grid_const[0] || !k->grid_const[1] || !k->grid_const[2];
  if (ok && past_yz && runtime) { // a runtime extent (grid_const 0) cannot be folded
    tl_error(s->diag, call->loc,
             "a y or z grid extent past %d is launched folded into x, which needs every "
             "extent at compile time; this grid has a runtime one",
             MAX_GRID_YZ);
    ok = false;
  } else if (ok && past_yz && k->grid_const[0] * k->grid_const[1] > MAX_GRID_X / k->grid_const[2]) {
    tl_error(s->diag, call->loc,
             "a grid of %lld x %lld x %lld blocks is out of range; with y or z past %d the "
             "blocks are numbered in x, which holds at most %lld",
             (long long)k->grid_const[0], (long long)k->grid_const[1], (long long)k->grid_const[2],
             MAX_GRID_YZ, (long long)MAX_GRID_X);
    ok = false;
  }
  for (int i = 0; i < 3; i++)
    k->threads[i] = 1;
  const TlNode *th = tl_sema_kwarg(call, "threads");
  if (!th) {
    k->threads[0] = 128;
  } else {
    TlValue *v = tl_sema_eval_const(s, th);
    if (v->kind == VAL_INT) {
      k->threads[0] = v->i;
    } else if (v->kind == VAL_TUPLE && v->items.len >= 1 && v->items.len <= 3) {
      for (int i = 0; i < v->items.len; i++) {
        TlValue *x = TL_VEC_AT(v->items, TlValue, i);
        if (x->kind != VAL_INT) {
          tl_error(s->diag, th->loc, "threads= must hold integers");
          return false;
        }
        k->threads[i] = x->i;
      }
    } else {
      if (v->kind != VAL_ERROR)
        tl_error(s->diag, th->loc, "threads= must be an integer or a tuple of up to 3 integers");
      return false;
    }
    int64_t total = 1;
    for (int i = 0; i < 3; i++) {
      if (k->threads[i] < 1 || k->threads[i] > 1024) {
        tl_error(s->diag, th->loc, "threads= %lld is out of range 1..1024",
                 (long long)k->threads[i]);
        return false;
      }
      total *= k->threads[i];
    }
    if (total > s->module->max_threads) {
      tl_error(s->diag, th->loc, "%lld threads per block exceed the %s limit of %lld",
               (long long)total, s->module->target_name, (long long)s->module->max_threads);
      return false;
    }
  }
  // `as bx` or `as (bx, by[, bz])` names the block indices.
  const TlNode *names = with->b;
  if (names) {
    int nn = names->kind == ND_TUPLE ? names->list.len : 1;
    if (nn > ng) {
      tl_error(s->diag, names->loc, "T.Kernel has %d grid dimension%s but %d names are bound", ng,
               ng == 1 ? "" : "s", nn);
      return false;
    }
    for (int i = 0; i < nn; i++) {
      const TlNode *nm = names->kind == ND_TUPLE ? TL_VEC_AT(names->list, TlNode, i) : names;
      if (nm->kind != ND_NAME) {
        tl_error(s->diag, nm->loc, "expected a name for the block index");
        return false;
      }
      TlVar *v = tl_var_new(s->arena, k, nm->name, VAR_BLOCK_IDX, TY_INT32, nm->loc);
      v->dim = i;
      v->extent = k->grid_const[i];
      k->block_vars[i] = v;
      TlSym *y = tl_scope_define(s, s->scope, nm->name, SYM_VAR, nm->loc);
      y->var = v;
    }
  }
  for (int i = 0; i < 3; i++) {
    TlVar *v = tl_var_new(s->arena, k,
                          i == 0   ? "tx"
                          : i == 1 ? "ty"
                                   : "tz",
                          VAR_THREAD_IDX, TY_INT32, call->loc);
    v->dim = i;
    v->extent = k->threads[i];
    k->thread_vars[i] = v;
  }
  return ok;
}

bool tl_sema_kernel_block(Sema *s, TlKernel *k, const TlNode *with) {
  if (!launch_config(s, k, with)) return false;
  s->ws_threads = 0;
  s->rng_started = false;
  tl_sema_body(s, &with->list, &k->body);
  tl_sema_finish_views(k);
  tl_sema_finish_ws(s, k);
  return true;
}

static void kernel(Sema *s, const TlValue *kv);

// T.func_attr({...}) and the register-allocation switches may stand next to
// the T.Kernel block; they mean nothing to tlc (Scalars.c).
static bool is_accepted_annotation(Sema *s, const TlNode *st) {
  if (st->kind != ND_EXPR_STMT || st->a->kind != ND_CALL) return false;
  const char *t = tl_sema_t_attr(s, st->a->a);
  return t && (strcmp(t, "func_attr") == 0 || tl_sema_is_register_hint(t));
}

// Compiles a kernel value in the scope it closes over (a factory's locals,
// or the module), under the --call name when one is set.
void tl_sema_compile_kernel(Sema *s, TlValue *kv) {
  TlSymScope *saved = s->scope;
  s->scope = kv->env;
  s->index_dtype = TY_INT32;
  kernel(s, kv);
  s->scope = saved;
}

bool tl_sema_macro_launch(Sema *s, const TlNode *with) {
  s->launch_pending = false;
  if (!launch_config(s, s->kernel, with)) return false;
  s->ws_threads = 0;
  s->rng_started = false;
  tl_sema_body(s, &with->list, &s->kernel->body);
  tl_sema_finish_views(s->kernel);
  tl_sema_finish_ws(s, s->kernel);
  return true;
}

// A prim_func statement that calls a @T.macro (TileLang's flash decoding
// builds its split and combine kernels so): the macro, or NULL.
static const TlValue *macro_block(Sema *s, const TlNode *st) {
  if (st->kind != ND_EXPR_STMT || st->a->kind != ND_CALL || st->a->a->kind != ND_NAME) return NULL;
  TlSym *y = tl_scope_lookup(s, st->a->a->name);
  return y && y->kind == SYM_VALUE && y->value->kind == VAL_MACRO ? y->value : NULL;
}

// The T.alloc_global buffer of statement st as a parameter of k (after the
// user's tensors) that the launcher allocates, and its name in scope.
bool tl_sema_scratch_param(Sema *s, TlKernel *k, const TlNode *st) {
  const TlNode *target = TL_VEC_AT(st->list, TlNode, 0), *call = st->a;
  const TlNode *shape = call->list.len > 0 ? TL_VEC_AT(call->list, TlNode, 0) : NULL;
  const TlNode *dtype = call->list.len > 1 ? TL_VEC_AT(call->list, TlNode, 1) : NULL;
  TlBuffer *b = tl_sema_global_buffer(s, target->name, target->loc, shape, dtype);
  if (!b) return false;
  for (int d = 0; d < b->ndims; d++)
    if (b->dyn[d]) {
      tl_error(s->diag, call->loc, "a T.alloc_global buffer needs a compile-time shape");
      return false;
    }
  b->scratch = true;
  tl_sema_add_param(s, k, b);
  TlSym *y = tl_scope_define(s, s->scope, target->name, SYM_BUFFER, target->loc);
  y->buf = b;
  return true;
}

// One T.Kernel block of the prim_func `def` as the kernel `name`: its
// parameters (the T.alloc_global buffers `scratch` after the user's),
// launch and body; the block is a `with T.Kernel` statement or the call of a
// macro whose body holds one. `launcher` names the launcher that runs the
// blocks in order when the prim_func has several, else NULL.
static void kernel_block(Sema *s, const TlNode *def, const char *name, const TlNode *with,
                         const char *launcher, const TlNode *const *scratch, int nscratch,
                         const TlNode *const *shapes, int nshapes) {
  TlKernel *k = TL_NEW(s->arena, TlKernel);
  k->name = name;
  k->loc = launcher ? with->loc : def->loc; // a block of several: where it starts
  k->launcher = launcher;
  s->kernel = k;
  tl_scope_push(s);
  bool ok = true;
  // Tensors in parameter order; a pointer parameter's tensor is made after
  // the scalars its shape may name (PtrParams.c), in its own position.
  enum { MAX_PARAMS = 256 };
  TlBuffer *tensors[MAX_PARAMS] = {0};
  if (def->params.len > MAX_PARAMS) {
    tl_error(s->diag, def->loc, "a kernel takes at most %d parameters", MAX_PARAMS);
    ok = false;
  }
  for (int i = 0; i < def->params.len && i < MAX_PARAMS; i++) {
    TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (is_scalar_param(s, p)) {
      ok = scalar_param(s, p) && ok;
      continue;
    }
    if (tl_sema_is_ptr_param(s, p)) continue;
    TlBuffer *b = kernel_param(s, p);
    if (!b) {
      ok = false;
      continue;
    }
    tensors[i] = b;
    TlSym *y = tl_scope_define(s, s->scope, p->name, SYM_BUFFER, p->loc);
    y->buf = b;
  }
  bool tensors_ok = ok;
  for (int i = 0; i < def->params.len && tensors_ok; i++) {
    TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (tl_sema_is_ptr_param(s, p) && !(tensors[i] = tl_sema_ptr_param(s, p, shapes, nshapes)))
      ok = false;
  }
  for (int i = 0; i < def->params.len && ok; i++)
    if (tensors[i]) tl_sema_add_param(s, k, tensors[i]);
  for (int i = 0; i < nshapes && tensors_ok; i++) { // each make_tensor shapes a pointer parameter
    const TlNode *call = shapes[i]->a;
    const TlNode *ptr = call->list.len ? TL_VEC_AT(call->list, TlNode, 0) : NULL;
    bool names_ptr = false;
    for (int j = 0; ptr && ptr->kind == ND_NAME && j < def->params.len; j++) {
      TlNode *p = TL_VEC_AT(def->params, TlNode, j);
      names_ptr = names_ptr || (strcmp(p->name, ptr->name) == 0 && tl_sema_is_ptr_param(s, p));
    }
    if (!names_ptr) {
      tl_error(s->diag, ptr ? ptr->loc : call->loc,
               "T.make_tensor here takes a pointer parameter of the prim_func (NAME: T.ptr)");
      ok = false;
    }
  }
  for (int i = 0; i < nscratch && ok; i++) // after the user's tensors
    ok = tl_sema_scratch_param(s, k, scratch[i]);
  const TlValue *macro = macro_block(s, with);
  if (ok && macro) {
    s->launch_pending = true;
    tl_sema_inline_macro(s, macro, with->a, &k->body);
    if (s->launch_pending)
      tl_error(s->diag, with->loc,
               "the macro '%s' has no 'with T.Kernel(...)' block; in a "
               "prim_func body, each statement is a kernel launch",
               macro->s);
    s->launch_pending = false;
  } else if (ok) {
    tl_sema_kernel_block(s, k, with);
  }
  tl_scope_pop(s);
  s->kernel = NULL;
  tl_vec_push(s->arena, &s->module->kernels, k);
}

// NAME = T.alloc_global(shape, dtype) among a prim_func's T.Kernel blocks:
// device memory the blocks share (a split kernel's partial results).
bool tl_sema_is_alloc_global(Sema *s, const TlNode *st) {
  if (st->kind != ND_ASSIGN || st->list.len != 1 || !st->a || st->a->kind != ND_CALL) return false;
  const char *t = tl_sema_t_attr(s, st->a->a);
  if (!t || strcmp(t, "alloc_global") != 0) return false;
  const TlNode *target = TL_VEC_AT(st->list, TlNode, 0);
  if (target->kind != ND_NAME || st->a->list.len < 1 || st->a->list.len > 2 || st->a->list2.len) {
    tl_error(s->diag, st->loc, "write a global scratch buffer as NAME = T.alloc_global(shape, "
                               "dtype)");
    return false;
  }
  return true;
}

static void kernel(Sema *s, const TlValue *kv) {
  const TlNode *def = kv->fn;
  const char *name = s->kernel_name ? s->kernel_name : def->name;
  // The kernel's name is its C symbol from here on (the launcher NAME, the
  // kernel NAME_kernel, the header, the harness), so a name that clashes in
  // C/C++/CUDA is renamed once, here (CIdent.h). Host code calls the
  // launcher by that name, so the user hears about it, at the name they
  // wrote (--call 'NAME=...' or the def).
  const char *cname = tl_cident(s->arena, name, TL_CIDENT_GLOBAL);
  if (cname != name)
    tl_warning(s->diag, s->kernel_name_loc.src ? s->kernel_name_loc : def->loc,
               "kernel name '%s' clashes in the generated C/C++/CUDA; the launcher is named '%s'",
               name, cname);
  if (!tl_sema_plain_params(s, def, "@T.prim_func kernel")) return;
  if (kv->consts) { // an eager @tilelang.jit function bound by f.compile(...)
    // Each of its T.Kernel blocks is compiled by a run of the whole body
    // (its Python statements are evaluated again: fresh tensors and sizes
    // for each kernel); several blocks, or T.alloc_global buffers, make
    // kernels NAME_part0, NAME_part1, ... and a launcher NAME, as below.
    int nparts = 1;
    for (int part = 0; part < nparts; part++) {
      TlKernel *k = TL_NEW(s->arena, TlKernel);
      k->name = cname;
      k->loc = def->loc;
      s->kernel = k;
      tl_scope_push(s);
      TlEagerBlocks blocks = tl_sema_eager_kernel(s, kv, k, part);
      tl_scope_pop(s);
      s->kernel = NULL;
      if (!blocks.ok) return;
      if (blocks.nwith > 1 || blocks.nscratch > 0) {
        nparts = blocks.nwith;
        k->name = tl_arena_printf(s->arena, "%s_part%d", cname, part);
        k->launcher = cname;
        k->loc = blocks.with->loc;
      }
      tl_vec_push(s->arena, &s->module->kernels, k);
    }
    return;
  }
  // Several T.Kernel blocks (a split kernel and a combine kernel) become
  // kernels NAME_part0, NAME_part1, ... and one launcher NAME running them;
  // so does one block next to T.alloc_global buffers, which that launcher
  // allocates around the launches (TileLang's flash decoding).
  enum { MAX_BLOCKS = 16, MAX_SCRATCH = 16 };
  const TlNode *withs[MAX_BLOCKS], *scratch[MAX_SCRATCH], *shapes[MAX_SCRATCH];
  int nwith = 0, nscratch = 0, nshapes = 0;
  for (int i = 0; i < def->list.len; i++) {
    TlNode *st = TL_VEC_AT(def->list, TlNode, i);
    if (st->kind == ND_EXPR_STMT && st->a->kind == ND_STR) continue; // docstring
    if (is_accepted_annotation(s, st)) continue;
    if (tl_sema_is_alloc_global(s, st)) {
      if (nscratch == MAX_SCRATCH) {
        tl_error(s->diag, st->loc, "a prim_func allocates at most %d T.alloc_global buffers",
                 MAX_SCRATCH);
        return;
      }
      scratch[nscratch++] = st;
      continue;
    }
    if (tl_sema_is_make_tensor(s, st)) { // a pointer parameter's shape (PtrParams.c)
      if (nshapes == MAX_SCRATCH) {
        tl_error(s->diag, st->loc, "a prim_func shapes at most %d pointer parameters",
                 MAX_SCRATCH);
        return;
      }
      shapes[nshapes++] = st;
      continue;
    }
    if ((st->kind == ND_WITH || macro_block(s, st)) && nwith < MAX_BLOCKS) {
      withs[nwith++] = st;
      continue;
    }
    if (st->kind == ND_WITH || macro_block(s, st))
      tl_error(s->diag, st->loc, "a kernel body holds at most %d 'with T.Kernel(...)' blocks",
               MAX_BLOCKS);
    else
      tl_error(s->diag, st->loc,
               "a kernel body holds 'with T.Kernel(...)' blocks and nothing else");
    return;
  }
  if (nwith == 0) {
    tl_error(s->diag, def->loc, "kernel '%s' has no 'with T.Kernel(...)' block", def->name);
    return;
  }
  bool group = nwith > 1 || nscratch > 0;
  for (int i = 0; i < nwith; i++) {
    const char *part = !group ? cname : tl_arena_printf(s->arena, "%s_part%d", cname, i);
    kernel_block(s, def, part, withs[i], !group ? NULL : cname, scratch, nscratch, shapes,
                 nshapes);
  }
}

TlModule *tl_sema(TlArena *a, const TlNode *module, const TlSource *src, const TlTarget *target,
                  const TlSemaOptions *opts, TlDiag *d) {
  Sema s = {0};
  // The evaluator (lib/Eval, a lower layer) lowers through these.
  s.lower = (TlLowering){tl_sema_compile_kernel, tl_sema_expr, tl_sema_body, tl_sema_convert};
  s.arena = a;
  s.diag = d;
  s.index_dtype = TY_INT32;
  s.module = TL_NEW(a, TlModule);
  s.module->src = src;
  s.module->target_name = target->name;
  s.module->sm = target->sm;
  s.module->has_wgmma = target->has_wgmma;
  s.module->has_tma = target->has_tma;
  s.module->nvcc_arch = target->nvcc_arch;
  s.module->max_threads = target->max_threads_per_block;
  s.module->max_shared_bytes = target->max_shared_bytes;
  s.sm_count = target->sm_count;
  s.globals = TL_NEW(a, TlSymScope);
  // T is always the DSL namespace, imported or not.
  TlSym *t = tl_scope_define(&s, s.globals, "T", SYM_VALUE, module->loc);
  t->value = tl_value_new(&s, VAL_MODULE, module->loc);
  t->value->s = "tilelang.language";
  s.opts = opts;
  s.python = src->python;
  tl_sema_run_module(&s, module);
  if (d->nerrors == 0) tl_sema_drop_unread_lets(&s);
  if (d->nerrors == 0) tl_sema_safe_accesses(a, s.module);
  int nkernels = s.module->kernels.len;
  if (nkernels == 0 && d->nerrors == 0) {
    TlLoc loc = {src, 1, 1, 1};
    tl_error(d, loc, "no @T.prim_func kernel in this file");
    if (s.python)
      tl_note(d, loc, "a kernel built by a factory is compiled with --call 'factory(args)'");
  }
  return s.module;
}
