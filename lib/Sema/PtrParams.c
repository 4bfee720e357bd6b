// TileLang's pointer parameters: a prim_func parameter annotated `T.ptr`
// (or `T.handle`) is a bare device pointer; a statement of the prim_func
// body before its T.Kernel blocks gives it a shape and a dtype,
//
//   def main(a_ptr: T.ptr, m: T.int32, k: T.int32):
//       A = T.make_tensor(a_ptr, (m, k), T.float16)
//
// so here `A` is a global tensor parameter at a_ptr's position, its shape
// from the make_tensor (scalar parameters are runtime sizes, as in any
// shape). A pointer without such a statement, or with two, is an error;
// so are `T.make_tensor` of anything else (a pointer read from a table of
// pointers, `T.Tensor([n], T.ptr)`, is not supported).
#include <string.h>

#include "SemaInternal.h"

bool tl_sema_is_ptr_param(Sema *s, const TlNode *p) {
  if (!p->a) return false;
  const TlNode *ann = p->a->kind == ND_CALL ? p->a->a : p->a;
  const char *t = tl_sema_t_attr(s, ann);
  return t && (strcmp(t, "ptr") == 0 || strcmp(t, "handle") == 0);
}

// NAME = T.make_tensor(ptr, shape, dtype[, strides]) in a prim_func body.
bool tl_sema_is_make_tensor(Sema *s, const TlNode *st) {
  if (st->kind != ND_ASSIGN || st->list.len != 1 || !st->a || st->a->kind != ND_CALL) return false;
  const char *t = tl_sema_t_attr(s, st->a->a);
  return t && strcmp(t, "make_tensor") == 0;
}

// The make_tensor statement among `stmts` that shapes pointer parameter p.
static const TlNode *shaping_stmt(Sema *s, const TlNode *p, const TlNode *const *stmts, int n,
                                  bool *ok) {
  const TlNode *found = NULL;
  for (int i = 0; i < n; i++) {
    const TlNode *call = stmts[i]->a;
    const TlNode *ptr = tl_sema_arg(call, 0, "ptr");
    if (!ptr || ptr->kind != ND_NAME || strcmp(ptr->name, p->name) != 0) continue;
    if (found) {
      tl_error(s->diag, TL_VEC_AT(stmts[i]->list, TlNode, 0)->loc,
               "pointer parameter '%s' is given a shape twice", p->name);
      tl_note(s->diag, TL_VEC_AT(found->list, TlNode, 0)->loc, "first T.make_tensor of '%s' here",
              p->name);
      *ok = false;
      return NULL;
    }
    found = stmts[i];
  }
  return found;
}

TlBuffer *tl_sema_ptr_param(Sema *s, const TlNode *p, const TlNode *const *stmts, int n) {
  bool ok = true;
  const TlNode *st = shaping_stmt(s, p, stmts, n, &ok);
  if (!ok) return NULL;
  if (!st) {
    tl_error(s->diag, p->loc,
             "pointer parameter '%s' has no shape; give it one with NAME = T.make_tensor(%s, "
             "shape, dtype) before the T.Kernel block",
             p->name, p->name);
    return NULL;
  }
  const TlNode *call = st->a, *target = TL_VEC_AT(st->list, TlNode, 0);
  static const char *const kws[] = {"ptr", "shape", "dtype", "strides", NULL};
  if (!tl_sema_check_keywords(s, call, "T.make_tensor", kws)) return NULL;
  const TlNode *shape = tl_sema_arg(call, 1, "shape");
  const TlNode *dtype = tl_sema_arg(call, 2, "dtype");
  if (target->kind != ND_NAME || !shape || call->list.len > 3) {
    tl_error(s->diag, call->loc,
             "write a pointer's tensor as NAME = T.make_tensor(ptr, shape, "
             "dtype)");
    return NULL;
  }
  if (tl_sema_kwarg(call, "strides")) {
    tl_error(s->diag, tl_sema_kwarg(call, "strides")->loc,
             "strides= in T.make_tensor are not supported; tlc takes row-major tensors");
    return NULL;
  }
  // TileLang's default dtype is float32, as T.Tensor's.
  TlBuffer *b = tl_sema_global_buffer(s, target->name, target->loc, shape, dtype);
  if (!b) return NULL;
  TlSym *y = tl_scope_define(s, s->scope, target->name, SYM_BUFFER, target->loc);
  y->buf = b;
  return b;
}
