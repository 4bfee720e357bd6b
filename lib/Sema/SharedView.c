// X = T.view(src, shape=None, dtype=None): TileLang's reinterpretation of a
// shared tile's bytes with another shape and dtype (its sparse-MLA backward
// stages float32 partial sums in the bfloat16 KV tile once the gemms have
// read it). X is a shared buffer with no memory of its own
// (TlBuffer.alias_of names src): plan-shared gives it src's offset, thread-
// sync counts its accesses as src's, and src is never multi-buffered by a
// pipeline (its stages would move under the view) nor loaded by TMA.
#include <string.h>

#include "SemaInternal.h"

bool tl_sema_shared_view(Sema *s, const TlNode *target, const TlNode *call) {
  static const char *const kws[] = {"src", "shape", "dtype", NULL};
  if (!tl_sema_check_keywords(s, call, "view", kws)) return false;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.view must be assigned to a name");
    return false;
  }
  const TlNode *src = tl_sema_arg(call, 0, "src");
  const TlNode *shape = tl_sema_arg(call, 1, "shape");
  const TlNode *dtype = tl_sema_arg(call, 2, "dtype");
  if (!src || call->list.len > 3) {
    tl_error(s->diag, call->loc, "T.view takes a shared tile, then a shape and a dtype");
    return false;
  }
  TlSym *y = src->kind == ND_NAME ? tl_scope_lookup(s, src->name) : NULL;
  if (!y || y->kind != SYM_BUFFER) {
    tl_error(s->diag, src->loc, "T.view takes a shared tile (T.alloc_shared) by name");
    return false;
  }
  TlBuffer *p = y->buf->alias_of ? (TlBuffer *)y->buf->alias_of : y->buf;
  if (p->scope != SCOPE_SHARED) {
    tl_error(s->diag, src->loc, "'%s' is a %s buffer; tlc takes T.view of shared tiles", p->name,
             tl_scope_name(p->scope));
    tl_note(s->diag, p->loc, "'%s' declared here", p->name);
    return false;
  }
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  *b = (TlBuffer){.name = target->name,
                  .loc = target->loc,
                  .scope = SCOPE_SHARED,
                  .stages = 1,
                  .dtype = p->dtype,
                  .ndims = p->ndims,
                  .alias_of = p};
  for (int d = 0; d < p->ndims; d++)
    b->shape[d] = p->shape[d];
  if (dtype) {
    TlValue *dv = tl_sema_eval_const(s, dtype);
    if (dv->kind == VAL_ERROR || !tl_value_as_dtype(s, dv, &b->dtype)) return false;
  }
  if (shape) {
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
        tl_error(s->diag, shape->loc,
                 "dimension %d of the view '%s' must be a positive integer "
                 "(compile-time)",
                 i, b->name);
        return false;
      }
      b->shape[i] = d->i;
    }
    b->ndims = nd;
  } else if (b->dtype != p->dtype) { // TileLang keeps the bytes: the last dimension scales
    int64_t bits = (int64_t)b->ndims ? p->shape[p->ndims - 1] * tl_dtype_bits(p->dtype) : 0;
    if (bits % tl_dtype_bits(b->dtype)) {
      tl_error(s->diag, call->loc,
               "a row of '%s' is not a whole number of %s elements; give "
               "T.view a shape",
               p->name, tl_dtype_name(b->dtype));
      return false;
    }
    b->shape[b->ndims - 1] = bits / tl_dtype_bits(b->dtype);
  }
  if (tl_buffer_bytes(b) > tl_buffer_bytes(p)) {
    tl_error(s->diag, call->loc, "the view '%s' takes %lld bytes, more than the %lld of '%s'",
             b->name, (long long)tl_buffer_bytes(b), (long long)tl_buffer_bytes(p), p->name);
    tl_note(s->diag, p->loc, "'%s' declared here", p->name);
    return false;
  }
  TlSym *prev = tl_scope_lookup(s, b->name);
  if (prev && prev->kind == SYM_BUFFER) {
    tl_error(s->diag, target->loc, "redefinition of buffer '%s'", b->name);
    tl_note(s->diag, prev->loc, "previous definition is here");
    return false;
  }
  p->aliased = true;
  tl_vec_push(s->arena, &s->kernel->buffers, b);
  TlSym *sym = tl_scope_define(s, s->scope, b->name, SYM_BUFFER, target->loc);
  sym->buf = b;
  return true;
}
