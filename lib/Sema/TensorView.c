// Views of a kernel parameter's memory with another shape:
//   kernel_flat = T.Tensor((KH * KW * C, F), dtype, kernel.data)
// (TileLang's convolution: the filter as a matrix). A view is a global
// buffer of the kernel with no memory of its own (TlBuffer.view_of names
// the parameter); the CUDA and reference emitters index it under the
// parameter's name, so its row-major offsets address the same bytes.
#include <string.h>

#include "SemaInternal.h"

// The parameter a `P.data` argument names (a view's own parameter when P
// is a view), or NULL after reporting.
static TlBuffer *data_of(Sema *s, const TlNode *n) {
  if (n->kind != ND_ATTR || strcmp(n->name, "data") != 0 || n->a->kind != ND_NAME) {
    tl_error(s->diag, n->loc, "T.Tensor's third argument is the memory it views, 'P.data' of "
                              "a tensor parameter P");
    return NULL;
  }
  TlSym *y = tl_scope_lookup(s, n->a->name);
  if (!y || y->kind != SYM_BUFFER) {
    if (!y)
      tl_sema_unknown_name(s, n->a->loc, n->a->name);
    else
      tl_error(s->diag, n->a->loc, "'%s' is not a buffer", n->a->name);
    return NULL;
  }
  TlBuffer *p = y->buf->view_of ? (TlBuffer *)y->buf->view_of : y->buf;
  if (p->scope != SCOPE_GLOBAL || p->param_index < 0 || p->table) {
    tl_error(s->diag, n->a->loc, "'%s' is a %s buffer; T.Tensor views a tensor parameter's memory",
             p->name, tl_scope_name(p->scope));
    return NULL;
  }
  if (tl_buffer_is_dynamic(p)) {
    tl_error(s->diag, n->a->loc, "'%s' has a runtime size; tlc views tensors of compile-time "
                                 "shapes only", p->name);
    return NULL;
  }
  return p;
}

bool tl_sema_tensor_view(Sema *s, const TlNode *target, const TlNode *call) {
  static const char *const kws[] = {"shape", "dtype", "data", NULL};
  if (!tl_sema_check_keywords(s, call, "Tensor", kws)) return false;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.Tensor must be assigned to a name");
    return false;
  }
  const TlNode *shape = tl_sema_arg(call, 0, "shape");
  const TlNode *dtype = tl_sema_arg(call, 1, "dtype");
  const TlNode *data = tl_sema_arg(call, 2, "data");
  if (!shape || !dtype || !data || call->list.len > 3) {
    tl_error(s->diag, call->loc, "T.Tensor in a kernel takes a shape, a dtype and the memory it "
                                 "views (P.data)");
    return false;
  }
  TlBuffer *p = data_of(s, data);
  if (!p) return false;
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  b->name = target->name;
  b->loc = target->loc;
  b->scope = SCOPE_GLOBAL;
  b->stages = 1;
  b->param_index = -1;
  b->view_of = p;
  TlValue *sv = tl_sema_eval_const(s, shape);
  if (sv->kind == VAL_ERROR) return false;
  int nd = sv->kind == VAL_TUPLE ? sv->items.len : 1;
  if ((sv->kind != VAL_TUPLE && sv->kind != VAL_INT) || nd < 1 || nd > TL_MAX_DIMS) {
    tl_error(s->diag, shape->loc, "expected a shape of 1 to %d integers", TL_MAX_DIMS);
    return false;
  }
  int64_t total = 1;
  for (int i = 0; i < nd; i++) {
    const TlValue *d = sv->kind == VAL_TUPLE ? TL_VEC_AT(sv->items, TlValue, i) : sv;
    if (d->kind != VAL_INT || d->i < 1 || tl_mul_overflows(total, d->i, &total)) {
      tl_error(s->diag, shape->loc, "dimension %d of the view '%s' must be a positive integer "
                                    "(compile-time)", i, b->name);
      return false;
    }
    b->shape[i] = d->i;
  }
  b->ndims = nd;
  TlValue *dv = tl_sema_eval_const(s, dtype);
  if (dv->kind == VAL_ERROR || !tl_value_as_dtype(s, dv, &b->dtype)) return false;
  if (b->dtype != p->dtype) {
    tl_error(s->diag, dtype->loc, "the view '%s' is %s but '%s' holds %s; a view keeps the "
                                  "elements' type", b->name, tl_dtype_name(b->dtype), p->name,
             tl_dtype_name(p->dtype));
    tl_note(s->diag, call->loc, "read the bits as another type with T.reinterpret");
    return false;
  }
  if (total > tl_buffer_elems(p)) {
    tl_error(s->diag, shape->loc, "the view '%s' has %lld elements, more than the %lld of '%s'",
             b->name, (long long)total, (long long)tl_buffer_elems(p), p->name);
    return false;
  }
  TlSym *prev = tl_scope_lookup(s, b->name);
  if (prev && prev->kind != SYM_VALUE) {
    tl_error(s->diag, target->loc, "'%s' is already declared in this kernel", b->name);
    tl_note(s->diag, prev->loc, "previous definition is here");
    return false;
  }
  tl_vec_push(s->arena, &s->kernel->buffers, b);
  TlSym *y = tl_scope_define(s, s->scope, b->name, SYM_BUFFER, target->loc);
  y->buf = b;
  return true;
}

void tl_sema_finish_views(TlKernel *k) {
  for (int i = 0; i < k->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (!b->view_of) continue;
    TlBuffer *p = (TlBuffer *)b->view_of; // the launcher's const and the harness see its uses
    p->written = p->written || b->written;
    p->read = p->read || b->read;
  }
}
